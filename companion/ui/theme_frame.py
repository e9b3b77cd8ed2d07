"""The outline a theme draws round panels, buttons and popups (the <ThemeFrame> rule in
layouts/style.kv, in the theme's `frame` colour)."""

from __future__ import annotations

from kivy.uix.widget import Widget


class ThemeFrame(Widget):
    """Mixed into what a theme frames: thick and white in the high contrast theme, whose panels
    and buttons are as black as the screen behind them; see-through in the other themes, which
    set them apart by a shade."""
