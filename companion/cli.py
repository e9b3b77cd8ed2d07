"""The `companion` command."""

from __future__ import annotations

import argparse
import logging
import sys

from . import __version__
from .bootstrap import build_session
from .driver import run_script


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Table companion for Spirit Island.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    commands = parser.add_subparsers(dest="command")
    commands.add_parser(
        "script",
        help="play a game headless: JSON commands on stdin, JSON answers on stdout",
        description="Reads one JSON command per line and answers each with one JSON line. "
        "The README describes the protocol.",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    # Until the touchscreen app lands, running `companion` alone starts the driver.
    if args.command in (None, "script"):
        return run_script(build_session())
    parser.error(f"unknown command {args.command}")
    return 2
