"""Durable games in SQLite, through sqlite-utils: the command log, snapshots, outcomes.

Every accepted command is appended to its game's log in one transaction together with what it
changed (the game's row, now and then a snapshot), and that transaction is committed before the
caller is told the command succeeded, or, for the table's taps, before the screen shows it
(`store_commit.py`). The model never sees this module.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from .core.phrases import Phrase
from .i18n import N_
from .store_commit import CommitBehind, read_only_failure, save_failure
from .store_errors import GamesInUse, StoreError
from .store_health import (
    connect_read_only,
    inspect_database,
    is_damaged,
    is_database_file,
    keep_copy,
    lost_commits,
    move_aside,
    newer_version,
    write_failure,
)
from .store_lock import WriterLock
from .store_rows import (
    GAME_COLUMNS,
    LoggedGame,
    game_columns,
    public_game,
    title_of,
)
from .store_schema import APPLICATION_ID, SCHEMA_VERSION, migrations
from .store_tags import TagRegistry

# SCHEMA_VERSION stays importable from here: deploy/install.sh asks every release (older ones
# too) for companion.store.SCHEMA_VERSION.

SNAPSHOT_EVERY = 100
"""Commands between snapshots: resuming replays at most this many commands."""
IDLE_CAP_SECONDS = 30 * 60
"""A pause longer than this (a game left overnight) counts as this long in the played time."""

CURRENT_GAME = "current_game"
UNREADABLE = "unreadable"
"""The status of a game whose log does not replay: kept (log and all) but never resumed."""
NOT_RESUMED = ("abandoned", UNREADABLE)


def _now() -> datetime:
    return datetime.now(UTC)


class GameStore(TagRegistry):
    def __init__(self, db: Database, location: str,
                 clock: Callable[[], datetime] = _now) -> None:
        self._commits: CommitBehind | None = None
        """A file's commits that may finish behind the screen (`append(commit_later=True)`)."""
        self.db = db
        self.location = location
        """The file (or ":memory:") this store writes, for messages."""
        self.set_aside: Path | None = None
        """Where an unusable database found on opening was moved (the players are told)."""
        self.read_only: Phrase | None = None
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
            made_by = Phrase(N_("it was made by {version}"), version=newer)
            store = cls._open_read_only(path, made_by, clock)
            store.read_only_because = "newer"
            notices.append(f"The database {path} was made by {newer}: its games can be looked "
                           "at, but nothing will be saved until the companion is updated.")
            return store
        try:
            # No sqlite-utils plugins: whatever happens to be installed has no business in the
            # games database (and scanning for them costs 30 ms of every start).
            # The commit thread shares the connection (never at the same time: `db` waits).
            connection = sqlite3.connect(str(path), check_same_thread=False)
            store = cls(Database(connection, execute_plugins=False), str(path), clock)
            store._commits = CommitBehind(str(path))
        except sqlite3.OperationalError as error:
            why = write_failure(error)
            if why is None or not path.exists() or not path.stat().st_size:
                raise StoreError(f"cannot open the database {path}: {error}") from None
            store = cls._open_read_only(path, why, clock)
            notices.append(f"The database {path} cannot be written ({why.render()}); its games "
                           "can be looked at and resumed, but nothing will be saved.")
        except sqlite3.Error as error:
            if aside is not None or not is_damaged(error):
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
            store = cls._open_read_only(path, busy.phrase, clock)
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
        return cls._open_read_only(path, Phrase(N_("it was opened only to read it")), clock)

    @classmethod
    def _open_read_only(cls, path: Path, why: Phrase,
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
        store._commits = None
        store.db = Database(conn, execute_plugins=False)
        store.location = str(path)
        store.set_aside = None
        store.read_only = why
        store.read_only_because = "unwritable"
        store.other_pid = None
        store._lock = None
        store._clock = clock
        return store

    @property
    def db(self) -> Database:
        """The database, once the commit under way (if any) has ended: it is never used by
        two threads at once, and what is read includes every command saved."""
        if self._commits is not None and self._commits.under_way:
            self._commits.wait()
        return self._db

    @db.setter
    def db(self, db: Database) -> None:
        self._db = db

    def settle(self) -> None:
        """Wait for a commit `append(commit_later=True)` left under way; raises the StoreError
        of one that failed (its transaction rolled back: the log does not hold it)."""
        if self._commits is not None:
            self._commits.outcome()

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

    def write_out(self) -> bool:
        """Copy the write-ahead log into the games file and empty it (before the power goes:
        the card then holds one complete file). Every commit is on disk already; this only
        tidies, so it never raises: False when another reader held the log, or SQLite failed
        (the caller logs it). The store stays open."""
        if self.location == ":memory:" or self.read_only is not None:
            return True
        try:
            return not self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        except sqlite3.Error:
            return False

    def close(self) -> None:
        if self._commits is not None:
            self._commits.close()
        self.db.close()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def is_own_file(self, path: Path) -> bool:
        """Whether `path` is the games database or one of its -wal/-shm files (through any
        symlink or hard link): nothing but SQLite may write those."""
        return self.location != ":memory:" and is_database_file(self.location, path)

    @contextmanager
    def _writing(self, what: Phrase, commit_later: bool = False) -> Iterator[None]:
        """One transaction; a failed write becomes a StoreError a player can understand.

        `commit_later` (a file's store): the commit is started on the commit thread, and the
        next use of the database waits for it; `settle` says whether it failed."""
        if self.read_only is not None:
            raise read_only_failure(self.read_only, what, self.location)
        commits = self._commits if commit_later else None
        try:
            if commits is None:
                with self.db.atomic():
                    yield
                return
            conn = self.db.conn
            conn.execute("BEGIN")
            try:
                yield
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            commits.start(conn, what)
        except sqlite3.OperationalError as error:
            raise save_failure(error, what, self.location) from None

    # --- writing ----------------------------------------------------------------------------

    def create_game(self, new_game: dict[str, Any], summary: dict[str, Any]) -> int:
        """Start a game's log with its new_game command; returns the game's id."""
        at = self._clock().isoformat()
        with self._writing(Phrase(N_("the new game"))):
            game_id = self.db.table("games").insert({
                "uid": secrets.token_hex(8), "status": "active", "started_at": at,
                "updated_at": at, "log_length": 1,
                "setup": json.dumps(new_game), "played_seconds": 0.0, **game_columns(summary),
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
        with self._writing(Phrase(N_("which game is being played"))):
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
               snapshot: Callable[[], dict[str, Any]], after: int | None = None,
               commit_later: bool = False) -> None:
        """Log one accepted command and the game's new summary, durably, in one transaction.

        `after`: the number of the last command the caller's session holds. A log that ends
        elsewhere was written by someone else since; the command is refused, not logged on top.
        `commit_later`: return once the commit has started; `settle` waits for it.
        """
        now = self._clock()
        with self._writing(Phrase(N_("this action")), commit_later):
            row = self._game_row(game_id)
            if after is not None and row["log_length"] != after:
                raise StoreError(Phrase(N_(
                    "the game in {location} was changed elsewhere since it was loaded ({held} "
                    "actions saved where this companion knows {known}), so this action was "
                    "refused and not saved; resume the game to see it as it is saved"),
                    location=self.location, held=row["log_length"], known=after))
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
                **game_columns(summary), "log_length": seq, "updated_at": now.isoformat(),
                "played_seconds": played,
                "finished_at": now.isoformat() if finished and not row["finished_at"]
                else (row["finished_at"] if finished else None),
            })
            if seq % SNAPSHOT_EVERY == 0:
                self.db.table("snapshots").insert({"game_id": game_id, "seq": seq,
                                                   "session": json.dumps(snapshot())})
            self._remember(game_id)

    def set_status(self, game_id: int, status: str) -> None:
        with self._writing(Phrase(N_("the game's status"))):
            self._game_row(game_id)
            self.db.table("games").update(game_id, {"status": status,
                                              "updated_at": self._clock().isoformat()})

    def delete_game(self, game_id: int) -> None:
        with self._writing(Phrase(N_("the deletion"))):
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
        with self._writing(Phrase(N_("the imported game"))):
            game_id = self.db.table("games").insert({
                "uid": secrets.token_hex(8),
                "started_at": started, "updated_at": updated, "finished_at": finished,
                "log_length": len(log), "setup": json.dumps(log[0]),
                "played_seconds": float(dates.get("played_seconds") or 0.0),
                **game_columns(summary),
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
        return public_game(self._game_row(game_id))

    def game_uid(self, game_id: int) -> str | None:
        """What tells this game from any other ever stored here, unlike its id, which a game
        started after it was deleted may get; None when there is no such game. A file from
        before uids, opened read-only (so not migrated), answers with the game's start time."""
        column = "uid" if "uid" in self.db.table("games").columns_dict else "started_at"
        row = self.db.execute(f"SELECT {column} FROM games WHERE id = ?", [game_id]).fetchone()
        return str(row[0]) if row else None

    def games(self) -> list[dict[str, Any]]:
        return [public_game(row) for row in self.db.table("games").rows_where(order_by="id")]

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





def default_database_path() -> Path:
    """Where the app keeps its games: the platform's folder for user data."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "spirit-island-companion" / "games.sqlite3"
