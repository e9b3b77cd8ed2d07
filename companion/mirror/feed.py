"""The mirror's one state source: the latest game state with its sequence number, and the
phones that follow it, each with a small queue of its own.

Whoever plays (the app after each acknowledged command, or the database follower of
`companion mirror`) calls `publish`; that only stores a reference and hands it to the queues,
so it never waits for a phone. The state is put into words per language when a phone asks,
on that phone's thread, and kept until the next publish.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import queue
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import i18n
from ..core.phrases import Translate
from ..core.seats import seat_lines
from ..driver import StateSnapshot

log = logging.getLogger(__name__)

QUEUE_SIZE = 16
"""Frames a phone may fall behind by; one that falls further is dropped (it reconnects and
gets the whole state afresh)."""


@dataclass(frozen=True)
class Frame:
    """One published moment: `seq` counts publishes, `snapshot` is None when no game is on."""

    seq: int
    snapshot: StateSnapshot | None
    events: tuple[dict[str, Any], ...] = ()
    """What the latest command announced (as the driver prints its events): the banner's
    lines come from them, and they stay until the next command."""


@functools.cache
def translator(lang: str) -> Translate:
    return i18n.translations(lang).gettext


def language_of(requested: str | None) -> str:
    """A phone's language: one the app has, English otherwise."""
    return requested if requested in i18n.LANGUAGES else "en"


def _same_game(before: StateSnapshot | None, after: StateSnapshot | None) -> bool:
    return before is not None and after is not None and before.game is after.game \
        and before.game_id == after.game_id


class Subscription:
    """One phone's place in the feed: the frames it has not been sent yet."""

    def __init__(self, size: int, wake: Callable[[], None] | None = None) -> None:
        self._frames: queue.Queue[Frame | None] = queue.Queue(size)
        self.dropped = threading.Event()
        """Set when the phone fell too far behind or the feed closed: its stream ends."""
        self._wake = wake
        """Called (on the publisher's thread) after each frame and at the drop: how a reader
        on an event loop learns without a thread waiting in `next`."""

    def offer(self, frame: Frame) -> bool:
        """Queue a frame without waiting; False (and dropped) when the queue is full."""
        try:
            self._frames.put_nowait(frame)
        except queue.Full:
            self.drop()
            return False
        if self._wake is not None:
            self._wake()
        return True

    def drop(self) -> None:
        self.dropped.set()
        # Wakes a reader waiting on an empty queue (one with a full queue is not waiting).
        with contextlib.suppress(queue.Full):
            self._frames.put_nowait(None)
        if self._wake is not None:
            self._wake()

    def next(self, timeout: float) -> Frame | None:
        """The next frame, or None after `timeout` seconds or once dropped."""
        if self.dropped.is_set():
            return None
        try:
            return self._frames.get(timeout=timeout)
        except queue.Empty:
            return None


class MirrorFeed:
    def __init__(self, queue_size: int = QUEUE_SIZE) -> None:
        self.queue_size = queue_size
        self.instance = secrets.token_hex(4)
        """Names this run of the server: the page tells a restart from a reconnect."""
        self._lock = threading.Lock()
        self._frame = Frame(0, None)
        self._messages: dict[str, bytes] = {}
        self._clients: set[Subscription] = set()

    def publish(self, snapshot: StateSnapshot | None,
                views: dict[str, dict[str, Any] | None] | None = None,
                events: list[dict[str, Any]] | None = None) -> int:
        """Make `snapshot` the state every phone shows; `views`: its words already made, by
        language (the app passes the screen's); `events`: what the command that led to it
        announced, or None when no command did (a language switched, a game resumed): then
        the same game's banner stays. Returns the new sequence number."""
        with self._lock:
            if events is None:
                events = list(self._frame.events) if _same_game(self._frame.snapshot,
                                                                snapshot) else []
            frame = Frame(self._frame.seq + 1, snapshot, tuple(events))
            self._frame = frame
            self._messages = {lang: self._encode(frame, lang, view)
                              for lang, view in (views or {}).items()}
            clients = list(self._clients)
        for client in clients:
            if not client.offer(frame):
                self.unsubscribe(client)
                log.info("a phone fell behind by %d states and was dropped", self.queue_size)
        return frame.seq

    def current(self) -> Frame:
        with self._lock:
            return self._frame

    def message(self, frame: Frame, lang: str) -> bytes:
        """The JSON a phone in `lang` is sent for `frame`: the whole state as the table sees it
        (`StateSnapshot.public_view`), never a change."""
        lang = language_of(lang)
        with self._lock:
            cached = self._messages.get(lang) if frame is self._frame else None
        if cached is not None:
            return cached
        view = None if frame.snapshot is None else frame.snapshot.view(translator(lang))
        encoded = self._encode(frame, lang, view)
        with self._lock:
            if frame is self._frame:
                self._messages[lang] = encoded
        return encoded

    def _encode(self, frame: Frame, lang: str, view: dict[str, Any] | None) -> bytes:
        banners: list[dict[str, str]] = []
        names: dict[str, dict[str, str]] = {}
        if frame.snapshot is not None and view is not None:
            game = frame.snapshot.game
            words = i18n.translations(lang)
            try:
                banners = seat_lines(list(frame.events), words) + game.banner(
                    list(frame.events), view, words)
            except (KeyError, TypeError, ValueError, IndexError) as error:
                # A banner that cannot be worded must not keep the state from the phones.
                log.warning("%s: no banner for %s (%r)", game.id, frame.events, error)
            names = game.names(words.gettext)
            # The phones get only what lies open on the table: no seed, no deck order, no
            # face-down card (the banner above is the table's own, worded from the full view).
            view = frame.snapshot.public_view(view)
        return json.dumps({"seq": frame.seq, "instance": self.instance, "lang": lang,
                           "state": view, "banners": banners, "names": names},
                          ensure_ascii=False).encode("utf-8")

    def subscribe(self, wake: Callable[[], None] | None = None,
                  queue_size: int | None = None) -> Subscription:
        """A new phone; `wake`: see `Subscription`; `queue_size`: the feed's unless given."""
        client = Subscription(queue_size or self.queue_size, wake)
        with self._lock:
            self._clients.add(client)
        return client

    def unsubscribe(self, client: Subscription) -> None:
        client.drop()
        with self._lock:
            self._clients.discard(client)

    def client_count(self) -> int:
        with self._lock:
            return len(self._clients)

    def drop_clients(self) -> None:
        """End every phone's stream (the mirror switched off, or a new token)."""
        with self._lock:
            clients, self._clients = self._clients, set()
        for client in clients:
            client.drop()
