"""`companion reader …`: check a reader at the bench, emulate one, manage the tag registry."""

from __future__ import annotations

import argparse
import json
import queue
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..i18n import LANGUAGES, translations
from ..signals import StopSignals
from .check_cli import add_check_command, run_check

# The same as serial_reader.FAMILY_CHOICES (a test checks): this module is imported by every
# `companion` command, and pyserial is imported only by the ones that use it.
LISTEN_FAMILIES = ("auto", "pn532", "em4100", "line")


def add_reader_commands(commands: Any) -> None:
    """Add `reader` and its subcommands to the `companion` parser's subcommands."""
    reader = commands.add_parser(
        "reader", help="the RFID/NFC card reader: listen, check, emulate, tags",
        description="Check a card reader, emulate one, or manage which tag means which card. "
        "hardware/README.md explains wiring and set-up.")
    actions = reader.add_subparsers(dest="reader_command", required=True)

    listen = actions.add_parser(
        "listen", help="print one JSON line per reader event until interrupted",
        description="Opens the reader and prints one JSON object per line for each event "
        '({"event": "present", "uid": "04497622D93881", "family": "pn532", ...}; also '
        "removed, steady, stacked, connected, disconnected and error) until Ctrl+C or SIGTERM. "
        "A lost line is retried.")
    listen.add_argument("--port", required=True,
                        help="a pyserial URL (/dev/serial0, /dev/ttyUSB0, hwgrep://…, "
                        "socket://…) or auto")
    listen.add_argument("--family", choices=LISTEN_FAMILIES, default="auto")
    listen.add_argument("--line-pattern", default=None,
                        help="for line bridges: a regular expression with one group around "
                        "the UID")
    listen.add_argument("--removal-after", type=float, default=None, metavar="SECONDS",
                        help="silence before a tag counts as lifted (default: the family's)")
    listen.add_argument("--cooldown", type=float, default=1.0, metavar="SECONDS",
                        help="a tag seen again this soon after it was lifted is the same read")

    add_check_command(actions, LISTEN_FAMILIES)

    emulate = actions.add_parser(
        "emulate", help="a pretend reader on a pseudo-terminal, driven from stdin",
        description="Opens a pseudo-terminal that behaves like a reader and prints its path. "
        "Then reads commands from stdin: lay UID, lift [UID], garbage HEX, silent, wake, "
        "unplug, replug, wait SECONDS, quit.")
    emulate.add_argument("emulator_args", nargs=argparse.REMAINDER,
                         help="FAMILY [--link PATH] (pn532, rdm6300, id12la or line)")

    tags = actions.add_parser("tags", help="list, import or export the tag registry")
    tag_actions = tags.add_subparsers(dest="tags_command", required=True)
    tag_actions.add_parser("list", help="print the enrolled tags as JSON")
    kinds = tag_actions.add_parser(
        "kinds", help="print every kind of tag and the cards it may stand for, as JSON",
        description="Each game's kinds of card (Spirit Island: invader, fear, blight; "
        "Leviathan Wilds: threat, weakness), then command: the ids a tag file's kind and card "
        "columns take, with their names.")
    kinds.add_argument("--language", choices=LANGUAGES, default="en",
                       help="the language of the names (default: en)")
    export = tag_actions.add_parser("export", help="write the registry as CSV "
                                    "(format: hardware/tags-csv.md)")
    export.add_argument("path", type=Path)
    imported = tag_actions.add_parser("import", help="read a CSV file into the registry "
                                      "(all rows or none)")
    imported.add_argument("path", type=Path)
    imported.add_argument("--replace", action="store_true",
                          help="let the file remap tags already enrolled to other cards")


def run_reader_command(args: argparse.Namespace,
                       service_call: Callable[[dict[str, Any]], dict[str, Any]]) -> int:
    if args.reader_command == "listen":
        return listen(args)
    if args.reader_command == "check":
        return run_check(args, service_call)
    if args.reader_command == "emulate":
        from .emulator import main as emulator_main

        return emulator_main(args.emulator_args)
    return run_tags_command(args, service_call)


def listen(args: argparse.Namespace) -> int:
    from .serial_reader import ReaderEvent, ReaderSettings, SerialReader

    try:
        settings = ReaderSettings(port=args.port, family=args.family,
                                  line_pattern=args.line_pattern,
                                  removal_after=args.removal_after, cooldown=args.cooldown)
    except ValueError as error:
        print(f"companion reader listen: {error}", file=sys.stderr)
        return 2
    events: queue.Queue[ReaderEvent] = queue.Queue()
    reader = SerialReader(settings, events.put)
    reader.start()
    try:
        with StopSignals():  # Ctrl+C works even when started with SIGINT ignored
            while True:
                try:
                    event = events.get(timeout=0.5)
                except queue.Empty:
                    continue
                print(json.dumps(event.to_dict()), flush=True)
    except KeyboardInterrupt:  # SIGINT or SIGTERM
        return 0
    except BrokenPipeError:  # the reading end went away (| head): stop quietly
        return 0
    finally:
        reader.stop()


def run_tags_command(args: argparse.Namespace,
                     service_call: Callable[[dict[str, Any]], dict[str, Any]]) -> int:
    if args.tags_command == "kinds":  # the games' data: no database needed
        print(json.dumps({"kinds": tag_kinds(args.language)}, indent=2, ensure_ascii=False))
        return 0
    if args.tags_command == "list":
        answer = service_call({"cmd": "tags"})
    elif args.tags_command == "export":
        answer = service_call({"cmd": "tag_export", "path": str(args.path)})
    else:
        answer = service_call({"cmd": "tag_import", "path": str(args.path),
                               "replace": args.replace})
    if not answer["ok"]:
        print(f"companion reader tags: {answer['error']}", file=sys.stderr)
        return 1
    shown = {key: value for key, value in answer.items()
             if key not in ("ok", "events", "state")}
    print(json.dumps(shown, indent=2))
    return 0


def tag_kinds(language: str) -> list[dict[str, Any]]:
    """Every kind of tag with its name and the cards (or commands) it may stand for, named in
    `language`."""
    from .tags import COMMAND, TAG_COMMANDS, TagMeaning, card_name, kinds, known_cards

    translate = translations(language).gettext
    cards = known_cards()
    return [{"kind": kind, "name": translate(words.many),
             "cards": [{"id": card, "name": card_name(TagMeaning(kind, card), translate)}
                       for card in (TAG_COMMANDS if kind == COMMAND else cards[kind])]}
            for kind, words in kinds().items()]
