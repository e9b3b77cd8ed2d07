"""The scripting driver: one JSON command per input line, one JSON answer per output line.

This is a shell around the game service: it parses, asks, and prints. Nothing a script sends
can make it print a traceback or leave the game half-changed, and with a database an answer is
printed only once the command is on disk.
"""

from __future__ import annotations

import json
import logging
import sys
from typing import IO, Any

from . import i18n
from .model.errors import Refused
from .model.view import state_view
from .service import GameService

log = logging.getLogger(__name__)


class ScriptDriver:
    def __init__(self, service: GameService, language: str = "en") -> None:
        self.service = service
        self.set_language(language)

    def set_language(self, language: str) -> None:
        """The language of the state's texts (prompts, reminders, cards); ids stay the same."""
        self.language = language if language in i18n.LANGUAGES else "en"
        self.translate = i18n.translations(self.language).gettext

    def state(self) -> dict[str, Any] | None:
        session = self.service.session
        if session.state is None:
            return None
        view = state_view(session.state, self.translate)
        view["can_undo"] = session.can_undo
        view["can_redo"] = session.can_redo
        view["undo_count"] = session.undo_count
        view["redo_count"] = session.redo_count
        view["game"] = self.service.game_id
        return view

    def handle_line(self, line: str) -> dict[str, Any]:
        try:
            data = json.loads(line)
        except (ValueError, RecursionError) as error:
            return self._refusal(f"that line is not valid JSON ({_short(error)})")
        return self.handle(data)

    def handle(self, data: Any) -> dict[str, Any]:
        """One command as decoded JSON (what the touchscreen sends), answered like a line."""
        try:
            reply = self.service.handle(self.service.parse(data), self.translate)
        except Refused as refusal:
            return self._refusal(refusal.in_language(self.translate))
        except Exception:  # a bug must not cost the game: the session is unchanged
            log.exception("command failed: %r", data)
            return self._refusal("internal error: the command was not carried out")
        return {"ok": True, "events": [event.to_dict() for event in reply.events],
                **reply.extra, "state": self.state()}

    def _refusal(self, reason: str) -> dict[str, Any]:
        return {"ok": False, "error": reason, "state": self.state()}

    def run(self, lines: IO[bytes], out: IO[str]) -> None:
        for raw in lines:
            line = raw.decode("utf-8", errors="replace")
            answer = self.handle_line(line)
            out.write(json.dumps(answer, ensure_ascii=False) + "\n")
            out.flush()


def _short(error: Exception) -> str:
    return str(error).split("\n")[0][:120]


def run_script(service: GameService, language: str = "en") -> int:
    if sys.stdin.isatty():
        print('companion script: type one JSON command per line, e.g. {"cmd": "new_game", '
              '"players": 2}; end with Ctrl-D.', file=sys.stderr)
    ScriptDriver(service, language).run(sys.stdin.buffer, sys.stdout)
    return 0
