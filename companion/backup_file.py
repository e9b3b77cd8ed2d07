"""A backup file's own parts: its name, its manifest (the tables that make an SQLite copy of the
games a backup: when, by which version, the settings, each game's log hash), copies made with
SQLite's online backup API, and finished files put in place under a name no other file has.

`companion.backup` builds backups, describes and restores them from these parts.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import secrets
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from .files import move_into_place

FORMAT_VERSION = 1
"""The manifest's layout; a backup of a higher format was made by a newer companion."""
MANIFEST = "companion_backup"
"""key → value: "format", "app_version", "made_at" (ISO UTC) and, when kept, "settings"."""
MANIFEST_GAMES = "companion_backup_games"
"""One row per game: its id, its uid and the SHA-256 of its log."""
MANIFEST_TABLES = (MANIFEST, MANIFEST_GAMES)

BACKUP_NAME = re.compile(r"companion-backup-(\d{8})-(\d{6})(?:-(\d+))?\.sqlite3")
"""companion-backup-YYYYMMDD-HHMMSS.sqlite3, and -2, -3, … after it for a second backup made
in the same second."""
STAMP = "%Y%m%d-%H%M%S"


def stamp(now: datetime) -> str:
    return now.strftime(STAMP)


def backup_order(path: Path) -> tuple[str, str, int]:
    """Sorts backup files by when they were made (their names say it), the same second's by
    their number."""
    found = BACKUP_NAME.fullmatch(path.name)
    assert found is not None, path
    return found.group(1), found.group(2), int(found.group(3) or 1)


def made_on(path: Path) -> str | None:
    """The day (YYYYMMDD) a backup file's name says it was made; None for any other file."""
    found = BACKUP_NAME.fullmatch(path.name)
    return found.group(1) if found else None


def log_hashes(conn: sqlite3.Connection) -> dict[int, str]:
    """Each game's id → the SHA-256 of its log: every command row (number, time, command) in
    order. Any change to a logged command changes its game's hash."""
    hashers = {game_id: hashlib.sha256()
               for (game_id,) in conn.execute("SELECT id FROM games ORDER BY id")}
    for game_id, seq, at, command in conn.execute(
            "SELECT game_id, seq, at, command FROM commands ORDER BY game_id, seq"):
        hasher = hashers.setdefault(game_id, hashlib.sha256())
        hasher.update(json.dumps([seq, at, command]).encode("utf-8") + b"\n")
    return {game_id: hasher.hexdigest() for game_id, hasher in hashers.items()}


@dataclass(frozen=True)
class Manifest:
    """What a backup says of itself."""

    format_version: int
    app_version: str
    made_at: datetime
    settings: str | None
    """The settings file's text, or None when the backup holds none."""
    hashes: dict[int, str]
    """Each game's id → its log's SHA-256 when the backup was made."""


def write_manifest(conn: sqlite3.Connection, app_version: str, made_at: datetime,
                   settings: str | None, hashes: dict[int, str]) -> None:
    """Add the manifest to a copy of the games (in one transaction)."""
    uids = dict(conn.execute("SELECT id, uid FROM games").fetchall())
    with conn:
        conn.execute(f"CREATE TABLE {MANIFEST} (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        conn.execute(f"CREATE TABLE {MANIFEST_GAMES} (game_id INTEGER PRIMARY KEY, uid TEXT, "
                     "log_sha256 TEXT NOT NULL)")
        entries = {"format": str(FORMAT_VERSION), "app_version": app_version,
                   "made_at": made_at.isoformat()}
        if settings is not None:
            entries["settings"] = settings
        conn.executemany(f"INSERT INTO {MANIFEST} (key, value) VALUES (?, ?)", entries.items())
        conn.executemany(f"INSERT INTO {MANIFEST_GAMES} (game_id, uid, log_sha256) "
                         "VALUES (?, ?, ?)",
                         [(game_id, uids.get(game_id), digest)
                          for game_id, digest in hashes.items()])


def read_manifest(conn: sqlite3.Connection) -> Manifest | None:
    """The manifest, or None when the file has none (it is not a backup of ours). Raises
    ValueError for a manifest that cannot be read (a damaged backup)."""
    tables = {name for (name,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    if MANIFEST not in tables:
        return None
    entries = dict(conn.execute(f"SELECT key, value FROM {MANIFEST}").fetchall())
    if MANIFEST_GAMES not in tables or not {"format", "app_version", "made_at"} <= set(entries):
        raise ValueError("the manifest is incomplete")
    hashes = dict(conn.execute(f"SELECT game_id, log_sha256 FROM {MANIFEST_GAMES}").fetchall())
    return Manifest(int(entries["format"]), str(entries["app_version"]),
                    datetime.fromisoformat(entries["made_at"]), entries.get("settings"),
                    hashes)


def drop_manifest(conn: sqlite3.Connection) -> None:
    """Make a restored copy a games file again: without the manifest's tables."""
    with conn:
        for table in MANIFEST_TABLES:
            conn.execute(f"DROP TABLE IF EXISTS {table}")


def copy_pages(source: sqlite3.Connection, target: Path) -> sqlite3.Connection:
    """Copy the database `source` reads into a new file `target` with SQLite's online backup
    API (a live WAL included, as one consistent snapshot) and return the open copy, made a
    single file (no -wal beside it)."""
    copy = sqlite3.connect(target, isolation_level=None)
    try:
        source.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")
        copy.execute("PRAGMA synchronous=FULL")
    except BaseException:
        copy.close()
        raise
    return copy


def temporary_beside(folder: Path, what: str) -> Path:
    """A name for a file being written in `folder`, hidden, that no finished file has."""
    return folder / f".{what}.{secrets.token_hex(4)}.partial"


def leftovers(folder: Path) -> list[Path]:
    """The files `temporary_beside` named in `folder` that a write cut short left behind."""
    return [path for path in folder.glob(".*.partial") if path.is_file()]


def place(temporary: Path, folder: Path, name: str, suffix: str) -> Path:
    """Give the finished file `temporary` the name `<name><suffix>` in `folder`, or
    `<name>-2<suffix>`, `-3`, … when that is taken: never over another file. Returns where."""
    number = 1
    while True:
        path = folder / f"{name}{f'-{number}' if number > 1 else ''}{suffix}"
        try:
            move_into_place(temporary, path, overwrite=False)
            return path
        except FileExistsError:
            number += 1


def remove_quietly(path: Path) -> None:
    """Remove a file this module wrote and no longer needs (and SQLite's files beside it)."""
    for companion_file in (path, Path(f"{path}-journal"), Path(f"{path}-wal"),
                           Path(f"{path}-shm")):
        with contextlib.suppress(OSError):
            companion_file.unlink()
