"""A step's own controls grow with the window as the figures do: a 720x1280 screen stands as
far from the players as an 800x480 one. Leviathan Wilds' AP actions ("Climb 1", "Heal 1") and
Glow's dice steppers once kept their 800x480 size in portrait, beside figures half as large
again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .harness import Harness
from .tour import SIZES, glow_stops, go_to, leviathan_stops

pytestmark = pytest.mark.ui

GROWTH = 1.4
"""At least this much larger at 720x1280 (the figures: 1.5 times)."""


def ap_actions(screen: Any) -> list[Any]:
    return [screen.ids[name] for name in ("climb", "jump", "glide", "rest", "heal")]


def dice_steppers(screen: Any) -> list[Any]:
    return [cell.ids[name] for cell in screen.ids.area_cells.children
            for name in ("minus", "count", "plus")]


CONTROLS: dict[str, tuple[Callable[[Harness], Iterator[str]], Callable[[Any], list[Any]]]] = {
    "lw-table-actions": (leviathan_stops, ap_actions),
    "glow-table-morning": (glow_stops, dice_steppers),
}
"""A tour's stop, the tour, and the controls the stop shows."""


def measured(tmp_path: Path, size: str, stop: str) -> list[tuple[str, float, float]]:
    """Each control's words, font size and height at `stop` in a window of `size`."""
    walk, controls = CONTROLS[stop]
    ui = Harness(tmp_path / f"{size}.db", SIZES[size])
    try:
        go_to(ui, walk, stop)
        return [(control.text, control.font_size, control.height)
                for control in controls(ui.screen)]
    finally:
        ui.close()


@pytest.mark.parametrize("stop", CONTROLS)
def test_a_step_s_own_controls_grow_in_portrait(tmp_path: Path, stop: str) -> None:
    landscape = measured(tmp_path, "800x480", stop)
    portrait = measured(tmp_path, "720x1280", stop)
    assert landscape and len(portrait) == len(landscape)
    small = [f"{text!r}: font {font:.0f} → {big_font:.0f} px, height {height:.0f} → "
             f"{big_height:.0f} px"
             for (text, font, height), (_text, big_font, big_height)
             in zip(landscape, portrait, strict=True)
             if big_font < font * GROWTH or big_height < height * GROWTH]
    assert not small, "did not grow in portrait:\n" + "\n".join(small)
