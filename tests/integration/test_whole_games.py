"""Whole games against the adversaries and scenarios, played through the script driver.

The base game's three adversaries at level 6 are played in-process first (the table decides
each move from the state), then the same lines are sent to a real `companion script` process
with a database file, which must accept every one and end the same way.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.games.spirit_island.adversaries import ADVERSARIES
from companion.games.spirit_island.codec import state_from_record, state_to_record
from companion.games.spirit_island.commands import parse_command
from companion.games.spirit_island.scenarios import SCENARIOS
from companion.games.spirit_island.session import GameSession
from tests.table_player import PlayedGame, play_whole_game

ROOT = Path(__file__).resolve().parents[2]

BASE_GAME_LEVEL_6 = [
    # adversary, fear per round, blight per ravage, the ending that rhythm leads to
    ("brandenburg-prussia", 14, 1, ("victory", "fear")),
    ("england", 2, 3, ("defeat", "blight")),
    ("sweden", 3, 1, ("defeat", "time")),
]


def _through_a_real_driver(game: PlayedGame, db: Path) -> list[dict[str, Any]]:
    lines = "".join(json.dumps(command) + "\n" for command in game.sent)
    done = subprocess.run([sys.executable, "-m", "companion", "script", "--db", str(db)],
                          input=lines.encode(), capture_output=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    return [json.loads(line) for line in done.stdout.decode().splitlines()]


@pytest.mark.parametrize(("adversary", "fear", "blight", "ending"), BASE_GAME_LEVEL_6)
def test_a_whole_game_against_a_base_adversary_at_level_6_runs_to_its_end(
        adversary: str, fear: int, blight: int, ending: tuple[str, str], tmp_path: Path) -> None:
    game = play_whole_game({"players": 2, "seed": 21, "adversary": adversary, "level": 6},
                           fear_per_round=fear, blight_every=1, blight_amount=blight)
    assert game.refused == []
    outcome = game.final["outcome"]
    assert outcome is not None and (outcome["result"], outcome["reason"]) == ending
    steps = set(game.steps_seen())
    assert "escalation" in steps
    if adversary == "england":
        assert "high_immigration" in steps
        assert game.final["fear"]["pool_size"] == 10
    if adversary == "sweden":
        assert "royal_backing" in steps
    if adversary == "brandenburg-prussia":
        assert game.final["invader"]["deck_order"] == "3-222-3333"

    answers = _through_a_real_driver(game, tmp_path / "games.sqlite3")
    assert len(answers) == len(game.sent)
    assert all(answer["ok"] for answer in answers)
    final = answers[-1]["state"]
    assert (final["outcome"]["result"], final["outcome"]["reason"]) == ending
    assert final["round"] == game.final["round"]
    assert final["invader"] == game.final["invader"]


@pytest.mark.parametrize("adversary", sorted(ADVERSARIES))
@pytest.mark.parametrize("deck", ["virtual", "physical"])
def test_every_level_plays_to_an_end_with_events_and_no_refused_move(adversary: str,
                                                                     deck: str) -> None:
    for level in range(7):
        game = play_whole_game({"players": 3, "seed": level, "adversary": adversary,
                                "level": level, "deck": deck, "events": True},
                               fear_per_round=4)
        assert game.refused == [], (level, game.refused[:3])
        assert game.final["outcome"] is not None, level
        assert game.final["difficulty"] == ADVERSARIES[adversary].levels[level].difficulty


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_every_scenario_plays_to_an_end_against_an_adversary(scenario: str) -> None:
    game = play_whole_game({"players": 2, "seed": 5, "scenario": scenario,
                            "adversary": "scotland", "level": 4, "deck": "physical"},
                           fear_per_round=5)
    assert game.refused == []
    assert game.final["outcome"] is not None
    assert game.final["difficulty"] == 7 + SCENARIOS[scenario].difficulty


@pytest.mark.parametrize("adversary", sorted(ADVERSARIES))
def test_undo_redo_and_snapshots_are_exact_in_adversary_games(adversary: str) -> None:
    """Every state of a level-6 game survives the snapshot codec, and undo then redo is exact."""
    game = play_whole_game({"players": 2, "seed": 3, "adversary": adversary, "level": 6,
                            "deck": "physical", "events": True}, fear_per_round=6)
    session = GameSession(seed_source=lambda: 1)
    for sent in game.sent:
        session.execute(parse_command(sent))
        now = session.state
        assert now is not None
        assert state_from_record(json.loads(json.dumps(state_to_record(now)))) == now
        if session.can_undo and sent["cmd"] != "new_game":
            session.execute(parse_command({"cmd": "undo"}))
            session.execute(parse_command({"cmd": "redo"}))
            assert session.state == now


SCENARIO_GAMES = [
    # scenario, its difficulty, adversary at level 6 or none
    (scenario, difficulty, adversary)
    for scenario, difficulty in (("surges-of-colonization", 2), ("surges-of-colonization", 7),
                                 ("rituals-of-terror", 3))
    for adversary in (None, "brandenburg-prussia", "sweden")
]


@pytest.mark.parametrize(("scenario", "difficulty", "adversary"), SCENARIO_GAMES)
def test_surges_and_rituals_play_to_an_end_at_each_difficulty_with_and_without_an_adversary(
        scenario: str, difficulty: int, adversary: str | None) -> None:
    new_game: dict[str, Any] = {"players": 2, "seed": 11, "scenario": scenario}
    if scenario == "surges-of-colonization":
        new_game["scenario_difficulty"] = difficulty
    if adversary:
        new_game |= {"adversary": adversary, "level": 6}
    game = play_whole_game(new_game, fear_per_round=4, blight_every=3, ritual_every=2)
    assert game.refused == []
    final = game.final
    outcome = final["outcome"]
    assert outcome is not None
    level = ADVERSARIES[adversary].levels[6].difficulty if adversary else 0
    assert final["difficulty"] == level + difficulty
    if scenario == "rituals-of-terror":
        assert len(game.events("ritual_performed")) >= 1
        assert final["fear"]["resolved"] >= 1 and final["fear"]["dividers"] is False
        assert outcome["reason"] != "fear"
    else:
        explores = [event for event in game.events("step_started")
                    if event["step"] == "explore"]
        assert {event["round"] % 2 for event in explores} == {0}
        if difficulty == 7:
            assert [size - 1 for size in final["fear"]["split"]] == list(
                ADVERSARIES[adversary].levels[6].fear_split if adversary else (3, 3, 3))
