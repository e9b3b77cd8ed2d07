"""Stopping a long-running command on SIGINT or SIGTERM, whatever disposition it inherited.

A background job of a non-interactive shell, and some service managers, start a program with
SIGINT ignored; Python then never installs its own handler, so Ctrl+C would do nothing. The
commands that run until stopped install these handlers themselves.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType, TracebackType

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StopSignals:
    """While entered, SIGINT and SIGTERM raise KeyboardInterrupt in the main thread, except
    inside `deferred()`, where they only set `requested` so the work in hand can finish."""

    def __init__(self) -> None:
        self.requested = False
        self._interruptible = True
        self._previous: dict[int, object] = {}

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.requested = True
        if self._interruptible:
            raise KeyboardInterrupt

    def __enter__(self) -> StopSignals:
        # Handlers can only be set from the main thread; elsewhere (a test) nothing changes.
        if threading.current_thread() is threading.main_thread():
            for number in STOP_SIGNALS:
                self._previous[number] = signal.signal(number, self._handle)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        for number, previous in self._previous.items():
            signal.signal(number, previous)  # type: ignore[arg-type]
        self._previous.clear()

    @contextmanager
    def deferred(self) -> Iterator[None]:
        """A stop asked for in here waits until the block is done (a command half-saved must
        not be cut off); the caller checks `requested` afterwards."""
        self._interruptible = False
        try:
            yield
        finally:
            self._interruptible = True
