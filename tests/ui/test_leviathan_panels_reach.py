"""Every button of Leviathan Wilds' panels (the guardian, the crystals with goals and counters,
the AP card, the game menu) can be reached by a finger at 800x480 and 720x1280, at the normal
and the largest text: scrolled into view as a player would, its middle lies in the window,
inside the panel, and inside every box that holds it (a button that spills out of its box is
drawn over its neighbours or off the panel), and it is a finger's size. And the panels are built
once and refilled for each opening (a tap that opens one builds nothing)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .harness import Harness
from .test_layout import MIN_TARGET, visible_widgets
from .tour import LEVIATHAN_GAME, SIZES, with_text_size

pytestmark = pytest.mark.ui


def panels(ui: Harness) -> Iterator[str]:
    """Open each panel on a table that fills them most, and yield its name while it is open."""
    app = ui.app
    for command in (LEVIATHAN_GAME, {"cmd": "add_crystal", "dice": [6, 4], "corrupted": True},
                    {"cmd": "counter", "counter": "frost", "amount": 2},
                    {"cmd": "reveal", "card": "LW-threat-11-3"}, {"cmd": "next"},
                    {"cmd": "weakness", "guardian": 0}, {"cmd": "weakness", "guardian": 0}):
        assert app.send(command), app.notice
    app.show(app.table_name())
    ui.frames(3)
    table = ui.screen
    for name, opening in (("ap card", table.open_ap_card), ("guardian", table.open_guardian),
                          ("crystals", table.open_crystals), ("menu", table.open_menu)):
        opening()
        ui.frames(3)
        yield name
        ui.popup().dismiss()
        ui.frames(2)


def unreachable(ui: Harness, button: Any) -> str | None:
    ui.scroll_into_view(button)
    x, y = button.to_window(*button.center)
    width, height = ui.window.size
    if not (0 <= x <= width and 0 <= y <= height):
        return f"its middle ({x:.0f}, {y:.0f}) lies outside the window"
    if button.width < MIN_TARGET or button.height < MIN_TARGET:
        return f"it is {button.width:.0f}x{button.height:.0f} px"
    holder = button.parent
    while holder is not None and holder is not holder.parent:
        left, bottom = holder.to_window(holder.x, holder.y)
        if not (left - 1 <= x <= left + holder.width + 1
                and bottom - 1 <= y <= bottom + holder.height + 1):
            return f"its middle lies outside the {type(holder).__name__} that holds it"
        holder = holder.parent
    return None


@pytest.mark.parametrize(("size", "text_size"), [
    ("800x480", "normal"), ("800x480", "largest"), ("720x1280", "normal"),
    ("720x1280", "largest")])
def test_every_button_of_every_panel_is_within_reach(size: str, text_size: str,
                                                     tmp_path: Path) -> None:
    from kivy.uix.behaviors import ButtonBehavior

    with_text_size(tmp_path, text_size)
    ui = Harness(tmp_path / "games.db", SIZES[size])
    problems, seen = [], []
    try:
        for panel in panels(ui):
            seen.append(panel)
            popup = ui.popup()
            buttons = [widget for widget in visible_widgets(popup)
                       if isinstance(widget, ButtonBehavior) and widget is not popup]
            assert len(buttons) >= 4, f"the {panel} panel shows {len(buttons)} buttons"
            for button in buttons:
                problem = unreachable(ui, button)
                if problem:
                    problems.append(f"{panel}: {getattr(button, 'text', button)!r}: {problem}")
    finally:
        ui.close()
    assert seen == ["ap card", "guardian", "crystals", "menu"]
    assert not problems, "\n".join(problems)


def test_the_panels_are_built_once_and_refilled_for_each_opening(tmp_path: Path) -> None:
    ui = Harness(tmp_path / "games.db", SIZES["800x480"])
    try:
        opened = panels(ui)
        next(opened)  # the table is set up; the AP card panel is open
        ui.popup().dismiss()
        ui.frames(2)
        table = ui.screen
        table.open_guardian()
        ui.frames(2)
        first = ui.popup()
        assert first.name == ui.state["guardians"][table.selected]["name"]
        first.dismiss()
        ui.frames(2)
        table._chosen(table.ids.guardians.children[0])  # the last guardian's tile
        table.open_guardian()
        ui.frames(2)
        again = ui.popup()
        assert again is first and again.guardian == len(ui.state["guardians"]) - 1
        assert again.name == ui.state["guardians"][-1]["name"]
        assert again.health == ui.state["guardians"][-1]["health"]
        again.dismiss()
        ui.frames(2)
        table.open_crystals()
        ui.frames(2)
        crystals = ui.popup()
        crystals.dismiss()
        ui.frames(2)
        table.open_crystals()
        ui.frames(2)
        assert ui.popup() is crystals
        assert len(crystals.ids.crystal_rows.children) == len(ui.state["crystals"])
        crystals.dismiss()
    finally:
        ui.close()
