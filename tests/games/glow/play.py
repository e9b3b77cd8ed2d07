"""Helpers for Glow tests: start a game and send commands as the driver would."""

from __future__ import annotations

from typing import Any

from companion.games.glow import api as glow
from companion.games.glow.events import Event
from companion.games.glow.state import State


def new(players: int = 3, board: str = "realm", start_player: int | None = 0, seed: int = 1,
        **extra: Any) -> State:
    raw: dict[str, Any] = {"cmd": "new_game", "game": "glow", "players": players,
                           "board": board, **extra}
    if start_player is not None:
        raw["start_player"] = start_player
    command = glow.parse_command(raw)
    assert isinstance(command, glow.NewGame)
    state, _ = glow.start(command, seed)
    return state


def do(state: State, cmd: str, **fields: Any) -> State:
    return send(state, cmd, **fields)[0]


def send(state: State, cmd: str, **fields: Any) -> tuple[State, list[Event]]:
    return glow.decide(state, glow.parse_command({"cmd": cmd, **fields}))


def done(state: State) -> State:
    """Tap Done once, answering the "nothing forgotten?" gate where there is one."""
    return do(state, "next", confirm=True)


def to_phase(state: State, phase: str, day: int | None = None) -> State:
    """Tap Done until the game is in `phase` (of `day`, or of this or a later day)."""
    for _ in range(60):
        if state.phase == phase and (day is None or state.day == day):
            return state
        state = done(state)
    raise AssertionError(f"never reached {phase}")
