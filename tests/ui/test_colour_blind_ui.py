"""Never colour alone, checked on every table as a colour-blind player sees it.

Every widget of a table whose colour tells a state is a ColourCue (companion/ui/marks.py); the
test finds them all by that rule, on every game's table (the fourth, test-only game has none:
it passes with nothing to check, found by the same rule). Each element is drawn in each of its
kind's states in the real window, in both palettes; its pixels are passed through a simulation
of deuteranopia, protanopia and tritanopia (colorspacious, Machado et al. 2009, severity 100),
and every two states must differ in the greyscale structure of what is left: the pixels that
stand out from the element's own fill. A colour change alone moves none of them; a symbol, a
word or a sign does.

In the colour-blind safe palette the fills themselves must stay apart too: CAM02-UCS distance
of at least MIN_FILL_DISTANCE between every two terrains and every two players, as each
deficiency sees them. 10 units is several times the distance at which two colours side by
side are just told apart (about 1 to 2 units in CAM02-UCS), so the colours still help at a
glance across a table; the standard palette's blue and purple Glow players are 4 apart for a
deuteranope, which is why the other palette exists.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from colorspacious import cspace_convert, deltaE

from companion.ui.marks import ColourCue, CueMark
from companion.ui.palette import CUES, PALETTES, cue_is_word, terrain_colour
from companion.ui.theme import rgba

from .every_game import start_on_table
from .harness import Harness
from .test_settings_ui import button, open_settings, stored

DEFICIENCIES = ("deuteranomaly", "protanomaly", "tritanomaly")
"""colorspacious's names; at severity 100 they are deuteranopia, protanopia, tritanopia."""

MIN_FILL_DISTANCE = 10.0
"""CAM02-UCS distance between two terrains' or two players' fills (see the docstring)."""

STANDS_OUT = 0.12
"""How far (0-1 in greyscale) a pixel must lie from the element's fill to count as drawn on
it: the anti-aliased rim of a glyph counts, the same fill in another colour does not."""

MIN_STRUCTURE = 20
"""Pixels that must differ between two states' structures: a symbol at the smallest size the
tables draw one (about 12 px square) has well over this many; two fills' rounded corners,
which the background shows through, have fewer."""

MIN_MARK_PIXELS = 12
"""Drawn pixels a symbol must have: one left out (an empty mark) has none."""


def elements(root: Any) -> list[Any]:
    """Every shown widget whose colour tells a state: a ColourCue that no other ColourCue holds
    (a mark inside a chip changes with its chip), or, for a mark standing alone (a warning sign
    beside a word), the widget holding it."""
    found: list[Any] = []

    def walk(widget: Any, inside_cue: bool) -> None:
        is_cue = isinstance(widget, ColourCue)
        if is_cue and not inside_cue and widget.cue_kind in CUES:
            found.append(widget)
        for child in widget.children:
            walk(child, inside_cue or is_cue)

    walk(root, False)
    return found


def drawn_area(cue: Any) -> Any:
    return cue.parent if isinstance(cue, CueMark) else cue


def shown(widget: Any) -> bool:
    while widget is not None and widget is not widget.parent:  # (the window is its own)
        if widget.opacity == 0:
            return False
        widget = widget.parent
    return True


def pixels(widget: Any, background: list[float]) -> np.ndarray:
    """The widget as drawn, in sRGB 0-1, laid over the screen's background where it lets it
    through (an export leaves what lies behind the widget out)."""
    texture = widget.export_as_image().texture
    width, height = texture.size
    rgba = np.frombuffer(texture.pixels, dtype=np.uint8).reshape(height, width, 4) / 255
    alpha = rgba[..., 3:4]
    return rgba[..., :3] * alpha + np.array(background[:3]) * (1 - alpha)


def simulated(image: np.ndarray, deficiency: str) -> np.ndarray:
    space = {"name": "sRGB1+CVD", "cvd_type": deficiency, "severity": 100}
    return np.clip(cspace_convert(image, space, "sRGB1"), 0, 1)


def greyscale(image: np.ndarray) -> np.ndarray:
    return image @ np.array([0.2126, 0.7152, 0.0722])


def structure(image: np.ndarray) -> np.ndarray:
    """The pixels that stand out from the element's fill (its commonest grey)."""
    grey = np.round(greyscale(image), 2)
    values, counts = np.unique(grey, return_counts=True)
    fill = values[np.argmax(counts)]
    return np.abs(greyscale(image) - fill) > STANDS_OUT


def structure_difference(first: np.ndarray, second: np.ndarray) -> int:
    """Pixels drawn in one state's structure and not in the other's; an element that grows in
    one state (a sign taking room) differs by the room it takes as well."""
    height = max(first.shape[0], second.shape[0])
    width = max(first.shape[1], second.shape[1])
    padded = []
    for image in (first, second):
        drawn = np.zeros((height, width), dtype=bool)
        drawn[:image.shape[0], :image.shape[1]] = structure(image)
        padded.append(drawn)
    return int((padded[0] != padded[1]).sum()) + abs(first.size - second.size) // 3


def fill_colour(image: np.ndarray) -> np.ndarray:
    """The element's commonest colour: its fill."""
    flat = np.round(image.reshape(-1, 3), 3)
    values, counts = np.unique(flat, axis=0, return_counts=True)
    return values[np.argmax(counts)]


def mark_pixels(mark: Any) -> int:
    texture = mark.export_as_image().texture
    width, height = texture.size
    alpha = np.frombuffer(texture.pixels, dtype=np.uint8).reshape(height, width, 4)[..., 3]
    return int((alpha > 128).sum())


def states_drawn(ui: Harness, cue: Any) -> dict[str, tuple[np.ndarray, list[int]]]:
    """Each state of the element's kind: its pixels, and the drawn pixels of each symbol mark
    in it; the element's own state back afterwards."""
    area = drawn_area(cue)
    own = cue.cue_state
    drawn = {}
    try:
        for state in CUES[cue.cue_kind]:
            cue.cue_state = state
            ui.frames(2)
            assert cue.cue_mark or not state, f"{cue.cue_kind} {state!r} has no mark"
            marks = [widget for widget in area.walk(restrict=True)
                     if isinstance(widget, CueMark) and not widget.cue_word]
            drawn[state] = (pixels(area, ui.app.colours["background"]),
                            [mark_pixels(mark) for mark in marks if mark.cue_mark])
    finally:
        cue.cue_state = own
        ui.frames(2)
    return drawn


@pytest.mark.ui
@pytest.mark.parametrize("palette", PALETTES)
def test_no_two_states_differ_by_colour_alone(game_id: str, palette: str, ui: Harness) -> None:
    ui.app.config.set("companion", "palette", palette)
    ui.app.apply_settings()
    table = start_on_table(ui, game_id)
    ui.frames(3)
    for cue in elements(table):
        area = drawn_area(cue)
        if area.width < 2 or area.height < 2 or not shown(area):
            continue  # not on this table at this size (a compact tile's line)
        kind = cue.cue_kind
        drawn = states_drawn(ui, cue)
        for state, (_image, marks) in drawn.items():
            # Only the plain state ("": no warning, not the active one) may go unmarked.
            if state and not cue_is_word(kind):
                assert marks and min(marks) >= MIN_MARK_PIXELS, \
                    f"{game_id}: {kind} {state!r} draws no symbol ({marks})"
        for deficiency in DEFICIENCIES:
            seen = {state: simulated(image, deficiency) for state, (image, _) in drawn.items()}
            for first, second in itertools.combinations(seen, 2):
                differing = structure_difference(seen[first], seen[second])
                assert differing >= MIN_STRUCTURE, (
                    f"{game_id}, {palette}, {deficiency}: {kind} {first!r} and {second!r} "
                    f"differ by colour alone ({differing} pixels of structure)")
                if palette == "colour_blind" and isinstance(CUES[kind][first].fill, dict):
                    distance = float(deltaE(fill_colour(seen[first]), fill_colour(seen[second]),
                                            input_space="sRGB1"))
                    assert distance >= MIN_FILL_DISTANCE, (
                        f"{game_id}, {deficiency}: {kind} {first!r} and {second!r} fills are "
                        f"{distance:.1f} apart in CAM02-UCS")


@pytest.mark.ui
def test_the_colours_setting_turns_the_table_colour_blind_safe(ui: Harness) -> None:
    """Settings -> Colours -> Colour-blind safe: kept in companion.ini, and the table's terrain
    drawn in the palette's colour at once, with its symbol."""
    settings = open_settings(ui)
    ui.tap(button(ui, "Colour-blind safe", settings.ids.palette))
    assert stored(ui, "companion", "palette") == "colour_blind"
    table = start_on_table(ui, "spirit-island")
    chip = next(cue for cue in elements(table) if cue.cue_kind == "terrain")
    assert chip.cue_fill == rgba(terrain_colour(chip.cue_state, "colour_blind"))
    assert chip.cue_mark == CUES["terrain"][chip.cue_state].mark
