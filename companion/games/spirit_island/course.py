"""How a game went, round by round: fear generated, blight on the island and the terror level.

Pure: it reads the course of a game (`GameSession.course`) and counts; the history's chart and
the `game_detail` command show what it finds.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from companion.core.events import Event

from . import commands as c
from . import events as e
from .state import GameState


@dataclass(frozen=True)
class RoundTally:
    round: int
    fear_generated: int
    """Fear generated in the round, less fear that went back to the pool; never below 0."""
    blight_on_island: int
    """Blight on the island at the end of the round (or when the game ended in it)."""
    terror_level: int
    """The terror level at the end of the round (4: the Victory level)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def round_series(course: Iterable[tuple[c.Command, list[Event], GameState]]) -> list[RoundTally]:
    """One tally per round played, from round 1 to the round the game is in (or ended in).

    Fear counts in the round the players were in when it was generated; blight and terror are
    read from the last state of each round. Setup (round 0) has no tally of its own.
    """
    fear: dict[int, int] = {}
    last: dict[int, GameState] = {}
    before: GameState | None = None
    for _command, events, after in course:
        where = before.round if before is not None else after.round
        for event in events:
            if isinstance(event, e.FearGenerated):
                fear[where] = fear.get(where, 0) + event.amount
            elif isinstance(event, e.FearLost):
                fear[where] = fear.get(where, 0) - event.amount
        last[after.round] = after
        before = after
    if before is None:
        return []
    tallies = []
    state = last.get(0, before)
    for number in range(1, before.round + 1):
        state = last.get(number, state)  # a round left without a state keeps the one before
        tallies.append(RoundTally(number, max(0, fear.get(number, 0)),
                                  state.blight.on_island, state.terror_level))
    return tallies
