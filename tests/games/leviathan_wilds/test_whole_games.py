"""Whole games through the package API: solo, 2 and 4 guardians, every difficulty, won and lost."""

from __future__ import annotations

import json

import pytest

from companion.games.leviathan_wilds import api as lw
from companion.games.leviathan_wilds.state import State

from .play import do, finish_turn, new, to_step

TABLES = [(players, difficulty) for players in (1, 2, 4)
          for difficulty in ("easy", "medium", "hard", "expert")]
CRYSTALS = [{"dice": [3]}, {"dice": [4], "corrupted": True}, {"dice": [2, 5]},
            {"dice": [6], "corrupted": True}]


def _through_the_api(state: State, raw: dict[str, object]) -> State:
    # As a shell would: JSON in, and the view and a record out after every command.
    state, events = lw.decide(state, lw.parse_command(json.loads(json.dumps(raw))))
    json.dumps([lw.event_view(event) for event in events])
    json.dumps(lw.view(state))
    assert lw.state_from_record(json.loads(json.dumps(lw.state_to_record(state)))) == state
    return state


@pytest.mark.parametrize(("players", "difficulty"), TABLES)
def test_striking_every_crystal_heals_the_leviathan(players: int, difficulty: str) -> None:
    state = new(players=players, difficulty=difficulty, leviathan=2, crystals=CRYSTALS,
                deck_size=30)
    turns = 0
    while state.outcome is None:
        turns += 1
        assert turns < 30
        state = _through_the_api(state, {"cmd": "next", "step": "reveal"})
        state = _through_the_api(state, {"cmd": "ap_card", "ap": 3})
        target = next(i for i, c in enumerate(state.crystals) if not c.shattered)
        state = _through_the_api(state, {"cmd": "strike", "crystal": target, "amount": 3})
        if state.outcome is None:
            for step in ("activate", "resolve", "draw"):
                state = _through_the_api(state, {"cmd": "next", "step": step})
    assert state.outcome is not None and state.outcome.result == "win"
    assert lw.view(state)["outcome"]["result"] == "win"
    assert state.round == 2  # seven turns: one round end on the way
    assert sum(g.corruption for g in state.guardians) == 3  # three corrupted strikes


@pytest.mark.parametrize(("players", "difficulty"), TABLES)
def test_a_defeat_and_an_unused_last_chance_lose_the_game(players: int, difficulty: str) -> None:
    state = to_step(new(players=players, difficulty=difficulty, leviathan=17), "resolve")
    state = _through_the_api(state, {"cmd": "corruption", "guardian": 0, "amount": 4})
    state = _through_the_api(state, {"cmd": "health", "guardian": 0, "amount": -4})
    assert state.guardians[0].defeated
    others = len(state.guardians) - 1
    assert state.last_chance == tuple(range(1, others + 1))
    for _ in range(others + 1):  # the rest of this turn, then one turn each
        assert state.outcome is None
        state = finish_turn(state)
    assert state.outcome is not None and state.outcome.result == "loss"
    assert lw.view(state)["outcome"]["reason_id"] == "last_chance"
    assert lw.view(state)["prompt"]["id"] == "lw-prompt-loss"


@pytest.mark.parametrize("players", [1, 2, 4])
def test_the_game_is_lost_at_once_when_every_guardian_is_defeated(players: int) -> None:
    state = new(players=players)
    for i in range(len(state.guardians)):
        state = do(state, "health", guardian=i, amount=-8)
    assert state.outcome is not None
    assert (state.outcome.result, state.outcome.reason) == ("loss", "all_defeated")


def test_a_guardian_defeated_in_their_own_activation_stops_and_the_threat_still_resolves() -> None:
    state = do(to_step(new(players=2), "activate"), "ap_card", ap=3)
    state = do(state, "corruption", guardian=0, amount=8)
    assert state.step == "resolve" and state.guardians[0].defeated
    assert state.pile_of(0).discard == 10  # cards and AP card all go to the discard
    state = do(state, "next")  # no draw step for a defeated guardian
    assert (state.active, state.step, state.last_chance) == (1, "reveal", ())


def test_in_solo_one_person_runs_two_guardians_who_take_turns_alternately() -> None:
    state = new(players=1)
    assert len(state.guardians) == 2 and len(state.piles) == 1
    assert state.piles[0].deck == 15 - 6
    seen = []
    for _ in range(4):
        seen.append(state.active)
        state = finish_turn(state)
    assert seen == [0, 1, 0, 1]


def test_in_solo_an_empty_shared_deck_makes_both_guardians_fall() -> None:
    state = do(new(players=1, deck_size=7), "grip", guardian=1, amount=-1)
    assert all(g.falling for g in state.guardians)
