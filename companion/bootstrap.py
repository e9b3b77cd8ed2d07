"""The composition root: the one place that picks real or stand-in parts and wires them up."""

from __future__ import annotations

import secrets

from .model.session import GameSession


def new_seed() -> int:
    """A fresh seed for a game started without one; recorded so the game replays the same."""
    return secrets.randbits(63)


def build_session() -> GameSession:
    return GameSession(seed_source=new_seed)
