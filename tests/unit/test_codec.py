"""Snapshots of the whole state read back to an equal state."""

from __future__ import annotations

import json

import pytest

from companion.games.spirit_island.codec import state_from_record, state_to_record
from tests.helpers import advance_to, do, new_session, playing, state


@pytest.mark.parametrize("deck", ["virtual", "physical"])
def test_a_state_written_as_json_reads_back_equal(deck: str) -> None:
    session = playing(players=3, deck=deck, seed=4)
    do(session, "fear", amount=13)
    do(session, "blight", amount=8)
    if deck == "physical":  # the card drawn face down flipped: the players say which it is
        do(session, "next_blight_card", card="downward-spiral")
    advance_to(session, "advance")
    original = state(session)
    assert state_from_record(json.loads(json.dumps(state_to_record(original)))) == original


def test_a_finished_game_reads_back_with_its_outcome() -> None:
    session = new_session(players=1)
    do(session, "declare", result="defeat")
    do(session, "score", dahan=3)
    original = state(session)
    assert state_from_record(json.loads(json.dumps(state_to_record(original)))) == original


def test_a_record_of_another_version_is_refused() -> None:
    record = state_to_record(state(new_session()))
    record["v"] = 99
    with pytest.raises(ValueError, match="version 99"):
        state_from_record(record)
