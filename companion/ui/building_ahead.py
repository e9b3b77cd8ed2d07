"""The work the app does while nobody waits for the screen: the screens built ahead, one a
frame, while the players look at Home, and the garbage collected while they move pieces."""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable
from typing import Any, Protocol

from kivy.clock import Clock

from . import layout_cache
from .pickers import SPARES_A_FRAME, SPARES_AHEAD, build_spares
from .screens import game_own_screens, popup_open, table_screen_name

BUILT_LATER = ("new_game", "checklist", "rules", "history", "tags")
"""After the likely game's table, one a frame while Home is looked at, these (and that game's
other screens): every screen opens the first time as fast as the next (a build costs up to a
tenth of a second here, several on a Pi)."""

log = logging.getLogger(__name__)

IDLE_COLLECT_S = 3.0
"""Seconds after the last command when the garbage collector runs (see IdleCollection)."""


class ScreensToBuild(Protocol):
    """What building ahead needs of the app."""

    def screen(self, name: str) -> Any: ...

    def game_in_play(self) -> str: ...

    def rules_index(self) -> Any: ...

    def last_new_game(self) -> dict[str, Any]: ...


class BuildingAhead:
    """Builds the other screens (and the likely game's table, its panels and pickers, the
    picker buttons of every game and the rules index) after the first frame, one a frame, so
    that a tap on Home waits for one build at most. The likely game is the one being played
    (resumed at the start), else the one started last, else the default game: whichever game
    the players play, its first taps build nothing."""

    def __init__(self, app: ScreensToBuild, default_game: str) -> None:
        self.app = app
        self.default_game = default_game
        self.pending: Any = None
        """The next step's Clock event; None once every step is done (or none was asked)."""
        self._put_away: Callable[[], None] | None = None

    def likely_game(self) -> str:
        """The game whose table and screens are built ahead (see the class)."""
        from ..games.registry import GAMES

        for game_id in (self.app.game_in_play(), self.app.last_new_game().get("game")):
            if isinstance(game_id, str) and game_id in GAMES:
                return game_id
        return self.default_game

    def start(self, game_id: str) -> None:
        """Build ahead for `game_id` (the `likely_game`, which the start has asked already)."""
        self.pending = Clock.schedule_once(lambda _dt: self._build(0, game_id), 0)

    def cancel(self) -> None:
        if self.pending is not None:
            self.pending.cancel()

    def _build(self, index: int, game_id: str) -> None:
        names = [*BUILT_LATER, *game_own_screens(game_id)]
        spares = [build_spares] * -(-SPARES_AHEAD // SPARES_A_FRAME)
        # The spares first: a table's warm-up fills its pickers with them.
        steps: list[Any] = [*(lambda name=name: self.app.screen(name) for name in names),
                            *spares, lambda: self._warm_table(game_id), self._cool_table,
                            self.app.rules_index]
        if index >= len(steps):
            self.pending = None
            layout_cache.save()  # every layout of the start and the likely game is loaded
            freeze_what_lasts()
            return
        steps[index]()
        self.pending = Clock.schedule_once(lambda _dt: self._build(index + 1, game_id), 0)

    def _warm_table(self, game_id: str) -> None:
        """Let the likely game's table build what its taps open (`KitTable.warm_up`), while
        nothing else is open and no other game is played: nothing of one game runs while
        another is played."""
        self._put_away = None
        table = table_screen_name(game_id)
        if popup_open() or not table or self.app.game_in_play() not in ("", game_id):
            return
        warm_up = getattr(self.app.screen(table), "warm_up", None)
        try:
            if warm_up is not None:
                self._put_away = warm_up()
        except Exception:  # only time was to be saved: a real opening shows what fails
            log.exception("the %s table's panels could not be prepared ahead", game_id)
            put_away_every_popup()

    def _cool_table(self) -> None:
        if self._put_away is not None:
            self._put_away()
            self._put_away = None


def put_away_every_popup() -> None:
    """Close what a failed warm-up left open: over Home nothing else can be open then (the
    warm-up runs only when no popup is)."""
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    for child in list(Window.children):
        if isinstance(child, ModalView):
            child.opacity = 1
            child.dismiss()


def freeze_what_lasts() -> None:
    """Once the screens are built ahead: collect, then freeze what is left. The screens live as
    long as the app, and a collection in the middle of a tap then walks only what came since (a
    full one took up to 0.17 s). Only this once: an object frozen is never collected, so what a
    tap builds and later lets go of (a picker, a panel, a row) must never be frozen, or every
    tap would keep a little more memory for good."""
    gc.collect()
    gc.freeze()


class IdleCollection:
    """Collects garbage a few seconds after the last command, while the players move pieces,
    so that a collection seldom falls in a tap; what was built ahead is frozen and not walked
    again. First, `then` (the table shown builds what its taps open: a game started after
    the start was built ahead builds it in the players' first pause)."""

    def __init__(self, then: Callable[[], None] = lambda: None) -> None:
        self.pending: Any = None
        """The collection's Clock event until it has run."""
        self.then = then

    def after_command(self) -> None:
        if self.pending is not None:
            self.pending.cancel()
        self.pending = Clock.schedule_once(lambda _dt: self.collect_now(), IDLE_COLLECT_S)

    def cancel(self) -> None:
        if self.pending is not None:
            self.pending.cancel()

    def collect_now(self) -> None:
        """Collect at once, as the wait after the last command would have."""
        self.cancel()
        self.pending = None
        self.then()
        gc.collect()


def shown_table_builds_ahead(app: Any) -> None:
    """The table on the screen builds the panels and popups its taps open, if it has not yet
    (`KitTable.build_ahead`): built, not opened, so that nothing else changes."""
    table = app.table_name()
    if table and app.screens.current == table:
        build_ahead = getattr(app.screen(table), "build_ahead", None)
        try:
            if build_ahead is not None:
                build_ahead()
        except Exception:  # as in `BuildingAhead._warm_table`: a real opening shows it
            log.exception("the table's panels could not be built ahead")
