"""One game's history: the current state, what was done to reach it, undo and redo.

The session is the model's only stateful object. It keeps every earlier state (they are
immutable values, so keeping them is cheap), which makes undo exact and without limit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from . import commands as c
from . import events as e
from .errors import Refused
from .game import decide, start
from .state import GameState


class GameSession:
    def __init__(self, seed_source: Callable[[], int]) -> None:
        self._seed_source = seed_source
        """Where a new game's seed comes from when the command names none (the shell's RNG)."""
        self.state: GameState | None = None
        self._past: list[tuple[GameState, c.Command]] = []
        self._future: list[tuple[GameState, c.Command]] = []

    @property
    def can_undo(self) -> bool:
        return bool(self._past)

    @property
    def can_redo(self) -> bool:
        return bool(self._future)

    def execute(self, command: c.Command) -> tuple[list[e.Event], c.Command | None]:
        """Carry out a command; return its events and the command as it belongs in the log.

        The logged form is fully determined (a new game's seed filled in), so replaying the log
        gives the same game. Queries return None: they change nothing and are not logged.
        Raises Refused, with the session unchanged, when the command cannot be carried out.
        """
        if isinstance(command, c.ShowState):
            return [], None
        if isinstance(command, c.NewGame):
            if command.seed is None:
                command = replace(command, seed=self._seed_source())
            self.state, events = start(command)
            self._past.clear()
            self._future.clear()
            return events, command
        if self.state is None:
            raise Refused("no game is running: start one with new_game")
        if isinstance(command, c.Undo):
            if not self._past:
                raise Refused("there is nothing to undo in this game")
            previous, undone = self._past.pop()
            self._future.append((self.state, undone))
            self.state = previous
            return [e.Undone(c.command_to_dict(undone))], command
        if isinstance(command, c.Redo):
            if not self._future:
                raise Refused("there is nothing to redo")
            following, redone = self._future.pop()
            self._past.append((self.state, redone))
            self.state = following
            return [e.Redone(c.command_to_dict(redone))], command
        new_state, events = decide(self.state, command)
        self._past.append((self.state, command))
        self._future.clear()
        self.state = new_state
        return events, command

    def replay(self, log: Iterable[c.Command]) -> None:
        """Bring the session to the end of a command log written by `execute`."""
        for command in log:
            self.execute(command)
