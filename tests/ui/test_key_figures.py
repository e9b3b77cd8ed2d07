"""Every registered game's table, and the test's own game's (tests/ui/every_game.py), is read
from arm's length: each key figure (a widget marked `key_figure`, as figure tiles mark theirs)
has digits drawn at least 40 px high on the 800x480 panel, no smaller on larger windows and in
portrait, larger with the largest text, in English, German and French, centred in its tile,
and nothing on the table is cut off.

The height measured is the ink of the figure as drawn: the rows of its label's texture that
hold any pixel, not its font size (a 44 px font draws digits 31 px high).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.games import registry

from .every_game import start_command
from .harness import Harness
from .test_layout import layout_problems, visible_widgets, window_scale
from .tour import SIZES, with_text_size

pytestmark = pytest.mark.ui

KEY_FIGURE = 40
"""The least height of a key figure's digits at 800x480, in px (8 mm on the 7-inch panel)."""
LARGEST_GROWTH = 1.15
"""The largest text draws key figures at least this much larger than KEY_FIGURE."""

# Every size in English at the normal text; every language at the largest text on the smallest
# panel, where the room is least (the layout tests walk the rest of the matrix).
CASES = [(size, "normal", "English") for size in SIZES] + [
    ("800x480", "largest", language) for language in ("English", "Deutsch", "Français")]

def inked(label: Any) -> tuple[list[int], list[int], int]:
    """The rows and the columns of the label's drawn text that hold ink (any alpha above a
    quarter), and the texture's width."""
    label.texture_update()
    texture = label.texture
    if texture is None:
        return [], [], 0
    width, height = texture.size
    pixels = texture.pixels
    ink = [[pixels[(y * width + x) * 4 + 3] > 64 for x in range(width)] for y in range(height)]
    rows = [y for y in range(height) if any(ink[y])]
    columns = [x for x in range(width) if any(ink[y][x] for y in rows)]
    return rows, columns, width


def ink_height(label: Any) -> int:
    """How many pixel rows of the label's drawn text hold ink."""
    rows, _columns, _width = inked(label)
    return rows[-1] - rows[0] + 1 if rows else 0


def ink_off_centre(label: Any) -> float:
    """How far the middle of the label's drawn ink lies from the middle of its box, across, as
    a share of the box's width (a figure is read from across the table centred in its tile)."""
    _rows, columns, width = inked(label)
    if not columns or not label.width:
        return 0.0
    # The texture lies centred on the label (Kivy's Label canvas), however wide it is.
    ink_middle = (columns[0] + columns[-1] + 1) / 2 - width / 2
    return abs(ink_middle) / label.width


def key_figures(ui: Harness) -> list[Any]:
    """The key figures shown on the screen: labels marked `key_figure`, with text."""
    return [widget for root in ui.window.children for widget in visible_widgets(root)
            if getattr(widget, "key_figure", False) and getattr(widget, "text", "").strip()
            and hasattr(widget, "texture")]


def start_table(ui: Harness, game_id: str) -> None:
    """A game of `game_id` as its new-game form starts it by default (for four, the fullest
    table, where the form asks how many play), on its table; a game without a form, as its
    start command with no choices does."""
    app = ui.app
    if not registry.GAMES[game_id].setup_form:
        command = start_command(ui, game_id)
    else:
        app.show("new_game")
        ui.frames(2)
        ui.screen.game = game_id
        ui.frames(2)
        command = dict(ui.screen.command())
    if "players" in command and not isinstance(command["players"], list):
        command["players"] = 4
    assert app.send(command), app.notice
    app.show(app.table_name())
    ui.frames(4)


@pytest.mark.parametrize(("size", "text_size", "language"), CASES)
def test_every_key_figure_reads_at_arm_s_length(game_id: str, size: str, text_size: str,
                                                language: str, tmp_path: Path) -> None:
    if not registry.GAMES[game_id].table_screen:
        pytest.skip("the game has no table screen")
    with_text_size(tmp_path, text_size, language)
    ui = Harness(tmp_path / "games.db", SIZES[size])
    try:
        start_table(ui, game_id)
        figures = key_figures(ui)
        heights = [(figure.text, ink_height(figure)) for figure in figures]
        off_centre = [f"{figure.text!r} lies {share:.0%} of its width off its tile's middle"
                      for figure in figures if (share := ink_off_centre(figure)) > 0.1]
        least = KEY_FIGURE * window_scale(ui)
        cut = layout_problems(ui)
    finally:
        ui.close()
    assert figures, f"{game_id}'s table shows no key figure"
    small = [f"{text!r} is {height} px high (least {least:.0f})"
             for text, height in heights if height < least - 0.5]
    assert not small, "\n".join(small)
    assert not off_centre, "\n".join(off_centre)
    assert not cut, "\n".join(cut)
    if text_size == "largest":
        grown = least * LARGEST_GROWTH
        not_grown = [f"{text!r} is {height} px high at the largest text (least {grown:.0f})"
                     for text, height in heights if height < grown - 0.5]
        assert not not_grown, "\n".join(not_grown)


def test_the_step_button_grows_in_portrait_on_every_table_of_a_fresh_app(
        game_id: str, tmp_path: Path) -> None:
    """The step button's words grow with the window as the figures do, on every game's table,
    in an app whose first table is this game's (the sizes once followed the window only after
    some table had built a figure tile: Spirit Island's Done stayed small in portrait)."""
    from kivy.core.window import Window

    from companion.ui import figures

    if not registry.GAMES[game_id].table_screen:
        pytest.skip("the game has no table screen")
    # As in a freshly started app: the sizes follow nothing yet (set while an app runs: the
    # kv rules that read them read the app too).
    Window.unbind(size=figures.sizes.update)
    figures.sizes._app = None
    ui = Harness(tmp_path / "games.db", SIZES["720x1280"])
    try:
        figures.sizes.scale = 1.0
        start_table(ui, game_id)
        step = ui.screen.ids.done
        scale, base = window_scale(ui), step.base_font_size
        words = (step.text, ink_height(step))
        glance = ui.screen.glance  # what the table's own rows grow by
    finally:
        ui.close()
    assert scale == 1.5
    assert glance == 1.5, f"{game_id}'s table is drawn at {glance}x in portrait"
    assert base >= 1.5 * 22, f"{game_id}'s step button is drawn at {base:.0f} px in portrait"
    assert words[1] > 0, f"{game_id}'s step button shows no words"
