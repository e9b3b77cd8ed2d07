"""Safe start: after the app died twice in a row within a minute of starting, the next start opens
Home without resuming the last game, says what happened and offers Resume, and lists the games'
settings switched on, each with Off. One death alone, or deaths long after the start, resume as
before. The deaths are real: the app's own process, killed with SIGKILL."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.games.registry import GAMES
from companion.start_record import RECORD_NAME
from companion.ui.boundary import SafeStartPanel

from .any_game import on_value
from .harness import Harness
from .test_settings_ui import stored

pytestmark = pytest.mark.ui

ROOT = Path(__file__).resolve().parents[2]
READY_WITHIN_S = 120.0
SAFE = "safe start after 2 early stops"
RESUMED = "the last game was resumed"


def a_saved_game(db: Path, game: str = "leviathan-wilds") -> dict[str, object]:
    """A game played a little through `companion script`, as the table left it."""
    lines = [{"cmd": "new_game", "game": game, "players": 2, "difficulty": "medium",
              "leviathan": 1, "seed": 5}, {"cmd": "state"}]
    done = subprocess.run([sys.executable, "-m", "companion", "script", "--db", str(db)],
                          input="".join(json.dumps(line) + "\n" for line in lines),
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert all(answer["ok"] for answer in answers), answers
    return dict(answers[-1]["state"])


class App:
    """`python -m companion` on the test display, telling its start over a notify socket as it
    tells systemd on the Pi."""

    def __init__(self, folder: Path, early_seconds: float | None = None) -> None:
        self.folder = folder
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.listener.bind(str(folder / "notify.sock"))
        env = {**os.environ, "NOTIFY_SOCKET": str(folder / "notify.sock"),
               "PYTHONUNBUFFERED": "1"}
        if early_seconds is not None:
            env["COMPANION_EARLY_SECONDS"] = str(early_seconds)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "--db", str(folder / "games.db")],
            cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)

    def ready(self) -> str:
        """The status the app gave with READY=1 (its first frame drawn, the games open)."""
        deadline = time.monotonic() + READY_WITHIN_S
        while True:
            self.listener.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                message = self.listener.recv(4096).decode()
            except TimeoutError:
                self.process.kill()
                pytest.fail(f"the app never said READY: {self.process.communicate()[1]}")
            fields = dict(line.split("=", 1) for line in message.splitlines() if "=" in line)
            if fields.get("READY") == "1":
                return fields.get("STATUS", "")

    def kill(self) -> str:
        """SIGKILL, as a crash or a power cut ends it: no clean stop."""
        self.process.send_signal(signal.SIGKILL)
        return self._end(-signal.SIGKILL)

    def stop(self) -> str:
        self.process.terminate()
        return self._end(0)

    def _end(self, returncode: int) -> str:
        errors = self.process.communicate(timeout=60)[1]
        self.listener.close()
        (self.folder / "notify.sock").unlink()
        assert self.process.returncode == returncode, errors
        return errors


def test_two_deaths_just_after_starting_make_the_next_start_open_home_safely(
        tmp_path: Path) -> None:
    a_saved_game(tmp_path / "games.db")
    first = App(tmp_path)
    assert RESUMED in first.ready()
    first.kill()
    second = App(tmp_path)  # one death alone: resumed as before
    assert RESUMED in second.ready()
    second.kill()
    third = App(tmp_path)
    status = third.ready()
    assert SAFE in status and RESUMED not in status
    errors = third.stop()
    assert "opens Home without resuming the last game" in errors
    fourth = App(tmp_path)  # the safe start stopped cleanly: the row of deaths is over
    assert RESUMED in fourth.ready()
    assert "without resuming" not in fourth.stop()


def test_deaths_long_after_the_start_resume_as_before(tmp_path: Path) -> None:
    """"Long after": a start counts as lasting after COMPANION_EARLY_SECONDS (60 on the Pi)."""
    a_saved_game(tmp_path / "games.db")
    for _ in range(2):
        app = App(tmp_path, early_seconds=1)
        assert RESUMED in app.ready()
        record = tmp_path / RECORD_NAME
        deadline = time.monotonic() + READY_WITHIN_S
        while "alive" not in record.read_text():  # the app has lasted its "minute"
            assert time.monotonic() < deadline, "the app never recorded that it lasted"
            time.sleep(0.05)
        app.kill()
    last = App(tmp_path, early_seconds=1)
    assert RESUMED in last.ready()
    last.stop()


def test_a_safe_start_says_what_happened_lists_the_settings_on_and_offers_resume(
        tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    saved = a_saved_game(db)
    with_settings = [game for game in GAMES.values() if game.settings]
    (tmp_path / "companion.ini").write_text("[companion]\n" + "".join(
        f"{setting.key.split('/')[1]} = {on_value(setting)}\n"
        for game in with_settings for setting in game.settings), encoding="utf-8")
    ui = Harness(db, safe_start=2)
    try:
        ui.frames(3)
        assert ui.screen.name == "home" and ui.state == {}  # not resumed
        panel = ui.popup()
        assert isinstance(panel, SafeStartPanel)
        assert "stopped 2 times just after it started" in panel.message
        assert panel.resume_text == "Resume Leviathan Wilds"
        rows = [row for row in panel.ids.settings_on.children if hasattr(row, "key")]
        listed = {row.key for row in rows}
        assert listed == {setting.key for game in with_settings for setting in game.settings}
        first = with_settings[0].settings[0]
        ui.tap(next(row for row in rows if row.key == first.key).ids.switch_off)
        assert stored(ui, *first.key.split("/")) == "0"
        assert first.key not in {row.key for row in panel.ids.settings_on.children
                                 if hasattr(row, "key")}
        ui.tap(panel.ids.safe_settings)  # Settings can always be reached
        assert ui.popup() is None and ui.screen.name == "settings"
        ui.tap_id("close")
        assert ui.screen.name == "home"
        assert ui.widget("resume").text == "Resume Leviathan Wilds"  # still offered on Home
        ui.tap_id("resume")
        assert ui.screen.name in (ui.app.table_name(), "checklist")
        assert ui.state == saved
    finally:
        ui.close()
