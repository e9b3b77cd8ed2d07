"""Who writes the games: one companion process at a time, through a lock file beside them."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from .store_errors import GamesInUse


class WriterLock:
    """The one-writer lock of a games file: an flock on `<file>.lock` beside it, which holds the
    writer's pid. The kernel releases it when the process ends, however it ends, so a crash
    never leaves a stale lock; readers (the phones' mirror) never take it."""

    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd

    @classmethod
    def take(cls, path: Path) -> WriterLock | None:
        """The lock, or None where no lock file can be made (a folder nobody may write, where
        the games cannot be written either). Raises GamesInUse when another process has it."""
        lock_path = Path(f"{path}.lock")
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError:
            try:
                fd = os.open(lock_path, os.O_RDONLY | os.O_CLOEXEC)
            except OSError:
                return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            try:
                holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            finally:
                os.close(fd)
            raise GamesInUse(int(holder) if holder.isdigit() else None) from None
        except OSError:  # a file system without locks: no lock, as before there were any
            os.close(fd)
            return None
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError:
            pass  # a lock file we may only read: locked all the same, only without the pid
        return cls(fd)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __del__(self) -> None:  # a store dropped unclosed must not keep others out
        self.release()

