"""What happened, as a game tells it: one small frozen record per change worth announcing.

Screens announce them, the driver prints them; `to_dict` gives the JSON form with a `type`.
Undo and redo are the session's own, whatever the game.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class Event:
    type: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True)
class Undone(Event):
    type: ClassVar[str] = "undone"
    command: dict[str, Any]


@dataclass(frozen=True)
class Redone(Event):
    type: ClassVar[str] = "redone"
    command: dict[str, Any]
