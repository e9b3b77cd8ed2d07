"""Tally's commands: start with the players' names, score points, finish a step, end the game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from companion.core import commands as core
from companion.core.errors import Refused

STEPS = ("scoring", "checking")
"""A round: the players score, then check the round's points before they are kept."""
DEFAULT_PLAYERS = ("A", "B")
MAX_PLAYERS = 8
MAX_NAME = 20
MAX_POINTS = 1000


@dataclass(frozen=True)
class StartTally(core.Command):
    name: ClassVar[str] = "new_game"
    seed: int | None = None
    players: tuple[str, ...] = DEFAULT_PLAYERS


@dataclass(frozen=True)
class Score(core.Command):
    """Points for one player in this round; fewer than none take points away."""

    name: ClassVar[str] = "score"
    player: str
    points: int


@dataclass(frozen=True)
class NextStep(core.Command):
    name: ClassVar[str] = "next"
    step: str | None = None
    """The step meant: a tap meant for a step already passed changes nothing."""


@dataclass(frozen=True)
class EndGame(core.Command):
    name: ClassVar[str] = "end"


COMMANDS: dict[str, type[core.Command]] = {cls.name: cls for cls in (
    StartTally, Score, NextStep, EndGame, core.Undo, core.Redo, core.ShowState)}


def _names(cmd: str, key: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_PLAYERS:
        raise Refused(f"'{cmd}': {key} must be a list of 1 to {MAX_PLAYERS} names")
    names = tuple(core.text(cmd, key, name).strip() for name in value)
    if not all(0 < len(name) <= MAX_NAME for name in names) or len(set(names)) < len(names):
        raise Refused(f"'{cmd}': {key} must be different names of 1 to {MAX_NAME} characters")
    return names


def check_field(cmd: str, key: str, value: Any) -> Any:
    if key == "seed":
        return core.whole_number(cmd, key, value, 0, 2**63 - 1)
    if key == "players":
        return _names(cmd, key, value)
    if key == "points":
        return core.whole_number(cmd, key, value, -MAX_POINTS, MAX_POINTS)
    if key == "step":
        return core.text(cmd, key, value, STEPS)
    return core.shared_field(cmd, key, value)


def parse_command(data: Any) -> core.Command:
    return core.parse_command(data, COMMANDS, check_field)
