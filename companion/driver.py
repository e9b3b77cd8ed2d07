"""The scripting driver: one JSON command per input line, one JSON answer per output line.

This is a shell around the game service: it parses, asks, and prints. Nothing a script sends
can make it print a traceback or leave the game half-changed, and with a database an answer is
printed only once the command is on disk.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import sys
from dataclasses import dataclass, replace
from typing import IO, Any

from . import i18n
from .core.errors import Refused
from .core.game import Game, State
from .core.phrases import Translate
from .rules_commands import RulesSearch
from .service import GameService
from .signals import StopSignals

log = logging.getLogger(__name__)

MAX_LINE_BYTES = 1024 * 1024
"""A longer input line is refused unread (its bytes are skipped up to the next newline)."""

MAX_ERROR_CHARS = 2000
"""A refusal's reason is cut to this length; the parts echoing input are already short."""

_SURROGATE = re.compile("[\ud800-\udfff]")


SESSION_FIELDS = ("can_undo", "can_redo", "undo_count", "redo_count", "game", "title")
"""What `StateSnapshot.view` adds to a game's view: the same for every game, hiding nothing."""


@dataclass(frozen=True)
class StateSnapshot:
    """What the "state" answer is made from, taken at one moment: states are immutable, so a
    snapshot can be put into words later, in any language and on any thread (the mirror)."""

    game: Game
    state: State
    can_undo: bool
    can_redo: bool
    undo_count: int
    redo_count: int
    game_id: int | None

    @classmethod
    def of(cls, service: GameService) -> StateSnapshot | None:
        session = service.session
        if session.state is None:
            return None
        return cls(session.game, session.state, session.can_undo, session.can_redo,
                   session.undo_count, session.redo_count, service.game_id)

    def view(self, translate: Translate) -> dict[str, Any]:
        """The driver's "state": the game's view with the session's undo and the game's ids."""
        view = self.game.view(self.state, translate)
        view["can_undo"] = self.can_undo
        view["can_redo"] = self.can_redo
        view["undo_count"] = self.undo_count
        view["redo_count"] = self.redo_count
        view["game"] = self.game_id
        view["title"] = self.game.id
        return view

    def public_view(self, view: dict[str, Any]) -> dict[str, Any]:
        """Of `view` (this snapshot's, in any language), what the phones' mirror may show: the
        game's public part (`Game.public_view`) and the session's fields."""
        public = self.game.public_view(view)
        public.update({key: view[key] for key in SESSION_FIELDS if key in view})
        return public


class ScriptDriver:
    def __init__(self, service: GameService, language: str = "en") -> None:
        self.service = service
        self.set_language(language)

    def set_language(self, language: str) -> None:
        """The language of the state's texts (prompts, reminders, cards); ids stay the same."""
        self.language = language if language in i18n.LANGUAGES else "en"
        self.translate = i18n.translations(self.language).gettext

    def state(self) -> dict[str, Any] | None:
        snapshot = StateSnapshot.of(self.service)
        return None if snapshot is None else snapshot.view(self.translate)

    def setup_checklist(self) -> list[dict[str, str]]:
        """What the table sets out before the first round, for the game in play: [{"id",
        "text"}], texts in the driver's language ([] with no game)."""
        session = self.service.session
        if session.state is None:
            return []
        return session.game.setup_checklist(session.state, self.translate)

    def handle_line(self, line: str) -> dict[str, Any]:
        try:
            try:
                data = json.loads(line)
            except (ValueError, RecursionError) as error:
                return self._refusal(f"that line is not valid JSON ({_short(error)})")
            return self.handle(data)
        except Exception:  # the last resort: whatever went wrong, the line gets its answer
            log.exception("line failed: %.200r", line)
            return self._internal_error()

    def handle(self, data: Any, commit_later: bool = False) -> dict[str, Any]:
        """One command as decoded JSON (what the touchscreen sends), answered like a line.

        `commit_later` (the touchscreen's taps): answered once the command's commit has
        started, which `settle` waits for before the screen shows the answer."""
        try:
            command = self.service.parse(data)
            if isinstance(command, RulesSearch) and command.lang is None:
                command = replace(command, lang=self.language)  # the entries a player reads
            reply = self.service.handle(command, self.translate, commit_later)
        except Refused as refusal:
            return self._refusal(refusal.in_language(self.translate))
        except Exception:  # a bug must not cost the game: the session is unchanged
            log.exception("command failed: %.200r", data)
            return self._internal_error()
        return {"ok": True, "events": [event.to_dict() for event in reply.events],
                **reply.extra, "state": self.state()}

    def settle(self) -> str | None:
        """Wait for the commit a `commit_later` command left under way: None once it is on
        disk, or why it could not be saved (in the driver's language; the command has been
        taken back, and `state` is as before it)."""
        lost = self.service.settle()
        return None if lost is None else lost.in_language(self.translate)

    def _refusal(self, reason: str) -> dict[str, Any]:
        if len(reason) > MAX_ERROR_CHARS:
            reason = reason[:MAX_ERROR_CHARS] + "…"
        return {"ok": False, "error": reason, "state": self.state()}

    def _internal_error(self) -> dict[str, Any]:
        try:
            state = self.state()
        except Exception:
            log.exception("the state cannot be shown")
            state = None
        return {"ok": False, "error": "internal error: the command was not carried out; the "
                "log has the details", "state": state}

    def run(self, lines: IO[bytes], out: IO[bytes], stop: StopSignals | None = None) -> None:
        """Answer every line until the end of input or a stop signal (which lets the line in
        hand finish and be answered); run_script deals with an output that goes away."""
        stop = stop or StopSignals()
        try:
            while not stop.requested:
                raw = lines.readline(MAX_LINE_BYTES + 1)
                if not raw:
                    return
                with stop.deferred():
                    if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                        _skip_rest_of_line(lines)
                        answer = self._refusal(f"that line is longer than {MAX_LINE_BYTES} "
                                               "bytes; it was skipped unparsed")
                    else:
                        answer = self.handle_line(raw.decode("utf-8", errors="replace"))
                    out.write(encode_answer(answer))
                    out.flush()
        except KeyboardInterrupt:  # SIGINT or SIGTERM while waiting for a line
            return


def encode_answer(answer: dict[str, Any]) -> bytes:
    """One answer as a line of UTF-8 JSON.

    Text keeps its characters (ensure_ascii=False), except a lone UTF-16 surrogate (which a
    line can carry as an escape such as \\ud800, and a refusal may echo): it has no UTF-8
    form, so it becomes U+FFFD, the replacement character, which every JSON reader accepts.
    """
    text = json.dumps(answer, ensure_ascii=False)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = _SURROGATE.sub("\ufffd", text).encode("utf-8")
    return data + b"\n"


def _skip_rest_of_line(lines: IO[bytes]) -> None:
    while True:
        chunk = lines.readline(MAX_LINE_BYTES)
        if not chunk or chunk.endswith(b"\n"):
            return


def _short(error: Exception) -> str:
    return str(error).split("\n")[0][:120]


def run_script(service: GameService, language: str = "en") -> int:
    """Answer stdin on stdout until end of input or SIGINT/SIGTERM; a closed or vanished
    stdout ends it quietly (there is no one left to answer)."""
    if sys.stdout is None:  # started with stdout closed (>&-)
        print("companion script: standard output is closed, so nothing could be answered",
              file=sys.stderr)
        return 1
    if sys.stdin is None:
        return 0
    if sys.stdin.isatty():
        print('companion script: type one JSON command per line, e.g. {"cmd": "new_game", '
              '"players": 2}; end with Ctrl-D.', file=sys.stderr)
    try:
        with StopSignals() as stop:
            ScriptDriver(service, language).run(sys.stdin.buffer, sys.stdout.buffer, stop)
    except OSError:
        # The reader went away (| head, EPIPE) or stdout cannot be written (EBADF): stop
        # without a traceback, and point stdout at /dev/null so that Python's own flush at
        # exit does not complain either.
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
    return 0
