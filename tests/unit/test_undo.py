"""Undo and redo: exact, without limit, and cleared by a new action."""

from __future__ import annotations

import pytest

from companion.core.errors import Refused
from companion.games.spirit_island.session import GameSession
from companion.games.spirit_island.state import GameState
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
    session = GameSession(seed_source=lambda: 1)
    with pytest.raises(Refused, match="no game is running"):
        do(session, "next")


def play_a_while(session: GameSession) -> list[GameState]:
    """Play some rounds with fear, blight and an undo; return the state after each command."""
    seen = [state(session)]
    for i in range(60):
        if i % 7 == 3:
            do(session, "fear", amount=3)
        elif i % 11 == 5:
            do(session, "blight", amount=1)
        elif i % 13 == 8:
            do(session, "undo")
        else:
            while state(session).step == "fear" and state(session).fear.earned:
                do(session, "resolve_fear")
                seen.append(state(session))
            do(session, "next")
        seen.append(state(session))
    return seen


def test_a_session_restored_from_a_snapshot_is_in_the_same_place() -> None:
    session = new_session(players=2, seed=8)
    play_a_while(session)
    do(session, "undo")
    restored = GameSession.restore(session.snapshot(), seed_source=lambda: 1)
    assert restored.state == session.state
    assert (restored.can_undo, restored.can_redo) == (True, True)
    assert restored.snapshot() == session.snapshot()


def test_a_restored_session_undoes_every_step_back_to_the_start_exactly() -> None:
    session = new_session(players=2, seed=8)
    play_a_while(session)
    restored = GameSession.restore(session.snapshot(), seed_source=lambda: 1)
    while session.can_undo:
        do(session, "undo")
        do(restored, "undo")
        assert restored.state == session.state
    assert not restored.can_undo


def test_a_restored_session_redoes_what_was_undone_before_the_snapshot() -> None:
    session = new_session(players=1, seed=2)
    for _ in range(5):
        do(session, "next")
    do(session, "undo")
    do(session, "undo")
    restored = GameSession.restore(session.snapshot(), seed_source=lambda: 1)
    do(session, "redo")
    do(restored, "redo")
    assert restored.state == session.state


def test_rollback_puts_the_session_back_at_its_checkpoint() -> None:
    session = new_session()
    before = session.checkpoint()
    do(session, "fear", amount=5)
    do(session, "undo")
    session.rollback(before)
    assert session.state == before.state and not session.can_redo
