"""Smaller things a player sees, through the real window: Settings opens at its top, the flipped
blight card keeps its name on the table, the new-game form's columns start level, the invader
board's space names share one size."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.games.registry import GAMES

from .harness import Harness
from .tour import BUSY_GAME, with_text_size

pytestmark = pytest.mark.ui


def open_settings(ui: Harness) -> Any:
    ui.app.show("home")
    ui.frames(2)
    ui.tap_id("settings")
    assert ui.screen.name == "settings"
    return ui.screen


def test_settings_reopens_at_its_top_with_the_language_in_view(ui: Harness) -> None:
    settings = open_settings(ui)
    scroll = settings.ids.scroll
    ui.scroll_into_view(settings.ids.line_pattern)  # far down: the reader's advanced texts
    assert scroll.scroll_y < 0.5
    ui.tap_id("close")
    assert ui.screen.name == "home"
    open_settings(ui)
    ui.frames(3)
    assert scroll.scroll_y == 1
    language = settings.ids.language
    top = scroll.to_window(scroll.x, scroll.top)[1]
    assert language.to_window(language.x, language.top)[1] <= top + 1  # its heading too
    assert language.to_window(language.x, language.y)[1] >= scroll.to_window(scroll.x,
                                                                              scroll.y)[1]


def test_the_flipped_blight_cards_name_stays_on_spirit_islands_table(ui: Harness) -> None:
    assert ui.app.send({"cmd": "new_game", "players": 2, "seed": 11})
    ui.app.show("table")
    assert ui.app.send({"cmd": "next"})  # into round 1: blight at setup comes from the box
    ui.frames(2)
    name = ui.screen.ids.blight_card_name
    assert name.opacity == 0 and not name.text  # the Healthy Island side: no name to show
    assert ui.app.send({"cmd": "blight", "amount": ui.state["blight"]["on_card"]})
    flipped = ui.state["blight"]
    assert flipped["side"] == "blighted" and flipped["name"]
    ui.screen.dismiss_banner()  # the flip's news read and closed
    ui.frames(3)
    assert not ui.screen.banner
    assert name.text == flipped["name"] and name.opacity == 1 and name.height > 0
    # The whole name, not cut off: it may take two lines, in the tile's colours.
    assert name.texture_size[0] <= name.width + 1 and name.texture_size[1] <= name.height + 1
    assert ui.screen.ids.blight_card.collide_point(*name.center)


FORM_GAMES = [game.id for game in GAMES.values() if game.setup_form and game.table_screen]
WIDE_SIZES = [(800, 480), (1024, 600), (1280, 720)]


def window_top(widget: Any) -> float:
    return float(widget.to_window(widget.x, widget.top)[1])


@pytest.mark.parametrize("game_id", FORM_GAMES)
def test_a_new_game_forms_columns_start_level_and_its_last_row_rests_above_the_bottom_bar(
        ui: Harness, game_id: str) -> None:
    """Side by side, the cells of a row of the form start at one height (a shorter column sat
    ~110 px lower than the other); scrolled to its end, the form's last row is whole above the
    bar with Back and Start."""
    from kivy.uix.gridlayout import GridLayout

    ui.app.show("new_game")
    ui.frames(3)
    ui.tap_id(f"game_{game_id.replace('-', '_')}")
    form = ui.screen.form()
    checked = 0
    for size in WIDE_SIZES:
        ui.resize(*size)
        ui.frames(4)
        form.scroll_y = 1
        ui.frames(3)
        for grid in form.walk(restrict=True):
            if not isinstance(grid, GridLayout) or grid.cols < 2 or grid.opacity == 0:
                continue
            cells = list(reversed(grid.children))
            for row in range(0, len(cells), grid.cols):
                tops = [window_top(cell) for cell in cells[row:row + grid.cols]
                        if cell.height > 0]
                assert max(tops, default=0) - min(tops, default=0) <= 1, (size, grid, tops)
                checked += 1
        form.scroll_y = 0
        ui.frames(4)
        bottom = form.to_window(form.x, form.y)[1]
        shown = [widget for widget in form.children[0].walk(restrict=True)
                 if widget.height > 0 and widget.opacity > 0]
        lowest = min(widget.to_window(widget.x, widget.y)[1] for widget in shown)
        assert lowest >= bottom - 1, (size, lowest, bottom)
        assert bottom >= window_top(ui.widget("start")) - 1, size
    assert checked or game_id != "spirit-island"  # its form is two columns at these sizes


def test_the_invader_boards_space_names_share_one_size_at_the_largest_french_text(
        tmp_path: Path) -> None:
    with_text_size(tmp_path, "largest", "Français")
    ui = Harness(tmp_path / "games.db")
    try:
        assert ui.app.send(BUSY_GAME)  # England 6: four spaces, High Immigration's name long
        ui.app.show("table")
        for size in WIDE_SIZES + [(720, 1280)]:
            ui.resize(*size)
            ui.frames(5)
            titles = [ui.screen.ids[slot].ids.title
                      for slot in ("high_immigration", "ravage", "build", "explore")]
            assert all(title.text for title in titles)
            sizes = {round(title.font_size, 2) for title in titles}
            assert len(sizes) == 1, (size, [(t.text, t.font_size) for t in titles])
            assert all(title.texture_size[0] <= title.width + 1 for title in titles), size
            assert all(title.texture_size[1] <= title.height + 1 for title in titles), size
    finally:
        ui.close()


def test_a_card_number_pattern_that_cannot_be_used_is_explained_in_players_words(
        ui: Harness) -> None:
    ui.app.reader_link.configure("loop://", "line", "ID=(")
    notice = ui.app.notice
    assert "ID=(" in notice and "UID:([0-9A-F]+)" in notice
    assert "regular expression" not in notice and "position" not in notice
