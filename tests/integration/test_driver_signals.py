"""Issue 16, defect 9: `companion script` stops cleanly on SIGINT or SIGTERM, whatever
disposition it inherited (a background job of a non-interactive shell ignores SIGINT)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_the_driver_waiting_for_a_line_stops_cleanly_on_a_stop_signal(
    tmp_path: Path, stop: signal.Signals,
) -> None:
    db = tmp_path / "games.sqlite3"
    driver = subprocess.Popen(
        [sys.executable, "-m", "companion", "script", "--db", str(db)], cwd=ROOT,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        preexec_fn=ignore_sigint)
    try:
        assert driver.stdin and driver.stdout and driver.stderr
        driver.stdin.write(b'{"cmd": "new_game", "players": 1, "seed": 3}\n')
        driver.stdin.flush()
        answer = json.loads(driver.stdout.readline())
        assert answer["ok"]
        driver.send_signal(stop)  # stdin stays open: it is waiting for the next line
        assert driver.wait(timeout=10) == 0
        assert "Traceback" not in driver.stderr.read().decode()
    finally:
        driver.kill()
    again = subprocess.run([sys.executable, "-m", "companion", "script", "--db", str(db)],
                           input=b'{"cmd": "state"}\n', capture_output=True, cwd=ROOT,
                           timeout=60)
    assert json.loads(again.stdout)["state"] == answer["state"]
