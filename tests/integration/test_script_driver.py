"""The `companion script` driver, run as a real process: JSON lines in, JSON lines out."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def run_script(lines: list[str | bytes], *args: str) -> tuple[list[dict[str, Any]], str, int]:
    raw = b"".join((line if isinstance(line, bytes) else line.encode()) + b"\n"
                   for line in lines)
    done = subprocess.run([sys.executable, "-m", "companion", "script", *args], input=raw,
                          capture_output=True, cwd=ROOT, timeout=60)
    answers = [json.loads(line) for line in done.stdout.decode().splitlines()]
    return answers, done.stderr.decode(), done.returncode


def cmd(name: str, **fields: Any) -> str:
    return json.dumps({"cmd": name, **fields})


def test_every_line_gets_exactly_one_answer_and_the_driver_exits_0() -> None:
    lines = [cmd("new_game", players=2, seed=3), cmd("next"), cmd("fear", amount=2),
             cmd("state")]
    answers, stderr, code = run_script(lines)
    assert code == 0 and stderr == ""
    assert len(answers) == len(lines)
    assert all(a["ok"] for a in answers)
    assert answers[-1]["events"] == []
    assert answers[-1]["state"]["fear"]["generated"] == 2


def test_the_state_has_the_agreed_fields() -> None:
    answers, _, _ = run_script([cmd("new_game", players=3, seed=1, mode="advanced",
                                    blight_card="downward-spiral")])
    s = answers[0]["state"]
    assert s["round"] == 0 and s["phase"] == "setup" and s["step"] == "initial_explore"
    assert s["players"] == 3 and s["terror_level"] == 1
    assert set(s["fear"]) >= {"pool", "generated", "earned", "resolved", "deck"}
    assert (s["fear"]["pool"], s["fear"]["deck"]) == (12, 9)
    assert set(s["invader"]) >= {"deck_count", "deck_stages", "ravage", "build", "explore",
                                 "discard"}
    assert s["invader"]["deck_count"] == 11 and s["invader"]["deck_stages"][0] == 1
    assert s["blight"] == {**s["blight"], "card": "downward-spiral", "side": "healthy",
                           "on_card": 7, "on_island": 3}
    assert s["outcome"] is None


def test_malformed_lines_are_answered_with_an_error_and_change_nothing() -> None:
    lines: list[str | bytes] = [
        cmd("new_game", players=2, seed=3),
        "this is not json",
        "{\"cmd\": \"fear\", \"amount\": ",
        b"\xff\xfe garbage bytes",
        "[" * 5000,
        "",
        cmd("fear", amount="lots"),
        cmd("warp"),
        cmd("heal", amount=50),
        cmd("state"),
    ]
    answers, stderr, code = run_script(lines)
    assert code == 0 and len(answers) == len(lines)
    assert "Traceback" not in stderr
    first_state = answers[0]["state"]
    for answer in answers[1:-1]:
        assert answer["ok"] is False
        assert isinstance(answer["error"], str) and answer["error"]
        assert answer["state"] == first_state
    assert answers[-1]["state"] == first_state


def test_commands_before_a_game_are_refused_with_a_null_state() -> None:
    answers, _, code = run_script([cmd("next"), cmd("state")])
    assert code == 0
    assert answers[0] == {"ok": False, "error": "no game is running: start one with new_game",
                          "state": None}
    assert answers[1] == {"ok": True, "events": [], "state": None}


def test_a_seeded_game_plays_out_the_same_every_time() -> None:
    lines = [cmd("new_game", players=2, seed=99)] + [cmd("next")] * 40
    first, _, _ = run_script(lines)
    second, _, _ = run_script(lines)
    assert first == second


def test_a_game_without_a_seed_reports_the_seed_it_was_given() -> None:
    answers, _, _ = run_script([cmd("new_game", players=1)])
    seed = answers[0]["state"]["seed"]
    assert isinstance(seed, int)
    again, _, _ = run_script([cmd("new_game", players=1, seed=seed)])
    assert again[0]["state"]["invader"] == answers[0]["state"]["invader"]


class LiveDriver:
    """A driver process answered line by line, as another program would talk to it."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "script"], cwd=ROOT, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def send(self, line: str) -> dict[str, Any]:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        answer: dict[str, Any] = json.loads(self.process.stdout.readline())
        return answer

    def close(self) -> int:
        assert self.process.stdin
        self.process.stdin.close()
        return self.process.wait(timeout=30)


def test_a_whole_physical_game_can_be_played_through_the_driver() -> None:
    # Reveal from the candidates the state offers, resolve fear, gain fear each round: win.
    driver = LiveDriver()
    state = driver.send(cmd("new_game", players=1, seed=5, deck="physical", mode="beginner"))[
        "state"]
    fear_this_round = 0
    for _ in range(400):
        if state["phase"] == "over":
            break
        if state["invader"]["awaiting_reveal"]:
            line = cmd("reveal", card=state["invader"]["candidates"][-1])
        elif state["step"] == "fear" and state["fear"]["earned"]:
            line = cmd("resolve_fear")
        elif state["step"] == "fast_powers" and fear_this_round < state["round"]:
            # A power destroys a city, another adds 2 fear: one fear card a round.
            fear_this_round = state["round"]
            line = cmd("destroy", piece="city") if state["round"] % 2 else cmd("fear", amount=4)
        else:
            line = cmd("next")
        answer = driver.send(line)
        assert answer["ok"], answer
        state = answer["state"]
    assert state["outcome"]["result"] == "victory" and state["outcome"]["reason"] == "fear"
    assert state["round"] > 5
    scored = driver.send(cmd("score", dahan=6, blight_on_island=3))["state"]["outcome"]
    assert scored["score"] == 10 + 2 * state["invader"]["deck_count"] + 6 - 3
    assert driver.close() == 0


def test_with_a_database_a_restarted_driver_answers_state_with_the_last_acknowledged_state(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "games.sqlite3")
    lines = [cmd("new_game", players=2, seed=3), cmd("next"), cmd("fear", amount=9),
             cmd("blight", amount=2), cmd("undo")]
    answers, _, code = run_script(lines, "--db", db)
    assert code == 0 and all(a["ok"] for a in answers)
    again, _, _ = run_script([cmd("state"), cmd("redo")], "--db", db)
    assert again[0]["state"] == answers[-1]["state"]
    assert again[1]["state"]["blight"]["on_island"] == 4


def test_without_a_database_nothing_is_kept_between_runs() -> None:
    run_script([cmd("new_game", players=2, seed=3)])
    answers, _, _ = run_script([cmd("state")])
    assert answers[0]["state"] is None


def test_a_damaged_database_is_reported_by_name_moved_aside_and_replaced(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.sqlite3"
    db.write_bytes(b"SQLite format 3\x00" + b"\x07" * 5000)
    answers, stderr, code = run_script([cmd("new_game", players=1, seed=1)], "--db", str(db))
    assert code == 0 and answers[0]["ok"]
    assert str(db) in stderr and "moved to" in stderr
    assert any(".unreadable-" in p.name for p in tmp_path.iterdir())


def test_the_driver_lists_games_history_and_stats(tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite3")
    answers, _, _ = run_script([
        cmd("new_game", players=1, seed=1), cmd("declare", result="victory"),
        cmd("score", dahan=3), cmd("games"), cmd("history"), cmd("stats"),
    ], "--db", db)
    games, history, stats = answers[3], answers[4], answers[5]
    assert [g["result"] for g in games["games"]] == ["victory"]
    assert history["history"][0]["score"] == 10 + 2 * 11 + 3 - 1
    assert stats["stats"]["win_rate"] == 1.0 and stats["stats"]["games_played"] == 1
