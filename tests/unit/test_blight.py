"""Blight: the card, its two sides, the island, and losing to blight."""

from __future__ import annotations

import pytest

from companion.core.errors import Refused
from companion.games.spirit_island.view import prompt
from tests.helpers import do, kinds, new_session, next_until, playing, state


def test_adding_blight_takes_it_from_the_card_onto_the_island() -> None:
    session = playing(players=2, island_blight=0)
    do(session, "blight", amount=2)
    blight = state(session).blight
    assert (blight.on_card, blight.on_island, blight.side) == (3, 2, "healthy")


@pytest.mark.parametrize(("card", "per_player"), [("downward-spiral", 5),
                                                  ("memory-fades-to-dust", 4)])
def test_taking_the_last_healthy_blight_flips_the_card_and_refills_it_per_player(
    card: str, per_player: int,
) -> None:
    session = playing(players=3, blight_card=card, island_blight=0)
    events = do(session, "blight", amount=7)
    blight = state(session).blight
    assert (blight.side, blight.on_card, blight.on_island) == ("blighted", 3 * per_player, 7)
    flipped = [e.to_dict() for e in events if e.type == "blight_card_flipped"]
    assert flipped[0]["card"] == card and flipped[0]["refilled"] == 3 * per_player
    assert not state(session).is_over


def test_blight_beyond_the_healthy_side_comes_from_the_flipped_side() -> None:
    session = playing(players=1, blight_card="downward-spiral", island_blight=0)
    do(session, "blight", amount=2)  # 3 on the card, 1 left
    do(session, "blight", amount=2)  # the last healthy one flips it, the next comes off 5
    blight = state(session).blight
    assert (blight.side, blight.on_card, blight.on_island) == ("blighted", 4, 4)


def test_the_blighted_island_step_opens_the_invader_phase_only_while_blighted() -> None:
    session = new_session(players=1, blight_card="memory-fades-to-dust")
    do(session, "next")
    skipped = next_until(session, "build")
    assert any(e.to_dict().get("step") == "blighted_island" for e in skipped
               if e.type == "step_skipped")
    next_until(session, "time_passes")
    do(session, "blight", amount=3)
    next_until(session, "blighted_island")
    now = state(session)
    assert now.phase == "invader" and now.round == 2
    assert "forget one Power Card" in prompt(now)


def test_taking_the_last_blight_from_the_blighted_side_loses_the_game() -> None:
    session = playing(players=1, blight_card="memory-fades-to-dust")
    do(session, "blight", amount=3)
    assert state(session).blight.on_card == 4
    events = do(session, "blight", amount=4)
    over = state(session)
    assert over.outcome is not None
    assert (over.outcome.result, over.outcome.reason) == ("defeat", "blight")
    assert kinds(events)[-1] == "game_ended"


def test_a_beginner_game_loses_when_the_board_space_runs_out_without_flipping() -> None:
    session = playing(players=1, mode="beginner")
    do(session, "blight", amount=5)
    assert not state(session).is_over
    events = do(session, "blight", amount=1)
    assert "blight_card_flipped" not in kinds(events)
    assert state(session).outcome is not None and state(session).outcome.reason == "blight"


def test_blight_removed_from_the_island_returns_to_the_card() -> None:
    session = playing(players=2, island_blight=2)
    do(session, "heal", amount=2)
    blight = state(session).blight
    assert (blight.on_card, blight.on_island) == (7, 0)


def test_a_flipped_card_never_flips_back() -> None:
    session = playing(players=1, blight_card="downward-spiral", island_blight=0)
    do(session, "blight", amount=3)
    do(session, "heal", amount=3)
    blight = state(session).blight
    assert (blight.side, blight.on_card, blight.on_island) == ("blighted", 8, 0)


def test_more_blight_cannot_be_removed_than_lies_on_the_island() -> None:
    session = playing(players=2, island_blight=1)
    with pytest.raises(Refused, match="only 1 blight is on the island"):
        do(session, "heal", amount=2)
    assert state(session).blight.on_island == 1


def test_an_effect_cannot_take_blight_from_an_empty_card() -> None:
    session = playing(players=1, mode="beginner", island_blight=0)
    do(session, "effect", commands=[{"cmd": "blight", "amount": 5},
                                    {"cmd": "blight", "amount": 4}])
    blight = state(session).blight
    assert (blight.on_card, blight.on_island) == (0, 6)
    assert state(session).outcome is not None and state(session).outcome.reason == "blight"
