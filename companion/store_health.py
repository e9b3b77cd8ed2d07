"""The games database file's health: damaged, foreign and newer files, and a damaged WAL.

Everything here reads the file without writing it (or copies and renames it whole), so the
store can decide what to do with a file before anything touches it: open it, move it aside and
start afresh, or only read it.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import struct
from datetime import UTC, datetime
from pathlib import Path

from sqlite_utils.migrations import Migrations

from .core.phrases import Phrase
from .i18n import N_
from .store_errors import StoreError
from .store_schema import APPLICATION_ID, OUR_TABLES, expected_columns, known_migrations, migrations

SQLITE_HEADER = b"SQLite format 3\x00"


def inspect_database(path: Path) -> str | None:
    """Why the file at `path` cannot be used as our database, or None when it can.

    Reads without writing anything: the file is opened read-only.
    """
    try:
        size = path.stat().st_size
        with path.open("rb") as f:
            header = f.read(100)
    except OSError as error:
        raise StoreError(f"cannot read the database {path}: {error.strerror}") from None
    if size == 0:
        return None
    if len(header) < 100 or not header.startswith(SQLITE_HEADER):
        return "is not a SQLite database"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    header_valid = header[24:28] == header[92:96]
    wal = Path(f"{path}-wal")
    if header_valid and size < page_size * pages and not (wal.exists() and wal.stat().st_size):
        return f"is truncated ({size} bytes where its header promises {page_size * pages})"
    try:
        conn = connect_read_only(path)
    except sqlite3.Error as error:
        if is_damaged(error):  # the header is SQLite's, what follows is not
            return f"is damaged ({error})"
        raise StoreError(f"cannot open the database {path}: {error}") from None
    try:
        # integrity_check, not quick_check: it also finds index rows that are missing or do not
        # match their table (a lookup by status or by (game, seq) would then miss rows that are
        # there). It costs about 1 ms on a database of 2,000 logged commands (quick_check about
        # 0.5 ms), so every opening pays it rather than only one after an unclean close.
        check = conn.execute("PRAGMA integrity_check").fetchone()[0]
        if check != "ok":
            return f"is damaged (integrity_check: {check})"
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = {name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as error:
        return f"is damaged ({error})"
    finally:
        conn.close()
    if app_id not in (0, APPLICATION_ID) or (app_id == 0 and tables - OUR_TABLES - {"_counts"}):
        return "is not a companion database"
    if app_id == 0 and tables and not _our_columns(path):
        # Tables with our names but not our columns (someone else's `games`): migrating would
        # write to a file that is not ours, so it is moved aside before anything touches it.
        return "is not a companion database"
    return None


def newer_version(path: Path) -> str | None:
    """"a newer version of the companion (…)" when the file holds migrations this version does
    not know (it could not write what they changed); else None. Reads only."""
    known = known_migrations()
    try:
        conn = connect_read_only(path)
    except sqlite3.Error:
        return None  # nothing readable: opening it says why
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        applied = [name for (name,) in conn.execute(
            f"SELECT name FROM [{Migrations.migrations_table}] WHERE migration_set = ? "
            "ORDER BY rowid", [migrations.name])] if conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
            [Migrations.migrations_table]).fetchone() else []
    except sqlite3.DatabaseError:
        return None
    finally:
        conn.close()
    unknown = [name for name in applied if name not in known]
    if version <= len(known) and not unknown:
        return None
    return (f"a newer version of the companion (schema {max(version, len(applied))}"
            f"{', with ' + ', '.join(unknown) if unknown else ''}; this version knows "
            f"{len(known)} migrations)")


def is_damaged(error: sqlite3.Error) -> bool:
    """Whether SQLite found the file not to be a database or its pages malformed."""
    return getattr(error, "sqlite_errorcode", None) in (sqlite3.SQLITE_CORRUPT,
                                                        sqlite3.SQLITE_NOTADB)


def write_failure(error: sqlite3.OperationalError) -> Phrase | None:
    """Why SQLite could not write, in words, when that is what `error` says; else None."""
    text = str(error)
    if "full" in text:
        return Phrase(N_("the disk is full"))
    if "readonly" in text or "read-only" in text or "unable to open" in text:
        return Phrase(N_("the file or its folder cannot be written"))
    return None


def connect_read_only(path: Path) -> sqlite3.Connection:
    """A connection that cannot write: mode=ro, or immutable=1 when SQLite cannot even set up
    the shared WAL index (a WAL database in a folder we may not write)."""
    uri = path.resolve().as_uri()
    conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, check_same_thread=False)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError as error:
        conn.close()
        if write_failure(error) is None:
            raise
    return sqlite3.connect(f"{uri}?immutable=1", uri=True, check_same_thread=False)


def _our_columns(path: Path) -> bool:
    """Whether every table the file shares a name with has (at least) our columns."""
    conn = connect_read_only(path)
    try:
        for table, wanted in expected_columns().items():
            have = {row[1] for row in conn.execute(f"PRAGMA table_info([{table}])")}
            if have and not wanted <= have:
                return False
    except sqlite3.DatabaseError:
        return False
    finally:
        conn.close()
    return True


WAL_MAGIC = (0x377F0682, 0x377F0683)
WAL_HEADER = 32
FRAME_HEADER = 24


def _wal_checksum(data: bytes, big_endian: bool, s0: int, s1: int) -> tuple[int, int]:
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def lost_commits(path: Path) -> int:
    """How many commits the WAL beside `path` holds after damage SQLite's recovery stops at.

    Recovery keeps the frames up to the first one whose checksum fails and silently drops the
    rest; a commit frame after that point that still carries this log's salts was acknowledged
    and will be lost. Reads the file only.
    """
    wal = Path(f"{path}-wal")
    try:
        data = wal.read_bytes() if wal.exists() else b""
    except OSError:
        return 0
    if len(data) < WAL_HEADER:
        return 0
    magic, _version, page_size, _seq, salt1, salt2, c1, c2 = struct.unpack(
        ">8I", data[:WAL_HEADER])
    if magic not in WAL_MAGIC or page_size < 512 or page_size & (page_size - 1):
        return 0
    big = bool(magic & 1)
    if _wal_checksum(data[:24], big, 0, 0) != (c1, c2):
        return 0  # a log SQLite ignores whole; nothing in it was readable
    s0, s1 = c1, c2
    frame = FRAME_HEADER + page_size
    damaged = False
    lost = 0
    for offset in range(WAL_HEADER, len(data) - frame + 1, frame):
        page, commit, fsalt1, fsalt2, f1, f2 = struct.unpack(
            ">6I", data[offset:offset + FRAME_HEADER])
        if (fsalt1, fsalt2) != (salt1, salt2):
            continue  # left over from an earlier log: never part of this one
        if not damaged:
            s0, s1 = _wal_checksum(data[offset:offset + 8], big, s0, s1)
            s0, s1 = _wal_checksum(data[offset + FRAME_HEADER:offset + frame], big, s0, s1)
            if (s0, s1) != (f1, f2) or page == 0:
                damaged = True
        if damaged and commit:
            lost += 1
    return lost


def keep_copy(path: Path, why: str) -> Path:
    """Copy the database and its -wal file (as they are) beside it; returns the copy's path."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    copy = path.with_name(f"{path.name}.{why}-{stamp}")
    try:
        shutil.copyfile(path, copy)
        wal = Path(f"{path}-wal")
        if wal.exists() and wal.stat().st_size:
            shutil.copyfile(wal, Path(f"{copy}-wal"))
    except OSError as error:
        raise StoreError(f"the database {path} has a damaged write-ahead log and could not be "
                         f"copied before opening: {error.strerror}") from None
    return copy


def move_aside(path: Path) -> Path:
    """Rename the file (and its WAL companions) to a free name beside it; returns the new path."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    n = 0
    while True:
        aside = path.with_name(f"{path.name}.unreadable-{stamp}{f'-{n}' if n else ''}")
        if not aside.exists():
            break
        n += 1
    try:
        os.rename(path, aside)
        for suffix in ("-wal", "-shm"):
            companion_file = Path(f"{path}{suffix}")
            if companion_file.exists():
                os.rename(companion_file, Path(f"{aside}{suffix}"))
    except OSError as error:
        raise StoreError(f"the database {path} cannot be used and could not be moved aside: "
                         f"{error.strerror}") from None
    return aside


def is_database_file(location: str, path: Path) -> bool:
    """Whether `path` is the database at `location` or one of its -wal/-shm files, through
    any symlink or hard link."""
    target = os.path.realpath(path)
    for suffix in ("", "-wal", "-shm"):
        own = f"{location}{suffix}"
        if target == os.path.realpath(own):
            return True
        try:
            if os.path.samefile(path, own):
                return True
        except OSError:  # one of them does not exist
            pass
    return False
