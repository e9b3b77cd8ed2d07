"""Whole Glow games through the core: `companion script` reading JSON lines, the store on disk,
undo and redo, a pulled plug and a resume, the end scoring's ranking and the saved games' list;
2, 3 and 4 players on both board sides."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.bootstrap import wired_service
from companion.driver import ScriptDriver
from companion.games.glow.data import COMPANIONS
from companion.store import GameStore

ROOT = Path(__file__).resolve().parents[3]
TABLES = [(players, board) for players in (2, 3, 4) for board in ("realm", "sea")]
CONTRACT = {"title", "day", "phase", "start_player", "deck_count", "players", "outcome"}
SESSION_FIELDS = {"can_undo", "can_redo", "undo_count", "redo_count"}
# Plain companions for the picks (no Sketal, Kaar or Lumipili: those have tests of their own).
PLAIN = [card.id for card in COMPANIONS.values()
         if card.sketal is None and not card.black_die and not card.reroll]


def day_lines(players: int, board: str, day: int, first: int) -> list[dict[str, Any]]:
    """One day as a table would send it: picks in order, rerolls, noon gains, a move, the
    evening's dice; every phase closed with Done (confirmed at noon and in the afternoon)."""
    start = (first + day - 1) % players
    order = [(start + k) % players for k in range(players)]
    lines: list[dict[str, Any]] = []
    if day == 1:
        lines.append({"cmd": "dice", "dice": [3, 0, 2, 2, 2]})
    free = [1, 2, 3, 4, 5]
    for k, player in enumerate(order):
        card = PLAIN[((day - 1) * players + k) % len(PLAIN)]
        lines.append({"cmd": "pick", "player": player, "area": free.pop(0), "card": card})
        if players == 2 and k == 0:
            lines.append({"cmd": "discard", "area": free.pop(0)})
    lines.append({"cmd": "next", "phase": "morning"})
    last = order[-1]
    if day == 1:  # the two reroll tokens of the player right of the start player
        lines.append({"cmd": "rerolls", "player": last, "amount": -1})
    lines.append({"cmd": "next", "phase": "late_morning"})
    for player in range(players):
        lines.append({"cmd": "score", "player": player, "amount": 2 + player + day % 3})
    lines.append({"cmd": "glowworms", "player": day % players, "amount": 1})
    lines.append({"cmd": "rerolls", "player": (day + 1) % players, "amount": 1})
    lines.append({"cmd": "next", "phase": "noon", "confirm": True})
    if board == "realm":
        lines.append({"cmd": "camp", "player": day % players, "value": [3, 5, 8, 10, 12, 15,
                                                                         20, 20][day - 1]})
    else:
        for player in range(players):
            lines.append({"cmd": "boat", "player": player, "boat": (day - 1) % 4,
                          "island": day})
    lines.append({"cmd": "next", "phase": "afternoon", "confirm": True})
    lines.append({"cmd": "dice", "dice": [2, 2, 0, 3, 2]})
    lines.append({"cmd": "next", "phase": "evening"})
    return lines


def game_lines(players: int, board: str) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = [{"cmd": "new_game", "game": "glow", "players": players,
                                    "board": board, "start_player": 0,
                                    "names": ["Ada", "Bo", "Cy", "Di"][:players]}]
    for day in range(1, 9):
        lines += day_lines(players, board, day, first=0)
    return lines


def ok(driver: ScriptDriver, command: dict[str, Any]) -> dict[str, Any]:
    answer = driver.handle(command)
    assert answer["ok"], (command, answer)
    return answer


def game_part(state: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in state.items() if key not in SESSION_FIELDS}


def driver_on(store: GameStore) -> ScriptDriver:
    return ScriptDriver(wired_service(store, seed_source=lambda: 11))


def end_scores(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"cmd": "end_score", "player": i, **player["end_suggested"]}
            for i, player in enumerate(state["players"])]


@pytest.mark.parametrize(("players", "board"), TABLES)
def test_a_whole_game_is_saved_resumed_after_the_plug_is_pulled_and_scored(
        tmp_path: Path, players: int, board: str) -> None:
    path = tmp_path / "games.sqlite3"
    store, _ = GameStore.open(path)
    driver = driver_on(store)
    lines = game_lines(players, board)
    half = len(lines) // 2
    for line in lines[:half]:
        ok(driver, line)
    before_cut = driver.state()
    store.close()  # the process ends here; everything acknowledged is on disk

    store, _ = GameStore.open(path)
    driver = driver_on(store)
    assert driver.service.resume_latest()
    assert driver.state() == before_cut
    # Undo and redo work across the resume, back into commands from before it.
    undone = [ok(driver, {"cmd": "undo"})["state"] for _ in range(3)]
    for expected in reversed([before_cut, *undone[:-1]]):
        assert game_part(ok(driver, {"cmd": "redo"})["state"]) == game_part(expected)
    for line in lines[half:]:
        state = ok(driver, line)["state"]
    assert (state["day"], state["phase"], state["deck_count"]) == (8, "over", 0)
    assert state["outcome"] is None and state["prompt"]["id"] == "glow-prompt-end-scoring"
    for line in end_scores(state):
        state = ok(driver, line)["state"]
    assert set(state) >= CONTRACT
    ranking = state["outcome"]["ranking"]
    assert sorted(i for group in ranking for i in group) == list(range(players))
    finals = [p["final"] for p in state["players"]]
    assert all(finals[i] == max(finals) for i in ranking[0])
    for player in state["players"]:
        end = player["end"]
        assert player["final"] == (end["track"] + end["cards"] + end["board"]
                                   + end["glowworm_bonus"] + end["trails"])
        assert player["companion_count"] == 8
    listed = ok(driver, {"cmd": "games"})["games"]
    assert listed[0]["title"] == "glow" and listed[0]["status"] == "finished"
    store.close()


@pytest.mark.parametrize(("players", "board"), TABLES)
def test_companion_script_plays_a_whole_game_from_json_lines(
        tmp_path: Path, players: int, board: str) -> None:
    lines = game_lines(players, board)
    # The end scores as a table would type them in: the same numbers for everyone.
    lines += [{"cmd": "end_score", "player": i, "cards": 4, "board": 5, "glowworms": 3,
               "companions": 7, "trails": 3} for i in range(players)]
    done = subprocess.run([sys.executable, "-m", "companion", "script", "--db",
                           str(tmp_path / "games.sqlite3")], cwd=ROOT, capture_output=True,
                          text=True, timeout=300,
                          input="".join(json.dumps(line) + "\n" for line in lines))
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0 and len(answers) == len(lines), done.stderr
    assert all(answer["ok"] for answer in answers), [a for a in answers if not a["ok"]][:1]
    state = answers[-1]["state"]
    assert state["title"] == "glow" and state["phase"] == "over"
    scores = [p["score"] for p in state["players"]]
    assert [p["final"] for p in state["players"]] == [s + 4 + 5 + 0 + 3 for s in scores]
    expected = sorted(range(players), key=lambda i: (-scores[i],
                                                     -state["players"][i]["reroll_tokens"], i))
    assert [i for group in state["outcome"]["ranking"] for i in group] == expected


def test_scoring_mode_goes_straight_to_the_totals_and_saves_the_result(tmp_path: Path) -> None:
    store, _ = GameStore.open(tmp_path / "games.sqlite3")
    driver = driver_on(store)
    state = ok(driver, {"cmd": "new_game", "game": "glow", "players": 2, "board": "sea",
                        "mode": "scoring", "names": ["Ada", "Bo"]})["state"]
    assert (state["phase"], state["mode"], state["outcome"]) == ("over", "scoring", None)
    refused = driver.handle({"cmd": "next"})
    assert not refused["ok"] and refused["state"] == state
    ok(driver, {"cmd": "end_score", "player": 0, "score": 60, "cards": 4, "board": 5,
                "glowworms": 3, "companions": 7, "trails": 3})
    state = ok(driver, {"cmd": "end_score", "player": 1, "score": 50, "cards": 2, "board": 15,
                        "glowworms": 6, "companions": 6, "trails": 1})["state"]
    assert [p["final"] for p in state["players"]] == [72, 78]
    assert state["outcome"] == {"ranking": [[1], [0]]}
    listed = ok(driver, {"cmd": "games"})["games"][0]
    assert (listed["status"], listed["result"], listed["score"]) == ("finished", "Bo", 78)
    store.close()
