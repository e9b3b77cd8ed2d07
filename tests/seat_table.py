"""The table's side of seats without a screen, for the seat tests and the seats benchmark: the
service on a thread of its own (the games file is that thread's, as it is Kivy's in the app), on
which the table's commands and the seats' take turns, and the desk and the phones told after each
command, as companion/ui/mirror_link.py tells them."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from companion.bootstrap import build_service
from companion.driver import ScriptDriver, StateSnapshot
from companion.mirror.feed import MirrorFeed
from companion.mirror.seats import SeatDesk
from companion.service import GameService


class Table:
    """The app's part, without a screen."""

    def __init__(self, path: Path) -> None:
        self.thread = ThreadPoolExecutor(max_workers=1)
        self.service: GameService = self.thread.submit(lambda: build_service(path)[0]).result()
        self.driver = ScriptDriver(self.service, "en")
        self.desk = SeatDesk(self.from_a_seat)
        self.feed = MirrorFeed()
        self.published: list[tuple[int, int]] = []
        """Each accepted command's state number on the feed and when it was published (the
        command on disk), in CLOCK_MONOTONIC nanoseconds."""

    def send(self, command: dict[str, Any]) -> dict[str, Any]:
        return self.thread.submit(self._carry_out, command).result(timeout=30)

    def _carry_out(self, command: dict[str, Any]) -> dict[str, Any]:
        answer = self.driver.handle(command)
        if answer["ok"]:
            seq = self.publish(answer["events"])
            self.published.append((seq, time.monotonic_ns()))
            answer["seq"] = seq  # the state's number on the feed (the phones are not told)
        return answer

    def close(self) -> None:
        self.thread.submit(self.service.store.close).result()
        self.thread.shutdown()

    def from_a_seat(self, player: int, request: Any, version: str) -> dict[str, Any]:
        return self.send({"cmd": "seat", "player": player, "request": request,
                          "version": version})

    def publish(self, events: list[dict[str, Any]] | None = None) -> int:
        """Tell the desk and the phones (with the command's `events`, for the banner); returns
        the state's number on the feed."""
        service = self.service
        state = self.driver.state()
        self.desk.follow(service.game_id, service.game.seat_rules,
                         service.seat_version(state) if state else None, state)
        return self.feed.publish(StateSnapshot.of(service), {"en": state} if state else None,
                                 events)
