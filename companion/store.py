"""Durable games in SQLite, through sqlite-utils: the command log, snapshots, outcomes.

Every accepted command is appended to its game's log in one transaction together with what it
changed (the game's row, now and then a snapshot), and that transaction is committed before the
caller is told the command succeeded. The model never sees this module.
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import shutil
import sqlite3
import struct
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

APPLICATION_ID = 0x53494331  # "SIC1": marks a file as a companion database
SNAPSHOT_EVERY = 100
"""Commands between snapshots: resuming replays at most this many commands."""
IDLE_CAP_SECONDS = 30 * 60
"""A pause longer than this (a game left overnight) counts as this long in the played time."""

DEFAULT_TITLE = "spirit-island"
"""The game of a log whose new_game names none: every game saved before there were two, and
every Spirit Island game since (its log is the same as ever)."""

migrations = Migrations("companion")


@migrations(name="0001_games_commands_snapshots")
def _create_tables(db: Database) -> None:
    db.table("games").create(
        {
            "id": int, "status": str, "started_at": str, "updated_at": str,
            "finished_at": str, "played_seconds": float, "players": int, "mode": str,
            "deck_mode": str, "adversary": str, "adversary_level": int, "scenario": str,
            "difficulty": int, "result": str, "reason": str, "score": int, "rounds": int,
            "log_length": int, "setup": str,
        },
        pk="id",
        not_null={"status", "started_at", "updated_at", "log_length", "setup"},
        defaults={"played_seconds": 0.0, "log_length": 0},
    )
    db.table("games").create_index(["status", "updated_at"])
    db.table("commands").create(
        {"game_id": int, "seq": int, "command": str, "at": str},
        pk=("game_id", "seq"),
        foreign_keys=[("game_id", "games", "id")],
        not_null={"command", "at"},
    )
    db.table("snapshots").create(
        {"game_id": int, "seq": int, "session": str},
        pk=("game_id", "seq"),
        foreign_keys=[("game_id", "games", "id")],
        not_null={"session"},
    )


@migrations(name="0002_current_game")
def _remember_current_game(db: Database) -> None:
    # Which game the table was last playing, written with every action, so that a restart
    # comes back to exactly that game (finished or not) rather than guessing from timestamps.
    db.table("meta").create({"key": str, "value": str}, pk="key")


@migrations(name="0003_tags")
def _create_tag_registry(db: Database) -> None:
    # What each RFID tag under a card means. Not part of any game: the registry belongs to the
    # table's cards and outlives every game played with them.
    db.table("tags").create(
        {"uid": str, "kind": str, "card": str, "enrolled_at": str},
        pk="uid",
        not_null={"kind", "card", "enrolled_at"},
    )


@migrations(name="0004_game_details")
def _add_game_details(db: Database) -> None:
    # What a game's summary gives beyond the shared columns (Glow's final scores, Leviathan's
    # guardians), as JSON: a new game needs no new column.
    db.table("games").add_column("details", str)


@migrations(name="0005_game_uid")
def _add_game_uid(db: Database) -> None:
    # SQLite gives a deleted newest game's id to the next game; a uid is never given again, so
    # whoever follows the file (the headless mirror) can tell a new game from the one it knew.
    db.table("games").add_column("uid", str)
    db.execute("UPDATE games SET uid = lower(hex(randomblob(8))) WHERE uid IS NULL")


# Keep this after the last migration: it counts them.
SCHEMA_VERSION = len(migrations._migrations)
OUR_TABLES = {"games", "commands", "snapshots", "meta", "tags", Migrations.migrations_table}
CURRENT_GAME = "current_game"
UNREADABLE = "unreadable"
"""The status of a game whose log does not replay: kept (log and all) but never resumed."""
NOT_RESUMED = ("abandoned", UNREADABLE)


class StoreError(Exception):
    """A problem with the database a person can act on; the message names the file."""


class GameNotReplayable(StoreError):
    """A game's log does not replay; the game can be set aside while the rest stays usable."""

    def __init__(self, game_id: int, message: str) -> None:
        super().__init__(message)
        self.game_id = game_id
        """The game whose log does not replay."""


class GamesInUse(StoreError):
    """Another companion process writes the games file: this one may only read it."""

    def __init__(self, pid: int | None) -> None:
        self.pid = pid
        """The other companion's process id, when its lock file names it."""
        super().__init__(f"the games are open in another companion{f', pid {pid}' if pid else ''}")


class TagsInUse(StoreError):
    """An import would give tags already enrolled a new meaning; nothing was written."""

    def __init__(self, uids: list[str], location: str) -> None:
        super().__init__(f"{len(uids)} tag(s) are already enrolled to other cards in "
                         f"{location}: {', '.join(uids)}")
        self.uids = uids
        """The tags in question, in the order they were given."""


@dataclass(frozen=True)
class LoggedGame:
    """What resuming a game needs: the newest snapshot (if any) and the commands after it."""

    game_id: int
    snapshot: dict[str, Any] | None
    commands: list[dict[str, Any]]
    title: str = DEFAULT_TITLE
    """Which game it is (a registry id), so its log is replayed by that game's rules."""
    log_length: int = 0
    """The number of the last command logged: the next one the session appends follows it."""


def _now() -> datetime:
    return datetime.now(UTC)


class GameStore:
    def __init__(self, db: Database, location: str,
                 clock: Callable[[], datetime] = _now) -> None:
        self.db = db
        self.location = location
        """The file (or ":memory:") this store writes, for messages."""
        self.set_aside: Path | None = None
        """Where an unusable database found on opening was moved (the players are told)."""
        self.read_only: str | None = None
        """Why the file could only be opened for reading (every change is then refused)."""
        self.read_only_because: str | None = None
        """Why, for the app to tell the players: "unwritable" (permissions, a full disk), "in
        use" (another companion writes the file) or "newer" (made by a newer version)."""
        self.other_pid: int | None = None
        """With "in use": the process id of the companion that writes the games."""
        self._lock: WriterLock | None = None
        self._clock = clock
        self._configure()

    # --- opening ----------------------------------------------------------------------------

    @classmethod
    def in_memory(cls, clock: Callable[[], datetime] = _now) -> GameStore:
        return cls(Database(memory=True, execute_plugins=False), ":memory:", clock)

    @classmethod
    def open(cls, path: Path, clock: Callable[[], datetime] = _now) -> tuple[GameStore, list[str]]:
        """Open (or create) the database at `path`, as its one writer.

        A file that is not ours or is damaged is moved aside (never changed or deleted) and a
        fresh database takes its place; the notices say so. A file another companion process
        writes, or one made by a newer version of the companion, is opened only to read it.
        """
        notices: list[str] = []
        path = path.expanduser()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"cannot create the folder for the database {path}: "
                             f"{error.strerror}") from None
        try:
            lock = WriterLock.take(path)
        except GamesInUse as busy:
            return cls._open_in_use(path, busy, clock), [
                f"{path}: {busy}; they can be looked at here, but nothing will be saved "
                "(close the other one to play here)."]
        try:
            store = cls._open_as_writer(path, clock, notices)
        except BaseException:
            if lock is not None:
                lock.release()
            raise
        store._lock = lock
        return store, notices

    @classmethod
    def _open_as_writer(cls, path: Path, clock: Callable[[], datetime],
                        notices: list[str]) -> GameStore:
        lost = lost_commits(path) if path.exists() else 0
        if lost:
            # SQLite's recovery will drop those commits and checkpoint the damaged log away:
            # the files as found are copied first, for whoever wants to look.
            kept = keep_copy(path, "damaged-wal")
            notices.append(f"The write-ahead log of the database {path} is damaged: {lost} "
                           "saved change(s) after the damage cannot be recovered and are lost "
                           f"(the last actions played). The files as found were kept as {kept} "
                           "and its -wal file.")
        problem = inspect_database(path) if path.exists() else None
        aside = None
        if problem:
            aside = move_aside(path)
            notices.append(f"The database {path} {problem}. It was moved to {aside} and a "
                           "fresh database was started.")
        newer = newer_version(path) if aside is None and path.exists() else None
        if newer:
            store = cls._open_read_only(path, f"it was made by {newer}", clock)
            store.read_only_because = "newer"
            notices.append(f"The database {path} was made by {newer}: its games can be looked "
                           "at, but nothing will be saved until the companion is updated.")
            return store
        try:
            # No sqlite-utils plugins: whatever happens to be installed has no business in the
            # games database (and scanning for them costs 30 ms of every start).
            store = cls(Database(path, execute_plugins=False), str(path), clock)
        except sqlite3.OperationalError as error:
            why = _write_failure(error)
            if why is None or not path.exists() or not path.stat().st_size:
                raise StoreError(f"cannot open the database {path}: {error}") from None
            store = cls._open_read_only(path, why, clock)
            notices.append(f"The database {path} cannot be written ({why}); its games can be "
                           "looked at and resumed, but nothing will be saved.")
        except sqlite3.Error as error:
            if aside is not None or not _damaged(error):
                raise StoreError(f"cannot open the database {path}: {error}") from None
            # Damage only SQLite's own opening found: kept aside all the same, and a fresh start.
            aside = move_aside(path)
            notices.append(f"The database {path} is damaged ({error}). It was moved to {aside} "
                           "and a fresh database was started.")
            return cls._open_as_writer(path, clock, notices)
        store.set_aside = aside
        return store

    @classmethod
    def _open_in_use(cls, path: Path, busy: GamesInUse,
                     clock: Callable[[], datetime]) -> GameStore:
        """The games another companion writes, opened to read them (it owns their recovery)."""
        if not path.is_file() or not path.stat().st_size:
            raise StoreError(f"{busy}, which has not written them yet; close it or try again")
        try:
            store = cls._open_read_only(path, str(busy), clock)
        except StoreError as error:
            raise StoreError(f"{busy}, and {error}") from None
        store.read_only_because = "in use"
        store.other_pid = busy.pid
        return store

    @classmethod
    def open_read_only(cls, path: Path, clock: Callable[[], datetime] = _now) -> GameStore:
        """Open an existing database only to read it (the mirror follows the games another
        process plays): nothing is created, migrated or written; every change is refused."""
        path = path.expanduser()
        if not path.is_file():
            raise StoreError(f"there is no games database at {path}")
        return cls._open_read_only(path, "it was opened only to read it", clock)

    @classmethod
    def _open_read_only(cls, path: Path, why: str,
                        clock: Callable[[], datetime]) -> GameStore:
        """Open a file that cannot be written: mode=ro when SQLite can still share its WAL
        index, else immutable (nothing else may be writing it then: we could not either)."""
        try:
            conn = connect_read_only(path)
            conn.execute("SELECT count(*) FROM games").fetchone()
        except sqlite3.Error as error:
            raise StoreError(f"cannot open the database {path}, not even to read it: "
                             f"{error}") from None
        store = cls.__new__(cls)
        store.db = Database(conn, execute_plugins=False)
        store.location = str(path)
        store.set_aside = None
        store.read_only = why
        store.read_only_because = "unwritable"
        store.other_pid = None
        store._lock = None
        store._clock = clock
        return store

    def _configure(self) -> None:
        with self.db.ensure_autocommit_on():
            if self.location != ":memory:":
                # WAL: a commit appends to the log file, so a crash mid-write never damages
                # what was committed before. synchronous=FULL: every commit fsyncs the WAL
                # before returning, so a committed command survives a power cut (NORMAL would
                # only sync at checkpoints and can lose the last commits).
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.execute("PRAGMA busy_timeout=5000")
        if self._pragma("user_version") != SCHEMA_VERSION or \
                Migrations.migrations_table not in self.db.table_names():
            migrations.apply(self.db)
        # Written only when they differ: opening a database that is up to date writes nothing,
        # so a full disk or a read-only file still opens (and each change is refused in words).
        with self.db.ensure_autocommit_on():
            if self._pragma("application_id") != APPLICATION_ID:
                self.db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            if self._pragma("user_version") != SCHEMA_VERSION:
                self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _pragma(self, name: str) -> Any:
        return self.db.execute(f"PRAGMA {name}").fetchone()[0]

    def close(self) -> None:
        self.db.close()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def is_own_file(self, path: Path) -> bool:
        """Whether `path` is the games database or one of its -wal/-shm files (through any
        symlink or hard link): nothing but SQLite may write those."""
        if self.location == ":memory:":
            return False
        target = os.path.realpath(path)
        for suffix in ("", "-wal", "-shm"):
            own = f"{self.location}{suffix}"
            if target == os.path.realpath(own):
                return True
            try:
                if os.path.samefile(path, own):
                    return True
            except OSError:  # one of them does not exist
                pass
        return False

    @contextmanager
    def _writing(self, what: str) -> Iterator[None]:
        """One transaction; a failed write becomes a StoreError a player can understand."""
        if self.read_only is not None:
            raise StoreError(f"the games file is read-only: {self.read_only}, so {what} could "
                             f"not be saved to {self.location}. Nothing was changed")
        try:
            with self.db.atomic():
                yield
        except sqlite3.OperationalError as error:
            text = str(error)
            if "full" in text:
                reason = "the disk is full"
            elif "readonly" in text or "read-only" in text:
                reason = "the database file is read-only"
            else:
                reason = text
            raise StoreError(f"could not save {what} to {self.location}: {reason}. Nothing was "
                             "changed; free some space or fix the file's permissions, then try "
                             "again") from None

    # --- writing ----------------------------------------------------------------------------

    def create_game(self, new_game: dict[str, Any], summary: dict[str, Any]) -> int:
        """Start a game's log with its new_game command; returns the game's id."""
        at = self._clock().isoformat()
        with self._writing("the new game"):
            game_id = self.db.table("games").insert({
                "uid": secrets.token_hex(8), "status": "active", "started_at": at,
                "updated_at": at, "log_length": 1,
                "setup": json.dumps(new_game), "played_seconds": 0.0, **_columns(summary),
            }).last_pk
            self.db.table("commands").insert({"game_id": game_id, "seq": 1,
                                        "command": json.dumps(new_game), "at": at})
            self._remember(game_id)
        assert isinstance(game_id, int)
        return game_id

    def _remember(self, game_id: int | None) -> None:
        self.db.execute("INSERT INTO meta (key, value) VALUES (?, ?) "
                        "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                        [CURRENT_GAME, str(game_id or "")])

    def set_current(self, game_id: int | None) -> None:
        with self._writing("which game is being played"):
            self._remember(game_id)

    def current_game(self) -> int | None:
        """The game the table was last playing, unless it was abandoned or deleted since."""
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", [CURRENT_GAME]).fetchone()
        if not row or not row[0]:
            return None
        game_id = int(row[0])
        status = self.db.execute("SELECT status FROM games WHERE id = ?", [game_id]).fetchone()
        return game_id if status and status[0] not in NOT_RESUMED else None

    def append(self, game_id: int, command: dict[str, Any], summary: dict[str, Any],
               snapshot: Callable[[], dict[str, Any]], after: int | None = None) -> None:
        """Log one accepted command and the game's new summary, durably, in one transaction.

        `after`: the number of the last command the caller's session holds. A log that ends
        elsewhere was written by someone else since; the command is refused, not logged on top.
        """
        now = self._clock()
        with self._writing("this action"):
            row = self._game_row(game_id)
            if after is not None and row["log_length"] != after:
                raise StoreError(
                    f"game {game_id} in {self.location} was changed elsewhere since it was "
                    f"loaded (its log holds {row['log_length']} commands where this companion "
                    f"knows {after}), so this action was refused and not saved; resume the "
                    "game to see it as it is saved")
            seq = row["log_length"] + 1
            last = datetime.fromisoformat(row["updated_at"])
            played = row["played_seconds"] + min(max((now - last).total_seconds(), 0.0),
                                                 IDLE_CAP_SECONDS)
            # Plain statements on this path, taken with every tap: sqlite-utils' insert and
            # update look the tables up first (30 statements where 5 do).
            self.db.execute("INSERT INTO commands (game_id, seq, command, at) "
                            "VALUES (?, ?, ?, ?)",
                            [game_id, seq, json.dumps(command), now.isoformat()])
            finished = summary.get("status") == "finished"
            self._update_game(game_id, {
                **_columns(summary), "log_length": seq, "updated_at": now.isoformat(),
                "played_seconds": played,
                "finished_at": now.isoformat() if finished and not row["finished_at"]
                else (row["finished_at"] if finished else None),
            })
            if seq % SNAPSHOT_EVERY == 0:
                self.db.table("snapshots").insert({"game_id": game_id, "seq": seq,
                                                   "session": json.dumps(snapshot())})
            self._remember(game_id)

    def set_status(self, game_id: int, status: str) -> None:
        with self._writing("the game's status"):
            self._game_row(game_id)
            self.db.table("games").update(game_id, {"status": status,
                                              "updated_at": self._clock().isoformat()})

    def delete_game(self, game_id: int) -> None:
        with self._writing("the deletion"):
            self._game_row(game_id)
            self.db.execute("DELETE FROM snapshots WHERE game_id = ?", [game_id])
            self.db.execute("DELETE FROM commands WHERE game_id = ?", [game_id])
            self.db.execute("DELETE FROM games WHERE id = ?", [game_id])

    def import_game(self, log: list[dict[str, Any]], summary: dict[str, Any],
                    snapshots: Mapping[int, dict[str, Any]],
                    dates: Mapping[str, Any] | None = None) -> int:
        """Store a whole imported log as a new game; returns its id.

        `snapshots` (command number → session, at numbers where `append` takes one) let
        resuming replay only the commands after the newest. `dates` gives started_at,
        updated_at and finished_at (ISO texts) and played_seconds, as the exported game had
        them; what is missing is now.
        """
        dates = dates or {}
        at = self._clock().isoformat()
        started = dates.get("started_at") or at
        updated = dates.get("updated_at") or started
        finished = (dates.get("finished_at") or updated) \
            if summary.get("status") == "finished" else None
        with self._writing("the imported game"):
            game_id = self.db.table("games").insert({
                "uid": secrets.token_hex(8),
                "started_at": started, "updated_at": updated, "finished_at": finished,
                "log_length": len(log), "setup": json.dumps(log[0]),
                "played_seconds": float(dates.get("played_seconds") or 0.0), **_columns(summary),
            }).last_pk
            assert isinstance(game_id, int)
            self.db.table("commands").insert_all(
                {"game_id": game_id, "seq": i, "command": json.dumps(c),
                 "at": started if i == 1 else updated}
                for i, c in enumerate(log, start=1))
            self.db.table("snapshots").insert_all(
                {"game_id": game_id, "seq": seq, "session": json.dumps(session)}
                for seq, session in sorted(snapshots.items()))
        return game_id

    # --- the tag registry -------------------------------------------------------------------

    def enrol_tag(self, uid: str, kind: str, card: str) -> None:
        """Give a tag its meaning, replacing any it had."""
        with self._writing("the tag"):
            self.db.table("tags").upsert({"uid": uid, "kind": kind, "card": card,
                                          "enrolled_at": self._clock().isoformat()}, pk="uid")

    def forget_tag(self, uid: str) -> None:
        with self._writing("forgetting the tag"):
            self.db.execute("DELETE FROM tags WHERE uid = ?", [uid])

    def replace_tags(self, mapping: Mapping[str, Mapping[str, str]],
                     replace_existing: bool) -> int:
        """Enrol many tags (uid → {"kind", "card"}) in one transaction: all of them or none.

        A tag already enrolled to the same card keeps its row. One enrolled to another card is
        re-enrolled when `replace_existing`, else TagsInUse is raised and nothing is written.
        Returns how many tags changed meaning.
        """
        at = self._clock().isoformat()
        with self._writing("the tags"):
            current = self.tags()
            writes = [uid for uid, meaning in mapping.items() if uid not in current or (
                current[uid]["kind"], current[uid]["card"]) != (meaning["kind"], meaning["card"])]
            changed = [uid for uid in writes if uid in current]
            if changed and not replace_existing:
                raise TagsInUse(changed, self.location)
            self.db.table("tags").upsert_all(
                ({"uid": uid, "kind": mapping[uid]["kind"], "card": mapping[uid]["card"],
                  "enrolled_at": at} for uid in writes), pk="uid")
        return len(changed)

    def tag(self, uid: str) -> dict[str, str] | None:
        """A tag's {"kind", "card", "enrolled_at"}, or None when it is not enrolled."""
        row = self.db.execute("SELECT kind, card, enrolled_at FROM tags WHERE uid = ?",
                              [uid]).fetchone()
        return {"kind": row[0], "card": row[1], "enrolled_at": row[2]} if row else None

    def tags(self) -> dict[str, dict[str, str]]:
        """Every enrolled tag, uid → {"kind", "card", "enrolled_at"}, by uid."""
        return {uid: {"kind": kind, "card": card, "enrolled_at": at}
                for uid, kind, card, at in self.db.execute(
                    "SELECT uid, kind, card, enrolled_at FROM tags ORDER BY uid")}

    # --- reading ----------------------------------------------------------------------------

    def _game_row(self, game_id: int) -> dict[str, Any]:
        cursor = self.db.execute("SELECT * FROM games WHERE id = ?", [game_id])
        row = cursor.fetchone()
        if row is None:
            raise StoreError(f"there is no game {game_id} in {self.location}")
        return dict(zip((column[0] for column in cursor.description), row, strict=True))

    def _update_game(self, game_id: int, changes: dict[str, Any]) -> None:
        """Set the games table's `changes` (its columns, named by this module) for one game."""
        unknown = set(changes) - GAME_COLUMNS
        assert not unknown, f"no such columns of games: {sorted(unknown)}"
        assignments = ", ".join(f'"{column}" = ?' for column in changes)
        self.db.execute(f"UPDATE games SET {assignments} WHERE id = ?",
                        [*changes.values(), game_id])

    def game(self, game_id: int) -> dict[str, Any]:
        return _public(self._game_row(game_id))

    def game_uid(self, game_id: int) -> str | None:
        """What tells this game from any other ever stored here, unlike its id, which a game
        started after it was deleted may get; None when there is no such game. A file from
        before uids, opened read-only (so not migrated), answers with the game's start time."""
        column = "uid" if "uid" in self.db.table("games").columns_dict else "started_at"
        row = self.db.execute(f"SELECT {column} FROM games WHERE id = ?", [game_id]).fetchone()
        return str(row[0]) if row else None

    def games(self) -> list[dict[str, Any]]:
        return [_public(row) for row in self.db.table("games").rows_where(order_by="id")]

    def load(self, game_id: int) -> LoggedGame:
        """The newest snapshot of a game and every command logged after it."""
        row = self._game_row(game_id)
        snap = self.db.execute(
            "SELECT seq, session FROM snapshots WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
            [game_id]).fetchone()
        last = after = snap[0] if snap else 0
        commands = []
        for seq, text in self.db.execute(
                "SELECT seq, command FROM commands WHERE game_id = ? AND seq > ? ORDER BY seq",
                [game_id, after]):
            commands.append(json.loads(text))
            last = seq
        return LoggedGame(game_id, json.loads(snap[1]) if snap else None, commands,
                          title_of(json.loads(row["setup"])), last)

    def full_log(self, game_id: int) -> list[dict[str, Any]]:
        self._game_row(game_id)
        return [json.loads(text) for (text,) in self.db.execute(
            "SELECT command FROM commands WHERE game_id = ? ORDER BY seq", [game_id])]

    def integrity(self) -> str:
        return str(self.db.execute("PRAGMA integrity_check").fetchone()[0])


SHARED_COLUMNS = frozenset({
    "status", "players", "rounds", "result", "reason", "score",
    "mode", "deck_mode", "adversary", "adversary_level", "scenario", "difficulty",
})
"""The summary's keys that have a column of their own; a game's others go to "details"."""
GAME_COLUMNS = SHARED_COLUMNS | {"details", "log_length", "updated_at", "played_seconds",
                                 "finished_at", "status"}
"""The games table's columns a game's play sets."""


def _columns(summary: dict[str, Any]) -> dict[str, Any]:
    """A game's summary as the games table's columns: its own keys as one JSON "details"."""
    details = {key: value for key, value in summary.items() if key not in SHARED_COLUMNS}
    return {**{key: value for key, value in summary.items() if key in SHARED_COLUMNS},
            "details": json.dumps(details, sort_keys=True) if details else None}


def _public(row: dict[str, Any]) -> dict[str, Any]:
    out = {key: value for key, value in row.items()
           if key not in ("setup", "played_seconds", "uid")}
    out["duration_minutes"] = round((row["played_seconds"] or 0.0) / 60, 1)
    out["setup"] = json.loads(row["setup"])
    out["details"] = json.loads(row["details"]) if row.get("details") else {}
    out["title"] = title_of(out["setup"])
    return out


def title_of(new_game: Any) -> str:
    """Which game a log's new_game command started: its "game" field, which the service writes
    for every game but the first, so that Spirit Island's logs stay as they always were."""
    title = new_game.get("game") if isinstance(new_game, dict) else None
    return title if isinstance(title, str) else DEFAULT_TITLE


def _write_failure(error: sqlite3.OperationalError) -> str | None:
    """Why SQLite could not write, in words, when that is what `error` says; else None."""
    text = str(error)
    if "full" in text:
        return "the disk is full"
    if "readonly" in text or "read-only" in text or "unable to open" in text:
        return "the file or its folder cannot be written"
    return None


# --- damaged, foreign and newer databases -----------------------------------------------------

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
        if _damaged(error):  # the header is SQLite's, what follows is not
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


def known_migrations() -> list[str]:
    """The names of the migrations this version knows, in order."""
    return [migration.name for migration in migrations._migrations]


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


def _damaged(error: sqlite3.Error) -> bool:
    """Whether SQLite found the file not to be a database or its pages malformed."""
    return getattr(error, "sqlite_errorcode", None) in (sqlite3.SQLITE_CORRUPT,
                                                        sqlite3.SQLITE_NOTADB)


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
        if _write_failure(error) is None:
            raise
    return sqlite3.connect(f"{uri}?immutable=1", uri=True, check_same_thread=False)


def _expected_columns() -> dict[str, set[str]]:
    """Each table's columns as our migrations create them (built in memory, once a call)."""
    scratch = Database(memory=True, execute_plugins=False)
    migrations.apply(scratch)
    return {table.name: set(table.columns_dict) for table in scratch.tables}


def _our_columns(path: Path) -> bool:
    """Whether every table the file shares a name with has (at least) our columns."""
    conn = connect_read_only(path)
    try:
        for table, wanted in _expected_columns().items():
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
    stamp = _now().strftime("%Y%m%d-%H%M%S")
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
    stamp = _now().strftime("%Y%m%d-%H%M%S")
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


def write_atomically(path: Path, text: str, overwrite: bool) -> None:
    """Write `text` to `path` so that a crash leaves the old file or the new one, never half.

    The text goes to a temporary file beside the target, which is fsynced and then renamed
    over it (or hard-linked to it when `overwrite` is false, which fails if the target exists
    however late it appeared); the folder is fsynced so the rename survives a power cut.
    Raises FileExistsError when the target exists and `overwrite` is false.
    """
    folder = path.parent
    temporary = folder / f".{path.name}.{secrets.token_hex(4)}.tmp"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if overwrite:
            os.replace(temporary, path)
        else:
            try:
                os.link(temporary, path)
            except FileExistsError:
                raise
            except OSError:  # a file system without hard links (FAT on a USB stick)
                if path.exists():
                    raise FileExistsError(path) from None
                os.replace(temporary, path)
    finally:
        if temporary.exists():
            os.unlink(temporary)
    folder_fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(folder_fd)
    finally:
        os.close(folder_fd)


def default_database_path() -> Path:
    """Where the app keeps its games: the platform's folder for user data."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "spirit-island-companion" / "games.sqlite3"
