"""The card reader on a serial line: its own threads, events out through one callback.

A supervisor thread opens the port (a pyserial URL, or `auto`), starts pyserial's
`ReaderThread` with a protocol that decodes the family's frames, and talks to the reader: a
PN532 is polled (it answers commands); the 125 kHz EM4100 readers and the line bridges speak
on their own. What the reader sees goes through a `PresenceTracker` and comes out as
`ReaderEvent`s ("present", "removed", "connected", "disconnected", "error") handed to the
callback on a reader thread: the app must pass them to its own thread (it never touches a
widget from here). When the line is lost the supervisor says so, waits (0.5 s, doubling up
to 5 s) and opens the port again, for as long as it runs.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import serial
import serial.threaded
from serial.tools import list_ports

from .codecs import (
    HOST_TO_PN532,
    PN532_ACK,
    PN532_TO_HOST,
    CodecError,
    Em4100Decoder,
    LineDecoder,
    Pn532Decoder,
    Pn532Frame,
    parse_passive_targets,
    pn532_command,
    uid_hex,
)
from .presence import Change, PresenceTracker

log = logging.getLogger(__name__)

FAMILIES = ("pn532", "em4100", "line")
FAMILY_CHOICES = ("auto", *FAMILIES)
BAUD_RATES = {"pn532": 115200, "em4100": 9600, "line": 115200}
# How long a tag may go unseen before it counts as lifted. A PN532 is polled ten times a second;
# an RDM6300 repeats its frame a few times a second (no datasheet gives the period, so this is
# generous); an ID-12LA and most bridges say a card only once, so there it is the time after
# which "removed" is assumed.
REMOVAL_AFTER = {"pn532": 0.35, "em4100": 0.5, "line": 0.5}
AUTO_PORT = "auto"
STABLE_NAME = Path("/dev/rfid-reader")  # the udev rule in hardware/udev gives readers this name
PI_UART = Path("/dev/serial0")
FIRST_RETRY_S = 0.5
LONGEST_RETRY_S = 5.0
AUTO_LISTEN_S = 2.0  # family "auto" after no PN532 answered: how long each baud rate is tried
NOISE_WARNING_BYTES = 64  # that much undecodable input and no frame yet: probably the wrong family

# PN532 commands (UM0701-02 §7) and the bytes sent before the first one to wake the chip from
# its low-power start-up state (a longer preamble than the shortest one clients use: some
# boards miss the short one).
PN532_WAKE = b"\x55\x55" + bytes(14)
GET_FIRMWARE_VERSION = 0x02
SAM_CONFIGURATION = 0x14
RF_CONFIGURATION = 0x32
IN_LIST_PASSIVE_TARGET = 0x4A
SAM_NORMAL_MODE = b"\x01"
FINITE_RETRIES = b"\x05\x01\x00\x01"  # MxRtyATR 1, MxRtyPSL 0, MxRtyPassiveActivation 1
RF_FIELD_OFF = b"\x01\x00"
ONE_TYPE_A_TARGET = b"\x01\x00"  # one target, 106 kbps ISO 14443 type A
PN532_IC = 0x32
ACK_TIMEOUT_S = 0.1
ANSWER_TIMEOUT_S = 0.5
GAP_BETWEEN_FRAMES_S = 0.001  # some USB adapters miss an ACK sent right after a frame
FAILED_POLLS_BEFORE_REINIT = 2


@dataclass(frozen=True)
class ReaderEvent:
    """What the reader reports. The JSON form is what `companion reader listen` prints."""

    event: str
    """"present", "removed", "connected", "disconnected" or "error"."""
    family: str
    port: str
    uid: str | None = None
    message: str | None = None
    """For "disconnected" and "error": what happened, in words a person can act on."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": self.event}
        if self.uid is not None:
            out["uid"] = self.uid
        out["family"] = self.family
        out["port"] = self.port
        if self.message is not None:
            out["message"] = self.message
        return out


@dataclass(frozen=True)
class ReaderSettings:
    port: str = AUTO_PORT
    """A pyserial URL (/dev/serial0, /dev/ttyUSB0, hwgrep://…, socket://…) or "auto"."""
    family: str = "auto"
    line_pattern: str | None = None
    """For line bridges: a regular expression with one group around the UID."""
    removal_after: float | None = None
    """Seconds without a sighting before a tag counts as lifted (None: the family's own)."""
    cooldown: float = 1.0
    poll_interval: float = 0.1
    """Seconds between two PN532 polls."""

    def __post_init__(self) -> None:
        if self.family not in FAMILY_CHOICES:
            raise ValueError(f"unknown reader family {self.family!r}: choose one of "
                             f"{', '.join(FAMILY_CHOICES)}")
        if not self.port.strip():
            raise ValueError("no reader port given")
        if self.line_pattern is not None:
            LineDecoder(self.line_pattern)  # a bad pattern is refused here, not in the thread


Sink = Callable[[ReaderEvent], None]
Opener = Callable[..., serial.Serial]


class ReaderProblem(Exception):
    """The reader cannot be used right now; the message says why in a person's words."""


class LineLost(ReaderProblem):
    """The line was working and stopped (unplugged, or the reader fell silent)."""


class Stopped(Exception):
    """The reader was asked to stop while it waited."""


def describe_open_error(port: str, error: BaseException) -> str:
    """Turn pyserial's exception into a message saying what to do."""
    text = str(error)
    code = getattr(error, "errno", None)
    if code == errno.ENOENT or "No such file" in text:
        return (f"{port} does not exist: is the reader plugged in, and is the port in the "
                "settings right?")
    if code == errno.EACCES or "Permission denied" in text:
        return (f"no permission to open {port}: add this user to the dialout group "
                "(sudo usermod -aG dialout $USER), then log out and in again")
    if code == errno.EBUSY or "exclusively lock" in text or "busy" in text.lower():
        return f"{port} is in use by another program"
    if "returned no data" in text or code == errno.EIO or "Input/output error" in text:
        return f"the reader on {port} was disconnected"
    return f"cannot use {port}: {text}"


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


# --- the line: an open port with pyserial's reader thread feeding a decoder -----------------

_LOST = object()


class _DecodingProtocol(serial.threaded.Protocol):
    """Runs on pyserial's reader thread: decodes what arrives and queues it for the supervisor."""

    def __init__(self, decoders: dict[str, Any], items: queue.Queue[Any]) -> None:
        self.decoders = decoders
        self.items = items
        self.reset_requested = False

    def data_received(self, data: bytes) -> None:
        decoders = self.decoders
        if self.reset_requested:  # done here: the decoders belong to this thread
            self.reset_requested = False
            for decoder in decoders.values():
                decoder.reset()
        for family, decoder in decoders.items():
            for item in decoder.feed(data):
                self.items.put((family, item))

    def connection_lost(self, exc: BaseException | None) -> None:
        self.items.put((_LOST, exc))


class _Line:
    """One opened port and its reader thread."""

    def __init__(self, port: str, opener: Opener, baudrate: int,
                 decoders: dict[str, Any]) -> None:
        self.port = port
        self.items: queue.Queue[Any] = queue.Queue()
        self.decoders = decoders
        try:
            self.serial = opener(port, baudrate=baudrate, timeout=None, exclusive=True)
        except (serial.SerialException, OSError, ValueError) as error:
            raise ReaderProblem(describe_open_error(port, error)) from None
        self.protocol = _DecodingProtocol(decoders, self.items)
        self.thread = serial.threaded.ReaderThread(self.serial, lambda: self.protocol)
        self.thread.start()

    def keep_only(self, family: str) -> None:
        """Decode only `family` from now on (family "auto" found what the reader speaks)."""
        self.decoders = {family: self.decoders[family]}
        self.protocol.decoders = self.decoders  # one assignment: the reader thread sees either

    def write(self, data: bytes) -> None:
        try:
            self.thread.write(data)
        except (serial.SerialException, OSError) as error:
            raise LineLost(describe_open_error(self.port, error)) from None

    def set_baudrate(self, baudrate: int) -> None:
        try:
            self.serial.baudrate = baudrate
        except (serial.SerialException, OSError, ValueError) as error:
            raise LineLost(describe_open_error(self.port, error)) from None

    def next_item(self, timeout: float) -> tuple[str, Any] | None:
        """The next decoded item as (family, item), or None after `timeout` seconds."""
        try:
            family, item = self.items.get(timeout=max(timeout, 0))
        except queue.Empty:
            return None
        if family is _LOST:
            self.items.put((_LOST, item))  # stays lost for whoever asks next
            reason = describe_open_error(self.port, item) if item else \
                f"the reader on {self.port} was closed"
            raise LineLost(reason)
        return family, item

    def drain(self) -> None:
        """Forget what arrived before a new command (a late answer to an aborted one)."""
        while True:
            try:
                family, item = self.items.get_nowait()
            except queue.Empty:
                return
            if family is _LOST:
                self.items.put((_LOST, item))
                return

    def undecodable_bytes(self) -> int:
        return int(sum(decoder.discarded for decoder in self.decoders.values()))

    def close(self) -> None:
        with contextlib.suppress(serial.SerialException, OSError):  # it is going anyway
            self.thread.close()


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
              family: str | None = None) -> None:
        reported = ReaderEvent(event, family or self.family, self.port, uid, message)
        if message:
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
            except LineLost as lost:
                problem = str(lost)
                self.connected = False
                for tracker in self._trackers.values():
                    tracker.pause(self._clock())
                self._emit("disconnected", message=problem)
            finally:
                line.close()
            if self._stop.wait(FIRST_RETRY_S):
                return

    # --- connecting ---

    def _connect(self) -> tuple[_Line, Callable[[], None]]:
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

    def _bring_up(self, port: str, family: str) -> tuple[_Line, Callable[[], None]]:
        if family in ("pn532", "auto"):
            line = _Line(port, self._opener, BAUD_RATES["pn532"], {"pn532": Pn532Decoder()})
            pn532 = _Pn532(self, line)
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
            line = _Line(port, self._opener, BAUD_RATES["em4100"], decoders)
            self.family = "auto"
            return line, lambda: self._listen_forever(line)
        decoders = {family: Em4100Decoder() if family == "em4100"
                    else LineDecoder(self.settings.line_pattern)}
        line = _Line(port, self._opener, BAUD_RATES[family], decoders)
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
            self._emit(change.event, uid=change.uid, family=family)

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

    def _listen_forever(self, line: _Line) -> None:
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
                now = self._clock()
                tracker = self.tracker(family)
                if getattr(read, "removed", False):
                    changes = tracker.lifted(read.uid, now)
                else:
                    changes = tracker.sighted(read.uid, now)
                self.report(family, changes)
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


class _Pn532:
    """The dialogue with a PN532: wake it, configure it, then poll for one type A card."""

    def __init__(self, reader: SerialReader, line: _Line) -> None:
        self.reader = reader
        self.line = line
        self.last_frame_at = 0.0

    def initialise(self) -> None:
        port = self.line.port
        for attempt in (1, 2):  # the first wake-up after power-on is often missed
            self.line.write(PN532_WAKE)
            self.reader.wait(0.005)
            try:
                self.exchange(SAM_CONFIGURATION, SAM_NORMAL_MODE)
                break
            except ReaderProblem:
                if attempt == 2:
                    raise ReaderProblem(
                        f"no PN532 answered on {port}: check the reader family in the settings, "
                        "the wiring (TX to RX) and that the board's switches select UART/HSU"
                    ) from None
        version = self.exchange(GET_FIRMWARE_VERSION)
        if len(version) < 2 or version[1] != PN532_IC:
            raise ReaderProblem(f"the chip on {port} is not a PN532 (it reports IC "
                                f"{version[1:2].hex() or 'nothing'})")
        self.exchange(RF_CONFIGURATION, FINITE_RETRIES)

    def poll_forever(self) -> None:
        reader = self.reader
        tracker = reader.tracker("pn532")
        failures = 0
        while True:
            try:
                answer = self.exchange(IN_LIST_PASSIVE_TARGET, ONE_TYPE_A_TARGET)
                targets = parse_passive_targets(answer)
                now = reader.now()
                for target in targets:  # reported before the RF-off exchange: no waiting
                    reader.report("pn532", tracker.sighted(uid_hex(target.uid), now))
                # RF off after each poll, so a card left lying is found again on the next one.
                self.exchange(RF_CONFIGURATION, RF_FIELD_OFF)
            except CodecError as error:
                log.info("PN532 on %s: unreadable target list (%s)", self.line.port, error)
                failures += 1
            except LineLost:
                raise
            except ReaderProblem:
                failures += 1
                if failures >= FAILED_POLLS_BEFORE_REINIT:
                    try:
                        self.initialise()
                    except ReaderProblem as error:
                        raise LineLost(f"the PN532 on {self.line.port} stopped answering "
                                       f"({error})") from None
                    failures = 0
            else:
                failures = 0
            reader.expire_all()
            reader.wait(reader.settings.poll_interval)

    def exchange(self, code: int, params: bytes = b"",
                 timeout: float = ANSWER_TIMEOUT_S) -> bytes:
        """Send one command and return its answer's payload (the answer code first)."""
        line = self.line
        line.drain()
        since_last = time.monotonic() - self.last_frame_at
        if since_last < GAP_BETWEEN_FRAMES_S:
            time.sleep(GAP_BETWEEN_FRAMES_S - since_last)
        line.write(pn532_command(code, params))
        self._await(lambda frame: frame.kind == "ack", ACK_TIMEOUT_S, code)
        answer = self._await(
            lambda frame: frame.kind == "data" and frame.tfi == PN532_TO_HOST
            and frame.payload[:1] == bytes([code + 1]), timeout, code)
        self.last_frame_at = time.monotonic()
        return answer.payload

    def _await(self, wanted: Callable[[Pn532Frame], bool], timeout: float,
               code: int) -> Pn532Frame:
        deadline = time.monotonic() + timeout
        while True:
            if self.reader.stopping:
                raise Stopped
            item = self.line.next_item(deadline - time.monotonic())
            if item is None:
                self.line.write(PN532_ACK)  # abort the command, so the chip listens again
                # A false frame start in line noise can hold real frames back: start afresh.
                self.line.protocol.reset_requested = True
                raise ReaderProblem(f"the PN532 on {self.line.port} did not answer command "
                                    f"{code:02X}")
            frame: Pn532Frame = item[1]
            if frame.kind in ("nack", "error"):
                raise ReaderProblem(f"the PN532 on {self.line.port} refused command "
                                    f"{code:02X}")
            if frame.kind == "data" and frame.tfi == HOST_TO_PN532:
                continue  # our own frame echoed by a loopback: not an answer
            if wanted(frame):
                return frame


