"""Rings, frames and rounded corners (companion/ui/outlines.py): where their triangles lie, how
they look on the window, and that no table of any game draws a shape the GL driver pays for many
times over each frame (a Line wider than a pixel, Kivy's 180-triangle Ellipse, its 10-segment
corners)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from companion.ui.outlines import (
    CORNER_SEGMENTS,
    circle_segments,
    corner_segments,
    frame_strip,
    ring_strip,
)

from .every_game import walk_the_table
from .harness import Harness

pytestmark = pytest.mark.ui

MOST_CIRCLE_SEGMENTS = 64
MOST_CORNER_SEGMENTS = 8


def points(vertices: list[float]) -> list[tuple[float, float]]:
    return [(vertices[index], vertices[index + 1]) for index in range(0, len(vertices), 4)]


def test_a_ring_runs_between_its_two_circles_and_closes() -> None:
    vertices, indices = ring_strip(10, 20, 30, 3)
    corners = points(vertices)
    assert list(indices) == list(range(len(corners)))
    outer, inner = corners[0::2], corners[1::2]
    assert len(outer) == circle_segments(30) + 1
    for (x, y), radius in [*((point, 15) for point in outer), *((point, 12) for point in inner)]:
        assert math.hypot(x - 25, y - 35) == pytest.approx(radius)
    assert vertices[:8] == pytest.approx(vertices[-8:])  # the strip ends where it began


def test_a_frame_lies_inside_its_box_touches_every_edge_and_keeps_its_width() -> None:
    x, y, width, height, radius, line = 5.0, 7.0, 120.0, 80.0, 6.0, 3.0
    vertices, indices = frame_strip(x, y, width, height, radius, line)
    corners = points(vertices)
    assert list(indices) == list(range(len(corners)))
    assert vertices[:8] == pytest.approx(vertices[-8:])  # closed
    outer, inner = corners[0::2], corners[1::2]
    for px, py in corners:
        assert x - 1e-9 <= px <= x + width + 1e-9 and y - 1e-9 <= py <= y + height + 1e-9
    assert min(px for px, _ in outer) == pytest.approx(x)
    assert max(px for px, _ in outer) == pytest.approx(x + width)
    assert min(py for _, py in outer) == pytest.approx(y)
    assert max(py for _, py in outer) == pytest.approx(y + height)
    for (ox, oy), (ix, iy) in zip(outer, inner, strict=True):  # each pair a line's width apart
        assert math.hypot(ox - ix, oy - iy) == pytest.approx(line)


def test_a_frame_wider_than_its_corner_or_its_box_still_makes_a_frame() -> None:
    vertices, _ = frame_strip(0, 0, 40, 30, 2, 5)  # inner corners square
    assert all(0 <= px <= 40 and 0 <= py <= 30 for px, py in points(vertices))
    vertices, _ = frame_strip(0, 0, 4, 4, 6, 3)  # a box smaller than its corner and line
    assert all(0 <= px <= 4 and 0 <= py <= 4 for px, py in points(vertices))
    vertices, _ = frame_strip(0, 0, 0, 0, 6, 3)
    assert all(point == (0, 0) for point in points(vertices))


@pytest.mark.parametrize("radius", [3.0, 6.0, 12.0, 24.0])
def test_a_corner_stays_within_a_fifth_of_a_pixel_of_its_arc(radius: float) -> None:
    """The farthest a chord of the polygon strays from the arc: at its middle."""
    for segments in (corner_segments(radius), CORNER_SEGMENTS if radius <= 12 else None):
        if segments is not None:
            assert radius * (1 - math.cos(math.pi / 4 / segments)) < 0.25, (radius, segments)
    diameter = 2 * radius
    assert radius * (1 - math.cos(math.pi / circle_segments(diameter))) <= 0.1


def colour_at(ui: Harness, shot: Path, x: float, y: float) -> tuple[int, ...]:
    with Image.open(shot) as picture:
        scale = picture.width / ui.window.width
        return tuple(picture.convert("RGB").getpixel(
            (int(x * scale), int(picture.height - 1 - y * scale))))


def test_a_marked_tile_shows_its_frame_follows_it_and_draws_nothing_unmarked(
        ui: Harness, tmp_path: Path) -> None:
    from kivy.graphics import Color, Rectangle
    from kivy.uix.widget import Widget

    from companion.ui.widgets import MarkFrame

    class Tile(MarkFrame, Widget):
        pass

    tile = Tile(size_hint=(None, None), size=(200, 120), pos=(100, 100),
                frame_colour=[1, 0, 0, 1])
    with tile.canvas.before:
        Color(0, 0, 1, 1)
        ground = Rectangle(pos=tile.pos, size=tile.size)
    ui.window.add_widget(tile)
    try:
        unmarked = len(tile.canvas.after.children)
        shot = ui.screenshot(tmp_path / "unmarked.png")
        assert colour_at(ui, shot, 101, 160) == (0, 0, 255)

        tile.framed = True
        shot = ui.screenshot(tmp_path / "marked.png")
        assert len(tile.canvas.after.children) > unmarked
        for x, y in ((101, 160), (298, 160), (200, 101), (200, 218)):  # each side, inside it
            assert colour_at(ui, shot, x, y) == (255, 0, 0), (x, y)
        assert colour_at(ui, shot, 200, 160) == (0, 0, 255)  # the tile shows through
        assert colour_at(ui, shot, 95, 160) != (255, 0, 0)  # nothing outside it

        tile.pos = (300, 150)  # the frame follows its tile
        ground.pos = tile.pos
        shot = ui.screenshot(tmp_path / "moved.png")
        assert colour_at(ui, shot, 301, 210) == (255, 0, 0)
        assert colour_at(ui, shot, 101, 160) != (255, 0, 0)

        tile.frame_colour = [1, 1, 1, 0.5]  # see-through: one even blend all round, no seams
        shot = ui.screenshot(tmp_path / "see-through.png")
        sides = {colour_at(ui, shot, x, y) for x, y in ((301, 210), (498, 210), (400, 151),
                                                          (400, 268), (302, 152))}
        assert len(sides) == 1 and sides != {(0, 0, 255)}, sides

        tile.framed = False
        shot = ui.screenshot(tmp_path / "unmarked-again.png")
        assert len(tile.canvas.after.children) == unmarked
        assert colour_at(ui, shot, 301, 210) == (0, 0, 255)
    finally:
        ui.window.remove_widget(tile)


def costly_shapes(canvas: Any) -> list[str]:
    """The shapes under `canvas` that cost the GL driver many times what they need to."""
    from kivy.graphics import Ellipse, Line, RoundedRectangle

    found = []

    def walk(instruction: Any) -> None:
        if isinstance(instruction, Line) and instruction.width > 1:
            found.append(f"a Line {instruction.width} px wide")
        elif isinstance(instruction, Ellipse) and instruction.segments > MOST_CIRCLE_SEGMENTS:
            found.append(f"an Ellipse of {instruction.segments} segments")
        elif (isinstance(instruction, RoundedRectangle)  # segments: one for each corner
              and max(instruction.segments) > MOST_CORNER_SEGMENTS):
            found.append(f"a RoundedRectangle of {instruction.segments} segments a corner")
        for child in getattr(instruction, "children", None) or ():
            walk(child)

    walk(canvas)
    return found


def test_no_table_draws_a_shape_many_times_dearer_than_it_needs(game_id: str,
                                                                  ui: Harness) -> None:
    """Every game's table, its first steps, their popups, its panels and its menu."""
    seen: dict[str, list[str]] = {}

    def look(where: str) -> None:
        ui.frames(1)
        seen[where] = costly_shapes(ui.window.canvas)

    walk_the_table(ui, game_id, look)
    assert len(seen) > 5, seen
    assert not any(seen.values()), {where: found for where, found in seen.items() if found}
