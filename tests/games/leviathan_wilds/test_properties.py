"""Properties over random command sequences from a started game."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion.core.errors import Refused
from companion.games.leviathan_wilds import api as lw
from companion.games.leviathan_wilds.state import State

CONTRACT = {"title", "round", "step", "active", "threat_row", "wrath", "guardians",
            "crystals_left", "outcome"}
GUARDIAN_FIELDS = {"health", "corruption", "deck", "hand", "discard", "defeated"}

who = st.integers(0, 4)
signed = st.sampled_from([-8, -3, -2, -1, 1, 2, 8])
cards = st.sampled_from(["LW-threat-1-1", "LW-threat-1-3", "LW-threat-1-5", "LW-threat-2-1"])
weaknesses = st.sampled_from(["LW-weakness-1", "LW-weakness-2"])


def _cmd(name: str, **fields: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({"cmd": st.just(name)}, optional=fields)


COMMAND = st.one_of(
    st.fixed_dictionaries({"cmd": st.just("health"), "guardian": st.integers(0, 3),
                           "amount": st.just(-8)}),
    _cmd("next", step=st.sampled_from(["reveal", "activate", "resolve", "draw"]),
         decline_last=st.booleans()),
    _cmd("reveal", card=cards),
    st.fixed_dictionaries({"cmd": st.just("wild"), "count": st.integers(1, 5)}),
    st.fixed_dictionaries({"cmd": st.sampled_from(["health", "corruption", "grip"]),
                           "guardian": who, "amount": signed}),
    st.fixed_dictionaries({"cmd": st.sampled_from(["draw", "discard"]), "guardian": who},
                          optional={"count": st.integers(1, 5)}),
    st.fixed_dictionaries({"cmd": st.just("ap_card"), "ap": st.integers(0, 6)},
                          optional={"protections": st.sampled_from(
                              [[], ["corrupt"], ["harmful", "slippery"]])}),
    st.fixed_dictionaries({"cmd": st.just("act"),
                           "action": st.sampled_from(["climb", "jump", "glide", "rest", "heal"])},
                          optional={"x": st.integers(1, 3)}),
    st.fixed_dictionaries({"cmd": st.just("strike"), "crystal": st.integers(0, 4),
                           "amount": st.integers(1, 6)},
                          optional={"guardian": who, "ap": st.booleans(),
                                    "protected": st.booleans()}),
    st.fixed_dictionaries({"cmd": st.just("terrain"), "guardian": who,
                           "kind": st.sampled_from(["harmful", "slippery", "open"])}),
    st.fixed_dictionaries({"cmd": st.sampled_from(["fall", "land"]), "guardian": who}),
    st.fixed_dictionaries({"cmd": st.just("focus"), "guardian": who, "ready": st.booleans()}),
    st.fixed_dictionaries({"cmd": st.just("weakness"), "guardian": who},
                          optional={"card": weaknesses, "remove": st.booleans()}),
    st.fixed_dictionaries({"cmd": st.just("set_crystal"), "crystal": st.integers(0, 4),
                           "dice": st.lists(st.integers(1, 6), max_size=2)}),
    st.fixed_dictionaries({"cmd": st.just("win_condition"), "condition": st.integers(0, 1),
                           "met": st.booleans()}),
    st.fixed_dictionaries({"cmd": st.just("counter"), "counter": st.just("frost"),
                           "amount": signed}),
    st.just({"cmd": "state"}),
)

# Tapping Done is what players do most: a few taps before each other command, so that games
# run through rounds, defeats and Last Chance to their end.
PLAY = st.lists(st.tuples(st.integers(0, 6), COMMAND), min_size=5, max_size=40).map(
    lambda pairs: [raw for taps, command in pairs for raw in [{"cmd": "next"}] * taps + [command]])

GAME = st.fixed_dictionaries({
    "cmd": st.just("new_game"), "game": st.just("leviathan-wilds"),
    "players": st.integers(1, 4),
    "difficulty": st.sampled_from(["easy", "medium", "hard", "expert"]),
    "leviathan": st.just(1),
}, optional={
    "deck_size": st.integers(6, 16),
    "crystals": st.just([{"dice": [2]}, {"dice": [1, 3], "corrupted": True}, {"dice": [2]}]),
    "win_conditions": st.just(["the relic is home"]),
})


def check_invariants(state: State) -> None:
    numbers = state.setup.numbers
    assert len(state.row) == 5
    for p, pile in enumerate(state.piles):
        holders = [g for g in state.guardians if g.pile == p]
        in_slot = sum(1 for g in holders if g.ap_card is not None and g.ap_card.from_hand)
        assert pile.deck >= 0 and pile.discard >= 0
        assert pile.deck + pile.discard + sum(g.hand for g in holders) + in_slot \
            == numbers.deck_size
    for guardian in state.guardians:
        assert 0 <= guardian.health <= numbers.health_max
        assert 0 <= guardian.corruption <= numbers.corruption_max
        assert guardian.hand >= 0 and guardian.ap_left >= 0
        assert guardian.defeated == (guardian.health <= guardian.corruption)
        if guardian.defeated:
            assert guardian.hand == 0 and not guardian.falling and guardian.ap_card is None
    assert 0 <= state.weakness_deck <= 12
    assert 0 <= state.wrath < len(numbers.wrath_wild_counts)
    assert (state.outcome is None) == (state.step != "over")
    record = json.loads(json.dumps(lw.state_to_record(state)))
    assert lw.state_from_record(record) == state
    view = json.loads(json.dumps(lw.view(state)))
    assert set(view) >= CONTRACT
    assert len(view["threat_row"]) == 5
    assert all({"face_up", "wild"} <= set(slot) for slot in view["threat_row"])
    assert all(set(g) >= GUARDIAN_FIELDS for g in view["guardians"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=GAME, seed=st.integers(0, 2**32), raws=PLAY)
def test_random_play_keeps_every_invariant_and_refusals_change_nothing(
        game: dict[str, Any], seed: int, raws: list[dict[str, Any]]) -> None:
    command = lw.parse_command(game)
    assert isinstance(command, lw.NewGame)
    state, _ = lw.start(command, seed)
    check_invariants(state)
    for raw in raws:
        before = lw.state_to_record(state)
        try:
            new_state, events = lw.decide(state, lw.parse_command(raw))
        except Refused as refused:
            assert str(refused)
            assert lw.state_to_record(state) == before
            continue
        json.dumps([lw.event_view(event) for event in events])
        state = new_state
        check_invariants(state)
    event(f"ended: {state.outcome.result if state.outcome else 'running'}")
    event(f"reached round {min(state.round, 3)}")


@settings(max_examples=40, deadline=None)
@given(game=GAME, seed=st.integers(0, 2**32), raws=PLAY)
def test_the_same_seed_and_commands_give_the_same_game(
        game: dict[str, Any], seed: int, raws: list[dict[str, Any]]) -> None:
    def play() -> State:
        command = lw.parse_command(game)
        assert isinstance(command, lw.NewGame)
        state, _ = lw.start(command, seed)
        for raw in raws:
            with contextlib.suppress(Refused):
                state, _ = lw.decide(state, lw.parse_command(raw))
        return state
    assert play() == play()
