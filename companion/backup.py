"""Backups of the table: the games, the card tags and the settings in one verified file, read
back and restored; a snapshot on the card once a day, the newest seven kept.

A backup is an SQLite copy of the games file made with SQLite's online backup API (so a game
being played while it is made is copied as one consistent moment), plus a manifest: when and by
which version it was made, the settings file's text, and the SHA-256 of every game's log. It is
written under a temporary name, read back afresh and checked against the games it was copied
from, and only then given its name. Every backup and snapshot is listed in `backups.log` in
the data folder. What goes wrong is told in the players' words (BackupRefused).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from sqlite_utils import Database

from . import __version__
from .backup_contents import BackupContents, BackupGame, BackupRefused, describe_backup, refused
from .backup_file import (
    BACKUP_NAME,
    backup_order,
    copy_pages,
    drop_manifest,
    leftovers,
    log_hashes,
    made_on,
    place,
    remove_quietly,
    stamp,
    temporary_beside,
    write_manifest,
)
from .files import sync_to_disk, write_atomically
from .i18n import N_, _
from .store_errors import StoreError
from .store_health import connect_read_only
from .store_schema import APPLICATION_ID, SCHEMA_VERSION, migrations

if TYPE_CHECKING:
    from .store import GameStore

__all__ = ["BackupContents", "BackupGame", "BackupRefused", "backups_on", "describe_backup",
           "last_backup", "make_backup", "restore_backup", "take_daily_snapshot"]

log = logging.getLogger(__name__)

BACKUPS_LOG = "backups.log"
"""In the data folder: one line per backup made, `<ISO-8601 UTC time> <path>`."""
SNAPSHOTS = "snapshots"
"""The data folder's folder of daily snapshots."""
KEEP_SNAPSHOTS = 7

NO_GAMES = N_("There are no games to back up yet.")
GAMES_UNREADABLE = N_("The games could not be read, so no backup was made.")
NOT_WRITTEN = N_("The backup could not be written to {folder}: {why}.")
FULL = N_("there is no space left")
NOT_WRITABLE = N_("nothing may be written there")
NOT_VERIFIED = N_("The backup did not read back as it was written, so it was not kept. Try "
                  "again, or use another stick.")
IN_USE = N_("The games are open in another companion. Restore from that companion's System "
            "screen, or stop it first.")
GAMES_READ_ONLY = N_("The games cannot be written here, so nothing was restored. Free some "
                     "space, then try again.")
NOT_RESTORED = N_("The backup could not be restored, so the games were left as they were. "
                  "Try again.")


# --- making a backup ---------------------------------------------------------------------------

def make_backup(db_path: Path, folder: Path, settings_path: Path | None = None,
                now: datetime | None = None) -> Path:
    """Write one verified backup of the games at `db_path` (and of `settings_path`, when given
    and present) into `folder` as companion-backup-YYYYMMDD-HHMMSS.sqlite3; list it in the
    data folder's backups.log. Returns the file. `now` (UTC): when, for the name."""
    now = now or datetime.now(UTC)
    db_path, folder = db_path.expanduser(), folder.expanduser()
    if not db_path.is_file() or not db_path.stat().st_size:
        raise refused(NO_GAMES, "no games")
    settings = _settings_text(settings_path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        temporary = temporary_beside(folder, "companion-backup")
    except OSError as error:
        raise _not_written(folder, error) from None
    try:
        hashes = _copy_games(db_path, temporary, settings, now)
        sync_to_disk(temporary)
        try:
            copied = describe_backup(temporary)
        except BackupRefused as why:
            log.error("the backup %s did not read back: %s", temporary, why)
            raise refused(NOT_VERIFIED, "not verified") from None
        if {game.game_id: game.log_sha256 for game in copied.games} != hashes:
            log.error("the backup %s does not hold the logs it was made from", temporary)
            raise refused(NOT_VERIFIED, "not verified")
        path = place(temporary, folder, f"companion-backup-{stamp(now)}", ".sqlite3")
    except OSError as error:
        raise _not_written(folder, error) from None
    finally:
        remove_quietly(temporary)
    _record(db_path.parent, path, now)
    log.info("backed up %s to %s", db_path, path)
    return path


def _settings_text(settings_path: Path | None) -> str | None:
    if settings_path is None or not settings_path.expanduser().is_file():
        return None
    try:
        return settings_path.expanduser().read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        log.warning("the settings %s were left out of the backup: %s", settings_path, error)
        return None


def _copy_games(db_path: Path, temporary: Path, settings: str | None,
                now: datetime) -> dict[int, str]:
    """Copy the games into `temporary` and add the manifest; returns each game's log hash as
    the games file held it at the moment copied."""
    try:
        source = connect_read_only(db_path)
    except sqlite3.Error as error:
        log.error("the games %s could not be opened to back them up: %s", db_path, error)
        raise refused(GAMES_UNREADABLE, "unreadable") from None
    copy: sqlite3.Connection | None = None
    try:
        # One read transaction for the hashes and the copy: the app may log a command
        # meanwhile, and both must see the games as they were at one moment.
        source.execute("BEGIN")
        hashes = log_hashes(source)
        copy = copy_pages(source, temporary)
        source.execute("COMMIT")
        copy.execute(f"PRAGMA application_id={APPLICATION_ID}")
        write_manifest(copy, __version__, now, settings, hashes)
        return hashes
    except sqlite3.OperationalError as error:
        if "full" in str(error):
            raise OSError(errno.ENOSPC, str(error)) from None
        if "readonly" in str(error) or "unable to open" in str(error):
            raise OSError(errno.EACCES, str(error)) from None
        log.error("the games %s could not be backed up: %s", db_path, error)
        raise refused(GAMES_UNREADABLE, "unreadable") from None
    except sqlite3.DatabaseError as error:
        log.error("the games %s could not be backed up: %s", db_path, error)
        raise refused(GAMES_UNREADABLE, "unreadable") from None
    finally:
        source.close()
        if copy is not None:
            copy.close()


def _not_written(folder: Path, error: OSError) -> BackupRefused:
    log.error("a backup could not be written to %s: %s", folder, error)
    why = FULL if error.errno in (errno.ENOSPC, errno.EDQUOT) else NOT_WRITABLE
    return refused(NOT_WRITTEN, "not written", folder=folder, why=_(why))


def _record(data_folder: Path, path: Path, now: datetime) -> None:
    """Add the backup to backups.log (the System screen's "last backup"); a log that cannot be
    written costs only that line."""
    try:
        with (data_folder / BACKUPS_LOG).open("a", encoding="utf-8") as file:
            file.write(f"{now.astimezone(UTC).isoformat()} {path.resolve()}\n")
            file.flush()
            os.fsync(file.fileno())
    except OSError as error:
        log.warning("the backup %s was not listed in %s: %s", path, BACKUPS_LOG, error)


def last_backup(data_folder: Path) -> tuple[datetime, Path] | None:
    """The newest backup backups.log lists (a snapshot or a backup to a stick): when, and
    where it was written; None when there is none."""
    try:
        lines = (data_folder / BACKUPS_LOG).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    entries = []
    for line in lines:
        when, _space, where = line.strip().partition(" ")
        try:
            made = datetime.fromisoformat(when)
        except ValueError:
            continue
        if where and made.tzinfo is not None:
            entries.append((made, Path(where)))
    # The later line of two made in the same second (the log is in the order they were made).
    return sorted(entries, key=lambda entry: entry[0])[-1] if entries else None


def backups_on(folder: Path) -> list[Path]:
    """The backup files in `folder` (a stick, the snapshots), newest first."""
    try:
        found = [path for path in folder.iterdir()
                 if BACKUP_NAME.fullmatch(path.name) and path.is_file()]
    except OSError:
        return []
    return sorted(found, key=backup_order, reverse=True)


def take_daily_snapshot(db_path: Path, settings_path: Path | None = None,
                        now: datetime | None = None) -> Path | None:
    """A backup into the data folder's snapshots/, unless one was made today (UTC) already;
    then only the newest KEEP_SNAPSHOTS are kept. Returns the new snapshot, or None when there
    was none to take (one today already, or no games yet)."""
    now = now or datetime.now(UTC)
    if not db_path.expanduser().is_file():
        return None
    folder = db_path.expanduser().parent / SNAPSHOTS
    if any(made_on(path) == stamp(now)[:8] for path in backups_on(folder)):
        return None
    for leftover in leftovers(folder) if folder.is_dir() else []:
        remove_quietly(leftover)  # a snapshot cut short (the app stopped while writing it)
    made = make_backup(db_path, folder, settings_path, now)
    for old in backups_on(folder)[KEEP_SNAPSHOTS:]:
        with contextlib.suppress(OSError):
            old.unlink()
    return made




# --- restoring one -----------------------------------------------------------------------------

def restore_backup(file: Path, db_path: Path, settings_path: Path | None = None,
                   store: GameStore | None = None, now: datetime | None = None) -> Path | None:
    """Put the games (and, when the backup holds them and `settings_path` is given, the
    settings) back as the backup `file` holds them.

    The current games are kept aside first, beside the games file as
    games.before-restore-YYYYMMDD-HHMMSS.sqlite3 (returned; None when there were no games),
    and the settings likewise; if anything goes wrong they are put back. `store`: the app's
    open store (it holds the games' writer lock); None opens the games file as their writer,
    which another companion holding them refuses. Raises BackupRefused.
    """
    contents = describe_backup(file)
    now = now or datetime.now(UTC)
    db_path = db_path.expanduser()
    had_games = db_path.is_file() and db_path.stat().st_size > 0
    opened = store is None
    if store is None:
        store = _open_as_writer(db_path)
    try:
        if store.read_only is not None:
            log.error("the games %s cannot be written: %s", db_path, store.read_only.render())
            raise refused(GAMES_READ_ONLY, "read-only")
        aside = _keep_aside(store, db_path.parent, now) if had_games else None
        if settings_path is not None and contents.settings is not None:
            _keep_settings_aside(settings_path.expanduser(), now)
        _restore_games(contents, store, aside, db_path.parent)
        if settings_path is not None and contents.settings is not None:
            _write_settings(settings_path.expanduser(), contents.settings, store, aside)
    finally:
        if opened:
            store.close()
    log.info("restored %s into %s (the games as they were: %s)", file, db_path, aside)
    return aside


def _open_as_writer(db_path: Path) -> GameStore:
    from .store import GameStore

    try:
        store, notices = GameStore.open(db_path)
    except StoreError as error:
        log.error("the games %s could not be opened to restore them: %s", db_path, error)
        raise refused(GAMES_READ_ONLY, "read-only") from None
    for notice in notices:
        log.warning("%s", notice)
    if store.read_only_because == "in use":
        store.close()
        raise refused(IN_USE, "in use")
    return store


def _keep_aside(store: GameStore, data_folder: Path, now: datetime) -> Path:
    """Copy the games as the store holds them (its WAL included) beside the games file."""
    temporary = temporary_beside(data_folder, "games.before-restore")
    try:
        copy_pages(store.db.conn, temporary).close()
        sync_to_disk(temporary)
        return place(temporary, data_folder, f"games.before-restore-{stamp(now)}",
                     ".sqlite3")
    except (OSError, sqlite3.Error) as error:
        log.error("the games could not be kept aside before restoring: %s", error)
        raise refused(NOT_RESTORED, "not restored") from None
    finally:
        remove_quietly(temporary)


def _keep_settings_aside(settings_path: Path, now: datetime) -> None:
    if not settings_path.is_file():
        return
    try:
        _copy_settings_aside(settings_path, now)
    except OSError as error:
        log.error("the settings %s could not be kept aside: %s", settings_path, error)
        raise refused(NOT_RESTORED, "not restored") from None


def _copy_settings_aside(settings_path: Path, now: datetime) -> Path:
    """A copy of the settings file beside it, companion.before-restore-…ini."""
    folder = settings_path.parent
    temporary = temporary_beside(folder, "settings.before-restore")
    try:
        temporary.write_bytes(settings_path.read_bytes())
        sync_to_disk(temporary)
        return place(temporary, folder, f"{settings_path.stem}.before-restore-{stamp(now)}",
                     settings_path.suffix)
    finally:
        remove_quietly(temporary)


def _restore_games(contents: BackupContents, store: GameStore, aside: Path | None,
                   data_folder: Path) -> None:
    """Copy the backup's games, without the manifest and brought to this version's schema,
    into the store's file in one step; checked after; the kept copy put back on a failure."""
    prepared = temporary_beside(data_folder, "restore")
    try:
        _prepare(contents, prepared)
        with contextlib.closing(sqlite3.connect(prepared)) as restored:
            restored.backup(store.db.conn)
        check = store.db.execute("PRAGMA integrity_check").fetchone()[0]
        if check != "ok" or log_hashes(store.db.conn) != _hashes(contents):
            raise sqlite3.DatabaseError(f"the restored games do not match the backup ({check})")
    except (OSError, sqlite3.Error) as error:
        log.error("the backup %s could not be restored: %s", contents.file, error)
        _put_back(store, aside)
        raise refused(NOT_RESTORED, "not restored") from None
    finally:
        remove_quietly(prepared)


def _prepare(contents: BackupContents, prepared: Path) -> None:
    """The backup as a games file of this version: copied, its manifest dropped, the store's
    migrations applied (a backup made by an older version), every log checked again."""
    with contextlib.closing(connect_read_only(contents.file)) as source:
        copy = copy_pages(source, prepared)
    try:
        drop_manifest(copy)
        migrations.apply(Database(copy, execute_plugins=False))
        copy.execute(f"PRAGMA application_id={APPLICATION_ID}")
        copy.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        if log_hashes(copy) != _hashes(contents):
            raise sqlite3.DatabaseError("the backup's logs changed while it was restored")
    finally:
        copy.close()


def _hashes(contents: BackupContents) -> dict[int, str]:
    return {game.game_id: game.log_sha256 for game in contents.games}


def _put_back(store: GameStore, aside: Path | None) -> None:
    """The games as they were before the restore, back in the store's file."""
    try:
        if aside is None:
            with store.db.conn:
                for table in ("snapshots", "commands", "games", "tags", "meta"):
                    store.db.conn.execute(f"DELETE FROM {table}")
            return
        with contextlib.closing(connect_read_only(aside)) as kept:
            kept.backup(store.db.conn)
    except sqlite3.Error as error:
        log.critical("the games kept as %s could not be put back: %s; copy that file over "
                     "the games file by hand", aside, error)


def _write_settings(settings_path: Path, text: str, store: GameStore,
                    aside: Path | None) -> None:
    try:
        write_atomically(settings_path, text, overwrite=True)
    except OSError as error:
        log.error("the settings %s could not be restored: %s", settings_path, error)
        _put_back(store, aside)
        raise refused(NOT_RESTORED, "not restored") from None
