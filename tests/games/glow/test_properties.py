"""Properties over random command sequences: refusals change nothing, undo through the session is
exact, the record round-trips, the view keeps the contract's fields, values stay in range."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion.core.commands import Undo
from companion.core.errors import Refused
from companion.core.session import GameSession
from companion.games.glow import api as glow
from companion.games.glow.data import COMPANIONS, OVER, PHASES
from companion.games.glow.definition import GLOW
from companion.games.glow.end_scoring import rerolls_needed
from companion.games.glow.state import State

CONTRACT = {"title", "day", "phase", "start_player", "deck_count", "players", "outcome"}
PLAYER_FIELDS = {"score", "reroll_tokens", "final", "lap", "track_space"}

who = st.integers(0, 4)
signed = st.sampled_from([-12, -3, -2, -1, 1, 2, 5, 30])
cards = st.sampled_from(sorted(COMPANIONS)[:6] + ["glow-A15", "glow-A18", "glow-A20",
                                                  "glow-B21"])


def _cmd(name: str, **fields: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({"cmd": st.just(name)}, optional=fields)


COMMAND = st.one_of(
    _cmd("next", phase=st.sampled_from([*PHASES, OVER]), confirm=st.booleans()),
    st.fixed_dictionaries({"cmd": st.sampled_from(["score", "rerolls", "glowworms", "trails",
                                                   "spell"]),
                           "player": who, "amount": signed}),
    st.fixed_dictionaries({"cmd": st.just("pick"), "player": who, "area": st.integers(1, 5)},
                          optional={"card": cards}),
    st.fixed_dictionaries({"cmd": st.just("discard"), "area": st.integers(1, 5)}),
    st.fixed_dictionaries({"cmd": st.just("dice"),
                           "dice": st.one_of(st.lists(st.integers(0, 3), min_size=5, max_size=5),
                                             st.sampled_from([[2, 2, 2, 2, 1],
                                                              [3, 0, 3, 2, 2]]))}),
    st.fixed_dictionaries({"cmd": st.sampled_from(["track_reroll", "lumipili"]),
                           "player": who}),
    st.fixed_dictionaries({"cmd": st.just("set_face"), "player": who},
                          optional={"lumipili": st.integers(0, 3), "tokens": st.integers(0, 3),
                                    "track": st.integers(0, 3)}),
    st.fixed_dictionaries({"cmd": st.just("companion"), "player": who, "card": cards},
                          optional={"remove": st.booleans(), "value": st.integers(-3, 6),
                                    "glowworms": st.integers(0, 2)}),
    st.fixed_dictionaries({"cmd": st.just("camp"), "player": who,
                           "value": st.sampled_from([0, 3, 5, 20, 4])},
                          optional={"correction": st.booleans()}),
    st.fixed_dictionaries({"cmd": st.just("boat"), "player": who, "boat": st.integers(0, 3),
                           "island": st.integers(0, 12)},
                          optional={"elements": st.integers(0, 5),
                                    "route": st.sampled_from([[1, 2], [3], [4], [5]]),
                                    "correction": st.booleans()}),
    st.fixed_dictionaries({"cmd": st.just("end_score"), "player": who,
                           "cards": st.integers(-5, 20), "board": st.integers(0, 20),
                           "glowworms": st.integers(0, 8), "companions": st.integers(0, 8),
                           "trails": st.integers(0, 6)},
                          optional={"score": st.integers(0, 120),
                                    "reroll_tokens": st.integers(0, 4)}),
    st.just({"cmd": "state"}),
)

# Tapping Done is what players do most: a few taps before each other command, so that games run
# through their eight days to the end scoring.
PLAY = st.lists(st.tuples(st.integers(0, 6), COMMAND), min_size=5, max_size=40).map(
    lambda pairs: [raw for taps, command in pairs
                   for raw in [{"cmd": "next", "confirm": True}] * taps + [command]])

GAME = st.fixed_dictionaries({
    "cmd": st.just("new_game"), "game": st.just("glow"), "players": st.integers(2, 4),
    "board": st.sampled_from(["realm", "sea"]),
}, optional={
    "start_player": st.integers(0, 1),
    "mode": st.sampled_from(["full", "full", "scoring"]),
    "names": st.just(["Ada", "Bo"]),
    "track_length": st.sampled_from([55, 60, 70]),
})


def check_invariants(state: State) -> None:
    numbers = state.setup.numbers
    count = len(state.players)
    assert 1 <= state.day <= 8 and state.phase in (*PHASES, OVER)
    assert 0 <= state.start_player < count
    assert state.deck_count == max(0, 35 - 5 * (state.day - 1)) or state.setup.mode == "scoring"
    assert len(state.supply) + sum(
        comp.sketal_die is not None for p in state.players for comp in p.companions) == 5
    held = [comp.card for p in state.players for comp in p.companions]
    assert len(held) == len(set(held))
    for player in state.players:
        assert player.score >= 0 and player.reroll_tokens >= 0
        assert 0 <= player.gained_today <= player.reroll_tokens
        assert player.glowworm_tokens >= 0 and player.trails >= 0 and player.spells >= 0
        assert player.lapped or player.score < numbers.track_length
    assert 0 <= state.spell_stack <= 7
    assert (state.ranking is not None) == (
        state.phase == OVER and all(p.final is not None for p in state.players)
        and not rerolls_needed(state))
    if state.ranking is not None:
        assert sorted(i for group in state.ranking for i in group) == list(range(count))
    record = json.loads(json.dumps(glow.state_to_record(state)))
    assert glow.state_from_record(record) == state
    view = json.loads(json.dumps(glow.view(state)))
    assert set(view) >= CONTRACT
    assert view["title"] == "glow" and len(view["players"]) == count
    assert all(set(p) >= PLAYER_FIELDS for p in view["players"])
    assert all(0 <= p["track_space"] < numbers.track_length for p in view["players"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=GAME, seed=st.integers(0, 2**32), raws=PLAY)
def test_random_play_keeps_every_invariant_and_refusals_change_nothing(
        game: dict[str, Any], seed: int, raws: list[dict[str, Any]]) -> None:
    command = glow.parse_command(game)
    assert isinstance(command, glow.NewGame)
    state, _ = glow.start(command, seed)
    check_invariants(state)
    for raw in raws:
        before = glow.state_to_record(state)
        try:
            new_state, events = glow.decide(state, glow.parse_command(raw))
        except Refused as refused:
            assert str(refused)
            assert glow.state_to_record(state) == before
            continue
        json.dumps([glow.event_view(e) for e in events])
        state = new_state
        check_invariants(state)
    event(f"reached {'the end' if state.phase == OVER else f'day {min(state.day, 3)}'}")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=GAME, raws=PLAY)
def test_undo_through_the_session_gives_back_every_state_exactly(
        game: dict[str, Any], raws: list[dict[str, Any]]) -> None:
    session = GameSession(GLOW, seed_source=lambda: 3)
    session.execute(GLOW.parse_command(game))
    states = [session.state]
    for raw in raws:
        with contextlib.suppress(Refused):
            _, logged = session.execute(GLOW.parse_command(raw))
            if logged is not None:
                states.append(session.state)
    while len(states) > 1:
        states.pop()
        session.execute(Undo())
        assert session.state == states[-1]


@settings(max_examples=40, deadline=None)
@given(game=GAME, seed=st.integers(0, 2**32), raws=PLAY)
def test_the_same_seed_and_commands_give_the_same_game(
        game: dict[str, Any], seed: int, raws: list[dict[str, Any]]) -> None:
    def play() -> State:
        command = glow.parse_command(game)
        assert isinstance(command, glow.NewGame)
        state, _ = glow.start(command, seed)
        for raw in raws:
            with contextlib.suppress(Refused):
                state, _ = glow.decide(state, glow.parse_command(raw))
        return state
    assert play() == play()


@settings(max_examples=100, deadline=None)
@given(raw=st.one_of(COMMAND, st.dictionaries(st.text(max_size=8), st.integers() | st.text())))
def test_a_command_reads_back_from_its_dict_unchanged(raw: dict[str, Any]) -> None:
    try:
        command = glow.parse_command(raw)
    except Refused as refused:
        assert str(refused)
        return
    assert glow.parse_command(json.loads(json.dumps(glow.command_to_dict(command)))) == command
