"""A saved game as a file to keep or carry to another table: `export` writes its archive (its
row, its whole log and its final state), `import` checks that an archive replays to the result
it records and saves it as a game played here."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

from .core import commands as c
from .core.commands import cut
from .core.errors import Refused
from .core.phrases import Translate
from .core.session import GameSession
from .files import read_limited, write_asked_for
from .game_log import replay
from .games.registry import game_named
from .saved_games import Table, game_or_loaded
from .store import SNAPSHOT_EVERY, GameStore
from .store_rows import title_of

EXPORT_FORMAT = "spirit-island-companion/game"
EXPORT_VERSION = 1


@dataclass(frozen=True)
class Export(c.Command):
    name: ClassVar[str] = "export"
    path: str
    game: int | None = None
    overwrite: bool = False
    """Replace a file that is already there (never the games database itself)."""


@dataclass(frozen=True)
class Import(c.Command):
    name: ClassVar[str] = "import"
    path: str


class GameArchive:
    """Answers `export` (the game named, or else the one the table has loaded) and `import`."""

    commands: ClassVar[tuple[type[c.Command], ...]] = (Export, Import)

    def __init__(self, store: GameStore, seed_source: Callable[[], int], table: Table) -> None:
        self.store = store
        self._seed_source = seed_source
        self._table = table

    def handle(self, command: c.Command, translate: Translate) -> dict[str, Any]:
        if isinstance(command, Export):
            return {"exported": self._export(command)}
        assert isinstance(command, Import)
        return {"imported": self._import(Path(command.path))}

    def _export(self, command: Export) -> dict[str, Any]:
        game_id = game_or_loaded(command.game, self._table)
        row = self.store.game(game_id)
        game = game_named(row["title"])
        log = self.store.full_log(game_id)
        session = replay(game, log, self._seed_source)
        assert session.state is not None
        document = {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "exported_at": datetime.now(UTC).isoformat(),
            "game": {k: v for k, v in row.items() if k != "id"},
            "setup": log[0],
            "log": log,
            "final_state": game.state_to_record(session.state),
        }
        path = Path(command.path).expanduser()
        write_asked_for(self.store, path, json.dumps(document, indent=1) + "\n", command.overwrite)
        return {"game": game_id, "path": str(path), "commands": len(log)}

    def _import(self, path: Path) -> dict[str, Any]:
        try:
            document = json.loads(read_limited(path.expanduser()).decode("utf-8"))
        except (ValueError, RecursionError) as error:  # RecursionError: nested too deep
            reason = cut(str(error).partition("\n")[0])
            raise Refused(f"{cut(str(path))} is not a JSON file ({reason})") from None
        if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
            raise Refused(f"{path} is not an exported companion game")
        if document.get("version") != EXPORT_VERSION:
            raise Refused(f"{path} is an export of version {document.get('version')!r}; this "
                          f"companion reads version {EXPORT_VERSION}")
        log = document.get("log")
        if not isinstance(log, list) or not log:
            raise Refused(f"{path} holds no command log")
        if not isinstance(document.get("final_state"), dict):
            raise Refused(f"{path} holds no final state to check the replay against")
        dates = _exported_dates(path, document.get("game"))
        # The newest snapshot a game played here would have, the one resuming starts from. Only
        # that one: the older ones are never read, and each holds the commands before it, so all
        # of them would grow with the square of the log's length.
        newest = len(log) // SNAPSHOT_EVERY * SNAPSHOT_EVERY
        snapshots: dict[int, dict[str, Any]] = {}

        def keep_snapshot(seq: int, session: GameSession) -> None:
            if seq == newest:
                snapshots[seq] = session.snapshot()

        try:
            game = game_named(title_of(log[0]))
            session = replay(game, log, self._seed_source, keep_snapshot)
            expected = game.state_from_record(document["final_state"])
        except (Refused, ValueError, KeyError, TypeError, AttributeError, IndexError) as error:
            raise Refused(f"{path} does not replay: {error}") from None
        if session.state != expected:
            raise Refused(f"{path} does not replay to the result it records; it was not "
                          "imported")
        assert session.state is not None
        summary = game.summary(session.state)
        game_id = self.store.import_game(log, summary, snapshots, dates)
        return {"game": game_id, "commands": len(log), "status": summary["status"]}


def _exported_dates(path: Path, row: Any) -> dict[str, Any]:
    """The exported game's dates and played time (the store's names), checked: a date that is
    there must be an ISO date and time with its zone, the duration a number of minutes."""
    row = row if isinstance(row, dict) else {}
    dates: dict[str, Any] = {}
    for key in ("started_at", "updated_at", "finished_at"):
        value = row.get(key)
        if value is None:
            continue
        try:
            when = datetime.fromisoformat(value) if isinstance(value, str) else None
        except ValueError:
            when = None
        if when is None or when.tzinfo is None:
            raise Refused(f"{cut(str(path))}: the game's {key} is not a date and time with its "
                          f"time zone ({cut(repr(value))}); it was not imported")
        dates[key] = when.isoformat()
    minutes = row.get("duration_minutes")
    if minutes is not None:
        if isinstance(minutes, bool) or not isinstance(minutes, int | float) \
                or not 0 <= minutes < 1e8:
            raise Refused(f"{cut(str(path))}: the game's duration_minutes is not a number of "
                          f"minutes ({cut(repr(minutes))}); it was not imported")
        dates["played_seconds"] = minutes * 60.0
    return dates
