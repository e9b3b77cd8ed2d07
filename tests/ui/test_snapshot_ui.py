"""The app takes the day's snapshot of the games itself, once its first frame is shown, on a
thread of its own; the screen goes on drawing meanwhile."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from companion.backup import backups_on, describe_backup, last_backup

from .harness import Harness

pytestmark = pytest.mark.ui


def test_the_app_takes_todays_snapshot_after_its_first_frame(ui: Harness,
                                                             tmp_path: Path) -> None:
    assert ui.app.send({"cmd": "new_game", "players": 2, "seed": 3})
    snapshots = tmp_path / "snapshots"
    deadline = time.monotonic() + 30
    while not backups_on(snapshots):
        assert time.monotonic() < deadline, "no snapshot within 30 s of the first frame"
        ui.frames(1)
        time.sleep(0.02)
    contents = describe_backup(backups_on(snapshots)[0])
    assert contents.has_settings  # the app's companion.ini, beside the games
    made = last_backup(tmp_path)
    assert made is not None and made[1] == backups_on(snapshots)[0]
    thread = ui.app.start_up.snapshots.look()  # the hourly look: today's is there already
    if thread is not None:
        thread.join(30)
    assert len(backups_on(snapshots)) == 1
