"""How a game ends, and its score."""

from __future__ import annotations

import pytest

from companion.core.errors import Refused
from tests.helpers import do, kinds, new_session, next_until, playing, state


def test_players_declare_victory_when_the_terror_level_condition_is_met() -> None:
    session = new_session(players=1)
    do(session, "fear", amount=12)  # terror level II
    do(session, "declare", result="victory")
    outcome = state(session).outcome
    assert outcome is not None and outcome.result == "victory"
    assert outcome.reason == "terror_condition"
    assert "no towns and no cities" in outcome.detail


def test_players_declare_defeat_when_a_spirit_is_destroyed() -> None:
    session = new_session()
    do(session, "declare", result="defeat")
    outcome = state(session).outcome
    assert outcome is not None and (outcome.result, outcome.reason) == ("defeat",
                                                                        "spirit_destroyed")
    assert state(session).phase == "over"


def test_a_win_and_a_loss_from_one_effect_is_a_sacrifice_victory() -> None:
    session = playing(players=1, blight_card="downward-spiral", island_blight=0)
    do(session, "fear", amount=32)
    do(session, "blight", amount=3)
    do(session, "blight", amount=4)  # one blight left on the blighted side
    events = do(session, "effect", commands=[{"cmd": "destroy", "piece": "city"},
                                             {"cmd": "fear", "amount": 2},
                                             {"cmd": "blight", "amount": 1}])
    outcome = state(session).outcome
    assert outcome is not None and outcome.result == "sacrifice"
    assert outcome.reason == "fear and blight"
    assert kinds(events).count("game_ended") == 1


def test_an_effect_is_applied_as_a_whole_or_not_at_all() -> None:
    session = new_session(players=2, island_blight=0)
    before = state(session)
    with pytest.raises(Refused, match="only 0 blight"):
        do(session, "effect", commands=[{"cmd": "fear", "amount": 3},
                                        {"cmd": "heal", "amount": 1}])
    assert state(session) == before


def test_an_effect_combines_only_quick_changes() -> None:
    session = new_session()
    with pytest.raises(Refused, match="only combine"):
        do(session, "effect", commands=[{"cmd": "next"}])


def test_declaring_sacrifice_directly_is_allowed() -> None:
    session = new_session()
    do(session, "declare", result="sacrifice")
    assert state(session).outcome is not None and state(session).outcome.result == "sacrifice"


def test_a_finished_game_refuses_further_play_but_allows_undo_and_score() -> None:
    session = new_session()
    do(session, "declare", result="defeat")
    for cmd, fields in [("next", {}), ("fear", {"amount": 1}), ("blight", {"amount": 1}),
                        ("declare", {"result": "victory"})]:
        with pytest.raises(Refused, match="the game is over"):
            do(session, cmd, **fields)
    do(session, "score", dahan=4)
    do(session, "undo")
    do(session, "undo")
    assert not state(session).is_over


def test_the_score_is_only_counted_once_the_game_is_over() -> None:
    with pytest.raises(Refused, match="when the game is over"):
        do(new_session(), "score", dahan=3)


def test_a_victory_scores_10_plus_5_per_difficulty_plus_2_per_card_left_in_the_deck() -> None:
    session = new_session(players=2, island_blight=0)
    do(session, "next")
    do(session, "fear", amount=72)  # 9 cards: a fear victory in round 1, 11 cards in the deck
    events = do(session, "score", dahan=9, blight_on_island=5)
    # 10 + 2 * 11 + 9 // 2 - 5 // 2
    assert state(session).outcome is not None and state(session).outcome.score == 34
    assert events[0].to_dict() == {"type": "score_recorded", "score": 34, "dahan": 9,
                                   "blight_on_island": 5}


def test_a_defeat_scores_1_per_invader_card_no_longer_in_the_deck() -> None:
    session = new_session(players=3)
    do(session, "next")
    next_until(session, "time_passes")
    do(session, "next")
    next_until(session, "slow_powers")  # round 2: 3 cards out (discard, ravage, build)
    do(session, "declare", result="defeat")
    do(session, "score", dahan=7, blight_on_island=4)
    # 3 cards + 7 // 3 - 4 // 3
    assert state(session).outcome is not None and state(session).outcome.score == 4


def test_time_running_out_scores_every_card_that_left_the_deck() -> None:
    session = new_session(players=1)
    do(session, "next")
    next_until(session, "over")
    over = state(session)
    assert over.outcome is not None and over.outcome.reason == "time"
    do(session, "score", dahan=0, blight_on_island=0)
    assert state(session).outcome is not None and state(session).outcome.score == 12


def test_the_score_uses_the_tracked_island_blight_when_none_is_given() -> None:
    session = new_session(players=1, island_blight=2)
    do(session, "declare", result="defeat")
    do(session, "score", dahan=0)
    outcome = state(session).outcome
    assert outcome is not None and (outcome.blight_on_island, outcome.score) == (2, 1 - 2)
