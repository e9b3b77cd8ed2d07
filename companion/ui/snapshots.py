"""The app's daily snapshot of the games: looked for once the first frame is shown and then
every hour, taken on a thread of its own (a backup reads the whole games file), never on the
frame's path; a failure is logged, never shown as a crash."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.clock import Clock

log = logging.getLogger(__name__)

EVERY_SECONDS = 60 * 60
"""How often the app looks whether today's snapshot is still to take."""

Where = Callable[[], tuple[Path, Path | None] | None]
"""The games file and the settings file to snapshot now; None while there is nothing to take
(no games file, or one another companion writes)."""


class DailySnapshots:
    """Takes `take_daily_snapshot` off the frame path: one thread at a time, which touches no
    widget (it only reads the games file and writes the snapshots folder)."""

    def __init__(self, where: Where) -> None:
        self.where = where
        self._timer: Any = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Look now, then every hour."""
        if self._timer is None:
            self._timer = Clock.schedule_interval(self.look, EVERY_SECONDS)
        self.look()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def look(self, _dt: float = 0) -> threading.Thread | None:
        """Start a thread that takes today's snapshot when it is due; returns it (None when
        one is still running or there is nothing to take)."""
        if self._thread is not None and self._thread.is_alive():
            return None
        files = self.where()
        if files is None:
            return None
        self._thread = threading.Thread(target=take_snapshot, args=files,
                                        name="daily-snapshot", daemon=True)
        self._thread.start()
        return self._thread


def take_snapshot(db_path: Path, settings_path: Path | None) -> None:
    from ..backup import BackupRefused, take_daily_snapshot

    try:
        made = take_daily_snapshot(db_path, settings_path)
    except BackupRefused as refused:
        log.error("the daily snapshot of %s was not taken: %s", db_path, refused)
    except Exception:  # a snapshot must never take the app down
        log.exception("the daily snapshot of %s failed", db_path)
    else:
        if made is not None:
            log.info("took the daily snapshot %s", made)


def files_of(service: Any, settings_file: str) -> tuple[Path, Path | None] | None:
    """What to snapshot for the app over `service`: its games file, unless it is in memory or
    opened only to read (its writer, another companion, takes the snapshots), and the
    settings file."""
    store = getattr(service, "store", None)
    location = getattr(store, "location", ":memory:")
    if store is None or location == ":memory:" or getattr(store, "read_only", None):
        return None
    return Path(location), Path(settings_file) if settings_file else None
