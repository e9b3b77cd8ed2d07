"""What a backup file holds, read from it and checked whole before anyone is shown it or it
is restored: a file that is not a backup of ours, is damaged, was altered after it was made, or
was made by a newer version is refused in the players' words."""

from __future__ import annotations

import json
import logging
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from .backup_file import BACKUP_NAME, FORMAT_VERSION, Manifest, log_hashes, read_manifest
from .core.history import Words, result_word
from .games.registry import GAMES
from .i18n import N_, _, ngettext
from .store_errors import StoreError
from .store_health import connect_read_only, inspect_database, newer_version
from .store_rows import title_of

log = logging.getLogger(__name__)

NO_SUCH_FILE = N_("There is no file at {file}.")
UNREADABLE = N_("This file cannot be read. Check that the stick is plugged in, then try again.")
NOT_A_BACKUP = N_("This file is not a backup of the table companion.")
DAMAGED = N_("This backup is damaged and cannot be restored. Try another backup.")
ALTERED = N_("This backup was changed after it was made, so it cannot be trusted. Try another "
             "backup.")
NEWER = N_("This backup was made by a newer version of the companion. Update the companion, "
           "then restore it.")

class BackupRefused(Exception):
    """A backup or a restore that cannot be done; str() says why in the players' words (in the
    language in use when it was raised), `reason` in a word for code: "missing",
    "unreadable", "foreign", "damaged", "altered", "newer", "no games", "not written",
    "not verified", "in use", "read-only", "not restored"."""

    def __init__(self, said: str, reason: str) -> None:
        super().__init__(said)
        self.reason = reason


@dataclass(frozen=True)
class BackupGame:
    """One game a backup holds."""

    game_id: int
    uid: str | None
    title: str
    """Which game it is: the registry's id (spirit-island, glow, …)."""
    status: str
    """As the store keeps it: active, finished, abandoned or unreadable."""
    result: str | None
    started_at: datetime
    moves: int
    """The commands logged after the new game."""
    log_sha256: str

    def name(self) -> str:
        """The game's name in the language in use."""
        return _(GAMES.listing(self.title).name) if self.title in GAMES else self.title

    def said(self) -> str:
        """One line for the players: which game, how it stands, when it started, its moves."""
        words = Words(_, ngettext)
        return _("{name}: {result}, started {date}, {moves}").format(
            name=self.name(), date=self.started_at.strftime("%Y-%m-%d %H:%M"),
            result=result_word({"status": self.status, "result": self.result}, words),
            moves=ngettext("{count} move", "{count} moves", self.moves).format(
                count=self.moves))


@dataclass(frozen=True)
class BackupContents:
    """What a backup file holds, read from it and checked."""

    file: Path
    made_at: datetime
    app_version: str
    games: list[BackupGame]
    tags: int
    """How many card tags are enrolled in it."""
    has_settings: bool
    settings: str | None
    """The settings file's text as it was backed up (None: the backup holds none)."""

    def said(self) -> list[str]:
        """What it holds, line by line, in the language in use: when and by which version it
        was made, then one line per game, then the tags and the settings."""
        lines = [_("Backup made on {date} (UTC) by version {version}").format(
            date=self.made_at.strftime("%Y-%m-%d %H:%M"), version=self.app_version)]
        lines.append(ngettext("{count} game:", "{count} games:", len(self.games)).format(
            count=len(self.games)) if self.games else _("No games."))
        lines += [f"  {game.said()}" for game in self.games]
        lines.append(ngettext("{count} card tag", "{count} card tags", self.tags).format(
            count=self.tags))
        lines.append(_("With the settings.") if self.has_settings else
                     _("Without the settings."))
        return lines


def refused(text: str, reason: str, **values: object) -> BackupRefused:
    return BackupRefused(_(text).format(**values), reason)


def describe_backup(file: Path) -> BackupContents:
    """What the backup `file` holds, after checking it whole: every game's log against the hash
    it was backed up with. Raises BackupRefused for a file that is not there or cannot be
    read, is not a backup of ours, is damaged or was altered, or was made by a newer version."""
    file = file.expanduser()
    if not file.exists():
        raise refused(NO_SUCH_FILE, "missing", file=file)
    if not file.is_file():
        raise refused(NOT_A_BACKUP, "foreign")
    # A file named as our backups are that is not one was one, and is damaged.
    spoilt = (DAMAGED, "damaged") if BACKUP_NAME.fullmatch(file.name) else \
        (NOT_A_BACKUP, "foreign")
    try:
        problem = inspect_database(file)
    except StoreError as error:
        log.warning("the backup %s cannot be read: %s", file, error)
        raise refused(UNREADABLE, "unreadable") from None
    if problem == "is not a SQLite database" or (problem is None and not file.stat().st_size):
        raise refused(*spoilt)
    if problem == "is not a companion database":
        raise refused(NOT_A_BACKUP, "foreign")
    if problem is not None:
        log.warning("the backup %s %s", file, problem)
        raise refused(DAMAGED, "damaged")
    try:
        conn = connect_read_only(file)
    except sqlite3.Error as error:
        log.warning("the backup %s cannot be opened: %s", file, error)
        raise refused(DAMAGED, "damaged") from None
    try:
        return _contents(file, conn)
    except (sqlite3.DatabaseError, ValueError, KeyError, TypeError) as error:
        log.warning("the backup %s cannot be read: %s", file, error)
        raise refused(DAMAGED, "damaged") from None
    finally:
        conn.close()


def _contents(file: Path, conn: sqlite3.Connection) -> BackupContents:
    manifest = read_manifest(conn)
    if manifest is None:
        raise refused(NOT_A_BACKUP, "foreign")
    newer = newer_version(file)
    if manifest.format_version > FORMAT_VERSION or newer:
        log.warning("the backup %s was made by a newer companion (%s, format %d)", file,
                    newer or manifest.app_version, manifest.format_version)
        raise refused(NEWER, "newer")
    if log_hashes(conn) != manifest.hashes:
        log.warning("the logs in the backup %s do not match its manifest", file)
        raise refused(ALTERED, "altered")
    cursor = conn.execute("SELECT * FROM games ORDER BY id")
    columns = [column[0] for column in cursor.description]
    games = [_game(dict(zip(columns, row, strict=True)), manifest) for row in cursor]
    tags = conn.execute("SELECT count(*) FROM tags").fetchone()[0]
    return BackupContents(file, manifest.made_at, manifest.app_version, games, int(tags),
                          manifest.settings is not None, manifest.settings)


def _game(row: dict[str, object], manifest: Manifest) -> BackupGame:
    game_id = int(str(row["id"]))
    return BackupGame(
        game_id=game_id, uid=str(row["uid"]) if row.get("uid") else None,
        title=title_of(json.loads(str(row["setup"]))), status=str(row["status"]),
        result=str(row["result"]) if row.get("result") else None,
        started_at=datetime.fromisoformat(str(row["started_at"])),
        moves=max(int(str(row["log_length"])) - 1, 0), log_sha256=manifest.hashes[game_id])
