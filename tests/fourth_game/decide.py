"""Tally's rules: pure, a state and a command to the next state and what happened."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.core.commands import ShowState, shown
from companion.core.errors import Refused
from companion.core.events import Event

from .commands import STEPS, EndGame, NextStep, Score, StartTally
from .state import GameEnded, RoundKept, Scored, StepFinished, Tally


def start(command: StartTally) -> tuple[Tally, list[Event]]:
    return Tally(players=command.players, scores=(0,) * len(command.players)), []


def decide(state: Tally, command: Any) -> tuple[Tally, list[Event]]:
    if isinstance(command, ShowState):
        return state, []
    if state.winners is not None:
        raise Refused("the game is over; undo to play on")
    if isinstance(command, Score):
        return _score(state, command)
    if isinstance(command, NextStep):
        return _next(state, command)
    if isinstance(command, EndGame):
        return _end(state)
    raise Refused(f"'{command.name}' is not one of Tally's moves")


def _score(state: Tally, command: Score) -> tuple[Tally, list[Event]]:
    if command.player not in state.players:
        raise Refused(f"unknown player {shown(command.player)}; the players are "
                      f"{', '.join(state.players)}")
    at = state.players.index(command.player)
    scores = tuple(points + command.points * (i == at) for i, points in enumerate(state.scores))
    after = replace(state, scores=scores)
    return after, [Scored(command.player, command.points, after.totals()[at])]


def _next(state: Tally, command: NextStep) -> tuple[Tally, list[Event]]:
    if command.step is not None and command.step != state.step:
        raise Refused(f"this was meant to finish the step {command.step!r}, but it is "
                      f"{state.step!r} already; nothing was changed")
    if state.step == STEPS[0]:
        return replace(state, step=STEPS[1]), [StepFinished(state.step)]
    kept = replace(state, round=state.round + 1, step=STEPS[0], past=(*state.past, state.scores),
                   scores=(0,) * len(state.players))
    return kept, [StepFinished(state.step), RoundKept(state.round, state.scores)]


def _end(state: Tally) -> tuple[Tally, list[Event]]:
    """The round in play counts if anyone scored in it; the most points win (a tie shares)."""
    if any(state.scores):
        state = replace(state, past=(*state.past, state.scores), scores=(0,) * len(state.scores))
    best = max(state.totals())
    winners = tuple(name for name, total in zip(state.players, state.totals(), strict=True)
                    if total == best)
    return replace(state, winners=winners), [GameEnded(winners, best)]
