"""Tally through `companion script`, the real entry point in a process of its own: a whole game
with its refusals, undo and redo, then a second process on the same database that resumes it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .conftest import script

WHOLE_GAME: list[dict[str, Any]] = [
    {"cmd": "new_game", "game": "tally", "players": ["Ada", "Bo", "Cy"], "seed": 5},
    {"cmd": "score", "player": "Ada", "points": 4},
    {"cmd": "score", "player": "Bo", "points": 6},
    {"cmd": "score", "player": "Dee", "points": 1},        # nobody of that name plays
    {"cmd": "next", "step": "scoring"},
    {"cmd": "next", "step": "scoring"},                    # a second tap, too late for it
    {"cmd": "score", "player": "Bo", "points": -2},        # checked: Bo had 4, not 6
    {"cmd": "next", "step": "checking"},
    {"cmd": "score", "player": "Cy", "points": 9},
    {"cmd": "undo"},
    {"cmd": "redo"},
    {"cmd": "score", "player": "Ada", "points": 3},
    {"cmd": "end"},
    {"cmd": "score", "player": "Ada", "points": 1},        # the game is over
]


def test_a_whole_game_is_played_through_companion_script(tmp_path: Path) -> None:
    answers = script(tmp_path / "games.db", WHOLE_GAME)
    refused = [i for i, answer in enumerate(answers) if not answer["ok"]]
    assert refused == [3, 5, 13], [answers[i] for i in refused]
    assert "unknown player 'Dee'" in answers[3]["error"]
    assert "nothing was changed" in answers[5]["error"]
    assert answers[13]["error"] == "the game is over; undo to play on"
    assert answers[7]["events"] == [{"type": "step_finished", "step": "checking"},
                                    {"type": "round_kept", "round": 1, "scores": [4, 4, 0]}]
    assert answers[9]["events"][0]["type"] == "undone"
    assert answers[10]["events"][0]["type"] == "redone"
    assert answers[12]["events"] == [{"type": "game_ended", "winners": ["Cy"], "score": 9}]
    final = answers[-1]["state"]
    assert final["title"] == "tally" and final["game"] == 1
    assert final["rounds"] == [[4, 4, 0], [3, 0, 9]]
    assert [player["score"] for player in final["players"]] == [7, 4, 9]
    assert final["outcome"] == {"result": "win", "winners": ["Cy"], "score": 9,
                                "detail": "Ada 7, Bo 4, Cy 9"}


def test_a_second_process_resumes_the_game_where_the_first_left_it(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    first = script(db, WHOLE_GAME[:8])
    left = first[-1]["state"]
    resumed = script(db, [{"cmd": "state"}, {"cmd": "undo"}, {"cmd": "undo"}, {"cmd": "games"}])
    assert resumed[0]["state"] == left
    assert resumed[0]["state"]["round"] == 2
    assert resumed[2]["state"]["step"] == "checking"  # back before the round was kept
    assert [player["round_score"] for player in resumed[2]["state"]["players"]] == [4, 6, 0]
    assert [(game["title"], game["status"]) for game in resumed[3]["games"]] == \
        [("tally", "active")]


def test_the_answers_come_in_the_language_asked_for_and_ids_stay(tmp_path: Path) -> None:
    answers = script(tmp_path / "games.db", [
        {"cmd": "new_game", "game": "tally", "players": ["Ada"]},
        {"cmd": "rules_search", "query": "Punkte eintragen"}], lang="de")
    assert answers[0]["state"]["step"] == "scoring"
    best = answers[1]["rules"][0]
    assert (best["id"], best["title"]) == ("tally-scoring", "Punkte eintragen")
