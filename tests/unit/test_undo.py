"""Undo and redo: exact, without limit, and cleared by a new action."""

from __future__ import annotations

import pytest

from companion.model.errors import Refused
from tests.helpers import do, kinds, new_session, state


def test_undo_restores_the_exact_previous_state() -> None:
    session = new_session()
    before = state(session)
    do(session, "fear", amount=9)
    events = do(session, "undo")
    assert state(session) == before
    assert events[0].to_dict() == {"type": "undone", "command": {"cmd": "fear", "amount": 9}}


def test_redo_replays_what_undo_took_back() -> None:
    session = new_session()
    do(session, "blight", amount=2)
    after = state(session)
    do(session, "undo")
    assert kinds(do(session, "redo")) == ["redone"]
    assert state(session) == after


def test_undo_has_no_limit_within_a_game() -> None:
    session = new_session()
    start = state(session)
    for _ in range(80):
        do(session, "next")
    for _ in range(80):
        do(session, "undo")
    assert state(session) == start
    with pytest.raises(Refused, match="nothing to undo"):
        do(session, "undo")


def test_a_new_action_after_undo_clears_redo() -> None:
    session = new_session()
    do(session, "fear", amount=1)
    do(session, "undo")
    do(session, "fear", amount=2)
    with pytest.raises(Refused, match="nothing to redo"):
        do(session, "redo")


def test_undo_brings_back_a_game_that_had_ended() -> None:
    session = new_session(players=1)
    do(session, "fear", amount=36)
    assert state(session).is_over
    do(session, "undo")
    assert not state(session).is_over and state(session).fear.deck == 9


def test_a_new_game_starts_a_fresh_history() -> None:
    session = new_session()
    do(session, "next")
    do(session, "new_game", players=3, seed=2)
    with pytest.raises(Refused, match="nothing to undo"):
        do(session, "undo")


def test_nothing_runs_before_a_game_is_started() -> None:
    from companion.model.session import GameSession
    session = GameSession(seed_source=lambda: 1)
    with pytest.raises(Refused, match="no game is running"):
        do(session, "next")
