"""The Kivy app: loads the layouts once, holds the game's state for the screens, sends commands.

Every tap becomes a driver command (the same JSON a script sends). The service writes it to
disk before it answers, and only then do the screens change, so pulling the plug loses nothing.
"""

from __future__ import annotations

import gc
import importlib
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.properties import (
    BooleanProperty,
    DictProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager

from .. import i18n
from ..core.game import Setting
from ..i18n import N_, _
from ..resources import layouts_dir
from . import charts, keys, kivy_fixes, mirror_badge, settings_screen, widgets  # noqa: F401  (charts, keys, mirror_badge, widgets: named in kv)
from .boundary import ScreenBoundary
from .checklist_screen import ChecklistScreen
from .display import draws_on_screen, screen_rotation
from .history_screens import HistoryDetailScreen, HistoryScreen, StatisticsScreen
from .home_screen import HomeScreen, unfinished
from .new_game_screen import NewGameScreen
from .reader_link import ReaderLink
from .rules_screen import RulesScreen
from .tags_screen import TagsScreen
from .theme import THEMES, rgba
from .translator import tr

if TYPE_CHECKING:  # imported when the database is opened, after the first frame
    from ..backlight import Backlight
    from ..driver import ScriptDriver
    from ..service import GameService

log = logging.getLogger(__name__)

LAYOUTS_DIR = layouts_dir()
STYLE_FILE = "style.kv"  # the shared classes and the app's root; loaded first
KEYS_FILE = "keys.kv"  # the on-screen keys of every text field
MIRROR_FILE = "mirror.kv"  # the phones' code, on Home and beside the table's menus
BOUNDARY_FILE = "boundary.kv"  # the panel after a screen's code failed
KIT_FILE = "table_kit.kv"  # the table kit's parts; loaded before any game's screen
# Each shared screen: its class and its layout file. A screen (and its file) is built the first
# time it is needed, so the app shows Home without paying for the table, the setup form and the
# rest; the table is then built while the players look at Home. A game's own screens (its table,
# its new-game form, its others) come from its folder through the registry (see game_screen).
SCREENS: dict[str, tuple[type[Screen], str]] = {
    "home": (HomeScreen, "home.kv"),
    "new_game": (NewGameScreen, "new_game.kv"),
    "checklist": (ChecklistScreen, "checklist.kv"),
    "history": (HistoryScreen, "history.kv"),
    "history_detail": (HistoryDetailScreen, "history_detail.kv"),
    "statistics": (StatisticsScreen, "statistics.kv"),
    "tags": (TagsScreen, "tags.kv"),
    "rules": (RulesScreen, "rules.kv"),
    "settings": (settings_screen.SettingsScreen, "settings.kv"),
}
DEFAULT_TABLE = "table"
"""The default game's table screen (Spirit Island's), named as before there were two games; it
is built right after the first frame: the screen the evening is spent on."""
# Then, one a frame while Home is looked at, the rest (and the default game's other screens):
# every screen opens the first time as fast as the next (a build costs up to a tenth of a second
# here, several on a Pi).
BUILT_LATER = ("new_game", "checklist", "rules", "history", "tags")

IDLE_COLLECT_S = 3.0
"""Seconds after the last command when the garbage collector runs (see _collect_while_idle)."""

LANGUAGE_CODES = {name: code for code, name in i18n.LANGUAGES.items()}

TEXT_SCALES = {"small": 0.85, "normal": 1.0, "large": 1.2, "largest": 1.4}

# The app's settings in companion.ini: their sections and keys are those of earlier versions,
# whose files must keep working. Each game's own (`Game.settings`) are added from the registry.
DEFAULTS = {"language": "English", "text_size": "normal", "theme": "dark", "confirm": 1,
            "fullscreen": 0, "rotation": "", "night_dim": 1}
"""rotation: "" follows COMPANION_ROTATION (the installer's --rotate), else 0/90/180/270.
night_dim: turn the panel's backlight down with the night theme, where it can be set."""

READER_DEFAULTS = {"port": "off", "family": "auto", "line_pattern": "", "removal_after": "0.4"}

MIRROR_DEFAULTS = {"on": 0, "token": ""}
"""The phones' view: off unless switched on; the secret in its address (kept across a restart
of the app, new each time it is switched on or on demand)."""
MIRROR_NO_PORT = N_("The game cannot be shown on phones: no network port is free ({reason}).")

NEW_GAME_DEFAULTS = {"expansions": "all", "last": "", "last_by_game": ""}
"""The new-game screen's memory: the expansions in play, the last game's choices (JSON) and
each game's own last choices (JSON, by game id), so that playing one game keeps another's."""

APP_TITLE = N_("Table companion")
# A database that could not be used was moved aside on opening: what the players read (what
# was wrong with it, in SQLite's words, goes to the log).
DATABASE_UNUSABLE = N_("The games file cannot be opened, so nothing can be saved: {reason}")
DATABASE_SET_ASIDE = N_("The games file could not be read; it was kept as {name} and a new one "
                        "was started.")
DATABASE_READ_ONLY = N_("The games file cannot be written, so nothing will be saved: games can "
                        "be looked at and resumed until space is freed or the file may be "
                        "written again.")
DATABASE_IN_USE = N_("The games are open in another companion (process {pid}), so nothing will "
                     "be saved here: games can be looked at and resumed. Close the other one "
                     "and start this one again to play.")
DATABASE_NEWER = N_("The games file was made by a newer version of the companion, so nothing "
                    "will be saved: games can be looked at and resumed. Update the companion "
                    "to play on.")
GAMES_SET_ASIDE = N_("A saved game could not be replayed from its log; it was kept, marked "
                     "unreadable, and is not resumed.")


class AppRoot(FloatLayout):
    """The screens, with the notice line for refused commands drawn over them."""


class CompanionApp(App):
    title = APP_TITLE
    builds_ahead = True
    """Build the other screens while Home is shown, and tidy memory while the players pause
    (the tests, many apps in one process, turn it off)."""
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
    service = ObjectProperty(None)
    """The game service the app drives."""
    reader_status = StringProperty("Card reader: off")
    """Whether a card reader is connected, and where (the reader link writes it, in the
    language in use)."""
    read_message = StringProperty("")
    """What the last card laid on the reader was taken as; a tap clears it."""
    mirror_url = StringProperty("")
    """The phones' address while the mirror is on ("" while it is off)."""
    mirror_port = 8765
    """Where the mirror listens first (tests: 0, any free port)."""
    expansions = ListProperty([])
    """The expansions the table plays with: the fear and blight pickers list their cards
    (chosen on the new-game screen, kept in companion.ini)."""

    def __init__(self, service: GameService | None = None, config_dir: Path | None = None,
                 notices: list[str] | None = None,
                 open_service: Callable[[], GameService] | None = None,
                 when_ready: Callable[[], object] | None = None,
                 backlight: Backlight | None = None, safe_start: int = 0,
                 **kwargs: Any) -> None:
        """The app over `service`, or over the one `open_service` opens once the first frame
        is on the screen (the database and its library cost a sixth of the start).
        `notices`: lines for the players, in their words, shown at the start (a database
        moved aside is told from the service's store).
        `when_ready`: called once the first frame is on the screen and the games are open
        (the appliance tells systemd it is up). `backlight`: the panel's light, dimmed with
        the night theme (None: a screen whose light the app cannot set). `safe_start`: how many
        starts in a row died just after starting (0: this is a plain start); the service was
        opened without resuming, and Home says so and offers the last game."""
        from ..games.registry import DEFAULT_GAME, GAMES

        kivy_fixes.apply()
        self._config_dir = config_dir
        self.safe_start = safe_start
        self.held_game: int | None = None
        """After a safe start: the game the table was last playing, saved and not resumed."""
        super().__init__(**kwargs)
        self.driver: ScriptDriver | None = None
        self._open_service = open_service
        self._when_ready = when_ready
        self.backlight = backlight
        self._catalogue: dict[str, Any] | None = None
        self.catalogue_game = DEFAULT_GAME
        self.game_names = {game.id: game.name for game in GAMES.listed()}
        """Every game's name, by id, in the registry's order."""
        self.start_notices = list(notices or [])
        if service is not None:
            self._attach(service)
        self.colours = {role: rgba(colour) for role, colour in THEMES["dark"].items()}
        self._building_ahead: Any = None
        self._collecting: Any = None
        self.reader_link = ReaderLink(self)
        self._rules_index: Any = None
        self._mirror: Any = None
        self._command_events: list[dict[str, Any]] | None = None
        """The events of the command whose state is published next (None: no command's)."""
        self.boundary = ScreenBoundary(self)
        """Where a screen's failure ends: a panel, the log, and the app goes on."""

    # --- configuration ---

    def get_application_config(self, defaultpath: str = "%(appdir)s/%(appname)s.ini") -> str:
        if self._config_dir is None:
            return str(super().get_application_config(defaultpath))
        return str(self._config_dir / "companion.ini")

    def build_config(self, config: Any) -> None:
        config.setdefaults("companion", DEFAULTS)
        config.setdefaults("reader", READER_DEFAULTS)
        config.setdefaults("newgame", NEW_GAME_DEFAULTS)
        config.setdefaults("mirror", MIRROR_DEFAULTS)
        for setting in all_game_settings():
            section, option = setting.key.split("/")
            config.setdefaults(section, {option: setting.default})

    def game_in_play(self) -> str:
        """The id of the game being played: the game shown is unfinished; "" when none is."""
        state = self.game_state
        return str(state.get("title", "")) if state and unfinished(state) else ""

    def game_setting(self, game_id: str, key: str) -> bool | int:
        """One of `game_id`'s own settings (its `Setting.key`, "section/option") as it acts
        now: as stored while that game is played, its default otherwise, so that nothing of a
        game acts while another is played. KeyError for a setting the game does not have."""
        setting = game_setting_named(game_id, key)
        if game_id != self.game_in_play():
            return setting.value(setting.default)
        return setting.value(self.config.get(*key.split("/")))

    def open_settings(self, *_args: Any) -> bool:
        """Show the settings screen (Home's and the table menu's Settings, F1). False when it
        is showing already."""
        if self.screens.current == "settings":
            return False
        settings = self.screen("settings")
        settings.return_to = self.screens.current
        self.show("settings")
        return True

    def close_settings(self, *_args: Any) -> bool:
        """Back from the settings to where the players came from (Close, Escape). False when
        they are not showing."""
        if not hasattr(self, "screens") or self.screens.current != "settings":
            return False
        self.show(self.screen("settings").return_to)
        return True

    def change_setting(self, section: str, key: str, value: str) -> None:
        """Store one setting in companion.ini and apply it at once."""
        self.config.set(section, key, value)
        self.config.write()
        self.dispatch("on_config_change", self.config, section, key, value)

    def on_config_change(self, config: Any, section: str, key: str, value: Any) -> None:
        if section == "companion":
            self.apply_settings()
        elif section == "reader":
            self.apply_reader_settings()
        elif section == "mirror" and key == "on":
            self.apply_mirror_settings(new_address=True)

    def switch_language(self, lang: str) -> None:
        """Every screen in `lang` at once: the layouts' texts through their bindings, the
        texts worked out in Python by refreshing what is built."""
        if lang == i18n.language():
            return
        tr.switch(lang)
        if self.driver is not None:
            self.driver.set_language(lang)
        self.title = _(APP_TITLE)
        self.reader_link.retranslate()
        if self.game_state and self.driver is not None:
            self.game_state = self.driver.state() or {}
        if not hasattr(self, "screens"):
            return  # before the first build: the layouts come up in the new language
        if self.screens.has_screen("rules"):
            self.screens.get_screen("rules").lang = lang
        table = self.table_name()
        if table and self.screens.has_screen(table) and self.game_state:
            self.screens.get_screen(table).refresh(self.game_state, [])
        if self.screens.has_screen("home"):
            self.screens.get_screen("home").refresh()
        for screen in list(self.screens.screens):
            if screen.name not in (table, "home") and hasattr(screen, "retranslate"):
                screen.retranslate()

    def apply_reader_settings(self) -> None:
        section = self.config["reader"]
        self.reader_link.configure(*(section.get(key, default)
                                     for key, default in READER_DEFAULTS.items()))

    def apply_mirror_settings(self, new_address: bool = False) -> None:
        """Switch the phones' view on or off as the settings say; `new_address`: a new secret
        in its address (switched on just now, or asked for)."""
        on = self.config.get("mirror", "on") in ("1", 1, True, "True")
        if not on:
            if self._mirror is not None:
                self._mirror.switch_off()
                self._mirror = None
            self.mirror_url = ""
            return
        from ..mirror.access import new_token, usable_token
        from ..mirror.switch import MirrorSwitch

        token = self.config.get("mirror", "token")
        if new_address or not usable_token(token):  # a hand-edited one may be guessable
            token = new_token()
            self.config.set("mirror", "token", token)
            self.config.write()
        mirror = self._mirror or MirrorSwitch(port=self.mirror_port)
        try:
            self.mirror_url = mirror.switch_on(token)
        except OSError as error:
            log.error("the mirror could not listen: %s", error)
            self.notice = _(MIRROR_NO_PORT).format(reason=error.strerror or error)
            self.mirror_url = ""
            return
        self._mirror = mirror
        self.publish_to_mirror()

    def publish_to_mirror(self, *_args: Any) -> None:
        """Hand the state the screen shows to the phones (after every acknowledged command:
        it only queues a reference, so it never holds up a tap)."""
        if self._mirror is None:
            return
        from ..driver import StateSnapshot

        snapshot = StateSnapshot.of(self.service) if self.service and self.game_state else None
        events, self._command_events = self._command_events, None
        self._mirror.publish(snapshot, i18n.language(), dict(self.game_state) or None, events)

    def mirror_beside(self, popup: Any) -> None:
        """The table's menu opens: the phones' code joins it while the mirror is on."""
        from .mirror_badge import badge_beside

        badge_beside(popup, self.mirror_url)

    def apply_settings(self) -> None:
        section = self.config["companion"]
        self.switch_language(LANGUAGE_CODES.get(section.get("language", ""), "en"))
        self.text_scale = TEXT_SCALES.get(section.get("text_size", "normal"), 1.0)
        theme = THEMES.get(section.get("theme", "dark"), THEMES["dark"])
        self.colours = {role: rgba(colour) for role, colour in theme.items()}
        Window.clearcolor = self.colours["background"]
        self.confirm_destructive = section.get("confirm", "1") in ("1", 1, True, "True")
        if self.game_state and self.table_name() and self.screens_built(self.table_name()):
            self.screen(self.table_name()).refresh(self.game_state, [])
        if not draws_on_screen():  # without a desktop the window is the whole screen anyway
            fullscreen = section.get("fullscreen", "0") in ("1", 1, True, "True")
            Window.fullscreen = "auto" if fullscreen else False
        Window.rotation = screen_rotation(section.get("rotation", ""))
        if self.backlight is not None:
            night = section.get("theme") == "night" \
                and section.get("night_dim", "1") in ("1", 1, True, "True")
            if night:
                self.backlight.dim()
            else:
                self.backlight.restore()

    # --- the games database ---

    def _attach(self, service: GameService) -> None:
        from ..driver import ScriptDriver

        self.service = service
        self.driver = ScriptDriver(service, i18n.language())

    def _open_database(self) -> None:
        """Open the games database (after the first frame): the game comes back, Home offers
        to resume it, and a database moved aside is told."""
        if self.driver is not None or self._open_service is None:
            return
        from ..store_errors import StoreError

        try:
            self._attach(self._open_service())
        except StoreError as error:
            log.error("the games database could not be opened: %s", error)
            self.notice = _(DATABASE_UNUSABLE).format(reason=error)
            return
        self.reload_state()
        self._show_start_notices()

    def _show_start_notices(self) -> None:
        if self.service is None:
            return
        if self.safe_start:
            if not self.game_state:
                self.held_game = self.service.store.current_game()
                if self.screens_built("home"):
                    self.screen("home").refresh()
            Clock.schedule_once(lambda _dt: self.tell_safe_start(), 0)
        notices = list(self.start_notices)
        if getattr(self.service, "unreadable_games", None):
            notices.insert(0, _(GAMES_SET_ASIDE))
        store = self.service.store
        if getattr(store, "read_only", None) is not None:
            because = getattr(store, "read_only_because", None)
            if because == "in use":
                notices.insert(0, _(DATABASE_IN_USE).format(pid=store.other_pid or "?"))
            elif because == "newer":
                notices.insert(0, _(DATABASE_NEWER))
            else:
                notices.insert(0, _(DATABASE_READ_ONLY))
        set_aside = getattr(self.service.store, "set_aside", None)
        if set_aside is not None:
            notices.insert(0, _(DATABASE_SET_ASIDE).format(name=set_aside.name))
        if notices:
            self.notice = " ".join(notices)

    def tell_safe_start(self) -> None:
        """Over Home: what happened, the settings switched on (each with Off) and Resume."""
        from .boundary import SafeStartPanel

        if _popup_open():
            return
        SafeStartPanel(stops=self.safe_start).open(animation=False)

    def held_game_name(self) -> str:
        """The name of the game a safe start left waiting, in the language in use ("")."""
        if self.held_game is None or self.service is None:
            return ""
        title = self.service.store.game(self.held_game).get("title", "")
        return _(self.game_names.get(title, title))

    def resume_held_game(self) -> bool:
        """Go back into the game a safe start left waiting; False when it cannot be."""
        if self.held_game is None:
            return False
        answer = self.service_call({"cmd": "resume", "game": self.held_game})
        if not answer["ok"]:
            return False
        self.held_game = None
        self.reload_state()
        return True

    @property
    def catalogue(self) -> dict[str, Any]:
        """The default game's catalogue (the expansions in play and the history's names come
        from it), read the first time it is needed: after the first frame, as the game's rules
        are imported with it."""
        if self._catalogue is None:
            from ..games.registry import GAMES

            self._catalogue = GAMES[self.catalogue_game].catalogue()
        return self._catalogue

    def game_settings_on(self) -> list[tuple[str, Setting]]:
        """Every game's settings that are switched on, with the game's id, in the registry's
        order (a safe start lists them, each with a way to switch it off)."""
        from ..games.registry import GAMES

        return [(game.id, setting) for game in GAMES.listed() for setting in game.settings
                if setting.is_on(self.config.get(*setting.key.split("/")))]

    # --- what the new-game screen remembers ---

    def _read_expansions(self) -> None:
        known = list(self.catalogue.get("expansions", {}))
        stored = self.config.get("newgame", "expansions")
        chosen = set(known) if stored == "all" else {"base", *stored.split(",")}
        self.expansions = [expansion for expansion in known if expansion in chosen]

    def toggle_expansion(self, expansion: str, in_play: bool) -> None:
        chosen = set(self.expansions) | {expansion} if in_play \
            else set(self.expansions) - {expansion}
        chosen.add("base")  # the base game's cards are always in the box
        self.expansions = [e for e in self.catalogue.get("expansions", {}) if e in chosen]
        self.config.set("newgame", "expansions", ",".join(self.expansions))
        self.config.write()

    def expansions_in_play(self) -> set[str]:
        return set(self.expansions)

    def remember_new_game(self, command: dict[str, Any]) -> None:
        """Keep the choices of the game just started for the next new game, beside the other
        games' own last choices."""
        from ..games.registry import DEFAULT_GAME

        choices = {key: value for key, value in command.items() if key not in ("cmd", "seed")}
        by_game = self._stored_choices("last_by_game")
        by_game[str(choices.get("game", DEFAULT_GAME))] = choices
        self.config.set("newgame", "last", json.dumps(choices))
        self.config.set("newgame", "last_by_game", json.dumps(by_game))
        self.config.write()

    def last_new_game(self, game: str | None = None) -> dict[str, Any]:
        """The choices of the last game started; with `game`, that game's own last choices
        (those saved before choices were kept per game count for the game they were for)."""
        from ..games.registry import DEFAULT_GAME

        last = self._stored_choices("last")
        if game is None:
            return last
        by_game = self._stored_choices("last_by_game")
        choices = by_game.get(game)
        if isinstance(choices, dict):
            return choices
        return last if last.get("game", DEFAULT_GAME) == game else {}

    def _stored_choices(self, key: str) -> dict[str, Any]:
        try:
            stored = json.loads(self.config.getdefault("newgame", key, "") or "{}")
        except ValueError:  # a hand-edited file: start from the defaults
            return {}
        return stored if isinstance(stored, dict) else {}

    # --- building ---

    def build(self) -> AppRoot:
        self.apply_settings()
        _load_layout(STYLE_FILE)
        _load_layout(KEYS_FILE)
        _load_layout(MIRROR_FILE)
        _load_layout(BOUNDARY_FILE)
        self.boundary.install()
        self.bind(game_state=self.publish_to_mirror)
        root = AppRoot()
        self.screens: ScreenManager = root.ids.screens
        self.screens.transition = NoTransition()
        Window.bind(on_key_down=self._on_key_down)
        self.reload_state()
        self._show_start_notices()
        return root

    def on_start(self) -> None:
        self.show("home")
        Window.bind(on_flip=self._build_ahead)

    def _build_ahead(self, *_: Any) -> None:
        """After the first frame is on the screen, build the table while Home is looked at."""
        Window.unbind(on_flip=self._build_ahead)
        self._building_ahead = Clock.schedule_once(self._after_first_frame)

    def _after_first_frame(self, _dt: float) -> None:
        self._read_expansions()  # the default game's catalogue, and so its rules, only now
        self._open_database()
        if self._when_ready is not None:
            self._when_ready()
        if self.screen_known(DEFAULT_TABLE):
            self.screen(DEFAULT_TABLE)
        self.apply_reader_settings()  # pyserial and the reader's threads only now
        self.apply_mirror_settings()  # the phones' view, when it was left on
        if self.builds_ahead:
            self._building_ahead = Clock.schedule_once(lambda _dt: self._build_later(0), 0)

    def _build_later(self, index: int) -> None:
        """Build the next screen ahead (and the table's pickers and the rules index), one a
        frame so that a tap on Home waits for one build at most."""
        names = [*BUILT_LATER, *default_game_screens()]
        steps: list[Any] = [*(lambda name=name: self.screen(name) for name in names),
                            self._warm_table, self._cool_table, self.rules_index]
        if index >= len(steps):
            self._building_ahead = None
            self._freeze_what_lasts()
            return
        steps[index]()
        self._building_ahead = Clock.schedule_once(lambda _dt: self._build_later(index + 1), 0)

    def _warm_table(self) -> None:
        """Let the default game's table prepare what it opens later (Spirit Island's builds its
        fear-card picker unseen), while nothing else is open, and no other game is played:
        nothing of one game runs while another is played."""
        from ..games.registry import DEFAULT_GAME

        self._put_away: Callable[[], None] | None = None
        if _popup_open() or not self.screen_known(DEFAULT_TABLE) \
                or self.game_in_play() not in ("", DEFAULT_GAME):
            return
        warm_up = getattr(self.screen(DEFAULT_TABLE), "warm_up", None)
        if warm_up is not None:
            self._put_away = warm_up()

    def _cool_table(self) -> None:
        if getattr(self, "_put_away", None) is not None:
            self._put_away()  # type: ignore[misc]
            self._put_away = None

    @staticmethod
    def _freeze_what_lasts() -> None:
        """Once the screens are built ahead: collect, then freeze what is left. The screens
        live as long as the app, and a collection in the middle of a tap then walks only what
        came since (a full one took up to 0.17 s). Only this once: an object frozen is never
        collected, so what a tap builds and later lets go of (a picker, a panel, a row) must
        never be frozen, or every tap would keep a little more memory for good."""
        gc.collect()
        gc.freeze()

    def _collect_while_idle(self, _dt: float) -> None:
        """Collect garbage while the players move pieces, so that a collection seldom falls in
        a tap; what was built ahead is frozen and not walked again."""
        self._collecting = None
        gc.collect()

    def _collect_later(self) -> None:
        """A few seconds after the last command, when nobody is waiting for the screen."""
        if not self.builds_ahead:
            return  # tests: the process outlives many apps, whose widgets must stay collectable
        if self._collecting is not None:
            self._collecting.cancel()
        self._collecting = Clock.schedule_once(self._collect_while_idle, IDLE_COLLECT_S)

    def on_stop(self) -> None:
        self.boundary.remove()
        self.reader_link.stop()
        if self._mirror is not None:
            self._mirror.switch_off()
            self._mirror = None
        if self.backlight is not None:
            self.backlight.restore()

    def screens_built(self, name: str) -> bool:
        return hasattr(self, "screens") and self.screens.has_screen(name)

    def screen(self, name: str) -> Any:
        """The screen called `name`, built (with its layout file) the first time it is asked for."""
        if not self.screens.has_screen(name):
            screen_class, layout = SCREENS[name] if name in SCREENS else game_screen(name)
            if name not in SCREENS:
                _load_layout(KIT_FILE)  # every game's table is built from the kit
            _load_layout(layout)
            self.screens.add_widget(screen_class(name=name))
        return self.screens.get_screen(name)

    @staticmethod
    def screen_known(name: str) -> bool:
        """A shared screen, or one a game's record names."""
        return name in SCREENS or name in game_screens()

    def detach(self) -> None:
        """Take this app off the window without closing it, so another can use it (tests)."""
        Window.unbind(on_key_down=self._on_key_down, on_flip=self._build_ahead)
        for event in (self._building_ahead, self._collecting):
            if event is not None:
                event.cancel()
        for screen in self.screens.screens:
            if hasattr(screen, "stop_timer"):
                screen.stop_timer()
        self.dispatch("on_stop")  # kv's `app` forgets this app when it stops
        # Kivy keeps one settings object named "app" per process and hands it to the next app;
        # unnamed, it goes with this app, and the next reads its own companion.ini.
        self.config.name = ""
        if self.root is not None:
            Window.remove_widget(self.root)
        # A panel left open (a game's guardian panel, a picker) belongs to this app too.
        for child in list(Window.children):
            if isinstance(child, ModalView):
                child.dismiss(animation=False)
        App._running_app = None

    # --- the game ---

    def reload_state(self) -> None:
        """Take the game state afresh from the service (after abandon, delete, resume)."""
        self.game_state = (self.driver.state() if self.driver is not None else None) or {}

    def send(self, command: dict[str, Any], quiet: bool = False) -> bool:
        """Carry out one command. True when it was accepted (and is on disk)."""
        return bool(self.carry_out(command, quiet)["ok"])

    def carry_out(self, command: dict[str, Any], quiet: bool = False) -> dict[str, Any]:
        """Carry out one command and return the driver's answer; a refusal goes on the notice
        line (unless `quiet`: a tap that was not meant for this moment), an acceptance onto
        the screens."""
        answer = self._handle(command)
        if not answer["ok"]:
            if not quiet:
                self.notice = _("Not done: {reason}").format(reason=answer["error"])
            log.info("refused %s: %s", command, answer["error"])
            return answer
        self.notice = ""
        self._collect_later()
        try:
            self._command_events = answer["events"]  # the phones' banner (publish_to_mirror)
            self.game_state = answer["state"] or {}
            self._command_events = None  # published (or the state did not change: nothing to)
            if self.table_name():  # a game this app has a table for (scripts play the others)
                self.screen(self.table_name()).refresh(self.game_state, answer["events"])
        except Exception as error:  # the command is on disk: only the screen went wrong
            self._command_events = None
            if not self.boundary.failed(error, f"showing {command.get('cmd')!r}"):
                raise
        return answer

    def catalogue_of(self, game_id: str) -> dict[str, Any]:
        """What the new-game form offers for `game_id` (Spirit Island's is `catalogue`)."""
        from ..games.registry import GAMES

        return self.catalogue if game_id == self.catalogue_game else GAMES[game_id].catalogue()

    def table_name(self, state: dict[str, Any] | None = None) -> str:
        """The name of the table screen of the game in `state` (the game in play when None;
        the default game's before any game); "" for a game without a table screen."""
        return table_screen_name((self.game_state if state is None else state).get("title"))

    def table_class(self, state: dict[str, Any] | None = None) -> Any:
        """The class of that table screen (imported, not built), or None."""
        name = self.table_name(state)
        return game_screen(name)[0] if name else None

    def setup_forms(self) -> dict[str, type]:
        """The new-game forms, by game id, of the games this app can play (a form and a table),
        in the registry's order; their layouts loaded."""
        from ..games.registry import GAMES

        forms: dict[str, type] = {}
        for game in GAMES.values():
            if game.setup_form and game.table_screen:
                forms[game.id] = imported(game.setup_form)
                _load_layout(game_layout(game, "new_game.kv"))
        return forms

    def setup_checklist(self) -> list[dict[str, str]]:
        """What the table sets out for the game in play: the state's list, or the game's."""
        if self.game_state.get("setup_checklist") is not None:
            return list(self.game_state["setup_checklist"])
        return self.driver.setup_checklist() if self.driver is not None else []

    def service_call(self, command: dict[str, Any]) -> dict[str, Any]:
        """A service command (games, stats, delete …) whose answer the screen reads."""
        answer = self._handle(command)
        if not answer["ok"]:
            self.notice = _("Not done: {reason}").format(reason=answer["error"])
        return answer

    def _handle(self, command: dict[str, Any]) -> dict[str, Any]:
        if self.driver is None:  # the database is not open (yet, or it could not be)
            return {"ok": False, "state": None,
                    "error": _("the games database is not open; see the line above")}
        return self.driver.handle(command)

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
        """The table's "?": the rules entries for the moment the game is in (its game's
        `help_step`)."""
        from ..games.registry import GAMES

        state = self.game_state
        rules = self.screen("rules")
        rules.return_to = self.screens.current
        game = GAMES.get(state.get("title", "")) if state else None
        moment = game.help_step(dict(state)) if game else None
        if moment:
            entries = self.rules_index().for_moment(moment, rules.lang)
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
        table = self.table_name()
        if not table or self.screens.current != table or _popup_open():
            return False
        key_pressed = getattr(self.screen(table), "key_pressed", None)
        ctrl = "ctrl" in modifiers or "meta" in modifiers
        return bool(key_pressed(key, codepoint, ctrl)) if key_pressed is not None else False


def all_game_settings() -> list[Setting]:
    """Every game's own settings, in the registry's order."""
    from ..games.registry import GAMES

    return [setting for game in GAMES.listed() for setting in game.settings]


def game_setting_named(game_id: str, key: str) -> Setting:
    """The setting `key` of the game `game_id`; KeyError when that game has none of the name."""
    from ..games.registry import GAMES

    for setting in GAMES.listing(game_id).settings:
        if setting.key == key:
            return setting
    raise KeyError(f"{game_id} has no setting {key!r}")


def table_screen_name(game_id: object) -> str:
    """A game's table screen: "table" for the default game (and before any game), "table-<id>"
    for another; "" for a game without a table screen (a script plays it)."""
    from ..games.registry import DEFAULT_GAME, GAMES

    game = GAMES.get(game_id if isinstance(game_id, str) else DEFAULT_GAME)
    if game is None or not game.table_screen:
        return ""
    return DEFAULT_TABLE if game.id == DEFAULT_GAME else f"table-{game.id}"


def game_screens() -> dict[str, tuple[str, str]]:
    """Every game's screens by name: (class as "module:Class", layout file)."""
    from ..games.registry import GAMES

    found: dict[str, tuple[str, str]] = {}
    for game in GAMES.values():
        if game.table_screen:
            found[table_screen_name(game.id)] = (game.table_screen,
                                                 game_layout(game, "table.kv"))
        for name, spec in game.screens.items():
            found.setdefault(name, (spec, game_layout(game, f"{name}.kv")))
    return found


def default_game_screens() -> list[str]:
    """The default game's screens other than its table (built ahead, as the shared ones)."""
    from ..games.registry import DEFAULT_GAME, GAMES

    return list(GAMES[DEFAULT_GAME].screens)


def game_screen(name: str) -> tuple[type[Screen], str]:
    """The class and the layout file of a game's screen called `name`, imported the first
    time it is built."""
    spec, layout = game_screens()[name]
    screen_class: type[Screen] = imported(spec)
    return screen_class, layout


def game_layout(game: Any, file: str) -> str:
    """A game's layout file, relative to the layouts folder."""
    return f"{game.layouts}/{file}" if game.layouts else file


def imported(spec: str) -> Any:
    """The class a record names as "module:Class"."""
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


def _load_layout(name: str) -> None:
    """Load one layout file unless it is loaded (a second load would apply its rules twice)."""
    path = str(LAYOUTS_DIR / name)
    if path not in Builder.files:
        Builder.load_file(path)


def _popup_open() -> bool:
    return any(isinstance(child, ModalView) for child in Window.children)
