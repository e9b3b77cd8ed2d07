"""A power cut keeps only what was fsynced, and that is every acknowledged command (issue 16).

How the power cut is made, without root: the driver runs as a real process (`companion script
--db`) with a tiny C shim (`power_cut_shim.c`, compiled here with the system's cc) loaded through
LD_PRELOAD. SQLite syncs from C, so wrapping Python's os.fsync would not see it; the shim
replaces libc's fsync and fdatasync for the whole process instead. At each sync of a regular
file it copies the file's content, as it is at that moment, into a shadow folder, then lets the
real sync run. A deletion counts from the next sync of any file on (ext4 commits it with that
journal transaction). The driver is fed a few hundred commands and killed with SIGKILL at a
random point; the "power-cut image" is built from the shadow folder alone: the database and its
-wal as they were at their last sync, no -shm (SQLite rebuilds it from the WAL). A write that
was never synced is not in the image, whatever the page cache held.

The image is then opened as the app would open it (GameStore.open, resume) and must hold every
command whose answer the driver printed (the answers still in the pipe included), as a prefix
of the log the test expects; the resumed game must be exactly the state after those commands.

Negative control: the same run with the shim told to drop every sync of the -wal (a disk that
loses the flush, as synchronous=OFF would) must lose acknowledged commands, and the check must
say so. This proves the check catches a lost flush; the positive run also proves the shim saw
SQLite's syncs (without them the image would hold no game at all).

Not modelled: a sync that half-reaches the disk (torn pages; SQLite's WAL checksums cover those
and `test_store_recovery.py` damages a WAL by hand), and directory entries beyond deletion.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from companion.bootstrap import wired_service
from companion.core.errors import Refused
from companion.games.spirit_island import commands as c
from companion.games.spirit_island.commands import parse_command
from companion.games.spirit_island.session import GameSession
from companion.store import GameStore
from tests.integration.test_crash import comparable, legal_command, view

ROOT = Path(__file__).resolve().parents[2]
SHIM = Path(__file__).with_name("power_cut_shim.c")
COMMANDS = 400
SEEDS = [1, 2, 3, 4, 5]
CONTROL_SEEDS = [6, 7]


@pytest.fixture(scope="module")
def shim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler (cc) to build the power-cut shim")
    built = tmp_path_factory.mktemp("shim") / "power_cut_shim.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-Wall", "-o", str(built), str(SHIM),
                    "-ldl"], check=True, capture_output=True, timeout=60)
    return built


def planned_game(rng: random.Random) -> tuple[list[dict[str, Any]], list[int],
                                                list[dict[str, Any]], list[Any]]:
    """The commands to send, how many log entries stand after each answer, the log they make,
    and the state after each (index 0: before any command)."""
    mirror = GameSession(seed_source=lambda: 0)
    sent: list[dict[str, Any]] = []
    logged_after: list[int] = [0]
    log: list[dict[str, Any]] = []
    states: list[Any] = [comparable(view(mirror))]
    for _ in range(COMMANDS):
        command = legal_command(mirror, rng)
        with contextlib.suppress(Refused):
            _, logged = mirror.execute(parse_command(command))
            if logged is not None:
                log.append(c.command_to_dict(logged))
        sent.append(command)
        logged_after.append(len(log))
        states.append(comparable(view(mirror)))
    return sent, logged_after, log, states


def run_and_cut(shim: Path, folder: Path, rng: random.Random, sent: list[dict[str, Any]],
                drop: str | None) -> tuple[Path, int]:
    """Play `sent` through a driver under the shim, SIGKILL it at a random point, and build the
    power-cut image from what was synced. Returns the image and how many answers were printed."""
    shadow, image = folder / "shadow", folder / "image"
    shadow.mkdir()
    image.mkdir()
    env = {**os.environ, "LD_PRELOAD": str(shim), "POWER_CUT_SHADOW": str(shadow),
           "PYTHONPATH": str(ROOT)}
    if drop:
        env["POWER_CUT_DROP"] = drop
    db = folder / "games.sqlite3"
    child = subprocess.Popen([sys.executable, "-m", "companion", "script", "--db", str(db)],
                             cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)
    assert child.stdin and child.stdout
    child.stdin.write("".join(json.dumps(command) + "\n" for command in sent).encode())
    child.stdin.flush()  # all of it is queued: the driver works through it at its own pace
    # Half the commands still queued: however long a loaded machine keeps this process from
    # the kill, the driver is still working through them (ten left can all be done by then).
    cut_after = rng.randint(COMMANDS // 4, COMMANDS // 2)
    for _ in range(cut_after):
        assert child.stdout.readline(), "the driver died before the cut"
    time.sleep(rng.random() * 0.005)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=30)
    printed = cut_after + len(child.stdout.read().splitlines())  # answers still in the pipe
    child.stdin.close()
    child.stdout.close()
    assert printed < len(sent), "the cut came after the last command: nothing was in flight"
    for name in (db.name, f"{db.name}-wal"):
        if (shadow / name).exists():
            shutil.copyfile(shadow / name, image / name)
    return image / db.name, printed


def acknowledged_commands_lost(image: Path, printed: int, logged_after: list[int],
                               log: list[dict[str, Any]], states: list[Any]) -> int:
    """How many logged commands the driver acknowledged that the image lacks (0: none); the
    image must otherwise hold a prefix of the expected log and resume to its exact state."""
    store, notices = GameStore.open(image)
    try:
        assert store.integrity() == "ok"
        service = wired_service(store, seed_source=lambda: 0)
        service.resume_latest()
        games = store.games()
        kept = store.full_log(games[0]["id"]) if games else []
        assert len(games) <= 1 and kept == log[:len(kept)], "the image holds a different log"
        if len(kept) < logged_after[printed]:
            return logged_after[printed] - len(kept)
        assert notices == [], notices
        # Commands saved but not yet answered may be there too: the state is the one after
        # the last command whose log entry the image holds.
        candidates = [states[i] for i in range(printed, len(states))
                      if logged_after[i] == len(kept)]
        resumed = comparable(view(service.session))
        assert resumed in candidates, "the resumed game is not the state its log makes"
        return 0
    finally:
        store.close()


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_a_power_cut_loses_no_acknowledged_command(shim: Path, tmp_path: Path,
                                                   seed: int) -> None:
    rng = random.Random(seed)
    sent, logged_after, log, states = planned_game(rng)
    image, printed = run_and_cut(shim, tmp_path, rng, sent, drop=None)
    assert Path(f"{image}-wal").exists(), "the shim saw no sync of the WAL"
    assert acknowledged_commands_lost(image, printed, logged_after, log, states) == 0
    print(f"seed {seed}: {printed} answers printed, {logged_after[printed]} logged, none lost")


@pytest.mark.slow
@pytest.mark.parametrize("seed", CONTROL_SEEDS)
def test_the_check_catches_a_lost_flush_of_the_wal(shim: Path, tmp_path: Path,
                                                   seed: int) -> None:
    rng = random.Random(seed)
    sent, logged_after, log, states = planned_game(rng)
    image, printed = run_and_cut(shim, tmp_path, rng, sent, drop="-wal")
    lost = acknowledged_commands_lost(image, printed, logged_after, log, states)
    assert lost > 0, "a power cut that dropped the WAL's flushes lost nothing: the test is blind"
    print(f"control seed {seed}: {printed} answers printed, {lost} acknowledged commands lost")
