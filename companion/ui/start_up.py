"""The app's start: Home on the screen at once, the slow work once that first frame is shown
(the games file opened, the table of the game likely played, the card reader, the phones'
view, then the other screens built ahead); what the players are told as the games file opens
(a file that could not be used, was set aside, may not be written, or holds a game that could
not be replayed; what SQLite said goes to the log); after a safe start, the game held back on Home;
the daily snapshot of the games, looked for then and every hour after."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

from kivy.clock import Clock
from kivy.core.window import Window

from ..i18n import N_, _
from .building_ahead import BuildingAhead
from .screens import popup_open, screen_known, table_screen_name
from .snapshots import DailySnapshots, files_of

log = logging.getLogger(__name__)

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


def start_notices(service: Any, given: list[str]) -> list[str]:
    """The lines for the players once `service` has opened its games file, in the language in
    use: what became of the file first, then the unreadable games, then `given` (the start's
    own, already in their words)."""
    notices = list(given)
    if getattr(service, "unreadable_games", None):
        notices.insert(0, _(GAMES_SET_ASIDE))
    store = service.store
    if getattr(store, "read_only", None) is not None:
        because = getattr(store, "read_only_because", None)
        if because == "in use":
            notices.insert(0, _(DATABASE_IN_USE).format(pid=store.other_pid or "?"))
        elif because == "newer":
            notices.insert(0, _(DATABASE_NEWER))
        else:
            notices.insert(0, _(DATABASE_READ_ONLY))
    set_aside = getattr(store, "set_aside", None)
    if set_aside is not None:
        notices.insert(0, _(DATABASE_SET_ASIDE).format(name=set_aside.name))
    return notices


class StartingApp(Protocol):
    """What the start needs of the app."""

    service: Any
    notice: str
    game_state: Any
    game_names: dict[str, str]
    builds_ahead: bool

    def attach(self, service: Any) -> None: ...

    def read_expansions(self) -> None: ...

    def apply_reader_settings(self) -> None: ...

    def apply_mirror_settings(self) -> None: ...

    def reload_state(self) -> None: ...

    def service_call(self, command: dict[str, Any]) -> dict[str, Any]: ...

    def screens_built(self, name: str) -> bool: ...

    def screen(self, name: str) -> Any: ...

    def get_application_config(self, defaultpath: str = ...) -> str: ...


class StartUp:
    """Home on the screen at once; what is slow (the games file, the likely game's table, the
    rules, the reader, the phones' view, the other screens) once that first frame is shown."""

    def __init__(self, app: StartingApp, open_service: Callable[[], Any] | None,
                 notices: list[str], safe_start: int, when_ready: Callable[[], object] | None,
                 building_ahead: BuildingAhead) -> None:
        self.app = app
        self.open_service = open_service
        """Opens the games file (None: the app was given its service)."""
        self.when_ready = when_ready
        """Called once the first frame is on the screen and the games are open."""
        self.building_ahead = building_ahead
        self.first_frame: Any = None
        """The first frame's work, scheduled, until it has run."""
        self.notices = list(notices)
        """The start's own lines for the players, in their words."""
        self.safe_start = safe_start
        """How many starts in a row died just after starting (0: a plain start)."""
        self.held_game: int | None = None
        """After a safe start: the game the table was last playing, saved and not resumed."""
        self.snapshots = DailySnapshots(
            lambda: files_of(self.app.service, self.app.get_application_config()))
        """The games' daily snapshot, taken off the frame path once the games are open."""

    def wait_for_first_frame(self) -> None:
        Window.bind(on_flip=self._first_frame_shown)

    def _first_frame_shown(self, *_: Any) -> None:
        Window.unbind(on_flip=self._first_frame_shown)
        self.first_frame = Clock.schedule_once(self.after_first_frame)

    def after_first_frame(self, _dt: float = 0) -> None:
        self.first_frame = None
        self.app.read_expansions()  # the default game's catalogue, and so its rules, only now
        self.open_games()
        if self.when_ready is not None:
            self.when_ready()
        likely_game = self.building_ahead.likely_game()
        table = table_screen_name(likely_game)
        if table and screen_known(table):
            self.app.screen(table)
        self.app.apply_reader_settings()  # pyserial and the reader's threads only now
        self.app.apply_mirror_settings()  # the phones' view, when it was left on
        self.snapshots.start()
        if self.app.builds_ahead:
            self.building_ahead.start(likely_game)

    def still_starting(self) -> bool:
        """The first frame's work or the screens built ahead are still to come (tests wait)."""
        return self.first_frame is not None or self.building_ahead.pending is not None

    def stop(self) -> None:
        """Nothing more of the start runs (the app is taken off the window)."""
        Window.unbind(on_flip=self._first_frame_shown)
        if self.first_frame is not None:
            self.first_frame.cancel()
        self.building_ahead.cancel()
        self.snapshots.stop()

    def open_games(self) -> None:
        """Open the games file (after the first frame): the game comes back, Home offers to
        resume it, and a file moved aside is told."""
        if self.app.service is not None or self.open_service is None:
            return
        from ..store_errors import StoreError

        try:
            self.app.attach(self.open_service())
        except StoreError as error:
            log.error("the games database could not be opened: %s", error)
            self.app.notice = _(DATABASE_UNUSABLE).format(reason=error.in_language(_))
            return
        self.app.reload_state()
        self.tell()

    def tell(self) -> None:
        """Put what the players must know of the opened games file on the notice line; after
        a safe start, hold the last game back and say so over Home."""
        service = self.app.service
        if service is None:
            return
        if self.safe_start:
            if not self.app.game_state:
                self.held_game = service.store.current_game()
                if self.app.screens_built("home"):
                    self.app.screen("home").refresh()
            Clock.schedule_once(lambda _dt: self.tell_safe_start(), 0)
        notices = start_notices(service, self.notices)
        if notices:
            self.app.notice = " ".join(notices)

    def tell_safe_start(self) -> None:
        """Over Home: what happened, the settings switched on (each with Off) and Resume."""
        from .boundary import SafeStartPanel

        if popup_open():
            return
        SafeStartPanel(stops=self.safe_start).open(animation=False)

    def held_game_name(self) -> str:
        """The name of the game a safe start held back, in the language in use ("")."""
        if self.held_game is None or self.app.service is None:
            return ""
        title = self.app.service.store.game(self.held_game).get("title", "")
        return _(self.app.game_names.get(title, title))

    def resume_held_game(self) -> bool:
        """Go back into the game a safe start held back; False when it cannot be."""
        if self.held_game is None:
            return False
        if not self.app.service_call({"cmd": "resume", "game": self.held_game})["ok"]:
            return False
        self.held_game = None
        self.app.reload_state()
        return True
