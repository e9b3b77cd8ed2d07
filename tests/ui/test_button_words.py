"""Every button on a table keeps its words readable at the largest text on the 800x480 panel,
in English, German and French. The quick buttons ("Fear +1", "Strike", "Guardian…") share
their row by each one's longest word (style.kv's QuickButton), so that none shrinks far below
the others: in a row of equal shares Leviathan Wilds' "Guardian…" was drawn at 12 px,
"Crystals…" and "SAUVAGE +1" at 13 px. Every registered game's table is walked.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games import registry
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
