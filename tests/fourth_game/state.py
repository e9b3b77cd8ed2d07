"""Tally's state and what happens in it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.core.events import Event

from .commands import STEPS


@dataclass(frozen=True)
class Tally:
    players: tuple[str, ...]
    round: int = 1
    step: str = STEPS[0]
    scores: tuple[int, ...] = ()
    """This round's points, by player."""
    past: tuple[tuple[int, ...], ...] = ()
    """Each round's points once kept, round 1 first."""
    winners: tuple[str, ...] | None = None
    """Who has the most points, once the game is ended."""

    def totals(self) -> tuple[int, ...]:
        return tuple(sum(points) for points in zip(*self.past, self.scores, strict=True))


@dataclass(frozen=True)
class Scored(Event):
    type: ClassVar[str] = "scored"
    player: str
    points: int
    total: int


@dataclass(frozen=True)
class StepFinished(Event):
    type: ClassVar[str] = "step_finished"
    step: str


@dataclass(frozen=True)
class RoundKept(Event):
    type: ClassVar[str] = "round_kept"
    round: int
    scores: tuple[int, ...]


@dataclass(frozen=True)
class GameEnded(Event):
    type: ClassVar[str] = "game_ended"
    winners: tuple[str, ...]
    score: int
