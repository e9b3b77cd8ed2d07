"""`companion backup DIR` and `companion restore FILE [--yes]`: the table's games, card tags and
settings written to one verified file, and put back from one (companion.backup does the work)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

SETTINGS_FILE = "companion.ini"
"""The app's settings, beside the games file (the appliance's data folder)."""


def add_backup_commands(commands: Any) -> None:
    """Add `backup` and `restore` to the `companion` parser's subcommands."""
    backup = commands.add_parser(
        "backup", help="write the games, card tags and settings to one backup file in a folder",
        description="Writes companion-backup-YYYYMMDD-HHMMSS.sqlite3 into FOLDER (a stick's), "
        "reads it back and checks every game's log against the games file before keeping it, "
        "and prints what it holds; the last line is the file's path.")
    restore = commands.add_parser(
        "restore", help="say what a backup file holds; with --yes, restore it",
        description="Checks the backup FILE and says what it holds, one game a line. With "
        "--yes the games (and the settings, when it holds them) are restored from it; the "
        "games and settings as they were are kept beside them first. A companion that has "
        "the games open must be stopped first (or restore from its System screen).")
    for parser in (backup, restore):
        parser.add_argument("--db", type=Path, default=None, dest="backup_db",
                            help="the games database (default: the app's)")
        parser.add_argument("--settings", type=Path, default=None,
                            help=f"the settings file (default: {SETTINGS_FILE} beside the "
                            "games database)")
    backup.add_argument("folder", type=Path, help="the folder to write the backup into")
    restore.add_argument("file", type=Path, help="the backup file")
    restore.add_argument("--yes", action="store_true",
                         help="restore it (without: only say what it holds, change nothing)")


def run_backup_command(args: argparse.Namespace, db: Path | None) -> int:
    """`backup` or `restore`; `db`: the top-level --db, which the command's own overrides."""
    from .backup import BackupRefused, describe_backup, make_backup, restore_backup
    from .i18n import _
    from .store import default_database_path

    db_path = (args.backup_db or db or default_database_path()).expanduser()
    settings = (args.settings or db_path.parent / SETTINGS_FILE).expanduser()
    try:
        if args.command == "backup":
            path = make_backup(db_path, args.folder, settings)
            print("\n".join(describe_backup(path).said()))
            print(path)
            return 0
        contents = describe_backup(args.file)
        print("\n".join(contents.said()))
        if not args.yes:
            print(_("Nothing was changed: add --yes to restore this backup."))
            return 0
        aside = restore_backup(args.file, db_path, settings)
    except BackupRefused as refused:
        print(f"companion {args.command}: {refused}", file=sys.stderr)
        return 1
    if aside is None:
        print(_("Restored into {games}.").format(games=db_path))
    else:
        print(_("Restored into {games}. The games as they were are kept in {aside}.").format(
            games=db_path, aside=aside))
    return 0
