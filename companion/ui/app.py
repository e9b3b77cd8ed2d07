"""The Kivy app: loads the layouts once, holds the game's state for the screens, sends commands.

Every tap becomes a driver command (the same JSON a script sends). The service writes it to
disk before it answers, and only then do the screens change, so pulling the plug loses nothing.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.properties import (
    BooleanProperty,
    DictProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager

from .. import i18n
from ..driver import ScriptDriver
from ..i18n import N_, _
from ..service import GameService
from . import charts, screens, widgets  # noqa: F401  (charts, widgets: named in the kv files)
from .reader_link import ReaderLink
from .theme import THEMES, rgba
from .translator import tr

log = logging.getLogger(__name__)

LAYOUTS_DIR = Path(__file__).resolve().parents[2] / "layouts"
STYLE_FILE = "style.kv"  # the shared classes and the app's root; loaded first
# Each screen: its class and its layout file. A screen (and its file) is built the first time
# it is needed, so the app shows Home without paying for the table, the setup form and the
# rest; the table is then built while the players look at Home.
SCREENS: dict[str, tuple[type[Screen], str]] = {
    "home": (screens.HomeScreen, "home.kv"),
    "new_game": (screens.NewGameScreen, "new_game.kv"),
    "checklist": (screens.ChecklistScreen, "checklist.kv"),
    "table": (screens.TableScreen, "table.kv"),
    "end": (screens.EndScreen, "end.kv"),
    "history": (screens.HistoryScreen, "history.kv"),
    "history_detail": (screens.HistoryDetailScreen, "history_detail.kv"),
    "statistics": (screens.StatisticsScreen, "statistics.kv"),
    "tags": (screens.TagsScreen, "tags.kv"),
    "rules": (screens.RulesScreen, "rules.kv"),
}
BUILT_AHEAD = "table"  # built right after the first frame: the screen the evening is spent on

LANGUAGE_CODES = {name: code for code, name in i18n.LANGUAGES.items()}

TEXT_SCALES = {"small": 0.85, "normal": 1.0, "large": 1.2, "largest": 1.4}

SETTINGS: list[dict[str, Any]] = [
    {"type": "title", "title": N_("Table")},
    {"type": "options", "title": N_("Language"),
     "desc": N_("The app's texts and the rules entries (Deutsch, Français)"),
     "section": "companion", "key": "language", "options": list(i18n.LANGUAGES.values())},
    {"type": "options", "title": N_("Text size"),
     "desc": N_("Larger text shrinks only where a box is full"),
     "section": "companion", "key": "text_size", "options": list(TEXT_SCALES)},
    {"type": "options", "title": N_("Theme"),
     "desc": N_("Night is dim red on black for a dark room"),
     "section": "companion", "key": "theme", "options": list(THEMES)},
    {"type": "bool", "title": N_("Confirm destructive actions"),
     "desc": N_("Ask before abandoning a game, declaring defeat or deleting history"),
     "section": "companion", "key": "confirm"},
    {"type": "bool", "title": N_("Spirit-phase timer"),
     "desc": N_("Show how long the Spirit phase has taken"),
     "section": "companion", "key": "spirit_timer"},
    {"type": "numeric", "title": N_("Spirit-phase limit (minutes)"),
     "desc": N_("0 for no limit; the timer turns red past it"),
     "section": "companion", "key": "spirit_timer_limit"},
    {"type": "bool", "title": N_("Full screen"), "desc": N_("Use the whole display"),
     "section": "companion", "key": "fullscreen"},
    {"type": "title", "title": N_("Card reader")},
    {"type": "string", "title": N_("Reader port"),
     "desc": N_("off, auto, or a port such as /dev/serial0, /dev/ttyUSB0, /dev/rfid-reader, "
                "hwgrep://… (see hardware/README.md)"),
     "section": "reader", "key": "port"},
    {"type": "options", "title": N_("Reader family"),
     "desc": N_("PN532 (NFC), EM4100 (RDM6300, ID-12LA) or a line bridge (Arduino with an "
                "MFRC522)"),
     "section": "reader", "key": "family", "options": ["auto", "pn532", "em4100", "line"]},
    {"type": "string", "title": N_("Line bridge pattern"),
     "desc": N_("Empty for the usual formats; else a regular expression with one group around "
                "the UID"),
     "section": "reader", "key": "line_pattern"},
]

DEFAULTS = {"language": "English", "text_size": "normal", "theme": "dark", "confirm": 1,
            "spirit_timer": 0, "spirit_timer_limit": 0, "fullscreen": 0}

READER_DEFAULTS = {"port": "off", "family": "auto", "line_pattern": ""}

APP_TITLE = N_("Spirit Island companion")

SHORTCUT_KEYS = {32: "done", 13: "done", 271: "done"}  # space, enter, keypad enter


class AppRoot(FloatLayout):
    """The screens, with the notice line for refused commands drawn over them."""


class CompanionApp(App):
    title = APP_TITLE
    game_state = DictProperty({}, allownone=True)
    """The driver's view of the game (the same JSON a script gets), {} before any game."""
    notice = StringProperty("")
    """Why the last command was refused, shown until the next command."""
    text_scale = NumericProperty(1.0)
    """Multiplies every font size (the text-size setting)."""
    colours = DictProperty({})
    """The theme's colours as Kivy RGBA lists, by role."""
    confirm_destructive = BooleanProperty(True)
    """Ask before abandoning, declaring defeat or deleting history."""
    spirit_timer = BooleanProperty(False)
    """Show the Spirit-phase timer."""
    spirit_timer_limit = NumericProperty(0)
    """The Spirit phase's limit in minutes (0: none)."""
    service = ObjectProperty(None)
    """The game service the app drives."""
    reader_status = StringProperty("Card reader: off")
    """Whether a card reader is connected, and where (the reader link writes it, in the
    language in use)."""
    read_message = StringProperty("")
    """What the last card laid on the reader was taken as; a tap clears it."""

    def __init__(self, service: GameService, config_dir: Path | None = None,
                 notices: list[str] | None = None, **kwargs: Any) -> None:
        self._config_dir = config_dir
        super().__init__(**kwargs)
        self.service = service
        self.driver = ScriptDriver(service)
        self.catalogue: dict[str, Any] = service.handle(service.parse({"cmd": "catalogue"})) \
            .extra["catalogue"]
        self.start_notices = list(notices or [])
        self.use_kivy_settings = False
        self.colours = {role: rgba(colour) for role, colour in THEMES["dark"].items()}
        self._building_ahead: Any = None
        self.reader_link = ReaderLink(self)
        self._rules_index: Any = None

    # --- configuration ---

    def get_application_config(self, defaultpath: str = "%(appdir)s/%(appname)s.ini") -> str:
        if self._config_dir is None:
            return str(super().get_application_config(defaultpath))
        return str(self._config_dir / "companion.ini")

    def build_config(self, config: Any) -> None:
        config.setdefaults("companion", DEFAULTS)
        config.setdefaults("reader", READER_DEFAULTS)

    def build_settings(self, settings: Any) -> None:
        shown = [{key: _(value) if key in ("title", "desc") else value
                  for key, value in item.items()} for item in SETTINGS]
        settings.add_json_panel(_("Companion"), self.config, data=json.dumps(shown))

    def on_config_change(self, config: Any, section: str, key: str, value: Any) -> None:
        if section == "companion":
            self.apply_settings()
        elif section == "reader":
            self.apply_reader_settings()

    def switch_language(self, lang: str) -> None:
        """Every screen in `lang` at once: the layouts' texts through their bindings, the
        texts worked out in Python by refreshing what is built."""
        if lang == i18n.language():
            return
        tr.switch(lang)
        self.driver.set_language(lang)
        self.destroy_settings()  # its titles are built in a language: the next opening rebuilds
        self.title = _(APP_TITLE)
        self.reader_link.retranslate()
        if self.game_state:
            self.game_state = self.driver.state() or {}
        if not hasattr(self, "screens"):
            return  # before the first build: the layouts come up in the new language
        if self.screens.has_screen("rules"):
            self.screens.get_screen("rules").lang = lang
        if self.screens.has_screen("table") and self.game_state:
            self.screens.get_screen("table").refresh(self.game_state, [])
        if self.screens.has_screen("home"):
            self.screens.get_screen("home").refresh()
        for name in ("new_game", "checklist", "end", "history", "history_detail", "statistics",
                     "tags"):
            if self.screens.has_screen(name):
                self.screens.get_screen(name).retranslate()

    def apply_reader_settings(self) -> None:
        section = self.config["reader"]
        self.reader_link.configure(section.get("port", "off"), section.get("family", "auto"),
                                   section.get("line_pattern", ""))

    def apply_settings(self) -> None:
        section = self.config["companion"]
        self.switch_language(LANGUAGE_CODES.get(section.get("language", ""), "en"))
        self.text_scale = TEXT_SCALES.get(section.get("text_size", "normal"), 1.0)
        theme = THEMES.get(section.get("theme", "dark"), THEMES["dark"])
        self.colours = {role: rgba(colour) for role, colour in theme.items()}
        Window.clearcolor = self.colours["background"]
        self.confirm_destructive = section.get("confirm", "1") in ("1", 1, True, "True")
        self.spirit_timer = section.get("spirit_timer", "0") in ("1", 1, True, "True")
        try:
            self.spirit_timer_limit = max(0, int(float(section.get("spirit_timer_limit", 0))))
        except ValueError:
            self.spirit_timer_limit = 0
        fullscreen = section.get("fullscreen", "0") in ("1", 1, True, "True")
        Window.fullscreen = "auto" if fullscreen else False

    # --- building ---

    def build(self) -> AppRoot:
        self.apply_settings()
        _load_layout(STYLE_FILE)
        root = AppRoot()
        self.screens: ScreenManager = root.ids.screens
        self.screens.transition = NoTransition()
        Window.bind(on_key_down=self._on_key_down)
        self.reload_state()
        if self.start_notices:
            self.notice = " ".join(self.start_notices)
        return root

    def on_start(self) -> None:
        self.show("home")
        Window.bind(on_flip=self._build_ahead)

    def _build_ahead(self, *_: Any) -> None:
        """After the first frame is on the screen, build the table while Home is looked at."""
        Window.unbind(on_flip=self._build_ahead)
        self._building_ahead = Clock.schedule_once(self._after_first_frame)

    def _after_first_frame(self, _dt: float) -> None:
        self.screen(BUILT_AHEAD)
        self.apply_reader_settings()  # pyserial and the reader's threads only now

    def on_stop(self) -> None:
        self.reader_link.stop()

    def screen(self, name: str) -> Any:
        """The screen called `name`, built (with its layout file) the first time it is asked for."""
        if not self.screens.has_screen(name):
            screen_class, layout = SCREENS[name]
            _load_layout(layout)
            self.screens.add_widget(screen_class(name=name))
        return self.screens.get_screen(name)

    def detach(self) -> None:
        """Take this app off the window without closing it, so another can use it (tests)."""
        Window.unbind(on_key_down=self._on_key_down, on_flip=self._build_ahead)
        if self._building_ahead is not None:
            self._building_ahead.cancel()
        if self.screens.has_screen("table"):
            self.screens.get_screen("table").stop_timer()
        self.dispatch("on_stop")  # kv's `app` forgets this app when it stops
        # Kivy keeps one settings object named "app" per process and hands it to the next app;
        # unnamed, it goes with this app, and the next reads its own companion.ini.
        self.config.name = ""
        if self.root is not None:
            Window.remove_widget(self.root)
        App._running_app = None

    # --- the game ---

    def reload_state(self) -> None:
        """Take the game state afresh from the service (after abandon, delete, resume)."""
        self.game_state = self.driver.state() or {}

    def send(self, command: dict[str, Any]) -> bool:
        """Carry out one command. True when it was accepted (and is on disk)."""
        return bool(self.carry_out(command)["ok"])

    def carry_out(self, command: dict[str, Any]) -> dict[str, Any]:
        """Carry out one command and return the driver's answer; a refusal goes on the notice
        line, an acceptance onto the screens."""
        answer = self.driver.handle(command)
        if not answer["ok"]:
            self.notice = _("Not done: {reason}").format(reason=answer["error"])
            log.info("refused %s: %s", command, answer["error"])
            return answer
        self.notice = ""
        was_over = self.game_state.get("phase") == "over"
        self.game_state = answer["state"] or {}
        self.screen("table").refresh(self.game_state, answer["events"])
        if not was_over and self.game_state.get("phase") == "over" \
                and self.screens.current == "table":
            self.show("end")
        return answer

    def service_call(self, command: dict[str, Any]) -> dict[str, Any]:
        """A service command (games, stats, delete …) whose answer the screen reads."""
        answer = self.driver.handle(command)
        if not answer["ok"]:
            self.notice = _("Not done: {reason}").format(reason=answer["error"])
        return answer

    def show(self, name: str) -> None:
        self.screen(name)
        self.screens.current = name

    def dismiss_notice(self) -> None:
        self.notice = ""

    def dismiss_read_message(self) -> None:
        self.read_message = ""

    def rules_index(self) -> Any:
        """The rules search, opened the first time it is needed (its index is cached on disk)."""
        if self._rules_index is None:
            from ..rules.search import RulesIndex

            self._rules_index = RulesIndex.open()
        return self._rules_index

    def rules_for_step(self) -> None:
        """The table's "?": the rules entries for the step the game is in."""
        state = self.game_state
        rules = self.screen("rules")
        rules.return_to = self.screens.current
        if state:
            entries = self.rules_index().for_step(state["phase"], state["step"], rules.lang)
            rules.list_entries(entries)
            if len(entries) == 1:
                rules.open_entry(entries[0].id)
        self.show("rules")

    def enrol_tag(self, uid: str) -> None:
        """Open the enrolment screen on a tag just read."""
        self.show("tags")
        self.screen("tags").tag_read(uid)

    # --- keyboard ---

    def _on_key_down(self, _window: Any, key: int, _scancode: int, codepoint: str | None,
                     modifiers: list[str]) -> bool:
        if self.screens.current != "table" or _popup_open():
            return False
        table = self.screen("table")
        ctrl = "ctrl" in modifiers or "meta" in modifiers
        if ctrl and codepoint == "z":
            self.send({"cmd": "undo"})
        elif ctrl and codepoint == "y":
            self.send({"cmd": "redo"})
        elif not ctrl and codepoint == "f":
            self.send({"cmd": "fear", "amount": 1})
        elif SHORTCUT_KEYS.get(key) == "done":
            table.act()
        else:
            return False
        return True


def _load_layout(name: str) -> None:
    """Load one layout file unless it is loaded (a second load would apply its rules twice)."""
    path = str(LAYOUTS_DIR / name)
    if path not in Builder.files:
        Builder.load_file(path)


def _popup_open() -> bool:
    from kivy.uix.modalview import ModalView

    return any(isinstance(child, ModalView) for child in Window.children)
