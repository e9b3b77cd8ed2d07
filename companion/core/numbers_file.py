"""A game's fixed numbers, read from its numbers.toml.

A table of numbers read from a lost or unclear picture is marked `verified = false` (with a
`note` saying what to check); `unverified` lists those tables so a screen can ask the players to
check them against their printed copy.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any


def load_numbers(path: Path) -> dict[str, Any]:
    """The whole file as nested tables."""
    with path.open("rb") as f:
        return tomllib.load(f)


def unverified(table: dict[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    """(dotted table name, note) for `table` and each table below it marked verified = false,
    in the file's order."""
    found = []
    if table.get("verified") is False:
        found.append((prefix.rstrip("."), str(table.get("note", ""))))
    for key, value in table.items():
        if isinstance(value, dict):
            found.extend(unverified(value, f"{prefix}{key}."))
    return found
