"""Helpers for Leviathan Wilds tests: start a game and send commands as the driver would."""

from __future__ import annotations

from typing import Any

from companion.games.leviathan_wilds import api as lw
from companion.games.leviathan_wilds.events import Event
from companion.games.leviathan_wilds.state import State


def new(players: int = 2, difficulty: str = "medium", leviathan: int = 1, seed: int = 1,
        **extra: Any) -> State:
    raw = {"cmd": "new_game", "game": "leviathan-wilds", "players": players,
           "difficulty": difficulty, "leviathan": leviathan, **extra}
    command = lw.parse_command(raw)
    assert isinstance(command, lw.NewGame)
    state, _ = lw.start(command, seed)
    return state


def do(state: State, cmd: str, **fields: Any) -> State:
    return send(state, cmd, **fields)[0]


def send(state: State, cmd: str, **fields: Any) -> tuple[State, list[Event]]:
    return lw.decide(state, lw.parse_command({"cmd": cmd, **fields}))


def to_step(state: State, step: str) -> State:
    """Tap Done until the game is in `step` (of this or a later turn)."""
    for _ in range(8):
        if state.step == step:
            return state
        state = do(state, "next")
    raise AssertionError(f"never reached {step}")


def finish_turn(state: State) -> State:
    """Tap Done through the rest of this turn: the next turn's reveal step (or the end)."""
    active, round_ = state.active, state.round
    while state.outcome is None:
        state = do(state, "next")
        if state.step == "reveal" and (state.active, state.round) != (active, round_):
            break
    return state


def turns(state: State, count: int) -> tuple[State, list[int]]:
    """Play `count` turns doing nothing but tapping Done; the guardians whose turns they were."""
    seen = []
    for _ in range(count):
        seen.append(state.active)
        state = finish_turn(state)
    return state, seen
