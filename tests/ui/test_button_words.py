"""Every button on a table keeps its words readable at the largest text on the 800x480 panel,
in English, German and French. The quick buttons ("Fear +1", "Strike", "Guardian…") share
their row by each one's longest word (style.kv's QuickButton), so that none shrinks far below
the others: in a row of equal shares Leviathan Wilds' "Guardian…" was drawn at 12 px,
"Crystals…" and "SAUVAGE +1" at 13 px. And in portrait the top bar and the quick buttons
grow with the window, as the figures and the step button do. Every registered game's table is
walked.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games import registry
from companion.ui.table_kit import TableTopBar
from companion.ui.widgets import FitButton

from .harness import Harness
from .test_key_figures import start_table
from .test_layout import visible_widgets
from .tour import with_text_size

pytestmark = pytest.mark.ui

LEAST_PX = 14.0
"""The least font size of a button's words at the largest text on the 800x480 panel (the
normal text draws a quick button's at 15 px)."""


@pytest.mark.parametrize("language", ["English", "Deutsch", "Français"])
def test_every_table_button_keeps_its_words_readable_at_the_largest_text(
        game_id: str, language: str, tmp_path: Path) -> None:
    if not registry.GAMES[game_id].table_screen:
        pytest.skip("the game has no table screen")
    with_text_size(tmp_path, "largest", language)
    ui = Harness(tmp_path / "games.db", (800, 480))
    try:
        start_table(ui, game_id)
        buttons = [button for root in ui.window.children for button in visible_widgets(root)
                   if isinstance(button, FitButton) and button.text.strip()]
        drawn = [(button.text.replace("\n", " "), button.font_size) for button in buttons]
        cut = [button.text for button in buttons if not button.fits()]
    finally:
        ui.close()
    assert drawn, f"{game_id}'s table shows no button with words"
    small = [f"{text!r} is drawn at {size:.1f} px" for text, size in drawn if size < LEAST_PX]
    assert not small, "\n".join(small)
    assert not cut, f"cut off: {cut}"


def table_words(game_id: str, size: tuple[int, int], folder: Path) -> dict[str, float]:
    """On a table of `game_id` in a window of `size`: the top bar's height, its Undo's font
    size, and the largest font size a quick button would draw with room (0 if none)."""
    with_text_size(folder, "normal")
    ui = Harness(folder / "games.db", size)
    try:
        start_table(ui, game_id)
        quick = [button for root in ui.window.children for button in visible_widgets(root)
                 if type(button).__name__ == "QuickButton"]
        bar = next(part for part in ui.screen.walk() if isinstance(part, TableTopBar))
        return {"top bar": bar.height,
                "Undo": ui.screen.ids.undo.font_size,
                "quick buttons": max((button.base_font_size for button in quick), default=0)}
    finally:
        ui.close()


def test_the_top_bar_and_the_quick_buttons_grow_in_portrait_as_the_figures_do(
        game_id: str, tmp_path: Path) -> None:
    """At 720x1280 the figures are drawn half as large again as at 800x480; the bar above them
    and the buttons under them grew with them (they once kept their 800x480 size)."""
    if not registry.GAMES[game_id].table_screen:
        pytest.skip("the game has no table screen")
    (tmp_path / "landscape").mkdir()
    (tmp_path / "portrait").mkdir()
    landscape = table_words(game_id, (800, 480), tmp_path / "landscape")
    portrait = table_words(game_id, (720, 1280), tmp_path / "portrait")
    not_grown = [f"{part}: {landscape[part]:.0f} px at 800x480, {portrait[part]:.0f} in portrait"
                 for part in landscape if portrait[part] < landscape[part] * 1.3]
    assert not not_grown, "\n".join(not_grown)
