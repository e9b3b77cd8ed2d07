"""Fear, fear cards and the terror level."""

from __future__ import annotations

import pytest

from companion.core.errors import Refused
from companion.games.spirit_island.fear_cards import FEAR_CARDS
from tests.helpers import advance_to, do, kinds, new_session, next_until, state
from tests.table_player import Table


def test_generated_fear_moves_markers_from_the_pool() -> None:
    session = new_session(players=2)
    do(session, "fear", amount=3)
    fear = state(session).fear
    assert (fear.pool, fear.generated, fear.earned) == (5, 3, 0)


def test_emptying_the_pool_earns_a_fear_card_and_the_markers_return() -> None:
    session = new_session(players=2)
    events = do(session, "fear", amount=8)
    fear = state(session).fear
    assert (fear.pool, fear.generated, fear.earned, fear.deck) == (8, 0, 1, 8)
    assert kinds(events) == ["fear_generated", "fear_card_earned"]


def test_surplus_fear_carries_over_after_a_card_is_earned() -> None:
    # The rulebook: markers beyond those in the pool go to generated fear once it refills.
    session = new_session(players=1)
    do(session, "fear", amount=3)
    do(session, "fear", amount=3)
    fear = state(session).fear
    assert (fear.earned, fear.generated, fear.pool) == (1, 2, 2)


def test_one_big_gain_can_earn_several_cards() -> None:
    session = new_session(players=1)
    events = do(session, "fear", amount=13)
    fear = state(session).fear
    assert (fear.earned, fear.generated) == (3, 1)
    assert kinds(events).count("fear_card_earned") == 3


@pytest.mark.parametrize(("piece", "count", "fear"), [("town", 1, 1), ("city", 1, 2),
                                                      ("town", 3, 3), ("city", 2, 4)])
def test_destroying_a_town_makes_1_fear_and_a_city_2(piece: str, count: int, fear: int) -> None:
    session = new_session(players=3)
    do(session, "destroy", piece=piece, count=count)
    assert state(session).fear.generated == fear


def test_reaching_a_divider_raises_the_terror_level_at_once() -> None:
    session = new_session(players=1)
    do(session, "fear", amount=8)
    assert state(session).terror_level == 1
    events = do(session, "fear", amount=4)
    assert state(session).terror_level == 2
    raised = [e.to_dict() for e in events if e.type == "terror_level_raised"]
    assert raised == [{"type": "terror_level_raised", "terror_level": 2,
                       "victory_condition": "no towns and no cities remain on the island"}]


def test_the_terror_level_follows_the_fear_deck_split() -> None:
    session = new_session(players=1, fear_split=[4, 1, 2])
    do(session, "fear", amount=12)
    assert state(session).terror_level == 1
    do(session, "fear", amount=4)
    assert state(session).terror_level == 2
    do(session, "fear", amount=4)
    assert (state(session).terror_level, state(session).fear.deck) == (3, 2)


def test_earning_the_last_fear_card_wins_the_game_at_once() -> None:
    session = new_session(players=1)
    do(session, "fear", amount=32)
    assert not state(session).is_over
    events = do(session, "fear", amount=4)
    over = state(session)
    assert over.terror_level == 4
    assert over.outcome is not None and (over.outcome.result, over.outcome.reason) == \
        ("victory", "fear")
    assert kinds(events)[-1] == "game_ended"


def test_the_fear_step_is_skipped_without_earned_cards() -> None:
    session = new_session()
    do(session, "next")
    events = next_until(session, "ravage")
    assert "fear" in [e.to_dict().get("step") for e in events if e.type == "step_skipped"]


def test_earned_cards_are_resolved_one_at_a_time_in_the_fear_step() -> None:
    session = new_session(players=1)
    do(session, "next")
    do(session, "fear", amount=8)
    next_until(session, "fear")
    assert state(session).phase == "invader"
    with pytest.raises(Refused, match="2 earned fear card"):
        do(session, "next")
    first = do(session, "resolve_fear")
    assert first[0].to_dict() == {"type": "fear_card_resolved", "number": 1, "terror_level": 1,
                                  "waiting": 1, "card": None}
    do(session, "resolve_fear")
    assert (state(session).fear.earned, state(session).fear.resolved) == (0, 2)
    with pytest.raises(Refused, match="no earned fear card"):
        do(session, "resolve_fear")
    do(session, "next")
    assert state(session).step in ("build", "ravage")


def test_each_card_is_resolved_at_the_terror_level_current_when_it_is_resolved() -> None:
    # Card 1 is earned at terror level I; by the Fear step card 3 has raised it to II.
    session = new_session(players=1)
    do(session, "next")
    do(session, "fear", amount=4)
    do(session, "fear", amount=8)
    next_until(session, "fear")
    resolved = [do(session, "resolve_fear")[0].to_dict()["terror_level"] for _ in range(3)]
    assert resolved == [2, 2, 2]


def test_a_fear_card_keeps_the_terror_level_it_is_turned_over_at_while_it_is_resolved(
) -> None:
    # Issue 15: Dahan Raid is turned at I; the towns it destroys earn the card that uncovers
    # the Terror II divider. The card in hand stays at I; the cards still waiting use II.
    table = Table(players=1, seed=2)
    table.do("next")
    table.do("fear", amount=8)
    table.until("fear")
    named = table.do("fear_card", card="dahan-raid")
    assert named[0]["terror_level"] == 1
    events = table.do("destroy", piece="town", count=4)
    assert [event["terror_level"] for event in events
            if event["type"] == "terror_level_raised"] == [2]
    card = table.state["fear"]["card"]
    assert (card["id"], card["terror_level"]) == ("dahan-raid", 1)
    assert card["effect"] == FEAR_CARDS["dahan-raid"].effect_at(1)
    resolved = table.do("resolve_fear")
    assert [(event["card"], event["terror_level"]) for event in resolved] == [("dahan-raid", 1)]
    # The next card is turned over at the new level.
    assert table.do("fear_card", card="avoid-the-dahan")[0]["terror_level"] == 2
    assert table.state["fear"]["card"]["terror_level"] == 2
    assert table.do("resolve_fear")[0]["terror_level"] == 2


def test_a_card_earned_during_the_fear_step_is_resolved_in_the_same_step() -> None:
    session = new_session(players=1)
    do(session, "next")
    do(session, "fear", amount=4)
    next_until(session, "fear")
    do(session, "resolve_fear")
    do(session, "fear", amount=4)  # the first card's effect destroyed towns
    assert state(session).step == "fear"
    with pytest.raises(Refused):
        do(session, "next")
    assert do(session, "resolve_fear")[0].to_dict()["number"] == 2
    do(session, "next")


def test_fear_cards_are_not_resolved_outside_the_fear_step() -> None:
    session = new_session(players=1)
    do(session, "fear", amount=4)
    with pytest.raises(Refused, match="Fear step"):
        do(session, "resolve_fear")


def test_cards_earned_after_the_fear_step_wait_for_the_next_round() -> None:
    session = new_session(players=1)
    do(session, "next")
    advance_to(session, "build")
    do(session, "fear", amount=4)
    next_until(session, "slow_powers")
    assert state(session).fear.earned == 1
    next_until(session, "fear")
    assert state(session).round == 2
