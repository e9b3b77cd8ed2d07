"""`companion rules search|show`: the rules lookup from the command line."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

LANGUAGE_CHOICES = ("en", "de", "fr")  # corpus.LANGUAGES; a test keeps the two the same


def add_rules_commands(commands: Any) -> None:
    rules = commands.add_parser("rules", help="look up a rule (English, German, French)",
                                description="Search the rules entries or show one.")
    actions = rules.add_subparsers(dest="rules_command", required=True)
    search = actions.add_parser("search", help="ranked entries for a word or a few letters")
    search.add_argument("query", nargs="+")
    search.add_argument("--lang", choices=LANGUAGE_CHOICES, default="en")
    search.add_argument("--json", action="store_true",
                        help='print a JSON list of {"id", "title", "snippet"}')
    search.add_argument("--limit", type=int, default=10)
    search.add_argument("--game", help="only this game's entries (and those every game shares), "
                        "e.g. spirit-island or leviathan-wilds; every game's without it")
    show = actions.add_parser("show", help="print one entry")
    show.add_argument("id")
    show.add_argument("--lang", choices=LANGUAGE_CHOICES, default="en")


def known_games() -> tuple[str, ...]:
    """The registry's game ids (imported only when asked: they load every game's model)."""
    from ..games.registry import GAMES

    return tuple(GAMES)


def run_rules_command(args: argparse.Namespace) -> int:
    from .corpus import CorpusError
    from .search import RulesIndex

    try:
        index = RulesIndex.open()
    except CorpusError as error:
        print(f"companion rules: the rules corpus is broken: {error}", file=sys.stderr)
        return 1
    if args.rules_command == "search":
        if args.game is not None and args.game not in known_games():
            print(f"companion rules: no game {args.game!r}; choose one of "
                  f"{', '.join(known_games())}", file=sys.stderr)
            return 2
        hits = index.search(" ".join(args.query), args.lang, args.limit, args.game)
        if args.json:
            print(json.dumps([hit.to_dict() for hit in hits], ensure_ascii=False))
        elif not hits:
            print("no entry found", file=sys.stderr)
        for hit in [] if args.json else hits:
            print(f"{hit.id}\t{hit.title}\t{hit.snippet}")
        return 0 if hits or args.json else 1
    entry = index.entry(args.id, args.lang)
    if entry is None:
        print(f"companion rules: no entry {args.id!r}; search for it with "
              "`companion rules search WORD`", file=sys.stderr)
        return 1
    print(entry.title)
    print("=" * len(entry.title))
    print(entry.body)
    if entry.related:
        titles = [index.entry(link, args.lang) for link in entry.related]
        print("\nSee also: " + ", ".join(f"{t.title} ({t.id})" for t in titles if t))
    if entry.source:
        print(f"Source: {entry.source}")
    return 0
