"""The Kivy app: loads the layouts once, holds the game's state for the screens, sends commands.

Every tap becomes a driver command (the same JSON a script sends), shown at once but never
before it is on disk (`shown_when_saved`): a pulled plug loses nothing that was shown. Helpers:
`screens` (which screens there are, how one is built), `building_ahead` (screens built while
Home is looked at, garbage collected while idle), `app_settings` (companion.ini, what the look
settings mean), `new_game_memory`, `mirror_link` (the phones' view), `reader_link` (the card
reader), `start_up` (the games file opened after the first frame, what the players are told
then, a safe start).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.core.window import Window
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
from kivy.uix.screenmanager import NoTransition, ScreenManager

from .. import i18n
from ..core.listing import Setting
from ..i18n import N_, _
from ..power import PowerControl
from . import app_settings, charts, keys, kivy_fixes, mirror_badge, new_game_memory, widgets  # noqa: F401  (charts, keys, mirror_badge, widgets: named in kv)
from .boundary import ScreenBoundary
from .building_ahead import BuildingAhead, IdleCollection, shown_table_builds_ahead
from .figures import sizes as figure_sizes
from .home_screen import unfinished
from .mirror_link import MirrorLink
from .reader_link import ReaderLink
from .screens import (
    APP_LAYOUTS,
    built_screen,
    game_screen,
    key_on_the_table,
    load_layout,
    retranslate,
    table_screen_name,
)
from .shown_when_saved import ShownWhenSaved
from .sleep import Darkness, SleepTimes, SleepWatch
from .start_up import StartUp
from .theme import THEMES, rgba
from .translator import tr
from .voice_link import VoiceLink

if TYPE_CHECKING:  # imported when the database is opened, after the first frame
    from ..backlight import Backlight
    from ..driver import ScriptDriver
    from ..service import GameService

log = logging.getLogger(__name__)

MIRROR_NO_PORT = N_("The game cannot be shown on phones: no network port is free ({reason}).")
APP_TITLE = N_("Table companion")


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
    palette = StringProperty("standard")
    """The terrains' and players' colours: "standard" or "colour_blind" (palette.py)."""
    confirm_destructive = BooleanProperty(True)
    """Ask before abandoning, declaring defeat or deleting history."""
    service = ObjectProperty(None)
    """The game service the app drives."""
    reader_status = StringProperty("Card reader: off")
    """Whether a card reader is connected, and where (the reader link writes it, translated)."""
    read_message = StringProperty("")
    """What the last card laid on the reader was taken as; a tap clears it."""
    mirror_url = StringProperty("")
    """The phones' address while the mirror is on ("" while it is off)."""
    mirror_port = 8765
    """Where the mirror listens first (tests: 0, any free port)."""
    expansions = ListProperty([])
    """The expansions of the default game's catalogue (its "expansions") the table owns, chosen
    on its new-game form and kept in companion.ini; its table offers only their cards."""

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
        super().__init__(**kwargs)
        self.driver: ScriptDriver | None = None
        self.backlight = backlight
        self._catalogue: dict[str, Any] | None = None
        self.catalogue_game = DEFAULT_GAME
        self.game_names = {game.id: game.name for game in GAMES.listed()}
        """Every game's name, by id, in the registry's order."""
        if service is not None:
            self.attach(service)
        self.colours = {role: rgba(colour) for role, colour in THEMES["dark"].items()}
        self.start_up = StartUp(self, open_service, notices or [], safe_start, when_ready,
                                BuildingAhead(self, DEFAULT_GAME))
        self.idle_collection = IdleCollection(lambda: shown_table_builds_ahead(self))
        self.reader_link = ReaderLink(self)
        self.mirror_link = MirrorLink(lambda command: self.carry_out(command, quiet=True))
        self.voice_link = VoiceLink()
        """The voice that reads the step and the news aloud (Settings -> Voice)."""
        self._rules_index: Any = None
        self._command_events: list[dict[str, Any]] | None = None
        """The events of the command whose state is published next (None: no command's)."""
        self.boundary = ScreenBoundary(self)
        """Where a screen's failure ends: a panel, the log, and the app goes on."""
        self.shown_when_saved = ShownWhenSaved(self)
        """Holds back the frame and the phones' news of a tap until its commit has ended."""
        self.power = PowerControl(flush=self.flush_games)
        """Turn off and Restart (the menus'; offered on the appliance only)."""
        self.sleep_watch = SleepWatch(Darkness(backlight))
        """Dims and darkens the screen left alone; `poke()` on what should wake it."""

    # --- settings (their meaning: app_settings) ---

    def get_application_config(self, defaultpath: str = "%(appdir)s/%(appname)s.ini") -> str:
        if self._config_dir is None:
            return str(super().get_application_config(defaultpath))
        return str(self._config_dir / "companion.ini")

    def build_config(self, config: Any) -> None:
        app_settings.set_defaults(config, {"newgame": new_game_memory.NEW_GAME_DEFAULTS})

    def game_in_play(self) -> str:
        """The id of the game being played: the game shown is unfinished; "" when none is."""
        state = self.game_state
        return str(state.get("title", "")) if state and unfinished(state) else ""

    def game_setting(self, game_id: str, key: str) -> bool | int:
        """One of `game_id`'s own settings (its `Setting.key`, "section/option") as it acts
        now: as stored while that game is played, its default otherwise. KeyError for a
        setting the game does not have."""
        return app_settings.game_setting(self.config, self.game_in_play(), game_id, key)

    def game_settings_on(self) -> list[tuple[str, Setting]]:
        """Every game's settings that are switched on, with the game's id."""
        return app_settings.game_settings_on(self.config)

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
        elif section == "sleep":
            self.sleep_watch.set_times(SleepTimes.of(self.config["sleep"]))
        elif section == "voice":
            self.voice_link.configure(self.config)

    def apply_settings(self) -> None:
        look = app_settings.look_of(self.config["companion"])
        self.switch_language(look.language)
        self.text_scale = look.text_scale
        self.colours = look.colours
        self.palette = look.palette
        self.confirm_destructive = look.confirm_destructive
        if self.game_state and self.table_name() and self.screens_built(self.table_name()):
            self.screen(self.table_name()).refresh(self.game_state, [])
        app_settings.show_on_display(look, Window, self.backlight)

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
        if hasattr(self, "screens"):  # before the first build the layouts come up in `lang`
            retranslate(self.screens, self.table_name(), self.game_state, lang)

    def apply_reader_settings(self) -> None:
        section = self.config["reader"]
        self.reader_link.configure(*(section.get(key, default)
                                     for key, default in app_settings.READER_DEFAULTS.items()))

    def apply_mirror_settings(self, new_address: bool = False) -> None:
        """Switch the phones' view on or off as the settings say; `new_address`: a new secret
        in its address (switched on just now, or asked for)."""
        try:
            self.mirror_url = self.mirror_link.apply(self.config, self.mirror_port, new_address)
        except OSError as error:
            log.error("the mirror could not listen: %s", error)
            self.notice = _(MIRROR_NO_PORT).format(reason=error.strerror or error)
            self.mirror_url = ""
            return
        if self.mirror_url:
            self.publish_to_mirror()

    def publish_to_mirror(self, *_args: Any) -> None:
        """Hand the state the screen shows to the phones (after every command, on disk)."""
        if self.shown_when_saved.hold_news():
            return
        events, self._command_events = self._command_events, None
        self.mirror_link.publish(self.service, self.game_state, events)

    def mirror_beside(self, popup: Any) -> None:
        """The table's menu opens: the phones' code joins it while the mirror is on."""
        mirror_badge.badge_beside(popup, self.mirror_url)

    # --- the games database ---

    def flush_games(self) -> None:
        """Before the power goes (power.py): the games file whole on the card. The store stays
        open, so the app goes on as before if the system then refuses."""
        if self.service is not None and not self.service.store.write_out():
            log.warning("the games file's log was not written out before turning off; every "
                        "move is kept in it and read back at the next start")

    def attach(self, service: GameService) -> None:
        """Drive `service` (given, or opened after the first frame)."""
        from ..driver import ScriptDriver

        self.service = service
        self.driver = ScriptDriver(service, i18n.language())

    @property
    def catalogue(self) -> dict[str, Any]:
        """The default game's catalogue (the expansions owned and the history's names come
        from it), read the first time it is needed: after the first frame, as the game's rules
        are imported with it."""
        if self._catalogue is None:
            from ..games.registry import GAMES

            self._catalogue = GAMES[self.catalogue_game].catalogue()
        return self._catalogue

    # --- what the new-game screen remembers (new_game_memory) ---

    def read_expansions(self) -> None:
        """The expansions owned, as companion.ini keeps them (the catalogue is read now)."""
        self.expansions = new_game_memory.owned_expansions(
            self.config, self.catalogue.get("expansions", {}))

    def toggle_expansion(self, expansion: str, in_play: bool) -> None:
        """The new-game form's expansion buttons: one taken in or left out, and kept."""
        self.expansions = new_game_memory.keep_expansion(
            self.config, self.catalogue.get("expansions", {}), self.expansions, expansion,
            in_play)

    def expansions_in_play(self) -> set[str]:
        return set(self.expansions)

    def remember_new_game(self, command: dict[str, Any]) -> None:
        """Keep the choices of the game just started for the next new game."""
        new_game_memory.remember_new_game(self.config, command, self.catalogue_game)

    def last_new_game(self, game: str | None = None) -> dict[str, Any]:
        """The choices of the last game started; with `game`, that game's own."""
        return new_game_memory.last_new_game(self.config, game, self.catalogue_game)

    # --- building ---

    def build(self) -> AppRoot:
        self.apply_settings()
        # The figure sizes every table shares are this app's from the start (text size and
        # window), not set by whichever table is shown first under the tables built already.
        figure_sizes.follow()
        for layout in APP_LAYOUTS:
            load_layout(layout)
        self.boundary.install()
        self.shown_when_saved.install()
        self.bind(game_state=self.publish_to_mirror)
        root = AppRoot()
        self.screens: ScreenManager = root.ids.screens
        self.screens.transition = NoTransition()
        Window.bind(on_key_down=self._on_key_down)
        self.sleep_watch.times = SleepTimes.of(self.config["sleep"])
        self.sleep_watch.start()
        self.voice_link.configure(self.config)
        self.reload_state()
        self.start_up.tell()
        return root

    def on_start(self) -> None:
        self.show("home")
        self.start_up.wait_for_first_frame()

    def on_stop(self) -> None:
        self.sleep_watch.stop()
        self.boundary.remove()
        self.shown_when_saved.remove()
        self.reader_link.stop()
        self.mirror_link.switch_off()
        self.voice_link.stop()
        if self.backlight is not None:
            self.backlight.restore()

    def screens_built(self, name: str) -> bool:
        return hasattr(self, "screens") and self.screens.has_screen(name)

    def screen(self, name: str) -> Any:
        """The screen called `name`, built (with its layout file) the first time it is asked for."""
        return built_screen(self.screens, name)

    def detach(self) -> None:
        """Take this app off the window without closing it, so another can use it (tests)."""
        Window.unbind(on_key_down=self._on_key_down)
        self.start_up.stop()
        self.idle_collection.cancel()
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
        figure_sizes.forget()
        kivy_fixes.forget_recycled_rows()

    # --- the game ---

    def reload_state(self) -> None:
        """Take the game state afresh from the service (after abandon, delete, resume)."""
        self.game_state = (self.driver.state() if self.driver is not None else None) or {}

    def send(self, command: dict[str, Any], quiet: bool = False) -> bool:
        """Carry out a tap's command. True when it was accepted (on disk before it is shown)."""
        return bool(self.carry_out(command, quiet, commit_later=True)["ok"])

    def carry_out(self, command: dict[str, Any], quiet: bool = False,
                  commit_later: bool = False) -> dict[str, Any]:
        """Carry out one command and return the driver's answer; a refusal goes on the notice
        line (unless `quiet`: a tap that was not meant for this moment), an acceptance onto
        the screens. `commit_later`: answered while the commit is under way (see send)."""
        answer = self._handle(command, commit_later)
        if not answer["ok"]:
            if not quiet:
                self.notice = _("Not done: {reason}").format(reason=answer["error"])
            log.info("refused %s: %s", command, answer["error"])
            return answer
        self.notice = ""
        if self.builds_ahead:  # tests: the process outlives many apps, whose widgets stay
            self.idle_collection.after_command()  # collectable
        if commit_later:
            self.shown_when_saved.started()
        self.show_on_table(answer["state"], answer["events"], f"showing {command.get('cmd')!r}")
        return answer

    def show_on_table(self, state: dict[str, Any] | None, events: list[dict[str, Any]] | None,
                      what: str) -> None:
        """A command's state on the screens and the phones, its `events` (None: no command's)
        in their banners; a failure ends at the boundary (`what` names it in the log)."""
        try:
            self._command_events = events  # the phones' banner (publish_to_mirror)
            self.game_state = state or {}
            if not self.shown_when_saved.news_held:
                self._command_events = None  # published (or the state did not change)
            if self.table_name():  # a game this app has a table for (scripts play the others)
                self.screen(self.table_name()).refresh(self.game_state, events or [])
        except Exception as error:  # the command is saved (or will be, before it shows)
            self._command_events = None
            if not self.boundary.failed(error, what):
                raise

    def catalogue_of(self, game_id: str) -> dict[str, Any]:
        """What the new-game form offers for `game_id` (the default game's is `catalogue`)."""
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

    def _handle(self, command: dict[str, Any], commit_later: bool = False) -> dict[str, Any]:
        if self.driver is None:  # the database is not open (yet, or it could not be)
            return {"ok": False, "state": None,
                    "error": _("the games database is not open; see the line above")}
        self.shown_when_saved.settle()  # a command before (in this frame) is on disk first
        return self.driver.handle(command, commit_later)

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
        """The table's "?": the rules entries for the moment the game is in."""
        self.screen("rules").open_for_step()

    def enrol_tag(self, uid: str) -> None:
        """Open the enrolment screen on a tag just read."""
        self.show("tags")
        self.screen("tags").tag_read(uid)

    # --- keyboard ---

    def _on_key_down(self, _window: Any, key: int, _scancode: int, codepoint: str | None,
                     modifiers: list[str]) -> bool:
        return key_on_the_table(self, key, codepoint, modifiers)
