"""The invader deck and the Ravage / Build / Explore slots, virtual and physical."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.core.errors import Refused
from companion.games.spirit_island.invader_deck import candidates
from companion.games.spirit_island.state import GameState
from tests.helpers import advance_to, do, kinds, new_session, next_until, state


def test_in_a_virtual_deck_the_app_reveals_the_explore_card_when_the_step_begins() -> None:
    session = new_session()
    do(session, "next")
    top = state(session).invader.deck[0].card
    advance_to(session, "explore")
    assert state(session).invader.explore == (top,)
    assert state(session).invader.reveals_due == 0


def test_advancing_moves_every_card_one_space_left_at_once() -> None:
    # The rulebook: next round the invaders ravage where they just built and build where
    # they just explored; the old Ravage card goes to the discard.
    session = new_session()
    do(session, "next")
    advance_to(session, "advance")
    do(session, "next")
    advance_to(session, "advance")
    before = state(session).invader
    assert before.ravage and before.build and before.explore
    do(session, "next")
    after = state(session).invader
    assert after.discard == before.discard + before.ravage
    assert after.ravage == before.build
    assert after.build == before.explore
    assert after.explore == ()


def test_slots_hold_several_cards_and_advance_them_together() -> None:
    session = new_session()
    do(session, "next")
    advance_to(session, "advance")
    stacked = state(session)
    track = replace(stacked.invader, build=("I-jungle", "I-sands"), ravage=("I-wetland",),
                    explore=("II-coastal", "II-jungle"))
    session.state = replace(stacked, invader=track)
    events = do(session, "next")
    after = state(session).invader
    assert after.ravage == ("I-jungle", "I-sands")
    assert after.build == ("II-coastal", "II-jungle")
    assert after.discard[-1] == "I-wetland"
    assert "invader_cards_advanced" in kinds(events)


def test_ravage_is_skipped_while_its_space_is_empty_as_in_the_first_round() -> None:
    session = new_session()
    do(session, "next")
    events = next_until(session, "build")
    assert state(session).invader.ravage == ()
    assert {"type": "step_skipped", "step": "ravage",
            "why": "no card lies on the Ravage space"} in [e.to_dict() for e in events]


def test_an_empty_deck_when_a_card_must_be_revealed_loses_the_game() -> None:
    session = new_session(deck_order="11")
    do(session, "next")
    advance_to(session, "explore")  # round 1 reveals the second and last card
    assert state(session).invader.deck == ()
    advance_to(session, "advance")
    do(session, "next")
    events = next_until(session, "over")
    over = state(session)
    assert over.outcome is not None and over.outcome.result == "defeat"
    assert over.outcome.reason == "time"
    assert over.ended_in == ("invader", "explore")
    assert "game_ended" in kinds(events)


def test_the_last_card_in_the_deck_is_announced() -> None:
    session = new_session(deck_order="111")
    do(session, "next")
    events = next_until(session, "explore")
    # Revealing the second of three cards leaves one: that is the warning.
    assert len(state(session).invader.deck) == 1
    assert "last_invader_card" in kinds(events)


def test_revealing_the_very_last_card_says_the_deck_is_empty() -> None:
    session = new_session(deck_order="11")
    do(session, "next")
    events = next_until(session, "explore")
    assert "invader_deck_empty" in kinds(events)


# --- physical decks ---------------------------------------------------------------------------


def test_a_physical_deck_waits_in_the_initial_explore_until_the_card_is_named() -> None:
    session = new_session(deck="physical")
    waiting = state(session)
    assert (waiting.phase, waiting.step, waiting.invader.explore) == ("setup", "initial_explore",
                                                                      ())
    with pytest.raises(Refused, match=r"turn over the top invader card \(Stage I\)"):
        do(session, "next")
    do(session, "reveal", card="I-wetland")
    assert state(session).invader.explore == ("I-wetland",)
    do(session, "next")
    assert state(session).invader.build == ("I-wetland",)


def test_a_physical_deck_waits_in_the_explore_step_too() -> None:
    session = new_session(deck="physical")
    do(session, "reveal", card="I-wetland")
    do(session, "next")
    next_until(session, "explore")
    assert state(session).invader.explore == ()
    with pytest.raises(Refused):
        do(session, "next")
    events = do(session, "reveal", card="I-sands")
    assert kinds(events) == ["invader_card_revealed"]
    do(session, "next")
    assert state(session).step == "advance"


def test_a_card_of_the_wrong_stage_is_refused_with_the_reason() -> None:
    session = new_session(deck="physical")
    with pytest.raises(Refused, match="II-jungle is a Stage II card, but the next card in the "
                                      "deck is Stage I"):
        do(session, "reveal", card="II-jungle")
    assert state(session).invader.explore == ()


def test_a_card_already_seen_is_refused() -> None:
    session = new_session(deck="physical")
    do(session, "reveal", card="I-jungle")
    do(session, "next")
    next_until(session, "explore")
    with pytest.raises(Refused, match="I-jungle has already come up"):
        do(session, "reveal", card="I-jungle")


def test_force_accepts_a_card_the_app_would_refuse() -> None:
    session = new_session(deck="physical")
    events = do(session, "reveal", card="III-sands-wetland", force=True)
    assert state(session).invader.explore == ("III-sands-wetland",)
    assert events[0].to_dict()["forced"] is True


def test_an_unknown_card_is_refused() -> None:
    session = new_session(deck="physical")
    with pytest.raises(Refused, match="unknown invader card 'I-ocean'"):
        do(session, "reveal", card="I-ocean")


def test_only_one_card_is_revealed_per_explore_step() -> None:
    session = new_session(deck="physical")
    do(session, "reveal", card="I-jungle")
    with pytest.raises(Refused, match="already turned over"):
        do(session, "reveal", card="I-sands")


def test_reveal_is_refused_outside_the_explore_step() -> None:
    session = new_session(deck="physical")
    do(session, "reveal", card="I-jungle")
    do(session, "next")
    with pytest.raises(Refused, match="Explore step"):
        do(session, "reveal", card="I-sands")


def test_a_virtual_deck_refuses_reveal_because_the_app_turns_the_cards() -> None:
    session = new_session()
    with pytest.raises(Refused, match="virtual deck"):
        do(session, "reveal", card="I-sands")


def test_the_physical_picker_offers_only_cards_that_can_legally_come_up() -> None:
    session = new_session(deck="physical")
    assert candidates(state(session)) == ["I-jungle", "I-mountain", "I-sands", "I-wetland"]
    do(session, "reveal", card="I-mountain")
    do(session, "next")
    next_until(session, "explore")
    assert candidates(state(session)) == ["I-jungle", "I-sands", "I-wetland"]


def test_a_fixed_coastal_lands_card_must_come_up_in_its_place() -> None:
    session = new_session(deck="physical", deck_order="C-111")
    current: GameState = state(session)
    assert candidates(current) == ["II-coastal"]
    with pytest.raises(Refused, match="should be II-coastal"):
        do(session, "reveal", card="II-jungle")
    do(session, "reveal", card="II-coastal")
