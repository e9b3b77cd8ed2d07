"""`companion mirror`'s state source: follows the games another process plays in a database,
which it opens read-only, and publishes each new state to the feed.

It watches `PRAGMA data_version` (which changes when another connection commits) and, on a
change, the current game's log: new commands are played on its own copy of the session by
the same rules the driver uses (undo and redo are logged commands too); any other change (a
game resumed, abandoned, started) resumes the current game afresh, as the driver does at start.
A game is known by its uid as well as its id: a game started right after the newest one was
deleted gets that one's id again, and is still a new game here.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..bootstrap import new_seed, wired_service
from ..core.errors import Refused
from ..driver import StateSnapshot
from ..game_log import parse_logged
from ..store import GameStore
from ..store_errors import StoreError
from .feed import MirrorFeed

log = logging.getLogger(__name__)

POLL_INTERVAL_S = 0.05

Place = tuple[int | None, str | None, int]
"""Where the table is: the current game's id and uid (None, None with no game) and how many
commands its log holds."""


class DatabaseFollower:
    def __init__(self, path: Path, feed: MirrorFeed, interval: float = POLL_INTERVAL_S) -> None:
        self.feed = feed
        self.interval = interval
        self.store = GameStore.open_read_only(path)
        self.service = wired_service(self.store, seed_source=new_seed)
        self._version: int | None = None
        self._followed: Place = (None, None, 0)
        """The game the published state is of (id and uid), and how many of its commands it
        includes."""
        self._events: list[dict[str, Any]] = []
        """What the latest command played here announced (the banner's lines); none after a
        game was resumed afresh."""

    def run(self, stop: threading.Event) -> None:
        """Poll until `stop` is set."""
        try:
            while not stop.is_set():
                self.poll()
                stop.wait(self.interval)
        finally:
            self.store.close()

    def poll(self) -> bool:
        """Publish the state if the database changed since the last look; True if it did."""
        try:
            version = self.store.db.execute("PRAGMA data_version").fetchone()[0]
            if version == self._version:
                return False
            self._version = version
            with self._one_moment():
                wanted = self._where_the_table_is()
                if wanted == self._followed:
                    return False
                self._catch_up(*wanted)
        except (sqlite3.Error, StoreError) as error:
            log.warning("the games database could not be read: %s", error)
            return False
        self.feed.publish(StateSnapshot.of(self.service), events=self._events)
        return True

    @contextlib.contextmanager
    def _one_moment(self) -> Iterator[None]:
        """Read as of one commit: which game is current, its log and what resuming it loads
        (else a game deleted and started again between two reads could be mixed up)."""
        db = self.store.db.conn
        db.execute("BEGIN")
        try:
            yield
        finally:
            db.execute("ROLLBACK")  # it only read

    def _where_the_table_is(self) -> Place:
        game_id = self.store.current_game()
        if game_id is None:
            return None, None, 0
        row = self.store.db.execute("SELECT log_length FROM games WHERE id = ?",
                                    [game_id]).fetchone()
        return game_id, self.store.game_uid(game_id), int(row[0]) if row else 0

    def _catch_up(self, game_id: int | None, uid: str | None, length: int) -> None:
        known_game, known_uid, known_length = self._followed
        self._events = []
        if game_id is not None and (game_id, uid) == (known_game, known_uid) \
                and game_id == self.service.game_id and length > known_length:
            try:
                self._play_new_commands(game_id, known_length, length)
                self._followed = (game_id, uid, length)
                return
            except (Refused, ValueError, KeyError, TypeError) as error:
                log.warning("game %s: the new commands did not play here (%s); resuming it "
                            "afresh", game_id, error)
        self._events = []
        self.service = wired_service(self.store, seed_source=new_seed)
        if game_id is not None:
            self.service.resume_latest()
        self._followed = (game_id, uid, length)

    def _play_new_commands(self, game_id: int, after: int, upto: int) -> None:
        game = self.service.game
        rows = self.store.db.execute(
            "SELECT command FROM commands WHERE game_id = ? AND seq > ? AND seq <= ? "
            "ORDER BY seq", [game_id, after, upto]).fetchall()
        for (text,) in rows:
            events, _logged = self.service.session.execute(parse_logged(game, json.loads(text)))
            self._events = [event.to_dict() for event in events]
