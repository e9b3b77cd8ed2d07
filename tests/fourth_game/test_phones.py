"""Tally on the phones: `companion mirror` follows the database a `companion script` process
plays it in, and a phone fetching the page's state gets the game's public view with the
session's fields, after every command, undo included; the phones' rules search finds its
entries."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from companion.driver import SESSION_FIELDS
from companion.mirror.access import new_token

from .conftest import ROOT, script
from .definition import TALLY


@pytest.fixture
def mirror(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A games database with a game of Tally begun, and the address of `companion mirror`
    following it (a process of its own, Tally registered as in the script's)."""
    db = tmp_path / "games.db"
    script(db, [{"cmd": "new_game", "game": "tally", "players": ["Ada", "Bo"], "seed": 3},
                {"cmd": "score", "player": "Bo", "points": 2}])
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.fourth_game.play", "mirror", "--db", str(db),
         "--port", "0", "--host", "127.0.0.1",
         f"--token={new_token()}"],  # one word: a token may begin with "-"
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert process.stdout is not None
        address = process.stdout.readline().strip()
        assert address.startswith("http://127.0.0.1:"), process.stderr and process.stderr.read()
        yield db, address
    finally:
        process.terminate()
        process.wait(timeout=10)


def fetch(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


def phones_part(state: dict[str, Any]) -> dict[str, Any]:
    """What the phones may see of the driver's state: the game's public view, the session's
    fields."""
    return {**TALLY.public_view(state), **{key: state[key] for key in SESSION_FIELDS}}


def next_message(address: str, after: int) -> dict[str, Any]:
    """The phones' state once the mirror has followed a command past `after`."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        message: dict[str, Any] = fetch(f"{address}/state?lang=en")
        if message["seq"] > after:
            return message
        time.sleep(0.05)
    raise AssertionError("the mirror did not follow the database")


def test_the_phones_see_the_public_view_after_every_command(mirror: tuple[Path, str]) -> None:
    db, address = mirror
    first = fetch(f"{address}/state?lang=en")
    assert first["state"]["title"] == "tally"
    assert [player["score"] for player in first["state"]["players"]] == [0, 2]

    answers = script(db, [{"cmd": "next"}, {"cmd": "undo"}, {"cmd": "score", "player": "Ada",
                                                               "points": 6}, {"cmd": "end"}])
    message = next_message(address, first["seq"])
    while message["state"]["undo_count"] < answers[-1]["state"]["undo_count"]:
        message = next_message(address, message["seq"])
    assert message["state"] == phones_part(answers[-1]["state"])
    assert message["state"]["outcome"]["winners"] == ["Ada"]


def test_the_phones_rules_search_finds_the_games_entries(mirror: tuple[Path, str]) -> None:
    _db, address = mirror
    for lang, query, title in (("en", "scoring", "Scoring a round"),
                               ("de", "Runde prüfen", "Runde prüfen"),
                               ("fr", "vérifier", "Vérifier la manche")):
        hits = fetch(f"{address}/rules?q={quote(query)}&lang={lang}")["hits"]
        assert hits and hits[0]["title"] == title, (lang, hits)
    entry = fetch(f"{address}/rules/tally-checking?lang=de")["entry"]
    assert entry["title"] == "Runde prüfen" and "Gleichstand" in entry["body"]
