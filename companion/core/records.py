"""A game's whole state as plain JSON-ready data, the way every game writes its record.

A record is the state's dataclasses as nested dicts and lists with a version number "v"; a
game reads it back into its own classes (`state_from_record`), after checking that version.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any


def json_ready(value: Any) -> Any:
    """`value` with every tuple, at any depth, as a list: JSON would turn them into lists
    anyway, so a record equals what reading its JSON back gives."""
    if isinstance(value, dict):
        return {key: json_ready(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(item) for item in value]
    return value


def versioned_record(state: Any, version: int) -> dict[str, Any]:
    """A dataclass state as JSON-ready data, marked with its record version."""
    record: dict[str, Any] = json_ready(asdict(state))
    record["v"] = version
    return record


def check_version(record: dict[str, Any], version: int, game_name: str) -> None:
    """ValueError naming the game when `record` is not of the version its reader knows."""
    if record.get("v") != version:
        raise ValueError(f"unknown {game_name} record version {record.get('v')!r}")
