"""`companion reader check`: the reader check in a terminal, against the emulator on a
pseudo-terminal, naming cards from the tag registry."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.bootstrap import build_service
from companion.driver import ScriptDriver
from companion.reader.emulator_pty import ReaderEmulator

JUNGLE = "04497622D93881"
STRANGER = "E63AE5D5"


def enrolled_database(folder: Path) -> Path:
    db = folder / "games.db"
    service, _ = build_service(db)
    try:
        answer = ScriptDriver(service).handle(
            {"cmd": "tag_enrol", "uid": JUNGLE, "kind": "invader", "card": "I-jungle"})
        assert answer["ok"], answer
    finally:
        service.store.close()
    return db


def check_command(db: Path, port: str, *options: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "--db", str(db), "reader", "check", "--port", port,
         *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_line(process: subprocess.Popen[str], wanted: str, seen: list[str]) -> None:
    """Read lines until one holds `wanted` (the command's own --seconds bounds the wait)."""
    assert process.stdout is not None
    for line in process.stdout:
        seen.append(line)
        if wanted in line:
            return
    pytest.fail(f"never printed {wanted!r}: {''.join(seen)}")


def test_check_names_the_card_says_unknown_tags_and_two_at_once_then_stops_by_itself(
        tmp_path: Path) -> None:
    db = enrolled_database(tmp_path)
    with ReaderEmulator("pn532") as device:
        checking = check_command(db, device.port, "--family", "pn532", "--seconds", "30")
        seen: list[str] = []
        try:
            wait_for_line(checking, "[Connected. Lay a card on the reader.]", seen)
            device.lay(JUNGLE)
            wait_for_line(checking, "[Jungle", seen)
            wait_for_line(checking, "read: Jungle", seen)
            device.lift()
            device.lay(STRANGER)
            wait_for_line(checking, f"[Unknown tag {STRANGER}. Enrol it?]", seen)
            device.lay(JUNGLE)
            wait_for_line(checking, "[Two tags at once?", seen)
            wait_for_line(checking, "two tags at once: ignored", seen)
            device.lift()
            checking.terminate()
            out, err = checking.communicate(timeout=20)
        finally:
            checking.kill()
    assert checking.returncode == 0, err
    assert "reads a second" in "".join(seen) + out
    assert "Traceback" not in err


def test_check_stops_by_itself_after_the_seconds_given(tmp_path: Path) -> None:
    with ReaderEmulator("rdm6300") as device:
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "companion", "--db", str(tmp_path / "games.db"), "reader",
             "check", "--port", device.port, "--family", "em4100", "--seconds", "1.5",
             "--language", "de"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - started < 30
    assert "[Verbunden. Legt eine Karte auf den Leser.]" in done.stdout


def test_check_runs_the_range_test_to_its_verdict(tmp_path: Path) -> None:
    with ReaderEmulator("id12la") as device:
        checking = check_command(tmp_path / "games.db", device.port, "--family", "em4100",
                                 "--range-test", "--seconds", "30")
        seen: list[str] = []
        try:
            wait_for_line(checking, ">> Lay the card flat", seen)
            time.sleep(0.3)  # the reader is connected by the time the prompt is read
            device.lay(JUNGLE[:10])
            out, err = checking.communicate(timeout=30)
        finally:
            checking.kill()
    assert checking.returncode == 0, err
    assert ">> Range: cannot be measured" in out  # an ID-12LA says a card once per lay


def test_check_says_clearly_that_a_port_is_missing() -> None:
    done = subprocess.run([sys.executable, "-m", "companion", "reader", "check", "--port",
                           "/dev/ttyNOSUCHREADER"], capture_output=True, text=True)
    assert done.returncode == 1
    assert "there is no port /dev/ttyNOSUCHREADER: is the reader plugged in" in done.stderr
    assert "Traceback" not in done.stderr


def test_check_says_when_the_reader_never_answered(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "companion", "--db", str(tmp_path / "g.db"),
                           "reader", "check", "--port", "socket://127.0.0.1:9", "--family",
                           "line", "--seconds", "1"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1
    assert "the reader never answered on socket://127.0.0.1:9" in done.stderr
