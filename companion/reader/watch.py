"""What the card reader saw lately, for the reader check: every frame it decoded, what each one
meant, and how the line stands.

The reader's thread writes here (`connection`, `saw`) and the app's thread reads a `WatchReport`
now and then (`report`): a lock guards the little that is kept, and nothing here touches a
widget. The reader counts and judges; this only remembers.
"""

from __future__ import annotations

import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass

READ = "read"
"""A frame of a card, taken (it may still be the same lay as the one before)."""
PHANTOM = "phantom"
"""A frame with a good checksum that no card sends (all zeros, all F, a known ghost): refused."""
STACKED = "stacked"
"""Two cards on the reader at once (two UIDs in one poll, or two alternating): refused."""
UNSTEADY = "unsteady"
"""A frame not yet confirmed (a repeating reader's first frame of a lay): waiting."""
MEANINGS = (READ, PHANTOM, STACKED, UNSTEADY)

KEEP = 20
"""How many frames the check screen lists."""
WINDOW_S = 10.0
"""The span of "read N times in the last 10 s" and of the reads per second."""
_MOST_IN_WINDOW = 4000  # a PN532 polled 10×/s or an RDM6300's ~20 frames/s stay far below


@dataclass(frozen=True)
class Sighting:
    """One frame the reader decoded: when (the reader's clock), the UID, what it meant."""

    at: float
    uid: str
    meaning: str


@dataclass(frozen=True)
class WatchReport:
    """The reader as the check screen shows it, at `now`."""

    now: float
    connected: bool
    family: str
    port: str
    message: str | None
    """Why the line is down, in a person's words (None while connected)."""
    recent: tuple[Sighting, ...]
    """The last `KEEP` frames, the newest first."""
    reads_in_window: dict[str, int]
    """UID → frames taken (READ) in the last `WINDOW_S` seconds."""
    reads_per_second: float
    """Frames of any meaning per second over the last `WINDOW_S` seconds."""
    phantoms: int
    """Phantom frames refused since the reader started."""
    stacked: bool
    """The last frame was of two cards at once."""

    @property
    def last(self) -> Sighting | None:
        return self.recent[0] if self.recent else None


class ReaderWatch:
    """The reader's recent frames and its line's state, shared between two threads."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._recent: deque[Sighting] = deque(maxlen=KEEP)
        self._in_window: deque[Sighting] = deque(maxlen=_MOST_IN_WINDOW)
        self._empty_polls: deque[float] = deque(maxlen=_MOST_IN_WINDOW)
        self._phantoms = 0
        self._connected = False
        self._family = ""
        self._port = ""
        self._message: str | None = None

    def connection(self, connected: bool, family: str, port: str,
                   message: str | None = None) -> None:
        """The line came up or went down (`message`: why, when it went)."""
        with self._lock:
            self._connected, self._family, self._port = connected, family, port
            self._message = None if connected else message

    def saw(self, uid: str, meaning: str, at: float | None = None) -> None:
        """The reader decoded a frame of `uid` and judged it `meaning` (one of MEANINGS)."""
        if meaning not in MEANINGS:
            raise ValueError(f"unknown meaning {meaning!r}: one of {', '.join(MEANINGS)}")
        sighting = Sighting(self._clock() if at is None else at, uid, meaning)
        with self._lock:
            self._recent.appendleft(sighting)
            self._in_window.append(sighting)
            if meaning == PHANTOM:
                self._phantoms += 1

    def polled_nothing(self, at: float | None = None) -> None:
        """A poll of a polled reader (a PN532) found no card. The range test tells by these a
        card the reader missed from a host that was only busy and polled late."""
        stamp = self._clock() if at is None else at
        with self._lock:
            self._empty_polls.append(stamp)

    def empty_polls_since(self, after: float) -> tuple[float, ...]:
        """When polls found no card, after `after` and within the last `WINDOW_S` seconds,
        oldest first (none from a reader that sends frames on its own)."""
        with self._lock:
            return tuple(at for at in self._empty_polls if at > after)

    def since(self, after: float) -> tuple[Sighting, ...]:
        """The frames noted after `after` (the reader's clock) and within the last `WINDOW_S`
        seconds, oldest first: the range test reads every one, however seldom it looks."""
        with self._lock:
            return tuple(sighting for sighting in self._in_window if sighting.at > after)

    def report(self, now: float | None = None) -> WatchReport:
        """What the check screen shows at `now` (the reader's clock)."""
        now = self._clock() if now is None else now
        with self._lock:
            while self._in_window and now - self._in_window[0].at > WINDOW_S:
                self._in_window.popleft()
            while self._empty_polls and now - self._empty_polls[0] > WINDOW_S:
                self._empty_polls.popleft()
            in_window = list(self._in_window)
            recent = tuple(self._recent)
            report = WatchReport(
                now=now, connected=self._connected, family=self._family, port=self._port,
                message=self._message, recent=recent,
                reads_in_window=dict(Counter(s.uid for s in in_window if s.meaning == READ)),
                reads_per_second=len(in_window) / WINDOW_S, phantoms=self._phantoms,
                stacked=bool(recent) and recent[0].meaning == STACKED)
        return report


class WatchFollower:
    """Hands on each frame and empty poll a watch notes once, however seldom it is asked."""

    def __init__(self, watch: ReaderWatch, after: float = float("-inf")) -> None:
        self.watch = watch
        self._frames_after = self._polls_after = after

    def news(self) -> tuple[tuple[Sighting, ...], tuple[float, ...]]:
        """The frames and the empty polls noted since the last call, each oldest first. The
        empty polls are taken after the frames: none older than a frame handed on is left."""
        frames = self.watch.since(self._frames_after)
        empty_polls = self.watch.empty_polls_since(self._polls_after)
        if frames:
            self._frames_after = frames[-1].at
        if empty_polls:
            self._polls_after = empty_polls[-1]
        return frames, empty_polls
