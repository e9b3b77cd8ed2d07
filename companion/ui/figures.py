"""Figure tiles: a big number with a short word under it, for the numbers a table is read by
from arm's length (a guardian's health, the fear pool, a player's score).

Their sizes come from the window, not from fixed sp: a key figure's digits are drawn at least
40 px high on the 7-inch 800x480 panel, larger in proportion on larger windows (portrait
included), and larger again with the larger text settings. A key figure marks itself
(`key_figure`), so a test can find and measure every one on any game's table. The look is in
layouts/figures.kv, loaded with this module.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.core.window import Window
from kivy.event import EventDispatcher
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from ..resources import layouts_dir
from .widgets import FitLabel

KEY_DIGITS = 42
"""How high a key figure's digits are drawn at 800x480 with the normal text, in px: above the
40 px (8 mm on the 7-inch panel) a figure needs to be read from across the table."""
DIGIT_SHARE = 0.711
"""A digit of the app's bold font (Roboto) is this share of its font size high."""
SMALL_DIGITS = 17
"""A small figure's digits (cards in a deck, hand, discard) at 800x480."""
LABEL_FONT = 15
"""The word under a figure, at 800x480: 15 px, as the table's other words beside numbers."""
MOST_GROWTH = 1.15
"""How much the largest text settings grow the figures (their room on the table is finite)."""


def glance(width: float, height: float) -> float:
    """How much larger than the 800x480 panel a window is, in either orientation (1280x720
    and 720x1280 both 1.5); never below 1."""
    long_side, short_side = max(width, height), min(width, height)
    return float(max(1.0, min(long_side / dp(800), short_side / dp(480))))


def growth(text_scale: float) -> float:
    """How much larger than at the normal text the figures are drawn at the app's text size."""
    return max(1.0, min(text_scale, MOST_GROWTH))


def key_font(scale: float, text_scale: float) -> float:
    """A key figure's font size at a window `glance` of `scale` and the app's text size."""
    return KEY_DIGITS / DIGIT_SHARE * scale * growth(text_scale)


class FigureSizes(EventDispatcher):
    """The font sizes of every figure tile, from the window's size and the text setting; one
    for the whole app, so a resize or a new text size sets them once."""

    key = NumericProperty(KEY_DIGITS / DIGIT_SHARE)
    """A key figure's font size, in px."""
    small = NumericProperty(SMALL_DIGITS / DIGIT_SHARE)
    """A small figure's font size, in px."""
    label = NumericProperty(LABEL_FONT)
    """The font size of the word under a figure, in px."""
    scale = NumericProperty(1.0)
    """The window's `glance`."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._app: Any = None
        self._following_window = False

    def follow(self) -> None:
        """Follow the window's size and the running app's text size (a test starts a new app
        in the same window, so the app is looked up again)."""
        app = App.get_running_app()
        if not self._following_window:
            Window.bind(size=self.update)
            self._following_window = True
        if app is not self._app and app is not None:
            self.forget()
            if hasattr(app, "text_scale"):
                app.bind(text_scale=self.update)
            self._app = app
        self.update()

    def forget(self) -> None:
        """Stop following the app's text size: an app taken off the window (tests) is let go
        of, not kept alive until the next one starts."""
        if self._app is not None and hasattr(self._app, "text_scale"):
            self._app.unbind(text_scale=self.update)
        self._app = None

    def update(self, *_args: Any) -> None:
        if App.get_running_app() is None:
            # Between two apps (tests start many in one window) the layouts' rules that read
            # these sizes must not run: they read the app too. The next app's `follow` sets them.
            return
        text_scale = float(getattr(self._app, "text_scale", 1.0) or 1.0)
        self.scale = glance(*Window.size)
        self.key = key_font(self.scale, text_scale)
        self.small = SMALL_DIGITS / DIGIT_SHARE * self.scale * growth(text_scale)
        self.label = LABEL_FONT * self.scale * max(1.0, min(text_scale, 1.2))


sizes = FigureSizes()
"""The app's figure sizes."""


class FigureValue(FitLabel):
    """A figure's number. It never shrinks below its size (a figure too large for its box is a
    layout fault the layout tests report, never a figure quietly drawn small)."""

    key_figure = BooleanProperty(False)
    """This is one of the table's key figures (measured by the tests)."""


class FigureTile(BoxLayout):
    """A number with a short word under it; `key_figure` draws it large."""

    value = StringProperty("")
    """The number (as text: "8", "3+2", "–")."""
    label = StringProperty("")
    """The short word under it."""
    key_figure = BooleanProperty(True)
    """A key figure (large) or a small one."""
    value_font = NumericProperty(sizes.key)
    """The number's font size, from `sizes`."""
    label_font = NumericProperty(sizes.label)
    """The word's font size, from `sizes`."""
    ink = StringProperty("")
    """The colour role of the number and the word ("" for the theme's text colour)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        sizes.follow()
        sizes.bind(key=self._resize, small=self._resize, label=self._resize)
        self.bind(key_figure=self._resize)
        self._resize()

    def _resize(self, *_args: Any) -> None:
        self.value_font = sizes.key if self.key_figure else sizes.small
        self.label_font = sizes.label


_LAYOUT = str(layouts_dir() / "figures.kv")
if _LAYOUT not in Builder.files:
    Builder.load_file(_LAYOUT)
