"""The game service: the session and the store together, and the one object the driver, the
touchscreen and the mirror talk to.

A command the model accepts is made durable before `handle` returns; if saving fails the
session is put back as it was and the command is refused. The commands about saved games, game
archives, tags and the rules lookup each go to their own handler (saved_games, game_archive,
tag_commands, rules_commands); `handle` routes them and plays the rest.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from .core import commands as c
from .core.errors import Refused
from .core.events import Event
from .core.game import Game, State
from .core.phrases import Phrase, Translate, as_written
from .core.seats import Seat
from .core.session import Checkpoint, GameSession
from .game_archive import Export, Import
from .game_log import BY, logged_new_game, parse_logged
from .games.registry import DEFAULT_GAME, GAMES, game_named
from .i18n import N_
from .rules_commands import RulesSearch, rules_search_field
from .saved_games import (
    Abandon,
    Delete,
    GameDetail,
    History,
    ListGames,
    Resume,
    Stats,
)
from .store import UNREADABLE, GameStore
from .store_errors import GameNotReplayable, StoreError
from .tag_commands import TAG_REGISTRY_COMMANDS

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class NewGameOf(c.Command):
    """new_game for one of the registry's games (its "game" field): the game's own new_game
    command inside. Only `GameService.parse` makes one; the log keeps the game's command."""

    name: ClassVar[str] = "new_game"
    game: Game
    setup: c.Command


@dataclass(frozen=True)
class SeatRequest(c.Command):
    """A player's request from their seat's phone (issue 31): `request` (its "cmd" and fields,
    no player) for seat `player`, made at `version` (`GameService.seat_version`)."""

    name: ClassVar[str] = "seat"
    player: int
    request: Any
    version: str


def parse_seat_request(data: dict[str, Any]) -> SeatRequest:
    unknown = sorted(set(data) - {"cmd", "player", "request", "version"})
    if unknown:
        raise Refused(f"'seat' does not take {', '.join(map(str, unknown))[:80]}; it takes "
                      "player, request, version")
    player, request, version = data.get("player"), data.get("request"), data.get("version")
    if not isinstance(player, int) or isinstance(player, bool) or player < 0:
        raise Refused("'seat' needs the field 'player': the seat's number, from 0")
    if not isinstance(request, dict):
        raise Refused("'seat' needs the field 'request': an object such as {\"cmd\": \"fear\"}")
    if not isinstance(version, str):
        raise Refused("'seat' needs the field 'version': the moment the seat's page showed")
    return SeatRequest(player, request, version)


@dataclass(frozen=True)
class Catalogue(c.Command):
    """What the pickers list: adversaries, scenarios, blight, fear and invader cards."""

    name: ClassVar[str] = "catalogue"


SERVICE_COMMANDS: dict[str, type[c.Command]] = {
    **c.SESSION_COMMANDS,
    **{cls.name: cls for cls in (ListGames, Resume, Abandon, Delete, History, Stats,
                                 GameDetail, Export, Import, Catalogue, *TAG_REGISTRY_COMMANDS,
                                 RulesSearch)},
}
"""The commands every game shares: undo, redo and state, saved games, the tag registry, the
rules lookup."""

_NOT_PLAYED = tuple(cls for cls in SERVICE_COMMANDS.values()
                    if cls not in c.SESSION_COMMANDS.values())
"""The shared commands a handler answers: none of them reaches the game."""


class CommandHandler(Protocol):
    """The commands of one concern: `handle` answers one of `commands` with the reply's extra
    fields (`games`, `exported`, `tags`, …), or raises Refused or StoreError when it cannot."""

    commands: ClassVar[tuple[type[c.Command], ...]]

    def handle(self, command: c.Command, translate: Translate) -> dict[str, Any]: ...


@dataclass
class Reply:
    events: list[Event] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    """Answers to questions about saved games and tags: `games`, `history`, `tags`, …"""


class GameService:
    def __init__(self, store: GameStore, seed_source: Callable[[], int]) -> None:
        self.store = store
        self._seed_source = seed_source
        self.session = GameSession(GAMES[DEFAULT_GAME], seed_source)
        self.game_id: int | None = None
        self.log_length = 0
        """The number of the loaded game's last logged command, as this session knows it: the
        store refuses an append to a log that another writer has made longer."""
        self.notices: list[str] = []
        """What a person should be told about opening the games (a game set aside, …)."""
        self.unreadable_games: list[int] = []
        """Games set aside on opening because their logs do not replay (kept, not resumed)."""
        self._handlers: tuple[CommandHandler, ...] = ()
        """Who answers the commands that are not played (saved games, archives, tags, the
        rules): given by the composition root, `companion.bootstrap.wired_service`."""
        self._unsaved: tuple[Checkpoint, GameSession] | None = None
        """The last command's commit is under way (`handle(commit_later=True)`): how to take
        the command back should it fail."""
        self._lost: Refused | None = None
        """Why the last command was taken back after all (its commit failed), until `settle`
        tells it."""

    def answer_with(self, *handlers: CommandHandler) -> None:
        """Route each handler's commands to it from now on (after those given before)."""
        self._handlers += handlers

    @property
    def state(self) -> State | None:
        return self.session.state

    @property
    def game(self) -> Game:
        """The game loaded (or last started); Spirit Island before any."""
        return self.session.game

    def parse(self, data: Any) -> c.Command:
        """One JSON object as a command: the shared ones here, the rest by the game's table
        (for new_game, the game its "game" field names; otherwise the game loaded)."""
        game = self.game
        if isinstance(data, dict) and data.get("cmd") == "new_game":
            requested = data.get("game")  # null means not given, as for every field
            game = game_named(DEFAULT_GAME if requested is None else requested)
            setup = {key: value for key, value in data.items() if key != "game"}
            return NewGameOf(game, game.parse_command(setup))
        registry = {**game.commands, **SERVICE_COMMANDS}
        name = data.get("cmd") if isinstance(data, dict) else None
        if name == SeatRequest.name and name not in game.commands:
            return parse_seat_request(data)
        if isinstance(name, str) and name in game.commands:
            return game.parse_command(data)
        if name == RulesSearch.name:
            return c.parse_command(data, registry, rules_search_field)
        return c.parse_command(data, registry)

    # --- resuming ---------------------------------------------------------------------------

    def resume_latest(self) -> bool:
        """Come back to the game the table was last playing, exactly where it was.

        A game whose log does not replay never stops the start: it is set aside (status
        "unreadable", its log kept for whoever wants to look) and the table starts without it.
        """
        game_id = self.store.current_game()
        if game_id is None:
            return False
        try:
            self.load_game(game_id)
        except GameNotReplayable as error:
            self._set_aside(game_id, error)
            return False
        return True

    def _set_aside(self, game_id: int, error: StoreError) -> None:
        log.error("%s", error)
        kept = "it was set aside (status \"unreadable\"); its log is kept"
        try:
            self.store.set_status(game_id, UNREADABLE)
            self.store.set_current(None)
        except StoreError as why:  # a read-only file: the game is simply not resumed
            kept = f"it was not resumed ({why})"
        self.unreadable_games.append(game_id)
        self.notices.append(f"{error}; {kept}. The other games can be played as before.")

    def load_game(self, game_id: int) -> None:
        """Make the saved game `game_id` the one loaded, replayed to where it was (resume)."""
        logged = self.store.load(game_id)
        try:
            game = game_named(logged.title)
            if logged.snapshot is not None:
                session = GameSession.from_snapshot(game, logged.snapshot, self._seed_source)
            else:
                session = GameSession(game, self._seed_source)
            for data in logged.commands:
                session.execute(parse_logged(game, data))
        except (Refused, ValueError, KeyError, TypeError) as error:
            raise GameNotReplayable(game_id, f"game {game_id} in {self.store.location} cannot "
                                    f"be replayed: {error}") from None
        self.session, self.game_id, self.log_length = session, game_id, logged.log_length

    def unload_game(self) -> None:
        """Put the loaded game away (abandoned or deleted): a fresh session of the same game."""
        self.session, self.game_id = GameSession(self.game, self._seed_source), None

    # --- commands ---------------------------------------------------------------------------

    def handle(self, command: c.Command, translate: Translate = as_written,
               commit_later: bool = False) -> Reply:
        """Carry out one command; raises Refused (nothing changed) when it cannot be done.

        `translate` words the few texts an answer carries (a game's ending in `game_detail`).
        `commit_later` (the table's taps): a played command returns once its commit has
        started; `settle` must be called before anyone is shown the new state.
        """
        self._wait_for_the_commit()
        try:
            if isinstance(command, Catalogue):
                return Reply(extra={"catalogue": self.game.catalogue()})
            if isinstance(command, SeatRequest):
                return self.handle_seat(command.player, command.request, command.version)[1]
            for handler in self._handlers:
                if isinstance(command, handler.commands):
                    return Reply(extra=handler.handle(command, translate))
            if isinstance(command, _NOT_PLAYED):
                raise Refused(f"{type(command).name} is not answered here: this service was "
                              "built without its handler")
            return self._play(command, commit_later=commit_later)
        except StoreError as error:
            raise Refused(error.phrase) from None

    def settle(self) -> Refused | None:
        """Wait for the commit the last command left under way. None when every command
        carried out is saved; otherwise why the last one could not be: it has been taken back,
        and the session is as it was before it."""
        self._wait_for_the_commit()
        lost, self._lost = self._lost, None
        return lost

    def _wait_for_the_commit(self) -> None:
        if self._unsaved is None:
            return
        (checkpoint, before), self._unsaved = self._unsaved, None
        try:
            self.store.settle()
        except StoreError as error:
            self.session.rollback(checkpoint)
            self.session = before
            self.log_length -= 1
            self._lost = Refused(error.phrase)

    # --- seats: players acting from their own phones ----------------------------------------

    def seats(self) -> list[Seat]:
        """Who may hold a seat in the game being played (none while no game is, or for a game
        without seats)."""
        rules, state = self.game.seat_rules, self.state
        if rules is None or state is None:
            return []
        return rules.seats(self.game.view(state, as_written))

    def seat_version(self, view: dict[str, Any] | None = None) -> str | None:
        """The moment of play a seat's command must be made in: the game and where it stands
        (None while no game with seats is being played). `view`: the state as `view` shows it
        in any language, if at hand (the moment is made of ids and numbers)."""
        rules, state = self.game.seat_rules, self.state
        if rules is None or state is None or self.game_id is None:
            return None
        if view is None:
            view = self.game.view(state, as_written)
        return f"game {self.game_id}, {rules.moment(view)}"

    def handle_seat(self, player: int, request: Any, version: str) -> tuple[Seat, Reply]:
        """A seat's request for its `player`, played in turn with the table's commands and
        durable before this returns, logged with the seat's name ("by"); undo at the table
        takes it back like any command. Refused, with nothing changed, when the game has no
        such seat, is over, the request is not that player's own to send, or `version` (the
        moment the phone saw, `seat_version`) is no longer the table's."""
        rules, state = self.game.seat_rules, self.state
        if rules is None or state is None or self.game_id is None:
            raise Refused(Phrase(N_("no game with seats is being played")))
        view = self.game.view(state, as_written)
        seat = next((seat for seat in rules.seats(view) if seat.player == player), None)
        if seat is None:
            raise Refused(Phrase(N_("this game has no such seat")))
        if view.get("outcome") is not None:
            raise Refused(Phrase(N_("the game is over")))
        now = self.seat_version(view)
        if version != now:
            raise Refused(Phrase(N_("the table has moved on: what you saw is gone; look again "
                                    "before you send it")), hint=f" (now {now})")
        command = self.parse(rules.command(view, player, request))
        if type(command).name not in self.game.commands or isinstance(
                command, (self.game.new_game, NewGameOf, *c.SESSION_COMMANDS.values())):
            raise Refused(Phrase(N_("a seat cannot send {name}: it is not this player's own "
                                    "action"), name=repr(type(command).name)))
        try:
            reply = self._play(command, by=seat.label)
        except StoreError as error:
            raise Refused(error.phrase) from None
        acted = rules.acted(seat, view, request)
        return seat, Reply([acted, *reply.events], {"seat": seat.label})

    # --- playing ----------------------------------------------------------------------------

    def _play(self, command: c.Command, by: str | None = None,
              commit_later: bool = False) -> Reply:
        before = self.session
        if isinstance(command, NewGameOf):
            if command.game is not self.game:
                self.session = GameSession(command.game, self._seed_source)
            command = command.setup
        checkpoint = self.session.checkpoint()
        try:
            events, logged = self.session.execute(command)
        except Refused:
            self.session = before  # a refused new game of another game leaves this one
            raise
        if logged is None:
            return Reply(events)
        try:
            self._save(logged, by, commit_later)
        except StoreError:
            self.session.rollback(checkpoint)
            self.session = before
            raise
        except Exception as error:
            # Whatever went wrong while saving, the session must not keep a change the log
            # lacks: a later command would be logged on top of it and the log would no longer
            # replay.
            self.session.rollback(checkpoint)
            self.session = before
            log.exception("saving %r failed", logged)
            raise Refused(Phrase(N_("could not save this action to {location} ({why}). Nothing "
                                    "was changed"), location=self.store.location,
                                 why=f"{type(error).__name__}: {_short(error)}")) from None
        if commit_later and not isinstance(logged, self.game.new_game):
            self._unsaved = (checkpoint, before)
        return Reply(events)

    def _save(self, logged: c.Command, by: str | None = None,
              commit_later: bool = False) -> None:
        state = self.session.state
        assert state is not None
        summary = self.game.summary(state)
        if isinstance(logged, self.game.new_game):
            self.game_id = self.store.create_game(logged_new_game(self.game, logged), summary)
            self.log_length = 1
            return
        assert self.game_id is not None
        entry = self.game.command_to_dict(logged)
        if by is not None:
            entry[BY] = by  # who sent it from their phone; replay leaves it out
        self.store.append(self.game_id, entry, summary, self.session.snapshot,
                          after=self.log_length, commit_later=commit_later)
        self.log_length += 1


def _short(error: Exception) -> str:
    return str(error).split("\n")[0][:160].encode("utf-8", "backslashreplace").decode()
