"""The installer's hands on the games file: its schema, a copy per release, and putting a copy
back on a roll-back. Standard library only; install.sh runs it with the system's python3 as the
owner of the data folder (fed on stdin, so the checkout need not be readable by that user).

  schema FILE                 print the file's schema (PRAGMA user_version); nothing if absent
  copy GAMES COPY             a consistent copy of GAMES (its -wal included) written to COPY
  restore COPY GAMES KEEP_AS  GAMES copied to KEEP_AS, then COPY put in its place

restore takes the companion's writer lock (GAMES.lock) first: while any companion has the games
open for writing, nothing is replaced (exit status 3, and the reason on stderr).
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import sys
import time
from pathlib import Path

LOCK_WAIT_SECONDS = float(os.environ.get("COMPANION_LOCK_WAIT", "30"))
"""How long a restore waits for a companion that is stopping to let go of the games."""


def schema(path: Path) -> int | None:
    if not path.is_file():
        return None
    if path.stat().st_size == 0:
        return 0
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA query_only = 1")
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.DatabaseError:
        return None  # not a database the app could use: it moves the file aside itself
    finally:
        conn.close()


def copy(games: Path, target: Path) -> None:
    """SQLite's backup of `games` (what its WAL holds included) into `target`, whole or not at
    all: written beside it, synced, then renamed over it."""
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    source = sqlite3.connect(games)
    try:
        source.execute("PRAGMA query_only = 1")
        copied = sqlite3.connect(partial)
        try:
            source.backup(copied)
            copied.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
        finally:
            copied.close()
    finally:
        source.close()
    _sync(partial)
    os.replace(partial, target)
    _sync(target.parent)


def restore(kept: Path, games: Path, keep_as: Path) -> None:
    lock = os.open(f"{games}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        _take(lock)
        if games.exists():
            copy(games, keep_as)
        partial = games.with_name(f".{games.name}.restoring")
        partial.write_bytes(kept.read_bytes())
        _sync(partial)
        # The WAL of the file being replaced belongs to it (and is in keep_as now); left
        # beside the restored copy, SQLite would replay it into that copy.
        for suffix in ("-wal", "-shm"):
            Path(f"{games}{suffix}").unlink(missing_ok=True)
        os.replace(partial, games)
        _sync(games.parent)
    finally:
        os.close(lock)


def _take(lock: int) -> None:
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    while True:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() > deadline:
                pid = os.pread(lock, 32, 0).decode("ascii", "replace").strip()
                print(f"the games are open in another companion{f', pid {pid}' if pid else ''};"
                      " close it and run this again", file=sys.stderr)
                sys.exit(3)
            time.sleep(0.2)


def _sync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def main(args: list[str]) -> int:
    if args[:1] == ["schema"] and len(args) == 2:
        found = schema(Path(args[1]))
        if found is not None:
            print(found)
        return 0
    if args[:1] == ["copy"] and len(args) == 3:
        copy(Path(args[1]), Path(args[2]))
        return 0
    if args[:1] == ["restore"] and len(args) == 4:
        restore(Path(args[1]), Path(args[2]), Path(args[3]))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
