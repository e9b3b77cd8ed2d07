"""The fourth game's tests: Tally in the registry for one test at a time, and `companion script`
run with it as a process of its own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.core.game import Game
from companion.games import registry

from .definition import TALLY

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def tally(monkeypatch: pytest.MonkeyPatch) -> Game:
    """Tally registered for this test only, as `registry.GAMES[id] = game` registers a game."""
    monkeypatch.setitem(registry.GAMES, TALLY.id, TALLY)
    return TALLY


def script(db: Path, commands: list[dict[str, Any]], lang: str = "en") -> list[dict[str, Any]]:
    """`companion script --db DB --lang LANG` with Tally registered (tests/fourth_game/play.py),
    one JSON line in per command, its answers out, one per line."""
    lines = "".join(json.dumps(command) + "\n" for command in commands)
    done = subprocess.run(
        [sys.executable, "-m", "tests.fourth_game.play", "script", "--db", str(db),
         "--lang", lang],
        input=lines, capture_output=True, text=True, cwd=ROOT, timeout=60, check=True)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(commands), done.stderr
    return answers
