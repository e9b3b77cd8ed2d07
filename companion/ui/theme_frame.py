"""The outline a theme draws round panels, buttons and popups, in the theme's `frame` colour (set
by the <ThemeFrame> rule in layouts/style.kv)."""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, InstructionGroup, Rectangle
from kivy.metrics import dp
from kivy.properties import ColorProperty
from kivy.uix.widget import Widget

THICKNESS = dp(3)


class ThemeFrame(Widget):
    """Mixed into what a theme frames: thick and white in the high contrast theme, whose panels
    and buttons are as black as the screen behind them; see-through in the other themes, which
    set them apart by a shade.

    A see-through frame is not drawn at all. As four see-through rectangles in every button's
    canvas, it was a third of what a table drew each frame (64 of Leviathan Wilds' 203 shapes),
    each costing the GL driver as much as a visible one. Four bars, not a wide Line, which Kivy
    draws through a stencil on every frame."""

    frame_colour = ColorProperty((0, 0, 0, 0))

    def __init__(self, **kwargs: Any) -> None:
        self._frame_colour = Color(0, 0, 0, 0)
        self._frame_sides = [Rectangle() for _side in range(4)]
        self._frame = InstructionGroup()
        self._frame.add(self._frame_colour)
        for side in self._frame_sides:
            self._frame.add(side)
        self._frame_drawn = False
        super().__init__(**kwargs)
        self.fbind("frame_colour", self._show_frame)
        self._show_frame()  # the kv rule gave the colour before the binding

    def _show_frame(self, *_args: Any) -> None:
        colour = self.frame_colour
        drawn = colour[3] > 0
        if drawn:
            self._frame_colour.rgba = colour
        if drawn == self._frame_drawn:
            return
        self._frame_drawn = drawn
        if drawn:
            self.canvas.after.add(self._frame)
            self.fbind("pos", self._place_frame)
            self.fbind("size", self._place_frame)
            self._place_frame()
        else:
            self.canvas.after.remove(self._frame)
            self.funbind("pos", self._place_frame)
            self.funbind("size", self._place_frame)

    def _place_frame(self, *_args: Any) -> None:
        x, y = self.pos
        width, height = self.size
        bottom, top, left, right = self._frame_sides
        bottom.pos, bottom.size = (x, y), (width, THICKNESS)
        top.pos, top.size = (x, y + height - THICKNESS), (width, THICKNESS)
        left.pos, left.size = (x, y), (THICKNESS, height)
        right.pos, right.size = (x + width - THICKNESS, y), (THICKNESS, height)
