"""The composition root: the one place that picks real or stand-in parts and wires them up."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path

from .game_archive import GameArchive
from .rules_commands import RulesLookup
from .saved_games import SavedGames
from .service import GameService
from .store import GameStore
from .tag_commands import TagCommands

log = logging.getLogger(__name__)


def new_seed() -> int:
    """A fresh seed for a game started without one; recorded so the game replays the same."""
    # os.urandom rather than the secrets module: the same randomness without importing hashlib
    # and hmac at every start.
    return int.from_bytes(os.urandom(8), "big") >> 1  # 63 bits


def wired_service(store: GameStore, seed_source: Callable[[], int] = new_seed) -> GameService:
    """The game service over `store` with a handler for each concern besides play: saved games
    (resume, abandon, delete, history, details), archives (export, import), tags and the rules
    lookup."""
    service = GameService(store, seed_source)
    service.answer_with(SavedGames(store, seed_source, service),
                        GameArchive(store, seed_source, service),
                        TagCommands(store),
                        RulesLookup())
    return service


def build_service(db_path: Path | None, resume: bool = True) -> tuple[GameService, list[str]]:
    """A service over the database file at `db_path`, or over memory when it is None, back in
    the game the table was last playing (unless `resume` is False: a safe start leaves it
    saved, for the players to resume).

    Returns the notices a person should see (a damaged database moved aside, …).
    """
    if db_path is None:
        store, notices = GameStore.in_memory(), list[str]()
    else:
        store, notices = GameStore.open(db_path)
    for notice in notices:
        log.warning("%s", notice)
    service = wired_service(store)
    if resume:
        service.resume_latest()
    return service, notices + service.notices
