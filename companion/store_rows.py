"""A game as the games table holds it: its summary's columns, a row as the store gives it out,
which game a log is (the title its first command names), and what resuming it reads."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

DEFAULT_TITLE = "spirit-island"
"""The game of a log whose new_game names none: every game saved before there were two, and
every Spirit Island game since (its log is the same as ever)."""


@dataclass(frozen=True)
class LoggedGame:
    """What resuming a game needs: the newest snapshot (if any) and the commands after it."""

    game_id: int
    snapshot: dict[str, Any] | None
    commands: list[dict[str, Any]]
    title: str = DEFAULT_TITLE
    """Which game it is (a registry id), so its log is replayed by that game's rules."""
    log_length: int = 0
    """The number of the last command logged: the next one the session appends follows it."""


SHARED_COLUMNS = frozenset({
    "status", "players", "rounds", "result", "reason", "score",
    "mode", "deck_mode", "adversary", "adversary_level", "scenario", "difficulty",
})
"""The summary's keys that have a column of their own; a game's others go to "details"."""
GAME_COLUMNS = SHARED_COLUMNS | {"details", "log_length", "updated_at", "played_seconds",
                                 "finished_at", "status"}
"""The games table's columns a game's play sets."""


def game_columns(summary: dict[str, Any]) -> dict[str, Any]:
    """A game's summary as the games table's columns: its own keys as one JSON "details"."""
    details = {key: value for key, value in summary.items() if key not in SHARED_COLUMNS}
    return {**{key: value for key, value in summary.items() if key in SHARED_COLUMNS},
            "details": json.dumps(details, sort_keys=True) if details else None}


def public_game(row: dict[str, Any]) -> dict[str, Any]:
    out = {key: value for key, value in row.items()
           if key not in ("setup", "played_seconds", "uid")}
    out["duration_minutes"] = round((row["played_seconds"] or 0.0) / 60, 1)
    out["setup"] = json.loads(row["setup"])
    out["details"] = json.loads(row["details"]) if row.get("details") else {}
    out["title"] = title_of(out["setup"])
    return out


def title_of(new_game: Any) -> str:
    """Which game a log's new_game command started: its "game" field, which the service writes
    for every game but the first, so that Spirit Island's logs stay as they always were."""
    title = new_game.get("game") if isinstance(new_game, dict) else None
    return title if isinstance(title, str) else DEFAULT_TITLE

