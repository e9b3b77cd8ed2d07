"""Rings, frames and rounded corners drawn as few triangles as still look round.

On a software GL driver (Mesa's, as on this project's test machines) each triangle a shape sends
costs before the frame can be swapped, every frame, whether or not the shape changed. Kivy's own
defaults are generous: an Ellipse is 180 triangles, a rounded corner 10, and a Line wider than
one pixel is drawn with a round joint at each of its points (ten triangles more each) and, in a
see-through colour, through a stencil cleared each frame. Measured on this VM, one hollow fear
marker as a wide Line cost 0.27 ms of every frame (0.7 ms see-through), a framed tile 0.13 ms;
the same shapes here cost 0.01 ms. The corners stay within a fifth of a pixel of a true circle.

A ring and a frame are each one triangle strip (`Mesh`): no joints, no stencil, no triangle
drawn twice, so a see-through colour blends evenly.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from kivy.graphics import Color, InstructionGroup, Mesh

CORNER_SEGMENTS = 4
"""Segments of a rounded corner of up to dp(6) at up to twice the density: its polygon lies
within 0.23 px of the arc (a corner's default in Kivy is 10)."""


def circle_segments(diameter: float) -> int:
    """Segments for a circle `diameter` px across: within a tenth of a pixel of it (a chord
    strays from its arc by about r·π²/2n²)."""
    return max(12, min(64, math.ceil(math.pi * math.sqrt(2.5 * diameter))))


def corner_segments(radius: float) -> int:
    """Segments for a rounded corner of `radius` px: within about a fifth of a pixel."""
    return max(1, min(8, math.ceil(radius / 2)))


def ring(x: float, y: float, size: float, width: float) -> Mesh:
    """The outline of the circle in the square at (x, y) of side `size`, `width` px wide, inside
    the square."""
    mesh = Mesh(mode="triangle_strip")
    mesh.vertices, mesh.indices = ring_strip(x, y, size, width)
    return mesh


@lru_cache(maxsize=256)
def ring_strip(x: float, y: float, size: float, width: float) -> tuple[tuple[float, ...],
                                                                      tuple[int, ...]]:
    """A ring's vertices (x, y, u, v each) and indices, for a Mesh in `triangle_strip` mode
    (kept: a fear marker taken back and generated again is the same ring)."""
    outer = size / 2
    inner = max(outer - width, 0.0)
    centre_x, centre_y = x + outer, y + outer
    segments = circle_segments(size)
    vertices: list[float] = []
    for step in range(segments + 1):
        angle = 2 * math.pi * step / segments
        cos, sin = math.cos(angle), math.sin(angle)
        vertices += [centre_x + outer * cos, centre_y + outer * sin, 0.0, 0.0,
                     centre_x + inner * cos, centre_y + inner * sin, 0.0, 0.0]
    return tuple(vertices), tuple(range(len(vertices) // 4))


def rounded_frame(x: float, y: float, box_width: float, box_height: float, radius: float,
                  width: float) -> Mesh:
    """A frame `width` px wide just inside the rectangle at (x, y), its outer corners rounded by
    `radius` px."""
    mesh = Mesh(mode="triangle_strip")
    mesh.vertices, mesh.indices = frame_strip(x, y, box_width, box_height, radius, width)
    return mesh


@lru_cache(maxsize=256)
def frame_strip(x: float, y: float, box_width: float, box_height: float, radius: float,
                width: float) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """A frame's vertices (x, y, u, v each) and indices, for a Mesh in `triangle_strip` mode:
    the outer and inner edge in step, corner by corner, counter-clockwise from the bottom
    right (kept: a frame moving between tiles comes back to the same places)."""
    radius = max(0.0, min(radius, box_width / 2, box_height / 2))
    width = max(0.0, min(width, box_width / 2, box_height / 2))
    inner_radius = max(radius - width, 0.0)
    outer_inset, inner_inset = radius, width + inner_radius  # from each edge to corner centres
    segments = corner_segments(radius)
    right, top = x + box_width, y + box_height
    corners = (  # (x side, y side, first angle): each corner turns a quarter
        ((right, -1), (y, 1), -math.pi / 2), ((right, -1), (top, -1), 0.0),
        ((x, 1), (top, -1), math.pi / 2), ((x, 1), (y, 1), math.pi))
    vertices: list[float] = []
    for (edge_x, sign_x), (edge_y, sign_y), first in corners:
        for step in range(segments + 1):
            angle = first + (math.pi / 2) * step / segments
            cos, sin = math.cos(angle), math.sin(angle)
            vertices += [edge_x + sign_x * outer_inset + radius * cos,
                         edge_y + sign_y * outer_inset + radius * sin, 0.0, 0.0,
                         edge_x + sign_x * inner_inset + inner_radius * cos,
                         edge_y + sign_y * inner_inset + inner_radius * sin, 0.0, 0.0]
    vertices += vertices[:8]  # back to the first pair: the strip closes
    return tuple(vertices), tuple(range(len(vertices) // 4))


class FrameOver:
    """A frame drawn over a widget's children (in its `canvas.after`) only while it is shown,
    following the widget's `follows` properties while drawn: a frame not shown costs nothing
    in a frame (ThemeFrame's theme outline, MarkFrame's mark)."""

    def __init__(self, radius: float, width: Callable[[Any], float],
                 follows: tuple[str, ...] = ("pos", "size")) -> None:
        self.radius = radius
        self.width = width
        """The frame's width for a widget, in px."""
        self.follows = follows
        self.colour = Color(0, 0, 0, 0)
        self.shape = Mesh(mode="triangle_strip")
        self.group = InstructionGroup()
        """What is in the widget's `canvas.after` while the frame is shown."""
        self.group.add(self.colour)
        self.group.add(self.shape)
        self.drawn = False

    def show(self, widget: Any, shown: bool, rgba: Any) -> None:
        """Draw the frame over `widget` in `rgba`, or take it away."""
        if shown:
            self.colour.rgba = rgba
        if shown == self.drawn:
            return
        self.drawn = shown
        if shown:
            widget.canvas.after.add(self.group)
            for name in self.follows:
                widget.fbind(name, self.place)
            self.place(widget)
        else:
            widget.canvas.after.remove(self.group)
            for name in self.follows:
                widget.funbind(name, self.place)

    def place(self, widget: Any, *_args: Any) -> None:
        self.shape.vertices, self.shape.indices = frame_strip(
            widget.x, widget.y, widget.width, widget.height, self.radius, self.width(widget))
