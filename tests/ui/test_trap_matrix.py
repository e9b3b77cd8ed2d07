"""The trap matrix: the table kit's guard rails, played through the real window for every game of
the registry and for a game registered only in the test (tests/ui/every_game.py), which
inherits them without a line of its own."""

from __future__ import annotations

from typing import Any

import pytest

from companion import i18n

from .every_game import banner_lines, start_on_table, where
from .harness import Harness

pytestmark = pytest.mark.ui


def test_two_quick_taps_on_the_step_button_finish_one_step_and_a_later_one_the_next(
        game_id: str, ui: Harness) -> None:
    table = start_on_table(ui, game_id)
    first = ui.state
    ui.hold_the_clock()
    ui.tap_id("done")
    second = ui.state
    assert second["undo_count"] == first["undo_count"] + 1, ui.app.notice
    assert where(second) != where(first)
    ui.later(0.1)
    ui.tap_id("done")  # the second finger of a double tap lands on the step just begun
    assert ui.state["undo_count"] == second["undo_count"]
    assert where(ui.state) == where(second)
    assert ui.app.notice == ""  # a stray tap is not an error for the players to read
    ui.later(table.settle_seconds + 0.05)
    ui.tap_id("done")  # read, then tapped: the step is finished
    assert ui.state["undo_count"] == second["undo_count"] + 1, ui.app.notice
    assert where(ui.state) != where(second)


def test_a_quick_second_tap_sends_the_step_it_meant_and_the_game_refuses_it(
        game_id: str, ui: Harness) -> None:
    start_on_table(ui, game_id)
    sent: list[dict[str, object]] = []
    send = ui.app.send
    ui.app.send = lambda command, quiet=False: sent.append(dict(command)) or send(command, quiet)
    ui.hold_the_clock()
    ui.tap_id("done")
    ui.later(0.1)
    ui.tap_id("done")
    assert len(sent) == 2 and sent[0] == sent[1], sent
    meant = next(iter(set(sent[0]) & {"step", "phase"}))  # the step or phase it finishes
    assert sent[0][meant] != ui.state[meant]


def test_undo_says_what_it_undid_on_the_banner(game_id: str, ui: Harness) -> None:
    start_on_table(ui, game_id)
    ui.tap_id("done")
    ui.tap_id("undo")
    assert any(line.startswith(("Undone: ", "Undone ")) for line in banner_lines(ui)), \
        banner_lines(ui)
    ui.tap_id("redo")
    assert any(line.startswith("Redone") for line in banner_lines(ui)), banner_lines(ui)


def test_a_language_switch_mid_game_tells_title_and_banner_again_and_cuts_nothing(
        game_id: str, ui: Harness) -> None:
    table = start_on_table(ui, game_id)
    ui.tap_id("done")
    ui.tap_id("undo")
    english_title, english_lines = table.title, banner_lines(ui)
    assert english_lines
    ui.app.change_setting("companion", "text_size", "largest")
    ui.app.change_setting("companion", "language", i18n.LANGUAGES["fr"])
    ui.frames(4)
    french = i18n.translations("fr")
    assert table.title != english_title and ui.widget("title").text == table.title
    lines = banner_lines(ui)
    assert len(lines) == len(english_lines)
    for english, shown in zip(english_lines, lines, strict=True):
        assert shown != english, f"{english!r} stayed English"
    assert any(line.startswith(french.gettext("Undone: {what}").split("{")[0].strip())
               for line in lines), lines
    for line in ui.screen.ids.banner_rows.children:
        assert line.fits(), f"{line.text!r} is cut off"
        assert line.width > 0 and line.height >= line.texture_size[1]
    assert ui.widget("title").fits(), ui.widget("title").text
    ui.app.change_setting("companion", "language", i18n.LANGUAGES["en"])
    ui.frames(2)
    assert table.title == english_title and banner_lines(ui) == english_lines


def test_the_menu_opens_and_leads_home_with_the_game_kept(game_id: str, ui: Harness) -> None:
    start_on_table(ui, game_id)
    ui.tap_id("done")
    kept = where(ui.state)
    ui.tap_id("menu")
    menu = ui.popup()
    assert menu is not None, "Menu opened nothing"
    ui.tap(next(widget for widget in menu.walk()
                if getattr(widget, "text", "") == "Home (the game is kept)"))
    assert ui.popup() is None and ui.screen.name == "home"
    assert where(ui.state) == kept and ui.widget("resume").opacity > 0


def see_through_wide_lines(root: Any) -> list[str]:
    """Lines wider than a pixel drawn in a colour that is not opaque: Kivy draws each through a
    stencil, which clears it over the line's whole box every frame (a unseen frame round a
    card, a millisecond or more a tap on a Pi's screen)."""
    from kivy.graphics import Color, Line

    found = []
    tops = root.children if root is root.get_root_window() else [root]  # (a window has no walk)
    for widget in (widget for top in tops for widget in top.walk()):
        canvas = widget.canvas
        alpha = 1.0
        for group in (getattr(canvas, "before", None), canvas, getattr(canvas, "after", None)):
            for instruction in group.children if group is not None else ():
                if isinstance(instruction, Color):
                    alpha = instruction.a
                elif isinstance(instruction, Line) and instruction.width > 1 and alpha < 1:
                    found.append(f"{type(widget).__name__}: a {instruction.width:g} px line "
                                 f"in alpha {alpha:g}")
    return found


def test_no_frame_is_drawn_see_through_on_a_table_or_in_a_picker(
        game_id: str, ui: Harness) -> None:
    from companion.ui.pickers import CardPicker

    start_on_table(ui, game_id)
    ui.frames(2)
    assert see_through_wide_lines(ui.window) == []
    picker = CardPicker.kept(title="Which?")
    picker.fill([{"value": "a", "text": "A", "highlight": True}, {"value": "b", "text": "B"},
                 {"value": "c", "text": "C"}])
    picker.open()
    ui.frames(2)
    assert see_through_wide_lines(picker) == []
    ui.pick("b")
