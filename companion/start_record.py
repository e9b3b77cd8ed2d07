"""How the app's last starts ended, kept beside the games, so that a start after two quick deaths
is a safe one (Home, the last game not resumed) instead of a crash loop no player can leave.

The record is a small text file, one line per event, appended: "start <run> <pid> <boot>" when
the app starts, "alive <run>" once it has run `EARLY_SECONDS`, "stop <run>" when it stops
cleanly. A run with neither of the last two died early (a crash, kill -9, a power cut). An
append is one write (the Pi's SD card is written little and the start stays fast); what matters
is synced to the card off the start's path. A damaged, missing or unreadable record is read as
no record: it never stops a start.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

RECORD_NAME = "starts.log"
EARLY_SECONDS = 60.0
"""A run that ends sooner than this after its start, without a clean stop, died early."""
EARLY_DEATHS_FOR_A_SAFE_START = 2
KEEP_BYTES = 4096
"""The record is cut down to its last runs beyond this size (and only so much is read)."""
KEEP_RUNS = 8
BOOT_ID = Path("/proc/sys/kernel/random/boot_id")


@dataclass
class Run:
    """One start of the app, as the record tells it."""

    run: str
    pid: int
    boot: str
    alive: bool = False
    """It ran `EARLY_SECONDS`."""
    stopped: bool = False
    """It stopped cleanly."""


def read_runs(text: str) -> list[Run]:
    """The runs a record's text tells, oldest first; a damaged line is skipped, and so is a
    last line without its end (cut by a power cut while it was written)."""
    runs: dict[str, Run] = {}
    for line in text.split("\n")[:-1]:
        words = line.split()
        if len(words) == 4 and words[0] == "start" and words[2].isdigit():
            runs[words[1]] = Run(words[1], int(words[2]), words[3])
        elif len(words) == 2 and words[1] in runs and words[0] in ("alive", "stop"):
            if words[0] == "alive":
                runs[words[1]].alive = True
            else:
                runs[words[1]].stopped = True
    return list(runs.values())


def early_deaths(runs: list[Run], boot: str, running: set[int]) -> int:
    """How many of the last runs in a row died early. A run of this boot whose process is
    still `running` (a second companion on the same games) is passed over."""
    count = 0
    for run in reversed(runs):
        if run.alive or run.stopped:
            break
        if run.boot == boot and run.pid in running:
            continue
        count += 1
    return count


def this_boot() -> str:
    """The kernel's id of this boot ("-" where there is none): a run of another boot is over,
    whatever process has its number now."""
    try:
        return BOOT_ID.read_text().strip() or "-"
    except OSError:
        return "-"


def process_running(pid: int) -> bool:
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # somebody else's process
        return True
    return True


class StartRecord:
    """This run's lines in the record of the folder given (the app's data folder)."""

    def __init__(self, folder: Path, early_seconds: float = EARLY_SECONDS) -> None:
        self.path = folder / RECORD_NAME
        self.early_seconds = early_seconds
        self.run = f"{time.time_ns():x}.{os.getpid()}"
        self.started = time.monotonic()
        self.deaths = 0
        """How many runs before this one died early, one after another."""

    @property
    def safe(self) -> bool:
        """This start should be a safe one."""
        return self.deaths >= EARLY_DEATHS_FOR_A_SAFE_START

    def begin(self) -> int:
        """Read how the last runs ended and add this one; returns `deaths`."""
        boot = this_boot()
        runs = self._read()
        self.deaths = early_deaths(runs, boot, {run.pid for run in runs
                                                if run.boot == boot
                                                and process_running(run.pid)})
        if self._size() > KEEP_BYTES:
            self._rewrite(runs[-KEEP_RUNS:])
        self._append(f"start {self.run} {os.getpid()} {boot}\n", sync=False)
        # Synced off the start's path: lost only to a power cut within a moment of starting.
        threading.Thread(target=self._sync, name="start-record", daemon=True).start()
        return self.deaths

    def seconds_to_survive(self) -> float:
        """How long until this run has lasted long enough not to count as an early death."""
        return max(0.0, self.early_seconds - (time.monotonic() - self.started))

    def survived(self) -> None:
        """This run has lasted `early_seconds`."""
        self._append(f"alive {self.run}\n", sync=True)

    def stopped(self) -> None:
        """This run stops cleanly."""
        self._append(f"stop {self.run}\n", sync=True)

    def _read(self) -> list[Run]:
        try:
            with self.path.open("rb") as record:
                size = os.fstat(record.fileno()).st_size
                start = max(0, size - 2 * KEEP_BYTES)
                record.seek(start)
                text = record.read().decode("utf-8", errors="replace")
        except FileNotFoundError:
            return []
        except OSError as error:
            log.warning("the start record %s could not be read (%s); taken as empty",
                        self.path, error.strerror or error)
            return []
        # Read from the middle of a line: that line is not whole.
        return read_runs(text.partition("\n")[2] if start else text)

    def _size(self) -> int:
        try:
            return self.path.stat().st_size
        except OSError:
            return 0

    def _append(self, line: str, sync: bool) -> None:
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
            try:
                # After a line a power cut left without its end, this one starts afresh.
                os.write(fd, b"\n" + line.encode())
                if sync:
                    os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as error:  # a full or read-only card: the app runs all the same
            log.warning("the start record %s could not be written (%s)", self.path,
                        error.strerror or error)

    def _sync(self) -> None:
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError:
            pass  # told when it was written, if it could not be

    def _rewrite(self, runs: list[Run]) -> None:
        """Keep only the last runs: a new file, synced, put in place of the old one."""
        lines = []
        for run in runs:
            lines.append(f"start {run.run} {run.pid} {run.boot}\n")
            if run.alive:
                lines.append(f"alive {run.run}\n")
            if run.stopped:
                lines.append(f"stop {run.run}\n")
        fresh = self.path.with_name(self.path.name + ".new")
        try:
            with fresh.open("w", encoding="utf-8") as file:
                file.write("".join(lines))
                file.flush()
                os.fsync(file.fileno())
            os.replace(fresh, self.path)
        except OSError as error:
            log.warning("the start record %s could not be shortened (%s)", self.path,
                        error.strerror or error)
