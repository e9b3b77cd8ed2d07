"""A game's course round by round: the fear, blight and terror the history's chart draws."""

from __future__ import annotations

from companion.games.spirit_island.course import RoundTally, round_series
from companion.games.spirit_island.session import GameSession
from tests.helpers import advance_to, do, new_session, state


def next_round(session: GameSession) -> None:
    """Play on to the Growth step of the next round."""
    number = state(session).round
    do(session, "next")
    while not (state(session).round == number + 1 and state(session).step == "growth"):
        advance_to(session, "growth")


def test_each_round_tallies_its_fear_and_ends_with_its_blight_and_terror_level() -> None:
    session = new_session(players=2)  # 8 fear a card, 3 cards a terror level, 2 blight to start
    advance_to(session, "growth")
    do(session, "fear", amount=2)
    do(session, "blight")
    next_round(session)
    do(session, "fear", amount=3)
    do(session, "destroy", piece="city")
    do(session, "heal", amount=2)
    next_round(session)
    do(session, "fear", amount=24)  # three fear cards: terror level II
    assert round_series(session.course()) == [
        RoundTally(1, fear_generated=2, blight_on_island=3, terror_level=1),
        RoundTally(2, fear_generated=5, blight_on_island=1, terror_level=1),
        RoundTally(3, fear_generated=24, blight_on_island=1, terror_level=2),
    ]


def test_what_was_undone_is_not_counted_and_what_was_redone_is() -> None:
    session = new_session()
    advance_to(session, "growth")
    do(session, "fear", amount=4)
    do(session, "blight")
    do(session, "undo")
    do(session, "undo")
    do(session, "redo")
    assert round_series(session.course()) == [RoundTally(1, 4, 2, 1)]


def test_fear_going_back_to_the_pool_comes_off_the_round_but_never_below_nothing() -> None:
    session = new_session()
    advance_to(session, "growth")
    do(session, "fear", amount=3)
    do(session, "lose_fear", amount=1)
    next_round(session)
    do(session, "lose_fear", amount=2)
    assert [tally.fear_generated for tally in round_series(session.course())] == [2, 0]


def test_a_game_still_in_setup_has_no_rounds_and_a_finished_one_ends_in_its_last_round() -> None:
    session = new_session()
    assert round_series(session.course()) == []
    advance_to(session, "growth")
    do(session, "fear", amount=1)
    do(session, "declare", result="defeat")
    series = round_series(session.course())
    assert [tally.to_dict() for tally in series] == [
        {"round": 1, "fear_generated": 1, "blight_on_island": 2, "terror_level": 1}]


def test_a_session_without_a_game_has_no_course() -> None:
    assert list(GameSession(seed_source=lambda: 1).course()) == []
