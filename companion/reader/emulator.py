"""The scriptable emulated reader: `python -m companion.reader.emulator FAMILY [--link PATH]`
(also `companion reader emulate`) prints the port, then carries out one command a line from
stdin (lay, lift, garbage, silent, wake, unplug, replug, wait, quit).

The emulator itself is ReaderEmulator in emulator_pty.py.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from ..signals import StopSignals
from .emulator_pty import FAMILIES, ReaderEmulator, normalise_uid


def run_script_line(emulator: ReaderEmulator, line: str) -> str | None:
    """Carry out one script command and return the reply (`ok ...` or `error: ...`), or None
    for a blank line or a comment."""
    words = line.split("#", 1)[0].split()
    if not words:
        return None
    command, arguments = words[0].lower(), words[1:]
    try:
        if command == "lay" and len(arguments) == 1:
            emulator.lay(arguments[0])
            return f"ok lay {normalise_uid(emulator.family, arguments[0])}"
        if command == "lift" and len(arguments) <= 1:
            emulator.lift(arguments[0] if arguments else None)
            return "ok lift " + (normalise_uid(emulator.family, arguments[0]) if arguments
                                 else "all")
        if command == "garbage" and arguments:
            data = bytes.fromhex("".join(arguments))
            emulator.garbage(data)
            return f"ok garbage {len(data)} bytes"
        if command in ("silent", "wake") and not arguments:
            emulator.go_silent(command == "silent")
            return f"ok {command}"
        if command == "unplug" and not arguments:
            emulator.unplug()
            return "ok unplug"
        if command == "replug" and not arguments:
            emulator.replug()
            return f"ok replug {emulator.port}"
        if command == "wait" and len(arguments) == 1:
            seconds = float(arguments[0])
            if not 0 <= seconds <= 3600:
                raise ValueError(f"cannot wait {arguments[0]} seconds")
            time.sleep(seconds)
            return f"ok wait {seconds:g}"
        if command == "quit" and not arguments:
            return "ok quit"
    except (ValueError, RuntimeError, OSError) as error:
        return f"error: {error}"
    known = ("lay", "lift", "garbage", "silent", "wake", "unplug", "replug", "wait", "quit")
    if command in known:
        return f"error: wrong arguments for {command}: {' '.join(arguments) or '(none)'}"
    return f"error: unknown command {command!r}"


def main(argv: list[str] | None = None) -> int:
    """Run an emulated reader: print its port, then obey a script on stdin until quit or EOF."""
    parser = argparse.ArgumentParser(
        prog="python -m companion.reader.emulator",
        description="An emulated card reader on a pseudo-terminal. Prints the port on the first "
        "line, then reads commands from stdin, one per line: lay UID, lift [UID], garbage HEX, "
        "silent, wake, unplug, replug, wait SECONDS, quit (# starts a comment). Each command "
        "is answered with 'ok ...' or 'error: ...'.",
    )
    parser.add_argument("family", choices=FAMILIES)
    parser.add_argument("--link", type=Path, default=None,
                        help="keep a symlink here pointing at the current pty")
    parser.add_argument("--repeat-interval", type=float, default=0.1,
                        help="seconds between an RDM6300's repeats (default 0.1)")
    parser.add_argument("--line-format", default="Card UID: {spaced}",
                        help="the line family's text per card; {hex} and {spaced} are replaced")
    parser.add_argument("--alternate-misses", action="store_true",
                        help="pn532: miss a tag every second poll unless the host resets RF")
    args = parser.parse_args(argv)
    try:
        emulator = ReaderEmulator(args.family, link=args.link,
                                  repeat_interval=args.repeat_interval,
                                  line_format=args.line_format,
                                  alternate_misses=args.alternate_misses)
    except ValueError as error:
        parser.error(f"bad option: {error}")
    # Ctrl+C or SIGTERM ends it like quit, even when started with SIGINT ignored.
    with emulator, StopSignals():
        try:
            print(emulator.port, flush=True)
            for line in sys.stdin:
                reply = run_script_line(emulator, line)
                if reply is not None:
                    print(reply, flush=True)
                if reply == "ok quit":
                    break
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
