"""A session of Spirit Island: the core's session (undo, redo, snapshots) bound to this game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.core import session

from .definition import SPIRIT_ISLAND


class GameSession(session.GameSession):
    def __init__(self, seed_source: Callable[[], int]) -> None:
        super().__init__(SPIRIT_ISLAND, seed_source)

    @classmethod
    def restore(cls, snapshot: dict[str, Any], seed_source: Callable[[], int]) -> GameSession:
        restored = cls(seed_source)
        restored.load(snapshot)
        return restored
