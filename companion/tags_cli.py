"""`companion tags …`: what the tag registry holds, for people (`companion reader tags …`
stays the registry's machine-readable side)."""

from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path
from typing import Any

from .i18n import LANGUAGES


def add_tags_commands(commands: Any) -> None:
    """Add `tags` and its subcommands to the `companion` parser's subcommands."""
    tags = commands.add_parser(
        "tags", help="print the tag registry for the table: tags sheet",
        description="What the tag registry holds, for the players. `companion reader tags` "
        "lists, imports and exports it as JSON and CSV.")
    actions = tags.add_subparsers(dest="tags_command", required=True)
    sheet = actions.add_parser(
        "sheet", help="write a PDF of one game's cards with their tags, to print",
        description="Writes an A4 PDF listing, per kind of card of the game, every card with "
        "the UID of its tag, or an empty box to tick when it gets a sticker; then the command "
        "tags. Each kind's heading counts its cards that have a tag.")
    sheet.add_argument("--game", required=True, help="the game's id (spirit-island, "
                       "leviathan-wilds, glow)")
    sheet.add_argument("--language", choices=LANGUAGES, default="en",
                       help="the language of the headings and card names (default: en)")
    sheet.add_argument("path", type=Path, help="the PDF file to write (replaced if it exists)")


def run_tags_command(args: argparse.Namespace, db: Path) -> int:
    """`tags sheet`, the only one yet."""
    from .games.registry import GAMES

    if args.game not in GAMES:
        print(f"companion tags sheet: unknown game {args.game!r}; known games: "
              f"{', '.join(GAMES)}", file=sys.stderr)
        return 2
    return write_sheet(args.game, args.language, args.path.expanduser(), db)


def write_sheet(game_id: str, language: str, path: Path, db: Path) -> int:
    from .bootstrap import build_service
    from .driver import ScriptDriver
    from .files import write_atomically
    from .i18n import translations
    from .store_errors import StoreError
    from .tag_sheet import coverage, enrolled_tags, tag_sheet
    from .tag_sheet_pdf import sheet_pdf

    try:
        service, _ = build_service(db)
    except StoreError as error:
        print(f"companion tags sheet: {error}", file=sys.stderr)
        return 1
    try:
        if service.store.is_own_file(path):
            print(f"companion tags sheet: {path} is the games database; write the sheet to "
                  "another file", file=sys.stderr)
            return 1
        answer = ScriptDriver(service).handle({"cmd": "tags"})
    finally:
        service.store.close()
    if not answer["ok"]:
        print(f"companion tags sheet: {answer['error']}", file=sys.stderr)
        return 1
    today = date.today()
    sheet = tag_sheet(game_id, enrolled_tags(answer["tags"]), translations(language).gettext,
                      today)
    try:
        write_atomically(path, sheet_pdf(sheet, today), overwrite=True)
    except IsADirectoryError:
        print(f"companion tags sheet: {path} is a folder; name the PDF file to write",
              file=sys.stderr)
        return 1
    except OSError as error:
        print(f"companion tags sheet: could not write {path}: {error.strerror or error}",
              file=sys.stderr)
        return 1
    done, total = coverage(sheet.sections)
    print(f"{path}: {done} of {total} cards have a tag")
    return 0
