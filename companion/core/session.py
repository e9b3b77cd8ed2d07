"""One game's history: the current state, what was done to reach it, undo and redo.

The session plays any game through its `Game` record; undo and redo are the same for all.

The session is the model's only stateful object. It keeps the state before every command still
in effect (states are immutable values, so keeping them is cheap), which makes undo exact and
without limit. A session restored from a snapshot knows those commands but not yet the states
between them; it rebuilds them by replay the first time an undo reaches that far back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, fields, replace
from typing import Any

from . import commands as c
from . import events as e
from .errors import Refused
from .game import Game, State


@dataclass(frozen=True)
class Checkpoint:
    """Everything `GameSession.rollback` needs to put the session back where it was."""

    state: State | None
    done: tuple[tuple[State | None, c.Command], ...]
    undone: tuple[c.Command, ...]
    started_with: c.Command | None


class GameSession:
    def __init__(self, game: Game, seed_source: Callable[[], int]) -> None:
        self.game = game
        """The game being played: its rules decide every command but undo, redo and state."""
        self._seed_source = seed_source
        """Where a new game's seed comes from when the command names none (the shell's RNG)."""
        self.state: State | None = None
        self._started_with: c.Command | None = None
        self._done: list[tuple[State | None, c.Command]] = []
        """Commands in effect, each with the state before it (None until rebuilt)."""
        self._undone: list[c.Command] = []
        """Commands taken back by undo, the most recent last: what redo applies again."""

    @property
    def can_undo(self) -> bool:
        return bool(self._done)

    @property
    def can_redo(self) -> bool:
        return bool(self._undone)

    @property
    def undo_count(self) -> int:
        """How many commands undo can take back, one at a time."""
        return len(self._done)

    @property
    def redo_count(self) -> int:
        return len(self._undone)

    def execute(self, command: c.Command) -> tuple[list[e.Event], c.Command | None]:
        """Carry out a command; return its events and the command as it belongs in the log.

        The logged form is fully determined (a new game's seed filled in), so replaying the log
        gives the same game. Queries return None: they change nothing and are not logged.
        Raises Refused, with the session unchanged, when the command cannot be carried out.
        """
        if isinstance(command, c.ShowState):
            return [], None
        if isinstance(command, self.game.new_game):
            # A game whose start command has no seed field draws no random numbers.
            if "seed" in {f.name for f in fields(command)} and \
                    getattr(command, "seed", None) is None:
                command = replace(command, seed=self._seed_source())  # type: ignore[call-arg]
            self.state, events = self.game.start(command)
            self._started_with = command
            self._done.clear()
            self._undone.clear()
            return events, command
        if self.state is None:
            raise Refused("no game is running: start one with new_game")
        if isinstance(command, c.Undo):
            if not self._done:
                raise Refused("there is nothing to undo in this game")
            before, undone = self._done[-1]
            if before is None:
                before = self._rebuild_before(len(self._done) - 1)
            self._done.pop()
            self._undone.append(undone)
            self.state = before
            return [e.Undone(self.game.command_to_dict(undone))], command
        if isinstance(command, c.Redo):
            if not self._undone:
                raise Refused("there is nothing to redo")
            redone = self._undone[-1]
            # The model is deterministic, so applying the command again gives the same state.
            new_state, _ = self.game.decide(self.state, redone)
            self._undone.pop()
            self._done.append((self.state, redone))
            self.state = new_state
            return [e.Redone(self.game.command_to_dict(redone))], command
        new_state, events = self.game.decide(self.state, command)
        self._done.append((self.state, command))
        self._undone.clear()
        self.state = new_state
        return events, command

    def _rebuild_before(self, index: int) -> State:
        """The state before the `index`-th command in effect, replaying from the last one known."""
        known = index
        while known >= 0 and self._done[known][0] is None:
            known -= 1
        if known < 0:
            assert self._started_with is not None
            state, _ = self.game.start(self._started_with)
            known = 0
        else:
            state = self._done[known][0]
        for i in range(known, index):
            command = self._done[i][1]
            self._done[i] = (state, command)
            state, _ = self.game.decide(state, command)
        self._done[index] = (state, self._done[index][1])
        return state

    def course(self) -> Iterator[tuple[c.Command, list[e.Event], State]]:
        """The game as it was played: each command still in effect (what was undone left out),
        from the new game on, with its events and the state after it."""
        if self._started_with is None:
            return
        state, events = self.game.start(self._started_with)
        yield self._started_with, events, state
        for _, command in self._done:
            # The model is deterministic, so deciding again gives the states and events it gave.
            state, events = self.game.decide(state, command)
            yield command, events, state

    def replay(self, log: Iterable[c.Command]) -> None:
        """Bring the session to the end of a command log written by `execute`."""
        for command in log:
            self.execute(command)

    # --- for the store ----------------------------------------------------------------------

    def checkpoint(self) -> Checkpoint:
        return Checkpoint(self.state, tuple(self._done), tuple(self._undone), self._started_with)

    def rollback(self, checkpoint: Checkpoint) -> None:
        """Forget everything since `checkpoint` (used when a change could not be saved)."""
        self.state = checkpoint.state
        self._done = list(checkpoint.done)
        self._undone = list(checkpoint.undone)
        self._started_with = checkpoint.started_with

    def snapshot(self) -> dict[str, Any]:
        """The session as JSON-ready data: the state, and the commands undo and redo need."""
        if self.state is None or self._started_with is None:
            raise ValueError("no game to snapshot")
        return {
            "started_with": self.game.command_to_dict(self._started_with),
            "state": self.game.state_to_record(self.state),
            "done": [self.game.command_to_dict(command) for _, command in self._done],
            "undone": [self.game.command_to_dict(command) for command in self._undone],
        }

    @classmethod
    def from_snapshot(cls, game: Game, snapshot: dict[str, Any],
                      seed_source: Callable[[], int]) -> GameSession:
        session = cls(game, seed_source)
        session.load(snapshot)
        return session

    def load(self, snapshot: dict[str, Any]) -> None:
        """Become the session a `snapshot` of this game was taken of."""
        started_with = self.game.parse_command(snapshot["started_with"])
        if not isinstance(started_with, self.game.new_game):
            raise ValueError("a snapshot must start with new_game")
        self._started_with = started_with
        self.state = self.game.state_from_record(snapshot["state"])
        self._done = [(None, self.game.parse_command(d)) for d in snapshot["done"]]
        self._undone = [self.game.parse_command(d) for d in snapshot["undone"]]
