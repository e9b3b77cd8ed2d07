"""The `companion` command."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Any

from . import __version__
from .backup_cli import add_backup_commands, run_backup_command
from .bootstrap import build_service
from .doctor_cli import add_doctor_command, run_doctor_command
from .driver import ScriptDriver, run_script
from .i18n import LANGUAGES
from .mirror.cli import add_mirror_command, run_mirror_command
from .reader.cli import add_reader_commands, run_reader_command
from .rules.cli import add_rules_commands, run_rules_command
from .store import default_database_path
from .store_errors import StoreError
from .tags_cli import add_tags_commands, run_tags_command


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Table companion for Spirit Island, Leviathan Wilds and Glow.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    parser.add_argument("--db", type=Path, default=None,
                        help=f"the games database (default: {default_database_path()})")
    parser.add_argument("--verbose", action="store_true",
                        help="log what goes on (the window's start-up included), not only "
                        "warnings and errors")
    commands = parser.add_subparsers(dest="command")
    script = commands.add_parser(
        "script",
        help="play a game headless: JSON commands on stdin, JSON answers on stdout",
        description="Reads one JSON command per line and answers each with one JSON line. "
        "docs/driver.md describes the protocol. Without --db the games live in memory only.",
    )
    script.add_argument("--db", type=Path, default=None, dest="script_db",
                        help="save every acknowledged command to this SQLite file and resume "
                        "its unfinished game on start")
    script.add_argument("--lang", choices=sorted(LANGUAGES), default="en",
                        help="the language of the texts in the answers (prompts, reminders, "
                        "card names and effects); ids and field names never change")
    add_reader_commands(commands)
    add_tags_commands(commands)
    add_rules_commands(commands)
    add_mirror_command(commands)
    add_backup_commands(commands)
    add_doctor_command(commands)
    args = parser.parse_args(argv)
    # The level is the handler's too: Kivy's logger sets its own level from its config file,
    # and what it logs reaches this handler whatever the root logger's level.
    level = logging.INFO if args.verbose else logging.WARNING
    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(level)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=level, handlers=[handler])
    if args.command is None:
        # The app keeps its games in the platform's user-data folder.
        from .ui.launch import run_app

        return run_app(args.db or default_database_path(), verbose=args.verbose)
    if args.command == "rules":
        return run_rules_command(args)
    if args.command == "mirror":
        return run_mirror_command(args)
    if args.command == "reader":
        return run_reader_command(args, lambda command: _one_command(args.db, command))
    if args.command in ("backup", "restore"):
        return run_backup_command(args, args.db)
    if args.command == "doctor":
        return run_doctor_command(args, args.db)
    if args.command == "tags":
        return run_tags_command(args, args.db or default_database_path())
    db_path = args.script_db or args.db
    try:
        service, _ = build_service(db_path)
    except StoreError as error:
        print(f"companion: {error}", file=sys.stderr)
        return 1
    return run_script(service, args.lang)


def _one_command(db: Path | None, command: dict[str, Any]) -> dict[str, Any]:
    """Carry out one driver command on the games database (the tag registry lives there)."""
    try:
        service, _ = build_service(db or default_database_path())
    except StoreError as error:
        return {"ok": False, "error": str(error)}
    try:
        return ScriptDriver(service).handle(command)
    finally:
        service.store.close()
