"""The card reader on a serial line: its own threads, events out through one callback.

A supervisor thread opens the port (a pyserial URL, or `auto`), starts pyserial's
`ReaderThread` with a protocol that decodes the family's frames, and talks to the reader: a
PN532 is polled (it answers commands); the 125 kHz EM4100 readers and the line bridges speak
on their own. What the reader sees goes through a `PresenceTracker` and comes out as
`ReaderEvent`s ("present", "removed", "steady", "stacked", "connected", "disconnected",
"error") handed to the callback on a reader thread: the app must pass them to its own thread
(it never touches a widget from here). Every frame decoded is also noted, with what it meant,
in `watch` (a ReaderWatch) for the reader check. When the line is lost, whatever pyserial
raised, the supervisor says so, waits (0.5 s, doubling up to 5 s) and opens the port again,
for as long as it runs.

This module is that supervisor and the listening for readers that speak on their own; the
opened line is in serial_line.py and the PN532's dialogue in pn532_polling.py.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import serial
from serial.tools import list_ports

from .codecs import Em4100Decoder, LineDecoder, Pn532Decoder
from .pn532_polling import Pn532Poller
from .presence import GRACE_S, ONCE, REPEATING, Change, PresenceTracker, is_phantom
from .serial_line import LineLost, Opener, ReaderProblem, SerialLine, Stopped, describe_open_error
from .watch import PHANTOM, ReaderWatch

log = logging.getLogger(__name__)

FAMILIES = ("pn532", "em4100", "line")
FAMILY_CHOICES = ("auto", *FAMILIES)
BAUD_RATES = {"pn532": 115200, "em4100": 9600, "line": 115200}
# How long a tag may go unseen before it counts as lifted (the grace time, a setting). A PN532
# is polled twenty times a second, so 0.4 s outlasts seven missed polls; an RDM6300 repeats its
# frame several times a second; an ID-12LA and most bridges say a card only once, so there it
# is the time after which "removed" is assumed.
REMOVAL_AFTER = {"pn532": GRACE_S, "em4100": GRACE_S, "line": GRACE_S}
STACKED_MESSAGE = "two cards on the reader"
AUTO_PORT = "auto"
STABLE_NAME = Path("/dev/rfid-reader")  # the udev rule in hardware/udev gives readers this name
PI_UART = Path("/dev/serial0")
FIRST_RETRY_S = 0.5
LONGEST_RETRY_S = 5.0
AUTO_LISTEN_S = 2.0  # family "auto" after no PN532 answered: how long each baud rate is tried
NOISE_WARNING_BYTES = 64  # that much undecodable input and no frame yet: probably the wrong family


@dataclass(frozen=True)
class ReaderEvent:
    """What the reader reports. The JSON form is what `companion reader listen` prints."""

    event: str
    """"present", "removed", "steady" (the card lying there was read `reads` times: enrolment
    may take it), "stacked" (two cards at once: `uid` is the newcomer; nothing else happens
    until one is taken away), "connected", "disconnected" or "error"."""
    family: str
    port: str
    uid: str | None = None
    message: str | None = None
    """For "disconnected", "error" and "stacked": what happened, in words a person can act on."""
    reads: int | None = None
    """For "steady": how many frames of the card made it steady."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": self.event}
        if self.uid is not None:
            out["uid"] = self.uid
        out["family"] = self.family
        out["port"] = self.port
        if self.message is not None:
            out["message"] = self.message
        if self.reads is not None:
            out["reads"] = self.reads
        return out


@dataclass(frozen=True)
class ReaderSettings:
    port: str = AUTO_PORT
    """A pyserial URL (/dev/serial0, /dev/ttyUSB0, hwgrep://…, socket://…) or "auto"."""
    family: str = "auto"
    line_pattern: str | None = None
    """For line bridges: a regular expression with one group around the UID."""
    removal_after: float | None = None
    """The grace time: seconds without a sighting before a tag counts as lifted (None: the
    family's own, 0.4 s). A card seen again within it is the same lay."""
    cooldown: float = 1.0
    poll_interval: float = 0.05
    """Seconds between two PN532 polls: a card laid waits half of it on average before it is
    seen (the 13.56 MHz goal is 60 ms from lay to event); twenty polls a second cost under 1 %
    of one core."""

    def __post_init__(self) -> None:
        if self.family not in FAMILY_CHOICES:
            raise ValueError(f"unknown reader family {self.family!r}: choose one of "
                             f"{', '.join(FAMILY_CHOICES)}")
        if not self.port.strip():
            raise ValueError("no reader port given")
        if self.line_pattern is not None:
            LineDecoder(self.line_pattern)  # a bad pattern is refused here, not in the thread
        if self.removal_after is not None and not 0 < self.removal_after <= 10:
            raise ValueError(f"the grace time must be above 0 and at most 10 seconds, not "
                             f"{self.removal_after}")


Sink = Callable[[ReaderEvent], None]


def rhythm_of(read: Any) -> str:
    """How the reader that sent `read` reports a card lying there: an RDM6300's frame (no
    CR LF) again and again; an ID-12LA's (CR LF) and a line bridge's once per lay."""
    return REPEATING if getattr(read, "style", None) == "rdm6300" else ONCE


def candidate_ports() -> list[str]:
    """The ports `auto` tries, most likely first: the udev name, USB adapters, the Pi's UART."""
    found: list[str] = []
    if STABLE_NAME.exists():
        found.append(str(STABLE_NAME))
    listed = sorted(list_ports.comports(), key=lambda port: (port.vid is None, port.device))
    found.extend(port.device for port in listed)
    if PI_UART.exists():
        found.append(str(PI_UART))
    return list(dict.fromkeys(found))


# --- the reader -----------------------------------------------------------------------------


class SerialReader:
    """Reads tags from one reader on a serial line until stopped; reconnects by itself."""

    def __init__(self, settings: ReaderSettings, sink: Sink, *,
                 opener: Opener = serial.serial_for_url,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self._sink = sink
        self._opener = opener
        self._clock = clock
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._trackers: dict[str, PresenceTracker] = {}
        self.family = settings.family  # "auto" until the reader says what it is
        self.port = settings.port
        self.connected = False
        self.watch = ReaderWatch(clock)
        """What the reader saw lately and how its line stands, for the reader check."""

    # --- life ---

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("the reader is already running")
        self._thread = threading.Thread(target=self._run, name="card-reader", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 3.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def now(self) -> float:
        return self._clock()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _emit(self, event: str, *, uid: str | None = None, message: str | None = None,
              family: str | None = None, reads: int | None = None) -> None:
        reported = ReaderEvent(event, family or self.family, self.port, uid, message, reads)
        if event in ("connected", "disconnected"):
            self.watch.connection(event == "connected", reported.family, self.port, message)
        if message and event != "stacked":
            log.warning("reader %s: %s", event, message)
        try:
            self._sink(reported)
        except Exception:  # the app's bug must not kill the reader
            log.exception("the reader's event handler failed on %s", reported)

    def wait(self, seconds: float) -> None:
        """Sleep, or raise Stopped as soon as the reader is asked to stop."""
        if self._stop.wait(seconds):
            raise Stopped

    def _run(self) -> None:
        retry = FIRST_RETRY_S
        problem: str | None = None
        while not self._stop.is_set():
            try:
                session = self._connect()
            except Stopped:
                return
            except ReaderProblem as error:
                if str(error) != problem:  # say each new problem once, not at every retry
                    problem = str(error)
                    self._emit("disconnected", message=problem)
                    self.connected = False
                if self._stop.wait(retry):
                    return
                retry = min(retry * 2, LONGEST_RETRY_S)
                continue
            retry, problem = FIRST_RETRY_S, None
            self.connected = True
            self._emit("connected")
            for tracker in self._trackers.values():
                tracker.resume(self._clock())
            line, read_forever = session
            try:
                read_forever()
            except Stopped:
                return
            except (LineLost, OSError) as lost:  # pyserial's errors are OSErrors too
                problem = str(lost) if isinstance(lost, LineLost) else \
                    describe_open_error(line.port, lost)
                self.connected = False
                for tracker in self._trackers.values():
                    tracker.pause(self._clock())
                self._emit("disconnected", message=problem)
            finally:
                line.close()
            if self._stop.wait(FIRST_RETRY_S):
                return

    # --- connecting ---

    def _connect(self) -> tuple[SerialLine, Callable[[], None]]:
        """Open a port and bring the reader up; returns the loop that reads it."""
        wanted = self.settings.family
        if self.settings.port == AUTO_PORT:
            ports = candidate_ports()
            if not ports:
                raise ReaderProblem("no serial ports found: is the reader plugged in?")
        else:
            ports = [self.settings.port]
        problems: list[str] = []
        for port in ports:
            self.port = port
            try:
                return self._bring_up(port, wanted)
            except ReaderProblem as error:
                problems.append(str(error))
        if len(ports) == 1:
            raise ReaderProblem(problems[0])
        raise ReaderProblem("no reader answered on " + ", ".join(ports) + ": "
                            + "; ".join(problems))

    def _bring_up(self, port: str, family: str) -> tuple[SerialLine, Callable[[], None]]:
        if family in ("pn532", "auto"):
            line = SerialLine(port, self._opener, BAUD_RATES["pn532"], {"pn532": Pn532Decoder()})
            pn532 = Pn532Poller(self, line)
            try:
                pn532.initialise()
            except ReaderProblem:
                line.close()
                if family == "pn532":
                    raise
            else:
                self.family = "pn532"
                return line, pn532.poll_forever
        if family == "auto":
            # No PN532 answered: listen instead, trying both baud rates until a frame shows up.
            decoders = {"em4100": Em4100Decoder(), "line": LineDecoder(self.settings.line_pattern)}
            line = SerialLine(port, self._opener, BAUD_RATES["em4100"], decoders)
            self.family = "auto"
            return line, lambda: self._listen_forever(line)
        decoders = {family: Em4100Decoder() if family == "em4100"
                    else LineDecoder(self.settings.line_pattern)}
        line = SerialLine(port, self._opener, BAUD_RATES[family], decoders)
        self.family = family
        return line, lambda: self._listen_forever(line)

    # --- tags ---

    def tracker(self, family: str) -> PresenceTracker:
        if family not in self._trackers:
            removal = self.settings.removal_after or REMOVAL_AFTER[family]
            self._trackers[family] = PresenceTracker(removal, self.settings.cooldown)
        return self._trackers[family]

    def report(self, family: str, changes: list[Change]) -> None:
        for change in changes:
            if change.event == "stacked":
                self._emit("stacked", uid=change.uid, family=family, message=STACKED_MESSAGE)
            else:
                self._emit(change.event, uid=change.uid, family=family, reads=change.reads)

    def sighting(self, family: str, uids: list[str], rhythm: str) -> None:
        """One frame or poll named `uids`: note each in the watch, report what follows."""
        now = self._clock()
        seen = self.tracker(family).see(uids, now, rhythm)
        for uid in uids:
            self.watch.saw(uid, PHANTOM if is_phantom(uid) else seen.meaning, now)
        self.report(family, seen.changes)

    def polled_nothing(self) -> None:
        """A poll found no card: noted in the watch, for the range test."""
        self.watch.polled_nothing(self._clock())

    def expire_all(self) -> None:
        now = self._clock()
        for family, tracker in self._trackers.items():
            self.report(family, tracker.expire(now))

    def _next_deadline(self, default: float) -> float:
        deadlines = [d for t in self._trackers.values() if (d := t.next_deadline()) is not None]
        if not deadlines:
            return default
        return max(0.0, min(min(deadlines) - self._clock(), default))

    # --- readers that speak on their own: EM4100 and line bridges ---

    def _listen_forever(self, line: SerialLine) -> None:
        auto = self.family == "auto"
        bauds = [BAUD_RATES["em4100"], BAUD_RATES["line"]]
        switch_at = self._clock() + AUTO_LISTEN_S
        warned = False
        while not self._stop.is_set():
            item = line.next_item(self._next_deadline(0.25))
            if item is not None:
                family, read = item
                if auto:  # the first good frame settles the family
                    auto = False
                    self.family = family
                    line.keep_only(family)
                if getattr(read, "removed", False):
                    self.report(family, self.tracker(family).lifted(read.uid, self._clock()))
                else:
                    self.sighting(family, [read.uid], rhythm_of(read))
            self.expire_all()
            if auto and self._clock() >= switch_at:
                bauds.reverse()
                line.set_baudrate(bauds[0])
                switch_at = self._clock() + AUTO_LISTEN_S
            if not warned and not self._trackers and \
                    line.undecodable_bytes() >= NOISE_WARNING_BYTES and not auto:
                warned = True
                self._emit("error", message=(
                    f"bytes arrive on {line.port} but none is a {self.family} frame: is the "
                    "reader family in the settings right?"))
