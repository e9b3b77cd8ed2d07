"""On-screen keys for every text field: a touchscreen has no keyboard.

A `KeyedTextInput` brings up the app's one `KeyPanel` when it is tapped. The panel docks on the
side of the window away from the field, so the field stays in view while it is typed into; a
real keyboard, when there is one, types into the field as well. Kivy's own VKeyboard was not
used: none of its layouts has both the German and the French letters, its keys are drawn from a
fixed image atlas (no night theme, no text size), and its docked mode always sits at the bottom,
over a field that lies there. Its look is in layouts/keys.kv.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import dp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import FocusBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.textinput import TextInput

from .widgets import FitButton

# The keys of each layer, row by row, ten a row. Letters for names in English, German and
# French; digits; the signs a reader's address (socket://host:port) or a card number pattern
# needs.
KEY_LAYERS: dict[str, Sequence[str]] = {
    "abc": ("1234567890", "qwertyuiop", "asdfghjkl:", "zxcvbnm./-"),
    "àé": ("äöüßéèêëàâ", "çîïôûùœæñÿ", "áíóúìòåøãõ", "'-.,&()!?/"),
    "#+=": ("1234567890", "()[]{}<>\\|", "^$*+?.,;!=", "_-~@#%&'\"`"),
}
ROWS = 5
"""Rows of keys: four of characters and one of Shift, layers, Space, Del, Clear and Done."""
KEY_HEIGHT_MIN = dp(48)
"""Keys lower than this are hard to hit at arm's length (the 48 px every target of the app
has); the panel never makes them smaller, even if it then takes a little over half the window."""
KEY_HEIGHT_MAX = dp(64)
"""Keys taller than this only take room from the screen."""
PANEL_SHARE_MAX = 0.5
"""The most of the window's height the panel takes (the rest shows the screen)."""


class KeyButton(FitButton):
    """One key of the panel."""

    key = StringProperty("")
    """What it types, or the name of what it does (Shift, àé, #+=, Space, Del, Clear, Done)."""
    tint = ListProperty([0.3, 0.3, 0.3, 1])
    """Its colour while not pressed (Done's and a Shift that is on stand out)."""
    ink = ListProperty([1, 1, 1, 1])
    """Its label's colour while not pressed."""


class KeyPanel(BoxLayout):
    """The keys, docked at the top or the bottom of the window over the screen. One for the
    app: `shared()` builds it on first use."""

    target = ObjectProperty(None, allownone=True)
    """The field being typed into, or None while the panel is hidden."""
    layer = StringProperty("abc")
    """The characters shown: letters and digits, accented letters, or signs."""
    shift = BooleanProperty(False)
    """The next letter is a capital (then it goes off again)."""
    key_height = NumericProperty(dp(52))
    """The height of a row of keys, from the room the window leaves beside the field."""

    _shared: tuple[Any, KeyPanel] | None = None

    @classmethod
    def shared(cls) -> KeyPanel:
        """The running app's panel (its kv binds to that app's colours and text size)."""
        app = App.get_running_app()
        if cls._shared is None or cls._shared[0] is not app:
            if cls._shared is not None:
                cls._shared[1].detach()
            panel = cls()
            app.fbind("on_stop", lambda *_args: cls._forget(panel))
            cls._shared = (app, panel)
        return cls._shared[1]

    @classmethod
    def _forget(cls, panel: KeyPanel) -> None:
        """Hide a stopped app's panel and let it go: kept, it would keep that app and all its
        screens (its target field and its kv bindings hold them). The field typed into lets
        go of the window's keyboard, which would keep it too."""
        if panel.target is not None:
            panel.target.focus = False
        panel.detach()
        if cls._shared is not None and cls._shared[1] is panel:
            cls._shared = None

    def on_kv_post(self, *_args: Any) -> None:
        self._char_keys: list[list[KeyButton]] = []
        for _row in range(ROWS - 1):
            row = BoxLayout(spacing=self.spacing)
            keys = [self._key("", "") for _ in range(10)]
            for button in keys:
                row.add_widget(button)
            self._char_keys.append(keys)
            self.ids.char_rows.add_widget(row)
        self.bind(layer=self._label_keys, shift=self._label_keys)
        self._label_keys()

    def _key(self, key: str, label: str) -> KeyButton:
        button = KeyButton(key=key, text=label)
        button.bind(on_release=lambda pressed: self.press(pressed.key))
        return button

    def _label_keys(self, *_args: Any) -> None:
        for keys, characters in zip(self._char_keys, KEY_LAYERS[self.layer], strict=True):
            for button, character in zip(keys, characters, strict=True):
                shown = capital(character) if self.shift else character
                button.key = button.text = shown

    # --- showing ---

    def attach(self, field: KeyedTextInput) -> None:
        """Show the keys for `field`, on the side of the window where it is not."""
        if self.target is not None and self.target is not field:
            self.target.focus = False
        self.target = field
        self.layer = "abc"
        self.shift = field.capitalise and self._at_word_start()
        self.place()
        if self.parent is None:
            Window.add_widget(self)
            self._watch = Clock.schedule_interval(self._check_target, 0)
        else:  # stay above a popup opened since
            Window.remove_widget(self)
            Window.add_widget(self)

    def detach(self, field: Any = None) -> None:
        """Hide the keys (only if they are `field`'s, when one is given)."""
        if field is not None and field is not self.target:
            return
        self.target = None
        if self.parent is not None:
            self._watch.cancel()
            Window.remove_widget(self)

    def place(self) -> None:
        """Dock on the side with more room beside the field, as high as that room allows."""
        field = self.target
        if field is None:
            return
        bottom = field.to_window(field.x, field.y)[1]
        top = field.to_window(field.x, field.top)[1]
        room_below, room_above = max(bottom, 0), max(Window.height - top, 0)
        room = min(max(room_below, room_above), Window.height * PANEL_SHARE_MAX)
        gaps = self.padding[1] + self.padding[3] + self.spacing * (ROWS - 1)
        self.key_height = min(KEY_HEIGHT_MAX, max(KEY_HEIGHT_MIN, (room - gaps) / ROWS))
        self.size_hint = (None, None)
        self.size = (Window.width, self.key_height * ROWS + gaps)
        self.pos = (0, 0) if room_below >= room_above else (0, Window.height - self.height)

    def covers(self, widget: Any) -> bool:
        """It lies over part of `widget` (the test checks the field it types into)."""
        bottom = widget.to_window(widget.x, widget.y)[1]
        top = widget.to_window(widget.x, widget.top)[1]
        return bool(self.parent is not None and bottom < self.top - 1 and top > self.y + 1)

    def _check_target(self, *_args: Any) -> None:
        """Each frame: hide when the field left the screen (another screen was shown, its
        popup closed); else follow it (a screen laid out after the tap, a list scrolled)."""
        field = self.target
        if field is None or field.get_root_window() is None or not field.focus:
            self.detach()
        else:
            self.place()

    def on_touch_down(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos):
            # A tap on a key is no tap beside the field: Kivy then keeps the field's focus
            # (a tap anywhere else ends the typing, and goes on to what it was on).
            FocusBehavior.ignored_touch.append(touch)
            super().on_touch_down(touch)
            return True
        return False

    # --- typing ---

    def press(self, key: str) -> None:
        field = self.target
        if field is None:
            return
        if key == "Shift":
            self.shift = not self.shift
        elif key in KEY_LAYERS:
            self.layer = "abc" if self.layer == key else key
        elif key == "Done":
            field.focus = False
            field.dispatch("on_text_validate")
        else:
            if key == "Del":
                field.do_backspace()
            elif key == "Clear":
                field.text = ""
            else:
                field.insert_text(" " if key == "Space" else key)
            self.shift = field.capitalise and self._at_word_start()

    def _at_word_start(self) -> bool:
        field = self.target
        before = field.text[:field.cursor_index()] if field is not None else ""
        return not before.strip() or before.endswith((" ", "-"))


def capital(character: str) -> str:
    upper = character.upper()
    return upper if len(upper) == 1 else character  # ß has no one-letter capital


_kivy_adjust_viewport = TextInput._adjust_viewport.__wrapped__
"""Kivy's viewport adjustment itself, without the trigger it shares among all fields."""


class KeyedTextInput(TextInput):
    """A one-line text field that brings the on-screen keys when it is tapped. Every text field
    of the app is one (tests/ui/test_keys_ui.py walks the screens to hold that)."""

    capitalise = BooleanProperty(False)
    """Each word starts with a capital unless the player taps Shift (for names)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("multiline", False)
        kwargs.setdefault("write_tab", False)
        self._viewport_cursor = (0, 0)
        self._trigger_viewport = Clock.create_trigger(self._adjust_viewport_now, -1)
        super().__init__(**kwargs)

    def _adjust_viewport(self, cc: int, cr: int) -> None:
        # Kivy's own is one trigger for every TextInput of the process: it keeps the last field
        # to ask (and through it that field's screen, and once closed, its whole app) for good,
        # and when two fields ask in one frame only the last one scrolls. Each field its own.
        self._viewport_cursor = (cc, cr)
        self._trigger_viewport()

    def _adjust_viewport_now(self, _dt: float) -> None:
        _kivy_adjust_viewport(self, *self._viewport_cursor)

    def on_focus(self, _instance: Any, focused: bool) -> None:
        if focused:
            KeyPanel.shared().attach(self)
        else:
            KeyPanel.shared().detach(self)
