"""The outline a theme draws round panels, buttons and popups, in the theme's `frame` colour (set
by the <ThemeFrame> rule in layouts/style.kv)."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import ColorProperty
from kivy.uix.widget import Widget

from .outlines import FrameOver

THICKNESS = dp(3)


class ThemeFrame(Widget):
    """Mixed into what a theme frames: thick and white in the high contrast theme, whose panels
    and buttons are as black as the screen behind them; see-through in the other themes, which
    set them apart by a shade.

    A see-through frame is not drawn at all. As four see-through rectangles in every button's
    canvas, it was a third of what a table drew each frame (64 of Leviathan Wilds' 203 shapes),
    each costing the GL driver as much as a visible one. A square frame of one triangle strip,
    not a wide Line, which Kivy draws through a stencil on every frame."""

    frame_colour = ColorProperty((0, 0, 0, 0))

    def __init__(self, **kwargs: Any) -> None:
        self._theme_frame = FrameOver(0, lambda _widget: THICKNESS)
        self._frame = self._theme_frame.group
        super().__init__(**kwargs)
        self.fbind("frame_colour", self._show_frame)
        self._show_frame()  # the kv rule gave the colour before the binding

    def _show_frame(self, *_args: Any) -> None:
        self._theme_frame.show(self, self.frame_colour[3] > 0, self.frame_colour)
