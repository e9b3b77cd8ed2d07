"""The settings screen, built for fingers at arm's length: big choices, a stepper for numbers,
the screen's own keys for the little text there is.

Every change is written to companion.ini (the same sections and keys Kivy's panel used) and
handed to `App.on_config_change`, so it takes effect at once. Layout in layouts/settings.kv.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import (
    BooleanProperty,
    DictProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from ..core.game import GameListing, Setting
from ..i18n import N_, _
from .display import screen_rotation
from .reader_link import line_pattern_problem
from .widgets import FitButton, InstantPopup

# The settings the screen shows: "section/key" as in companion.ini; each game's own
# (`Game.settings`) follow, under its name: only the game's in play, or, while no game is
# played, every game's (chosen ahead for the next game; they act only while it is played).
SHARED_KEYS = ("companion/language", "companion/text_size", "companion/theme",
               "companion/confirm", "companion/fullscreen", "companion/rotation",
               "companion/night_dim", "sleep/dim_after", "sleep/off_after", "sleep/night",
               "reader/port", "reader/family", "reader/line_pattern",
               "reader/removal_after", "mirror/on",
               "voice/enabled", "voice/volume", "voice/news_only",
               "companion/palette")


def games_with_settings(in_play: str = "") -> list[GameListing]:
    """The games whose settings the screen shows: the one in play (`in_play`, its id), or every
    game with settings while none is played."""
    from ..games.registry import GAMES

    return [game for game in GAMES.listed()
            if game.settings and (not in_play or game.id == in_play)]


KEYS = SHARED_KEYS + tuple(setting.key for game in games_with_settings()
                           for setting in game.settings)

# Ports a Pi's reader is usually found on, offered when they exist: the UART on the GPIO pins
# and the name hardware/README.md's udev rule gives a USB reader.
WELL_KNOWN_PORTS = ("/dev/serial0", "/dev/rfid-reader")
PORT_OFF, PORT_AUTO = "off", "auto"
PORT_WORDS = {PORT_OFF: N_("Off"), PORT_AUTO: N_("Find it by itself")}


def app() -> Any:
    return App.get_running_app()


def port_choices(detected: Iterable[tuple[str, str]], exists: Callable[[str], bool],
                 current: str) -> list[list[str]]:
    """The reader ports to offer, as [value, label]: off, automatic, the well-known ports that
    exist, the serial ports found (with what they say they are), and the port set now when it
    is none of these (a URL typed under Advanced, a USB reader unplugged)."""
    choices = [[PORT_OFF, _(PORT_WORDS[PORT_OFF])], [PORT_AUTO, _(PORT_WORDS[PORT_AUTO])]]
    choices += [[port, port] for port in WELL_KNOWN_PORTS if exists(port)]
    for device, description in detected:
        if any(value == device for value, _label in choices):
            continue
        said = description.strip()
        label = f"{device}\n{said}" if said and said not in ("n/a", device) else device
        choices.append([device, label])
    if current and all(value != current for value, _label in choices):
        choices.append([current, current])
    return choices


def detected_ports() -> list[tuple[str, str]]:
    """The serial ports the system lists now (pyserial is imported only when asked)."""
    from serial.tools import list_ports

    return [(port.device, port.description or "") for port in list_ports.comports()]


def address_label(port: str) -> str:
    """What the Advanced address button reads: the address typed there, else an invitation
    (a port chosen from the list is shown in the list)."""
    return port if "://" in port else _("Type an address")


class SettingChoice(FitButton):
    """One choice of a setting; the chosen one is drawn in the accent colour."""

    value = StringProperty("")
    """The value stored when it is chosen."""
    selected = BooleanProperty(False)
    """This is the value stored now."""


class SettingRow(BoxLayout):
    """A setting's name and a line on what it does, beside (or, when narrow, above) its control
    (the row's last child in the layout)."""

    title = StringProperty("")
    """The setting's name."""
    hint = StringProperty("")
    """What it does, in a line; empty for none."""
    wide = BooleanProperty(True)
    """Words beside the control (landscape) rather than above it."""
    words_height = NumericProperty(0)
    """The height the words need (the layout works it out from the text size)."""

    def on_kv_post(self, *_args: Any) -> None:
        self.children[0].bind(height=self._fit)
        self.bind(wide=self._fit, words_height=self._fit)
        self._fit()

    def _fit(self, *_args: Any) -> None:
        control = self.children[0]
        if self.wide:
            self.height = max(control.height, self.words_height)
        else:
            self.height = self.words_height + self.spacing + control.height


class ChoiceRow(SettingRow):
    """A setting with a few values, each a big button; tapping one dispatches `on_choose`."""

    options = ListProperty([])
    """[value, label] pairs, in the order shown."""
    value = StringProperty("")
    """The value stored now."""
    columns = NumericProperty(4)
    """Buttons in a line before the next line starts."""

    __events__ = ("on_choose",)

    def on_kv_post(self, *args: Any) -> None:
        self.bind(options=self._build, columns=self._build, value=self._mark)
        self._build()
        super().on_kv_post(*args)

    def _build(self, *_args: Any) -> None:
        grid = self.ids.choices
        buttons = list(reversed(grid.children))
        if [button.value for button in buttons] == [value for value, _label in self.options]:
            for button, (_value, label) in zip(buttons, self.options, strict=True):
                button.text = label  # the same choices in another language: no rebuilding
        else:
            grid.clear_widgets()
            for value, label in self.options:
                button = SettingChoice(value=value, text=label)
                button.bind(on_release=self._chosen)
                grid.add_widget(button)
        grid.cols = max(1, min(int(self.columns), len(self.options)))
        self._mark()

    def _mark(self, *_args: Any) -> None:
        for button in self.ids.choices.children:
            button.selected = button.value == self.value

    def _chosen(self, button: SettingChoice) -> None:
        self.dispatch("on_choose", button.value)

    def on_choose(self, value: str) -> None:
        """A value was tapped."""


class SettingsScreen(Screen):
    """The app's settings, each change stored and applied at once."""

    values = DictProperty({key: "" for key in KEYS})
    """The stored settings as companion.ini has them, by "section/key" (the layout reads them
    by subscript: kv does not follow a dict's .get())."""
    ports = ListProperty([])
    """The reader ports to choose from, as [value, label] pairs."""
    port_text = StringProperty("")
    """What the Advanced address button reads (the address typed, or an invitation)."""
    return_to = StringProperty("home")
    """The screen the players came from; Close and Escape go back there."""

    def on_kv_post(self, *_args: Any) -> None:
        self.show_game_settings()
        self.bind(size=self._fit_game_settings)

    def on_pre_enter(self, *_args: Any) -> None:
        if self._games_shown != app().game_in_play():
            self.show_game_settings()
        self.refresh()
        self.find_ports()
        self.ids.scroll.scroll_y = 1  # from the top, the language first, each time it opens

    def refresh(self) -> None:
        config = app().config
        values = {key: config.get(*key.split("/")) for key in KEYS}
        # Never chosen: the rotation in use is the installer's.
        values["companion/rotation"] = str(screen_rotation(values["companion/rotation"]))
        self.values = values
        self.port_text = address_label(self.values["reader/port"])
        for setting, control in self._game_controls:
            stored = values[setting.key]
            if setting.kind == "number":
                control.value = int(float(stored or 0))
            else:
                control.value = stored

    def retranslate(self) -> None:
        """The words worked out in Python (the ports', the games' settings') in the language in
        use."""
        self.port_text = address_label(self.values.get("reader/port", PORT_OFF))
        self.find_ports(detect=False)
        self.show_game_settings()

    def show_game_settings(self) -> None:
        """Each game's own settings under a heading with its name, drawn with the screen's
        widgets: a switch as On and Off, a number with − and +."""
        box = self.ids.game_settings
        box.clear_widgets()
        for setting, _control in getattr(self, "_game_controls", []):
            self.ids.pop(setting.key.split("/")[1], None)
        self._game_controls: list[tuple[Setting, Any]] = []
        self._game_rows: list[Any] = []
        self._games_shown = app().game_in_play()
        for game in games_with_settings(self._games_shown):
            box.add_widget(Factory.SettingHeading(text=_(game.name)))
            for setting in game.settings:
                row, control = self._setting_row(setting)
                box.add_widget(row)
                self.ids[setting.key.split("/")[1]] = control
                self._game_controls.append((setting, control))
                self._game_rows.append(row)
        self._fit_game_settings()
        if self.values.get(SHARED_KEYS[0]):
            self.refresh()

    def _setting_row(self, setting: Setting) -> tuple[Any, Any]:
        """A row for one game setting and its control (what a test or the refresh sets)."""
        title, hint = _(setting.label), _(setting.help) if setting.help else ""
        if setting.kind == "switch":
            row = Factory.OnOffRow(title=title, hint=hint)
            row.bind(on_choose=lambda _row, value: self.choose(setting.key, value))
            return row, row
        if setting.kind == "number":
            stepper = Factory.Stepper()
            row = SettingRow(title=title, hint=hint)
            row.add_widget(stepper)
            row.on_kv_post()
            stepper.bind(value=lambda _stepper, value: self.choose(setting.key, int(value)))
            return row, stepper
        raise ValueError(f"a game setting of an unknown kind: {setting.kind!r} ({setting.key})")

    def _fit_game_settings(self, *_args: Any) -> None:
        for row in getattr(self, "_game_rows", []):
            row.wide = self.width > self.height

    def find_ports(self, detect: bool = True) -> None:
        if detect or not hasattr(self, "_detected"):
            try:
                self._detected = detected_ports()
            except (ImportError, OSError):  # no pyserial, or no way to list ports here
                self._detected = []
        self.ports = port_choices(self._detected, lambda port: Path(port).exists(),
                                  self.values.get("reader/port", PORT_OFF))

    def choose(self, key: str, value: Any) -> None:
        """Store `value` for "section/key" and let the app apply it."""
        value = str(value)
        if self.values.get(key) == value:
            return
        section, name = key.split("/")
        app().change_setting(section, name, value)
        self.refresh()
        if key == "reader/port":
            self.find_ports(detect=False)

    def type_text(self, key: str, title: str, hint: str) -> None:
        """Open the screen's keys to type the text setting `key`."""
        current = self.values.get(key, "")
        if key == "reader/port" and "://" not in current:
            current = ""

        def done(text: str) -> str | None:
            text = text.strip()
            problem = line_pattern_problem(text) if key == "reader/line_pattern" else None
            if problem is None:
                self.choose(key, (text or PORT_OFF) if key == "reader/port" else text)
            return problem

        TextEntry(title=title, hint=hint, text=current, when_done=done).open()

    def renew_mirror_address(self) -> None:
        """A new secret in the phones' address (those with the old code stop following)."""
        app().apply_mirror_settings(new_address=True)

    def open_system(self) -> None:
        """The System screen, whose Back comes here."""
        app().screen("system").return_to = "settings"
        app().show("system")

    def close(self) -> None:
        app().close_settings()


# --- typing on the screen ------------------------------------------------------------------

class TextEntry(InstantPopup):
    """Type a short text with the on-screen keys (a real keyboard works too)."""

    text = StringProperty("")
    """What is typed so far."""
    hint = StringProperty("")
    """What to type, with an example."""
    when_done = ObjectProperty(None)
    """Called with the text on OK; what it returns, if anything, is a problem with the text
    (the popup stays open and says it, and nothing typed is lost)."""
    problem = StringProperty("")
    """What is wrong with the text last confirmed, in the players' words."""

    def on_open(self) -> None:
        self.ids.typed.focus = True  # its keys come up at once

    def on_text(self, *_args: Any) -> None:
        self.problem = ""

    def done(self) -> None:
        problem = self.when_done(self.text) if self.when_done else None
        if problem:
            self.problem = problem
            self.ids.typed.focus = True  # the keys again, to put it right
            return
        self.dismiss()
