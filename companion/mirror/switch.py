"""The mirror as the app switches it: off (nothing listens), or on with a feed the app
publishes to after each acknowledged command. Kivy-free; the app imports it only when the
players switch the mirror on."""

from __future__ import annotations

import logging
from typing import Any

from ..driver import StateSnapshot
from . import DEFAULT_PORT
from .feed import MirrorFeed
from .seats import SeatDesk
from .server import MirrorServer

log = logging.getLogger(__name__)

PORTS_TRIED = 10
"""From the default port up: another program on 8765 does not keep the phones out."""


class MirrorSwitch:
    def __init__(self, port: int = DEFAULT_PORT, host: str | None = None,
                 seats: SeatDesk | None = None) -> None:
        self.port = port
        self.host = host
        self.seats = seats
        """The seats the table hands out (None: the phones only follow)."""
        self.feed = MirrorFeed()
        self.server: MirrorServer | None = None

    @property
    def on(self) -> bool:
        return self.server is not None

    def switch_on(self, token: str) -> str:
        """Start listening; returns the page's address. OSError when no port is free."""
        if self.server is not None:
            self.renew(token)
            return self.url
        error: OSError | None = None
        for port in range(self.port, self.port + PORTS_TRIED) if self.port else [0]:
            server = MirrorServer(self.feed, token, port=port, host=self.host, seats=self.seats)
            try:
                server.start()
            except OSError as why:
                error = why
                continue
            self.server = server
            log.info("the mirror is on at %s", ", ".join(server.urls()))
            return self.url
        assert error is not None
        raise error

    def switch_off(self) -> None:
        """Close every socket and stream: nothing listens afterwards."""
        if self.server is None:
            return
        if self.seats is not None:
            self.seats.end_all()  # seats are off while the mirror is
        self.server.stop()
        self.server.rules.close()
        self.server = None

    def renew(self, token: str) -> None:
        if self.server is not None:
            self.server.renew_token(token)

    @property
    def url(self) -> str:
        return self.server.urls()[0] if self.server is not None else ""

    def publish(self, snapshot: StateSnapshot | None, language: str,
                view: dict[str, Any] | None,
                events: list[dict[str, Any]] | None = None) -> None:
        """The state the screen now shows (its words in `language` already made); `events`:
        what the command that led to it announced (None: no command did)."""
        self.feed.publish(snapshot, {language: view if snapshot is not None else None},
                          events)
