"""A game's log: how a new game is kept in it, how logged commands read back, and how a whole
log replays."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.errors import Refused
from companion.core.session import GameSession
from companion.game_log import logged_new_game, parse_logged, replay
from companion.games.registry import DEFAULT_GAME, GAMES, game_named

LEVIATHAN_NEW_GAME = {"cmd": "new_game", "players": 2, "difficulty": "hard", "leviathan": 3,
                      "seed": 9}


def test_a_new_game_names_its_game_in_the_log_unless_it_is_the_first_game() -> None:
    island = GAMES[DEFAULT_GAME]
    logged = logged_new_game(island, island.parse_command({"cmd": "new_game", "players": 2,
                                                           "seed": 3}))
    assert logged["cmd"] == "new_game" and "game" not in logged
    leviathan = game_named("leviathan-wilds")
    logged = logged_new_game(leviathan, leviathan.parse_command(LEVIATHAN_NEW_GAME))
    assert list(logged)[:2] == ["cmd", "game"] and logged["game"] == "leviathan-wilds"


def test_a_logged_new_game_reads_back_without_the_game_that_chose_it() -> None:
    leviathan = game_named("leviathan-wilds")
    command = leviathan.parse_command(LEVIATHAN_NEW_GAME)
    assert parse_logged(leviathan, logged_new_game(leviathan, command)) == command


def test_a_whole_log_replays_calling_back_after_each_command() -> None:
    island = GAMES[DEFAULT_GAME]
    log: list[Any] = [{"cmd": "new_game", "players": 1, "seed": 4}, {"cmd": "next"},
                      {"cmd": "fear", "amount": 2}]
    seen: list[int] = []

    def after_each(seq: int, session: GameSession) -> None:
        assert session.state is not None
        seen.append(seq)

    called = replay(island, log, lambda: 1, after_each)
    assert seen == [1, 2, 3]
    assert called.state == replay(island, log, lambda: 1).state


@pytest.mark.parametrize("first", [{"cmd": "next"}, {"cmd": "new_game", "players": 1}])
def test_a_log_that_does_not_begin_with_a_seeded_new_game_is_refused(
        first: dict[str, Any]) -> None:
    with pytest.raises(Refused, match="must begin with new_game and its seed"):
        replay(GAMES[DEFAULT_GAME], [first], lambda: 1)
