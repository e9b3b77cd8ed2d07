"""Pulling the plug: a driver killed with SIGKILL at random moments never loses an acknowledged
command, and the database always passes its integrity check.

The test plays random legal commands against `companion script --db` and mirrors each one in an
in-process session, so it knows the exact state every acknowledged line must come back to.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from companion.core.errors import Refused
from companion.games.spirit_island.commands import parse_command
from companion.games.spirit_island.session import GameSession
from companion.games.spirit_island.view import state_view

ROOT = Path(__file__).resolve().parents[2]
KILLS = 200


class Child:
    def __init__(self, db: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "script", "--db", str(db)], cwd=ROOT,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def write(self, data: dict[str, Any]) -> None:
        assert self.process.stdin
        self.process.stdin.write((json.dumps(data) + "\n").encode())
        self.process.stdin.flush()

    def read(self) -> dict[str, Any]:
        assert self.process.stdout
        line = self.process.stdout.readline()
        assert line, "the driver died without answering"
        answer: dict[str, Any] = json.loads(line)
        return answer

    def kill(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe:
                pipe.close()


def view(session: GameSession) -> dict[str, Any] | None:
    if session.state is None:
        return None
    out = state_view(session.state)
    out["title"] = session.game.id  # the driver names the game, as every game's state does
    out["can_undo"], out["can_redo"] = session.can_undo, session.can_redo
    out["undo_count"], out["redo_count"] = session.undo_count, session.redo_count
    return out


def comparable(state: dict[str, Any] | None) -> dict[str, Any] | None:
    # The game's id belongs to the database, not to the mirror session.
    return None if state is None else {k: v for k, v in state.items() if k != "game"}


def legal_command(session: GameSession, rng: random.Random) -> dict[str, Any]:
    state = session.state
    if state is None:
        return {"cmd": "new_game", "players": rng.randint(1, 4), "seed": rng.randrange(10**6),
                "deck": rng.choice(["virtual", "physical"]),
                "mode": rng.choice(["beginner", "advanced"])}
    if state.is_over:
        return rng.choice([{"cmd": "undo"}, {"cmd": "score", "dahan": rng.randint(0, 9)}])
    view_ = state_view(state)
    if view_["invader"]["awaiting_reveal"]:
        return {"cmd": "reveal", "card": rng.choice(view_["invader"]["candidates"])}
    if state.step == "fear" and state.fear.earned:
        return {"cmd": "resolve_fear"}
    roll = rng.random()
    if roll < 0.55:
        return {"cmd": "next"}
    if roll < 0.65:
        return {"cmd": "fear", "amount": rng.randint(1, 4)}
    if roll < 0.72:
        return {"cmd": "destroy", "piece": rng.choice(["town", "city"])}
    if roll < 0.78:
        return {"cmd": "blight", "amount": 1}
    if roll < 0.82 and state.blight.on_island:
        return {"cmd": "heal", "amount": 1}
    if roll < 0.92 and session.can_undo:
        return {"cmd": "undo"}
    if session.can_redo:
        return {"cmd": "redo"}
    return {"cmd": "next"}


@pytest.mark.slow
def test_a_killed_driver_resumes_exactly_at_the_last_acknowledged_command(
    tmp_path: Path,
) -> None:
    rng = random.Random(20261121)
    db = tmp_path / "crash.sqlite3"
    mirror = GameSession(seed_source=lambda: 0)
    acknowledged = 0
    in_flight_resolved = {"applied": 0, "lost_before_ack": 0}
    child = Child(db)
    child.write({"cmd": "state"})
    assert comparable(child.read()["state"]) == comparable(view(mirror))
    for kill in range(KILLS):
        for _ in range(rng.randint(0, 25)):
            command = legal_command(mirror, rng)
            child.write(command)
            answer = child.read()
            try:
                mirror.execute(parse_command(command))
                assert answer["ok"], answer
            except Refused:
                assert not answer["ok"]
            assert comparable(answer["state"]) == comparable(view(mirror))
            acknowledged += 1
        # Send one more command and kill the driver while it works on it: it may or may not
        # have been saved, but it was never acknowledged, so either state is correct.
        command = legal_command(mirror, rng)
        before, checkpoint = view(mirror), mirror.checkpoint()
        with contextlib.suppress(Refused):
            mirror.execute(parse_command(command))
        after = view(mirror)
        child.write(command)
        time.sleep(rng.random() * 0.004)
        child.kill()
        with sqlite3.connect(db) as check:
            assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        # The next driver resumes where the killed one left off, and plays on from there.
        child = Child(db)
        child.write({"cmd": "state"})
        resumed = child.read()
        assert resumed["ok"]
        now = comparable(resumed["state"])
        if now == comparable(after):
            in_flight_resolved["applied"] += 1
        else:
            assert now == comparable(before), f"state lost at kill {kill}"
            mirror.rollback(checkpoint)
            in_flight_resolved["lost_before_ack"] += 1
    child.kill()
    assert acknowledged > 1000
    print(f"{KILLS} kills, {acknowledged} acknowledged commands, in-flight: {in_flight_resolved}")
