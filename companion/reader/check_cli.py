"""`companion reader check`: the reader check in a terminal. Opens the reader as `listen`
does, prints its status in players' words when it changes, each frame with what it meant, and
the reads per second now and then; with `--range-test`, leads through the range test and stops
at its verdict."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from ..i18n import LANGUAGES, decimal_sign, translations
from ..signals import StopSignals
from . import check
from .range_test import DONE, RangeTest
from .watch import READ, UNSTEADY, WatchFollower

TICK_S = 0.25
"""How often the terminal looks at the reader (the screen does the same)."""
RATE_EVERY_S = 2.0


def add_check_command(actions: Any, families: tuple[str, ...]) -> None:
    """`reader check`'s arguments, beside `reader listen`."""
    checked = actions.add_parser(
        "check", help="show what the reader sees, in words, until interrupted",
        description="Opens the reader and prints its status when it changes (not connected, "
        "lay a card, card X read N times, unknown tag, two tags at once), every frame with "
        "what it meant, and the reads per second. Names cards from the tag registry "
        "(companion --db). Runs until Ctrl+C, or --seconds.")
    checked.add_argument("--port", required=True, help="a pyserial URL or auto")
    checked.add_argument("--family", choices=families, default="auto")
    checked.add_argument("--line-pattern", default=None,
                         help="for line bridges: a regular expression with one group around "
                         "the UID")
    checked.add_argument("--seconds", type=float, default=None,
                         help="stop by itself after this many seconds")
    checked.add_argument("--range-test", action="store_true",
                         help="lead through the range test (lay the card, lift it slowly) and "
                         "stop at its verdict")
    checked.add_argument("--language", choices=LANGUAGES, default="en",
                         help="the language of the words (default: en)")


def port_problem(port: str) -> str | None:
    """A port given as a device path that is not there (a URL or `auto` is tried as it is)."""
    if port == "auto" or "://" in port or Path(port).exists():
        return None
    return f"there is no port {port}: is the reader plugged in, and is that its name?"


def run_check(args: argparse.Namespace,
              service_call: Callable[[dict[str, Any]], dict[str, Any]],
              out: TextIO = sys.stdout) -> int:
    """0 when the reader was connected at some time, 1 when it never was, 2 for bad options."""
    from .serial_reader import ReaderSettings, SerialReader

    problem = port_problem(args.port)
    if problem is not None:
        print(f"companion reader check: {problem}", file=sys.stderr)
        return 1
    try:
        settings = ReaderSettings(port=args.port, family=args.family,
                                  line_pattern=args.line_pattern)
    except ValueError as error:
        print(f"companion reader check: {error}", file=sys.stderr)
        return 2
    translate = translations(args.language).gettext
    names: dict[str, str | None] = {}

    def name_of(uid: str) -> str | None:
        if uid not in names:
            answer = service_call({"cmd": "tag_lookup", "uid": uid})
            tag = answer.get("tag") if answer.get("ok") else None
            names[uid] = tag.get("name") if tag else None
        return names[uid]

    reader = SerialReader(settings, lambda event: None)
    watch = CheckPrinter(reader, name_of, translate, out, args.range_test,
                         decimal_sign(args.language))
    reader.start()
    stop_at = None if args.seconds is None else time.monotonic() + args.seconds
    try:
        with StopSignals():  # Ctrl+C works even when started with SIGINT ignored
            while stop_at is None or time.monotonic() < stop_at:
                if watch.look():
                    break
                time.sleep(TICK_S)
    except KeyboardInterrupt:  # SIGINT or SIGTERM
        pass
    except BrokenPipeError:  # the reading end went away (| head)
        return 0
    finally:
        reader.stop()
    if not watch.was_connected:
        print(f"companion reader check: the reader never answered on {args.port}"
              + (f" ({watch.last_problem})" if watch.last_problem else ""), file=sys.stderr)
        return 1
    return 0


class CheckPrinter:
    """Prints what changed since it last looked at the reader's watch."""

    def __init__(self, reader: Any, name_of: check.NameOf, translate: Callable[[str], str],
                 out: TextIO, range_test: bool, decimal: str = ".") -> None:
        self.reader = reader
        self.decimal = decimal
        self.name_of = name_of
        self.translate = translate
        self.out = out
        self.range_test: RangeTest | None = RangeTest(reader.now(), reader.family) \
            if range_test else None
        self.was_connected = False
        self.last_problem: str | None = None
        self._said = ""
        self._follower = WatchFollower(reader.watch)
        self._rate_at = float("-inf")
        self._prompt = ""

    def said(self, words: check.Words) -> str:
        return words.said(self.translate, self.decimal)

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def look(self) -> bool:
        """Print what is new; True once the range test (if any) has its verdict."""
        report = self.reader.watch.report()
        self.was_connected |= report.connected
        if not report.connected and report.message:
            self.last_problem = report.message
        frames, empty_polls = self._follower.news()
        for frame in frames:
            meaning = check.meaning(frame, self.name_of(frame.uid)
                                    if frame.meaning in (READ, UNSTEADY) else None)
            at = time.time() - (report.now - frame.at)  # the reader's clock is monotonic
            clock = time.strftime("%H:%M:%S", time.localtime(at)) + f".{int(at * 10) % 10}"
            self.say(f"  {clock}  {frame.uid:<20}  {self.said(meaning)}")
        status = self.said(check.status(report, self.name_of).words)
        if status != self._said:
            self._said = status
            self.say(f"[{status}]")
        if report.connected and report.now - self._rate_at >= RATE_EVERY_S:
            self._rate_at = report.now
            self.say(f"  {self.said(check.rate(report))}")
        return self._range(frames, report.now, empty_polls)

    def _range(self, frames: tuple[Any, ...], now: float,
               empty_polls: tuple[float, ...]) -> bool:
        test = self.range_test
        if test is None:
            return False
        test.family = test.family if test.family != "auto" else self.reader.family
        test.feed(frames, now, empty_polls)
        prompt = " ".join(self.said(words) for words in (test.note, test.prompt())
                          if words is not None)
        if prompt != self._prompt and test.step != DONE:
            self._prompt = prompt
            self.say(f">> {prompt}")
        if test.result is None:
            return False
        for words in (test.result.heading, test.result.advice, test.result.details):
            if words.text:
                self.say(f">> {self.said(words)}")
        return True

