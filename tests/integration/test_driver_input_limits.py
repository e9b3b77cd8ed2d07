"""Issue 16: whatever a line holds — lone surrogates, endless files, deep nesting — the driver
answers it with one line of valid UTF-8 JSON, in words, and carries on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_raw(lines: list[str], *args: str,
            env: dict[str, str] | None = None) -> tuple[bytes, str, int]:
    raw = "".join(line + "\n" for line in lines).encode()
    done = subprocess.run([sys.executable, "-m", "companion", "script", *args], input=raw,
                          capture_output=True, cwd=ROOT, timeout=60, env=env)
    return done.stdout, done.stderr.decode(errors="replace"), done.returncode


def answers_of(stdout: bytes) -> list[dict[str, Any]]:
    # strict UTF-8: a lone surrogate written with surrogateescape would fail here
    return [json.loads(line) for line in stdout.decode("utf-8").splitlines()]


def cmd(name: str, **fields: Any) -> str:
    return json.dumps({"cmd": name, **fields})


# --- defect 1: lone surrogates -----------------------------------------------------------------

SURROGATE_LINES = [
    '{"cmd":"next","\\ud800":1}',
    '{"cmd":"next","\\udc80":1}',
    cmd("new_game", players=1, seed=1),
    '{"cmd":"move_card","card":"\\ud800x","to":"box"}',
    '{"cmd":"move_card","card":"\\udc80","to":"box"}',
    '{"cmd":"\\udfff"}',
    '{"cmd":"tag_import","path":"/tmp/\\udc80"}',
    '{"cmd":"declare","result":"victory","reason":"\\ud83d"}',
    cmd("state"),
]


def test_lone_surrogates_are_answered_with_valid_utf8_json_under_every_locale(
    locale_env: dict[str, str],
) -> None:
    stdout, stderr, code = run_raw(SURROGATE_LINES, env=locale_env)
    assert code == 0, stderr
    assert "Traceback" not in stderr
    answers = answers_of(stdout)
    assert len(answers) == len(SURROGATE_LINES)
    assert answers[0] == {"ok": False, "error": "'next' does not take \ufffd; it takes step",
                          "state": None}
    assert "card holds a lone UTF-16 surrogate" in answers[3]["error"]
    assert all(not a["ok"] for a in answers[1:-1] if a is not answers[2])
    assert "reason holds a lone UTF-16 surrogate" in answers[7]["error"]
    assert answers[-1]["state"] == answers[2]["state"]


# --- defect 7: reads have limits ---------------------------------------------------------------

def test_import_and_tag_import_refuse_devices_fifos_folders_and_oversized_files(
    tmp_path: Path,
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.json"
    with huge.open("wb") as file:
        file.truncate(9 * 1024 * 1024)
    lines = []
    for path in ("/dev/zero", str(fifo), str(tmp_path), str(huge)):
        lines += [cmd("tag_import", path=path), cmd("import", path=path)]
    stdout, stderr, code = run_raw(lines)  # a FIFO read would block: the timeout would fire
    assert code == 0 and "Traceback" not in stderr
    errors = [a["error"] for a in answers_of(stdout)]
    assert len(errors) == 8
    assert all("not a regular file" in e for e in errors[:4])
    assert all("folder" in e for e in errors[4:6])
    assert all("larger than 8 MiB" in e for e in errors[6:])


def test_a_refusal_quotes_at_most_200_characters_of_what_was_sent() -> None:
    big = "x" * 300_000
    stdout, _, code = run_raw([cmd(big), cmd("fear", amount=big), cmd("next", **{big: 1})])
    assert code == 0
    for answer in answers_of(stdout):
        assert answer["ok"] is False
        assert len(answer["error"]) < 1000
        assert "x" * 199 + "…" in answer["error"] and "x" * 201 not in answer["error"]


def test_a_line_longer_than_a_mebibyte_is_refused_and_the_next_line_answered() -> None:
    stdout, _, code = run_raw([cmd("state", pad=" " * 2_000_000), cmd("state")])
    answers = answers_of(stdout)
    assert code == 0 and len(answers) == 2
    assert "longer than 1048576 bytes" in answers[0]["error"]
    assert answers[1] == {"ok": True, "events": [], "state": None}


# --- defect 8: refusals in words, never a traceback --------------------------------------------

def nested_effect(depth: int) -> dict[str, Any]:
    effect: dict[str, Any] = {"cmd": "fear"}
    for _ in range(depth):
        effect = {"cmd": "effect", "commands": [effect]}
    return effect


def test_deep_effects_nul_paths_and_broken_imports_are_refused_in_words(tmp_path: Path) -> None:
    not_an_object = tmp_path / "final.json"
    game = tmp_path / "game.json"
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    lines = [cmd("new_game", players=1, seed=2), cmd("export", path=str(game))]
    stdout, _, _ = run_raw(lines)
    assert all(a["ok"] for a in answers_of(stdout))
    document = json.loads(game.read_text())
    not_an_object.write_text(json.dumps({**document, "final_state": [1, 2]}))
    lines = [
        cmd("new_game", players=1, seed=2),
        json.dumps(nested_effect(400)),
        json.dumps(nested_effect(2)),
        cmd("import", path="/tmp/a\0b"),
        cmd("tag_import", path="a\0b"),
        cmd("export", path="/tmp/a\0b"),
        cmd("import", path=str(not_an_object)),
        cmd("import", path=str(deep)),
        cmd("state"),
    ]
    stdout, stderr, code = run_raw(lines)
    answers = answers_of(stdout)
    assert code == 0 and len(answers) == len(lines)
    assert "Traceback" not in stderr and "internal error" not in stdout.decode()
    errors = [a.get("error", "") for a in answers]
    assert "an effect may only combine" in errors[1] and "not 'effect'" in errors[1]
    assert "an effect may only combine" in errors[2]
    assert all("NUL character" in e for e in errors[3:6])
    assert "no final state" in errors[6]
    assert "is not a JSON file" in errors[7]
    assert all(a["state"] == answers[0]["state"] for a in answers[1:])


def test_a_closed_stdout_ends_the_driver_quietly() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import os, runpy, sys; os.close(1); sys.argv = ['companion', "
         "'script']; runpy.run_module('companion', run_name='__main__')"],
        input=cmd("state").encode() + b"\n", capture_output=True, cwd=ROOT, timeout=60)
    assert "Traceback" not in done.stderr.decode()
    reader_gone = subprocess.Popen([sys.executable, "-m", "companion", "script"], cwd=ROOT,
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE)
    assert reader_gone.stdin and reader_gone.stdout and reader_gone.stderr
    reader_gone.stdout.close()
    reader_gone.stdin.write((cmd("state") + "\n").encode() * 100)
    reader_gone.stdin.close()
    assert reader_gone.wait(timeout=60) == 0
    assert "Traceback" not in reader_gone.stderr.read().decode()


def test_an_unexpected_error_is_an_internal_error_answer_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    from companion.bootstrap import wired_service
    from companion.driver import ScriptDriver
    from companion.store import GameStore

    driver = ScriptDriver(wired_service(GameStore.in_memory(), seed_source=lambda: 7))
    before = driver.handle_line(cmd("new_game", players=1, seed=4))["state"]

    def broken(data: Any) -> Any:
        raise AssertionError("a bug")

    monkeypatch.setattr(driver, "handle", broken)
    answer = driver.handle_line(cmd("fear"))
    assert answer["ok"] is False and answer["error"].startswith("internal error: ")
    assert answer["state"] == before
    assert "a bug" in caplog.text
