"""Tally saved as every game is: each command on disk in a real database file, the game resumed
exactly after the file is opened again, undo and redo across the reopening, and its finished
games in the history, the game's details and the statistics."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.bootstrap import build_service
from companion.core.game import Game
from companion.core.history import AS_WRITTEN
from companion.driver import ScriptDriver


def driver_on(db: Path) -> ScriptDriver:
    service, notices = build_service(db)
    assert notices == []
    return ScriptDriver(service)


def play(driver: ScriptDriver, *commands: dict[str, Any]) -> dict[str, Any]:
    for command in commands:
        answer = driver.handle(command)
        assert answer["ok"], (command, answer)
    return answer


def a_game(driver: ScriptDriver, players: list[str], rounds: list[list[int]]) -> dict[str, Any]:
    """A game of Tally with these points, round by round, ended after the last."""
    play(driver, {"cmd": "new_game", "game": "tally", "players": players, "seed": 1})
    for points in rounds:
        for name, scored in zip(players, points, strict=True):
            if scored:
                play(driver, {"cmd": "score", "player": name, "points": scored})
        play(driver, {"cmd": "next"}, {"cmd": "next"})
    return play(driver, {"cmd": "end"})


def test_the_game_is_resumed_exactly_after_the_database_is_opened_again(
        tally: Game, tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    driver = driver_on(db)
    play(driver, {"cmd": "new_game", "game": "tally", "players": ["Ada", "Bo"], "seed": 7},
         {"cmd": "score", "player": "Ada", "points": 5}, {"cmd": "next"}, {"cmd": "next"},
         {"cmd": "score", "player": "Bo", "points": 8}, {"cmd": "undo"})
    left, state = driver.state(), driver.service.state
    driver.service.store.close()

    again = driver_on(db)
    assert again.state() == left and again.service.state == state
    assert again.service.game is tally
    redone = play(again, {"cmd": "redo"})
    assert [player["score"] for player in redone["state"]["players"]] == [5, 8]
    undone = play(again, {"cmd": "undo"}, {"cmd": "undo"})
    assert undone["state"]["round"] == 1 and undone["state"]["step"] == "checking"
    assert undone["state"]["rounds"] == []
    again.service.store.close()


def test_finished_games_are_in_the_history_its_details_and_the_statistics(
        tally: Game, tmp_path: Path) -> None:
    driver = driver_on(tmp_path / "games.db")
    a_game(driver, ["Ada", "Bo"], [[3, 5], [4, 0]])
    a_game(driver, ["Ada", "Bo", "Cy"], [[2, 2, 1]])
    play(driver, {"cmd": "new_game", "game": "tally", "players": ["Dee"]})  # still played

    history = play(driver, {"cmd": "history"})["history"]
    assert [(row["title"], row["result"], row["reason"], row["score"], row["rounds"])
            for row in history] == [("tally", "Ada, Bo", "shared", 2, 1),
                                    ("tally", "Ada", "win", 7, 2)]
    assert history[1]["details"] == {"totals": {"Ada": 7, "Bo": 5}}
    assert tally.history.line(history[1], AS_WRITTEN) == "Ada · 7 points · 2 rounds"

    detail = play(driver, {"cmd": "game_detail", "game": history[1]["id"]})["game_detail"]
    assert detail["outcome"]["winners"] == ["Ada"]
    assert detail["per_round"] == [{"round": 1, "points": [3, 5], "totals": [3, 5]},
                                   {"round": 2, "points": [4, 0], "totals": [7, 5]}]
    assert tally.history.result(detail, AS_WRITTEN) == ("Victory", "Ada 7, Bo 5")

    stats = play(driver, {"cmd": "stats"})["stats"]
    assert stats["games_played"] == 2 and stats["average_score"] == 4.5
    # A game nobody wins together: played, never counted as won or lost.
    assert stats["by_game"] == [{"game": "tally", "name": "Tally", "games_played": 2,
                                 "wins": 0, "win_rate": None, "average_score": 4.5}]
    driver.service.store.close()
