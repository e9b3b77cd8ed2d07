"""Pickers by touch: a long list has a search typed on the on-screen keys and says when nothing
matches; the likeliest choice is pinned above the list; no card's detail is cut off."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .harness import Harness
from .soak import put_popups_away, start_a_game

pytestmark = pytest.mark.ui


@pytest.fixture(params=[(800, 480), (720, 1280)], ids=["800x480", "720x1280"])
def app_at(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Harness]:
    harness = Harness(tmp_path / "games.db", request.param)
    try:
        yield harness
    finally:
        harness.close()


def companion_picker(ui: Harness) -> Any:
    start_a_game(ui, "glow")
    return companion_picker_of_a_game_in_play(ui)


def companion_picker_of_a_game_in_play(ui: Harness) -> Any:
    ui.tap(list(reversed(ui.screen.ids.players.children))[0].ids.name)
    ui.tap(ui.popup().ids.add_companion)
    picker = ui.popup()
    assert "companion" in picker.title
    return picker


def test_the_picker_buttons_are_built_while_home_is_shown_and_no_tap_builds_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Glow's first recruit opened a picker of 46 companions and built their buttons in the
    tap (a quarter of a second here); they are built ahead, a few a frame, while Home is shown."""
    from companion.ui import pickers

    ui = Harness(tmp_path / "games.db", build_ahead=True)
    try:
        def home_is_shown() -> None:
            assert ui.screen.name == "home"

        ui.until_built_ahead(home_is_shown)
        assert len(ui.app._picker_spares.buttons) == pickers.SPARES_AHEAD
        built_in_a_tap: list[Any] = []
        original = pickers.PickerButton.__init__

        def counted(button: Any, **kwargs: Any) -> None:
            built_in_a_tap.append(button)
            original(button, **kwargs)

        monkeypatch.setattr(pickers.PickerButton, "__init__", counted)
        picker = companion_picker(ui)
        companions = len(ui.app.catalogue_of("glow")["companions"])
        assert len(picker.shown()) == companions < pickers.SPARES_AHEAD  # and "Not named"
        assert built_in_a_tap == []
        assert len(ui.app._picker_spares.buttons) == pickers.SPARES_AHEAD - companions
        ui.pick(picker.shown()[0])
        put_popups_away(ui)
        again = companion_picker_of_a_game_in_play(ui)
        assert again is picker and len(again.shown()) == companions - 1
        assert built_in_a_tap == []
    finally:
        ui.close()


def test_a_long_picker_draws_the_buttons_in_view_and_those_a_scroll_brings_in(
        app_at: Harness) -> None:
    from companion.ui import unseen

    ui = app_at
    picker = companion_picker(ui)
    view = picker.ids.scroll
    rows = list(reversed(picker.ids.grid.children))

    def in_view(row: Any) -> bool:
        """Some of it shows, in the window's coordinates (the list moves under the view)."""
        bottom = row.to_window(row.x, row.y)[1]
        return bool(bottom + row.height > view.to_window(view.x, view.y)[1]
                    and bottom < view.to_window(view.x, view.top)[1])

    for scroll_y in (1.0, 0.5, 0.0):
        view.scroll_y = scroll_y
        ui.frames(3)
        seen = [row for row in rows if in_view(row)]
        assert seen and len(seen) < len(rows)
        for row in rows:
            assert (row.opacity > 0) == (row in seen), (scroll_y, row.text)
            assert unseen.is_drawn_hidden(row) == (row not in seen), (scroll_y, row.text)
    assert rows[-1].opacity > 0 and rows[0].opacity == 0  # at the end of the list
    ui.pick(rows[0].value)  # scrolled back into view, drawn, and taken
    assert ui.popup() is not picker


def full_detail_height(button: Any) -> float:
    """The height the detail takes wrapped at the button's width, every line of it."""
    from kivy.core.text import Label as CoreLabel

    label = button.ids.detail
    core = CoreLabel(text=button.detail, font_size=label.font_size,
                     text_size=(label.width, None), halign="center")
    core.refresh()
    return float(core.texture.size[1])


def test_a_long_picker_searches_on_the_keys_and_says_when_nothing_is_found(
        app_at: Harness) -> None:
    ui = app_at
    picker = companion_picker(ui)
    everything = picker.shown()
    assert picker.searchable and len(everything) > 20
    assert picker.ids.nothing_found.opacity == 0
    ui.tap(picker.ids.search)
    assert ui.keys().target == picker.ids.search and not ui.keys().covers(picker.ids.search)
    ui.type_on_keys("briki")
    assert picker.shown() == ["glow-A11", "glow-A12", "glow-B01"]  # two Brikis and Brikix
    ui.tap(ui.key("Clear"))
    assert picker.shown() == everything
    ui.type_on_keys("qqx")
    assert picker.shown() == [] and picker.nothing_found
    assert picker.ids.nothing_found.opacity == 1 and "qqx" in picker.ids.nothing_found.text
    ui.tap(ui.key("Del"))
    ui.tap(ui.key("Del"))
    ui.tap(ui.key("Del"))
    ui.type_on_keys("a11")  # the number printed on the card
    assert picker.shown() == ["glow-A11"]
    ui.tap(ui.key("Done"))
    ui.pick("glow-A11")
    assert ui.state["players"][0]["companions"][0]["card"] == "glow-A11"


def test_no_detail_of_a_card_in_a_picker_is_cut_off(app_at: Harness) -> None:
    ui = app_at
    picker = companion_picker(ui)
    buttons = list(picker.ids.grid.children)
    assert buttons and all(button.detail for button in buttons)
    for button in buttons:
        ui.scroll_into_view(button)
        label = button.ids.detail
        assert not label.shorten
        assert label.height + 1 >= full_detail_height(button), \
            f"{button.text}: {button.detail!r} is cut"
        assert button.height + 1 >= button.natural_height


def test_the_likeliest_choice_is_pinned_above_a_short_list_without_search(ui: Harness) -> None:
    ui.tap_id("new_game")
    ui.tap_id("game_glow")
    row = ui.screen.form("glow")._rows[0]
    ui.tap(row.ids.colour)
    picker = ui.popup()
    assert not picker.searchable and picker.ids.search.height == 0
    assert picker.shown()[0] == row.colour == picker.pinned_value
    pinned = picker.ids.pinned.children[0]
    assert pinned.highlight and pinned.value not in [b.value for b in picker.ids.grid.children]
    scroll = picker.ids.grid.parent
    assert pinned.to_window(*pinned.pos)[1] >= scroll.to_window(scroll.x, scroll.top)[1]
    ui.pick(row.colour)
    assert ui.popup() is None


def test_the_fear_card_picker_says_when_no_card_has_the_letters_typed(ui: Harness) -> None:
    from .test_table_traps import _to_the_fear_step_with_one_card

    _to_the_fear_step_with_one_card(ui)
    ui.tap_id("done")
    picker = ui.popup()
    assert picker.ids.nothing_found.opacity == 0
    for letter in "QXZ":
        ui.tap(next(key for key in picker.ids.letters.children if key.text == letter))
    assert picker.shown() == [] and picker.ids.nothing_found.opacity == 1
    assert "QXZ" in picker.ids.nothing_found.text
    assert "Space" not in picker.ids.unnamed.detail  # no keyboard's keys named on a touchscreen
    ui.tap(picker.ids.unnamed)  # the default still there, above
    assert ui.popup() is None and ui.state["fear"]["resolved"] == 1


def test_a_picker_opened_again_is_the_same_popup_with_nothing_left_of_its_last_opening(
        ui: Harness) -> None:
    """Pickers and questions are kept and refilled, not built per tap (a Pi's frame three times
    over): what one opening typed, pinned or answered is gone at the next."""
    from companion.ui.pickers import CardPicker

    picker = companion_picker(ui)
    everything = picker.shown()
    ui.tap(picker.ids.search)
    ui.type_on_keys("briki")
    assert len(picker.shown()) == 3
    put_popups_away(ui)
    again = companion_picker(ui)
    assert again is picker and again.query == "" and again.shown() == everything
    assert not again.nothing_found
    put_popups_away(ui)

    picked: list[str] = []
    short = CardPicker.kept(title="Short", columns=2, when_picked=picked.append)
    assert short is picker  # the same kind, closed: kept, whatever it was for
    short.fill([{"value": "a", "text": "A", "detail": "first", "highlight": True},
                {"value": "b", "text": "B"}])
    short.open()
    ui.frames(2)
    assert short.shown() == ["a", "b"] and short.pinned_value == "a" and not short.searchable
    ui.pick("b")
    assert picked == ["b"]
    ui.frames(2)
    plain = CardPicker.kept(title="Plain")
    assert plain is short and plain.when_picked is None and plain.columns == 3
    plain.fill([{"value": "c", "text": "C"}, {"value": "a", "text": "A2"}])
    assert plain.pinned_value == "" and plain.shown() == ["c", "a"]
    assert [(b.text, b.detail, b.highlight) for b in reversed(plain.ids.grid.children)] == [
        ("C", "", False), ("A2", "", False)]


def test_a_picker_opened_again_with_the_same_choices_leaves_its_buttons_where_they_are(
        ui: Harness) -> None:
    """Its buttons are taken out and put back only when what it lists changed (putting back
    five buttons that were there already was a good part of opening a threat-card picker)."""
    from companion.ui.pickers import CardPicker

    choices = [{"value": value, "text": value.upper()} for value in "abcde"]
    picker = CardPicker.kept(title="Which?")
    picker.fill(choices, left_out={"b"})
    picker.open()
    ui.frames(2)
    assert picker.shown() == ["a", "c", "d", "e"]
    put_popups_away(ui)
    changes: list[int] = []
    grid = picker.ids.grid
    grid.bind(children=lambda _grid, children: changes.append(len(children)))
    again = CardPicker.kept(title="Which?")
    again.fill(choices, left_out={"b"})
    again.open()
    ui.frames(2)
    assert again is picker and again.shown() == ["a", "c", "d", "e"] and changes == []
    put_popups_away(ui)
    again = CardPicker.kept(title="Which?")
    again.fill(choices, left_out={"b", "d"})
    again.open()
    ui.frames(2)
    assert again.shown() == ["a", "c", "e"] and changes and changes[-1] == 3
    put_popups_away(ui)


def test_a_picker_refilled_with_other_columns_draws_each_name_once_at_its_new_width(
        ui: Harness) -> None:
    """A kept picker is laid out for its new columns before its buttons' words are drawn: in
    the frame after, Leviathan's threat cards were drawn first at the strike picker's width."""
    from companion.ui.pickers import CardPicker

    choices = [{"value": f"card-{n}", "text": f"Threat card {n} ({n * 7})",
                "detail": f"wild side {n}"} for n in range(1, 6)]
    wide = CardPicker.kept(title="Three", columns=3)
    wide.fill(choices[:3])
    wide.open()
    ui.frames(2)
    put_popups_away(ui)
    narrow = CardPicker.kept(title="Five", columns=5)
    assert narrow is wide
    widths: dict[str, list[float]] = {}
    for button in narrow._pool:
        core = button.ids.name._label
        original = core.refresh

        def refresh(label: Any = button.ids.name, original: Any = original) -> None:
            widths.setdefault(label.text, []).append(label.text_size[0])
            original()

        core.refresh = refresh
    narrow.fill([{**choice, "text": f"{choice['text']}, again"} for choice in choices])
    narrow.open()
    ui.frames(3)
    final = {button.text: button.ids.name.text_size[0] for button in narrow._buttons}
    assert widths and set(widths) <= set(final)
    for text, drawn in widths.items():
        assert all(width == final[text] for width in drawn), (text, drawn, final[text])
    ui.pick("card-5")


def test_the_ap_card_panel_opened_again_shows_no_protection_of_the_last_card(
        ui: Harness) -> None:
    from companion.games.leviathan_wilds.ui.panels import ApCardPanel

    start_a_game(ui, "leviathan-wilds")
    panel = ApCardPanel.kept(guardian_name="Ann")
    panel.open()
    ui.frames(2)
    ui.tap(panel.ids.protect_slippery)
    assert panel.protections() == ["slippery"]
    put_popups_away(ui)
    again = ApCardPanel.kept(guardian_name="Ben")
    assert again is panel and again.protections() == [] and "Ben" in again.title
