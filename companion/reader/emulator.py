"""A pretend card reader behind a pseudo-terminal, for demos and tests.

A client opens the pty's slave path (or a by-id style symlink to it) exactly as it would open
/dev/ttyUSB0 and hears a PN532 (HSU), an RDM6300, an ID-12LA or an Arduino that prints UIDs as
text. The wire formats are written here a second time, on purpose without codecs.py, so that a
mistake cannot hide in both: third-party clients are the judge (tests/reader).

Run as `python -m companion.reader.emulator FAMILY [--link PATH]` for a scriptable reader.
"""

from __future__ import annotations

import argparse
import errno
import fcntl
import os
import queue
import select
import struct
import sys
import termios
import threading
import time
import tty
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from functools import reduce
from operator import xor
from pathlib import Path
from types import TracebackType
from typing import Literal

from ..signals import StopSignals

FAMILIES = ("pn532", "rdm6300", "id12la", "line")

# How long a caller waits for the emulator thread to carry out a request.
_CALL_TIMEOUT = 5.0


def normalise_uid(family: str, uid: str) -> str:
    """The UID as upper-case hex without separators; ValueError when the family can't carry it.

    A PN532 or an Arduino bridge reads ISO 14443A UIDs of 4, 7 or 10 bytes; the 125 kHz
    readers report 5 bytes (a version byte and the 32-bit card number), written as 10 hex digits.
    """
    text = "".join(uid.split()).replace(":", "").replace("-", "")
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        raise ValueError(f"not a hex UID: {uid!r}") from None
    sizes = (5,) if family in ("rdm6300", "id12la") else (4, 7, 10)
    if len(raw) not in sizes:
        allowed = " or ".join(str(size) for size in sizes)
        raise ValueError(f"a {family} tag has a {allowed}-byte UID, not {len(raw)}: {uid!r}")
    return raw.hex().upper()


def em4100_frame(data: str, *, crlf: bool) -> bytes:
    """STX, the 10 hex digits, their XOR as 2 hex digits, (CR LF for the ID-12LA), ETX."""
    check = reduce(xor, bytes.fromhex(data))
    return b"\x02" + f"{data}{check:02X}".encode("ascii") + (b"\r\n" if crlf else b"") + b"\x03"


# ---------------------------------------------------------------------------------------------
# PN532 frames

PN532_ACK = bytes.fromhex("0000ff00ff00")
PN532_ERROR = bytes.fromhex("0000ff01ff7f8100")
_HOST_TFI = 0xD4
_CHIP_TFI = 0xD5
# The firmware accepts at most 265 bytes from TFI to the last data byte.
_MAX_BODY = 265
# SetSerialBaudrate's index into these speeds.
_BAUD_RATES = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, 1288000)
# RFConfiguration: the item byte and how many bytes of settings follow it.
_RF_ITEM_SIZES = {0x01: 1, 0x02: 3, 0x04: 1, 0x05: 3, 0x0A: 11, 0x0B: 8, 0x0C: 3, 0x0D: 9}
# 0x26 in the CIU FIFO is what nfcpy reads after an empty poll to be sure no tag answered.
_REGISTER_DEFAULTS = {0x6339: 0x26}
# ATQA (as the PN532 sends it, high byte first) and SAK by UID length: a MIFARE Classic 1K, an
# NTAG21x. No common tag has a 10-byte UID, so that one is made up: the ATQA's UID-size bits
# say "triple" (0x84), and SAK 00 claims no ISO 14443-4, so no ATS follows the UID.
_TAG_TYPES = {4: (b"\x00\x04", 0x08), 7: (b"\x00\x44", 0x00), 10: (b"\x00\x84", 0x00)}

HostFrameKind = Literal["command", "ack", "nack"]


def pn532_frame(body: bytes) -> bytes:
    """A chip-to-host information frame around `body` (TFI onwards): normal up to 255 bytes,
    extended beyond, as the chip itself chooses."""
    if len(body) <= 0xFF:
        head = bytes([0x00, 0x00, 0xFF, len(body), -len(body) & 0xFF])
    else:
        high, low = divmod(len(body), 256)
        head = bytes([0x00, 0x00, 0xFF, 0xFF, 0xFF, high, low, -(high + low) & 0xFF])
    return head + body + bytes([-sum(body) & 0xFF, 0x00])


class Pn532FrameReader:
    """Cuts the host's byte stream into frames the way the chip's HSU does.

    Anything before a `00 FF` start code is preamble or wake-up noise and is skipped. A frame
    whose length or data checksum does not add up is dropped without an answer (the chip only
    ever sends ACK, never NACK, so the host notices the missing ACK and resends); the search
    then resumes right after the bad start code, so a good frame hidden behind it is found.
    """

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[tuple[HostFrameKind, bytes]]:
        """The frames that `data` completes: commands with their body (TFI onwards), ACKs
        and NACKs with an empty body."""
        buffer = self._buffer
        buffer += data
        frames: list[tuple[HostFrameKind, bytes]] = []
        while True:
            start = buffer.find(b"\x00\xff")
            if start < 0:
                # A lone trailing 00 may be the first half of the next start code.
                del buffer[: len(buffer) - 1 if buffer.endswith(b"\x00") else len(buffer)]
                return frames
            del buffer[:start]
            if len(buffer) < 4:
                return frames
            length, length_check = buffer[2], buffer[3]
            if (length, length_check) in ((0x00, 0xFF), (0xFF, 0x00)):
                frames.append(("ack" if length == 0 else "nack", b""))
                del buffer[:4]
                continue
            if (length, length_check) == (0xFF, 0xFF):
                if len(buffer) < 7:
                    return frames
                high, low, check = buffer[4], buffer[5], buffer[6]
                size, header = high * 256 + low, 7
                length_ok = (high + low + check) & 0xFF == 0
            else:
                size, header = length, 4
                length_ok = (length + length_check) & 0xFF == 0
            if not length_ok or not 1 <= size <= _MAX_BODY:
                del buffer[:2]
                continue
            if len(buffer) < header + size + 1:
                return frames
            body = bytes(buffer[header : header + size])
            if (sum(body) + buffer[header + size]) & 0xFF:
                del buffer[:2]
                continue
            del buffer[: header + size + 1]
            frames.append(("command", body))


class _BadParameters(Exception):
    """The command's parameters make no sense: the chip answers with its error frame."""


# ---------------------------------------------------------------------------------------------
# The reader families


class _Device:
    """One family's behaviour; the emulator feeds it the host's bytes, tags and time."""

    baudrate = 9600

    def __init__(self, emulator: ReaderEmulator) -> None:
        self.emulator = emulator

    def power_on(self) -> None:
        """The reader has just got power (start or replug)."""
        for uid in self.emulator.laid:
            self.tag_laid(uid)

    def host_wrote(self, data: bytes) -> None:
        # These readers only talk; whatever the host sends is kept for tests and ignored.
        self.emulator.received.append(data)

    def host_flushed(self) -> None:
        """The client flushed its input (pyserial does so when it opens the port)."""

    def tag_laid(self, uid: str) -> None:
        """A tag has come into the field."""

    def tag_lifted(self, uid: str) -> None:
        """A tag has left the field."""

    def next_due(self) -> float | None:
        """When (time.monotonic) `tick` next has something to do, or None."""
        return None

    def tick(self, now: float) -> None:
        """Do whatever is due by `now`."""


class _Rdm6300(_Device):
    """Sends each tag in the field again and again for as long as it lies there."""

    def __init__(self, emulator: ReaderEmulator) -> None:
        super().__init__(emulator)
        self._next_repeat: float | None = None

    def tag_laid(self, uid: str) -> None:
        self.emulator.send_frame(em4100_frame(uid, crlf=False))
        if self._next_repeat is None:
            self._next_repeat = time.monotonic() + self.emulator.repeat_interval

    def tag_lifted(self, uid: str) -> None:
        if not self.emulator.laid:
            self._next_repeat = None

    def next_due(self) -> float | None:
        return self._next_repeat

    def tick(self, now: float) -> None:
        if self._next_repeat is None or now < self._next_repeat:
            return
        for uid in self.emulator.laid:
            self.emulator.send_frame(em4100_frame(uid, crlf=False))
        self._next_repeat = now + self.emulator.repeat_interval


class _Id12la(_Device):
    """Sends one frame each time a tag is presented; removal is not reported on the line."""

    def tag_laid(self, uid: str) -> None:
        self.emulator.send_frame(em4100_frame(uid, crlf=True))


class _LineBridge(_Device):
    """An Arduino with an MFRC522 that prints one text line per card.

    Opening a real Arduino's port resets the board through DTR, and the sketch prints its
    banner again. A pty has no DTR, and pyserial discards what was waiting when it opens the
    port, so the emulator takes the client's input flush (which that open does) as the reset.
    """

    BANNER = (b"Firmware Version: 0x92 = v2.0\r\n", b"Ready: lay a card on the reader\r\n")

    def power_on(self) -> None:
        for line in self.BANNER:
            self.emulator.send_frame(line)
        super().power_on()

    def host_flushed(self) -> None:
        self.power_on()

    def tag_laid(self, uid: str) -> None:
        spaced = " ".join(uid[i : i + 2] for i in range(0, len(uid), 2))
        text = self.emulator.line_format.format(hex=uid, spaced=spaced)
        self.emulator.send_frame(text.encode() + b"\r\n")


@dataclass
class _Poll:
    """An InListPassiveTarget the chip is still working on (it retries for ever by default)."""

    max_targets: int
    wanted: str | None
    type_a: bool = True
    # Tags this poll cannot see: they were still selected from the previous poll.
    blind_to: set[str] = field(default_factory=set)


class _Pn532(_Device):
    """The PN532 firmware v1.6 over HSU: ACK every good command frame, then answer it."""

    def __init__(self, emulator: ReaderEmulator) -> None:
        super().__init__(emulator)
        self.baudrate = 115200
        self._frames = Pn532FrameReader()
        self._baudrate_after_ack: int | None = None
        self._passive_retries = 0xFF
        self._selected: set[str] = set()
        self._listed: list[str] = []
        self._registers = dict(_REGISTER_DEFAULTS)
        self._poll: _Poll | None = None
        self._last_answer: bytes | None = None
        self._commands: dict[int, Callable[[bytes], bytes | None]] = {
            0x00: self._diagnose,
            0x02: self._get_firmware_version,
            0x06: self._read_register,
            0x08: self._write_register,
            0x10: self._set_serial_baudrate,
            0x12: self._set_parameters,
            0x14: self._sam_configuration,
            0x16: self._power_down,
            0x32: self._rf_configuration,
            0x44: self._in_deselect,
            0x4A: self._in_list_passive_target,
            0x52: self._in_release,
        }

    def host_wrote(self, data: bytes) -> None:
        for kind, body in self._frames.feed(data):
            if kind == "command":
                self.emulator.received.append(body)
            elif kind == "ack":
                self.emulator.acks_received += 1
            if self.emulator.silent:
                continue
            if kind == "ack":
                self._host_ack()
            elif kind == "nack":
                if self._last_answer is not None:
                    self.emulator.send_frame(self._last_answer)
            else:
                self._command(body)

    def _host_ack(self) -> None:
        # An ACK aborts the command in progress; after SetSerialBaudrate it confirms the switch.
        self._poll = None
        if self._baudrate_after_ack is not None:
            self.baudrate, self._baudrate_after_ack = self._baudrate_after_ack, None

    def _command(self, body: bytes) -> None:
        # A new command also ends whatever the chip was still doing.
        self._poll = None
        self._baudrate_after_ack = None
        self.emulator.send_frame(PN532_ACK)
        handler = self._commands.get(body[1]) if len(body) >= 2 and body[0] == _HOST_TFI else None
        if handler is None:
            self._answer_frame(PN532_ERROR)
            return
        try:
            answer = handler(body[2:])
        except _BadParameters:
            self._answer_frame(PN532_ERROR)
            return
        if answer is not None:
            self._answer(body[1], answer)

    def _answer(self, code: int, data: bytes) -> None:
        self._answer_frame(pn532_frame(bytes([_CHIP_TFI, code + 1]) + data))

    def _answer_frame(self, frame: bytes) -> None:
        self._last_answer = frame
        self.emulator.send_frame(frame)

    def tag_laid(self, uid: str) -> None:
        if self._poll is not None:
            answer = self._search(self._poll)
            if answer is not None:
                self._poll = None
                self._answer(0x4A, answer)

    def tag_lifted(self, uid: str) -> None:
        self._selected.discard(uid)

    # The commands: each takes the parameters and returns the response data, or None when
    # the answer comes later.

    def _diagnose(self, params: bytes) -> bytes:
        if not params or params[0] != 0x00:  # only the line test, which echoes everything
            raise _BadParameters
        return params

    def _get_firmware_version(self, params: bytes) -> bytes:
        return bytes([0x32, 0x01, 0x06, 0x07])  # PN532, firmware 1.6, ISO 18092 + 14443 A/B

    def _read_register(self, params: bytes) -> bytes:
        if not params or len(params) % 2:
            raise _BadParameters
        addresses = struct.unpack(f">{len(params) // 2}H", params)
        return bytes(self._registers.get(address, 0) for address in addresses)

    def _write_register(self, params: bytes) -> bytes:
        if not params or len(params) % 3:
            raise _BadParameters
        for address, value in struct.iter_unpack(">HB", params):
            self._registers[address] = value
        return b""

    def _set_serial_baudrate(self, params: bytes) -> bytes:
        if len(params) != 1 or params[0] >= len(_BAUD_RATES):
            raise _BadParameters
        self._baudrate_after_ack = _BAUD_RATES[params[0]]
        return b""

    def _set_parameters(self, params: bytes) -> bytes:
        if len(params) != 1:
            raise _BadParameters
        return b""

    def _sam_configuration(self, params: bytes) -> bytes:
        if not 1 <= len(params) <= 3 or not 1 <= params[0] <= 4:
            raise _BadParameters
        return b""

    def _power_down(self, params: bytes) -> bytes:
        if not 1 <= len(params) <= 2:
            raise _BadParameters
        return b"\x00"

    def _rf_configuration(self, params: bytes) -> bytes:
        if not params or _RF_ITEM_SIZES.get(params[0]) != len(params) - 1:
            raise _BadParameters
        item, settings = params[0], params[1:]
        if item == 0x01 and not settings[0] & 0x01:  # RF field off: every tag starts afresh
            self._selected.clear()
        elif item == 0x05:
            self._passive_retries = settings[2]
        return b""

    def _in_deselect(self, params: bytes) -> bytes:
        if len(params) != 1:
            raise _BadParameters
        return b"\x00"

    def _in_release(self, params: bytes) -> bytes:
        if len(params) != 1:
            raise _BadParameters
        target = params[0]
        if target == 0:
            self._selected.clear()
        elif target <= len(self._listed):
            self._selected.discard(self._listed[target - 1])
        return b"\x00"

    def _in_list_passive_target(self, params: bytes) -> bytes | None:
        if len(params) < 2 or params[0] not in (1, 2):
            raise _BadParameters
        if params[1] == 0x00:
            poll = _Poll(params[0], wanted=_uid_to_select(params[2:]))
        else:  # only 106 kbps type A tags lie on this reader: other kinds are never found
            poll = _Poll(params[0], wanted=None, type_a=False)
        answer = self._search(poll)
        if answer is None:
            self._poll = poll
        return answer

    def _search(self, poll: _Poll) -> bytes | None:
        """NbTg and the targets found, or None while the chip keeps searching."""
        seen = [uid for uid in self.emulator.laid if poll.type_a
                and uid not in poll.blind_to and poll.wanted in (None, uid)]
        if self.emulator.alternate_misses:
            # A tag with a 7- or 10-byte UID left selected by the previous poll does not answer
            # this one; the failed attempt resets it, so the next poll finds it again.
            stuck = {uid for uid in seen if uid in self._selected and len(uid) > 8}
            self._selected -= stuck
            poll.blind_to |= stuck
            seen = [uid for uid in seen if uid not in stuck]
        found = seen[: poll.max_targets]
        if not found:
            return b"\x00" if self._passive_retries != 0xFF else None
        self._selected.update(found)
        self._listed = found
        answer = bytearray([len(found)])
        for number, uid in enumerate(found, start=1):
            raw = bytes.fromhex(uid)
            atqa, sak = _TAG_TYPES[len(raw)]
            answer += bytes([number]) + atqa + bytes([sak, len(raw)]) + raw
        return bytes(answer)


def _uid_to_select(initiator_data: bytes) -> str | None:
    """The UID an InListPassiveTarget asks for, without the 0x88 cascade tags; None for any."""
    data = initiator_data
    if not data:
        return None
    if len(data) == 8 and data[0] == 0x88:
        data = data[1:]
    elif len(data) == 12 and data[0] == 0x88 and data[4] == 0x88:
        data = data[1:4] + data[5:]
    elif len(data) != 4:
        raise _BadParameters
    return data.hex().upper()


_DEVICES: dict[str, Callable[[ReaderEmulator], _Device]] = {
    "pn532": _Pn532,
    "rdm6300": _Rdm6300,
    "id12la": _Id12la,
    "line": _LineBridge,
}


# ---------------------------------------------------------------------------------------------
# The emulator: a pty, a thread that owns its master side, and the requests tests make


@dataclass
class _Request:
    """Something a caller wants done on the emulator thread, and how it went."""

    action: Callable[[], None]
    done: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None


class ReaderEmulator:
    """One emulated reader of a family in FAMILIES on its own pseudo-terminal.

    `link` is kept pointing at the current pty (like /dev/serial/by-id/...). `repeat_interval`
    is the RDM6300's repeat period; `line_format` the bridge's text per card, with {hex} and
    {spaced} (lines end in CR LF). `alternate_misses` makes a PN532 miss a 7- or 10-byte tag
    every second poll unless the host switched the RF field off or released the tag in
    between, as real ones were seen to do (4-byte tags were read every time); with endless
    retries the miss shows as no answer at all. `byte_delay` paces every byte the reader sends
    (9600 baud is about 0.00104 s a byte).

    The emulator's thread owns the pty's master side; lay, lift and the other requests are
    carried out on that thread and have taken effect when they return.
    """

    def __init__(self, family: str, *, link: Path | None = None, repeat_interval: float = 0.1,
                 line_format: str = "Card UID: {spaced}", alternate_misses: bool = False,
                 byte_delay: float = 0.0) -> None:
        if family not in FAMILIES:
            raise ValueError(f"unknown reader family {family!r}; choose from {FAMILIES}")
        try:
            line_format.format(hex="04A1B2C3", spaced="04 A1 B2 C3")
        except (KeyError, IndexError) as error:
            raise ValueError(f"line_format may only use {{hex}} and {{spaced}}: {error}") from None
        self.family = family
        self.link = link
        self.repeat_interval = repeat_interval
        self.line_format = line_format
        self.alternate_misses = alternate_misses
        self.byte_delay = byte_delay
        self.received: list[bytes] = []
        """pn532: the body of every command frame the host sent, from its TFI (D4) on, in
        order (ACKs are only counted); other families: the host's raw writes."""
        self.acks_received = 0
        """pn532: how many ACK frames the host sent (to abort, or to confirm a baud change)."""
        self.on_frame_sent: Callable[[bytes, float], None] | None = None
        """Called on the emulator thread with each frame (PN532 ACK, answer or error frame;
        EM4100 frame; bridge line) and time.perf_counter() right after its last byte."""
        self.laid: list[str] = []
        """The tags on the reader, in the order they were laid."""
        self.silent = False
        self._device: _Device = _DEVICES[family](self)
        self._master: int | None = None
        self._slave: int | None = None
        self._slave_path = ""
        self._requests: queue.SimpleQueue[_Request] = queue.SimpleQueue()
        self._wake_read = self._wake_write = -1
        self._thread: threading.Thread | None = None
        self._stopping = False

    @property
    def port(self) -> str:
        """The path a client opens: the link if there is one, else the pty's slave."""
        return str(self.link) if self.link is not None else self._slave_path

    @property
    def plugged(self) -> bool:
        """Whether the reader is on the line (started and not unplugged)."""
        return self._master is not None

    @property
    def baudrate(self) -> int:
        """The speed the device believes it talks at (a pty ignores it): a PN532 changes it
        when the host confirms a SetSerialBaudrate, and starts at 115200 again after a replug."""
        return self._device.baudrate

    def start(self) -> str:
        """Open the pty, start the thread and return the port path."""
        if self._thread is not None:
            raise RuntimeError("the emulator is already running")
        self._stopping = False
        self._wake_read, self._wake_write = os.pipe()
        self._plug()
        self._thread = threading.Thread(target=self._run, name=f"{self.family}-emulator",
                                        daemon=True)
        self._thread.start()
        return self.port

    def close(self) -> None:
        """Stop the thread, close the pty and remove the link."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        self._stopping = True
        os.write(self._wake_write, b"\0")
        thread.join(_CALL_TIMEOUT)
        if self._master is not None:
            self._unplug_now()
        os.close(self._wake_read)
        os.close(self._wake_write)

    def __enter__(self) -> ReaderEmulator:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def lay(self, uid: str) -> None:
        """A tag is laid on the reader; ValueError for a bad UID or one already there."""
        uid = normalise_uid(self.family, uid)

        def lay_now() -> None:
            if uid in self.laid:
                raise ValueError(f"{uid} is already on the reader")
            self.laid.append(uid)
            self._device.tag_laid(uid)

        self._on_thread(lay_now)

    def lift(self, uid: str | None = None) -> None:
        """That tag (or every tag) is lifted off the reader; ValueError if it is not there."""
        wanted = None if uid is None else normalise_uid(self.family, uid)

        def lift_now() -> None:
            if wanted is not None and wanted not in self.laid:
                raise ValueError(f"{wanted} is not on the reader")
            for gone in [wanted] if wanted is not None else list(self.laid):
                self.laid.remove(gone)
                self._device.tag_lifted(gone)

        self._on_thread(lift_now)

    def garbage(self, data: bytes) -> None:
        """Write these bytes to the client now, even while silent (line noise, a glitch)."""

        def write_now() -> None:
            if self._master is None:
                raise RuntimeError("the reader is unplugged")
            self._write(self._master, data)

        self._on_thread(write_now)

    def go_silent(self, silent: bool = True) -> None:
        """Hang (answer and send nothing, though the host's frames are still recorded), or
        with False carry on. Tags laid meanwhile are on the reader when it wakes."""

        def set_now() -> None:
            self.silent = silent

        self._on_thread(set_now)

    def unplug(self) -> None:
        """Pull the cable: the client's next read or write fails and the link disappears."""
        self._on_thread(self._unplug_now)

    def replug(self) -> None:
        """Plug in again (unplugging first if needed): a new pty, the link pointed at it, the
        device in its power-on state. Tags still lying on the reader are found again."""

        def replug_now() -> None:
            if self._master is not None:
                self._unplug_now()
            self._plug()

        if self._thread is None:
            raise RuntimeError("the emulator has not been started")
        self._on_thread(replug_now)

    def wait_for(self, predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
        """Whether `predicate` became true within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.002)
        return True

    def send_frame(self, frame: bytes) -> None:
        """Send one frame to the client unless silent (the devices call this, on the thread)."""
        if self.silent or self._master is None:
            return
        self._write(self._master, frame)
        if self.on_frame_sent is not None:
            self.on_frame_sent(frame, time.perf_counter())

    # On the emulator thread (or before it starts)

    def _plug(self) -> None:
        master, slave = os.openpty()
        # Raw, so bytes written before the client sets its own modes are not cooked; packet
        # mode, so the master hears when the client flushes its input.
        tty.setraw(slave)
        fcntl.ioctl(master, termios.TIOCPKT, struct.pack("i", 1))
        os.set_blocking(master, False)
        # Our own slave descriptor stays open: without it, a client closing and reopening the
        # port (nfcpy does so to change speed) would leave the master reading EIO.
        self._master, self._slave, self._slave_path = master, slave, os.ttyname(slave)
        if self.link is not None:
            self.link.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.link.with_name(f".{self.link.name}.{os.getpid()}")
            with suppress(FileNotFoundError):
                temporary.unlink()
            os.symlink(self._slave_path, temporary)
            os.replace(temporary, self.link)
        self.silent = False
        self._device = _DEVICES[self.family](self)
        self._device.power_on()

    def _unplug_now(self) -> None:
        if self._master is None or self._slave is None:
            raise RuntimeError("the reader is already unplugged")
        os.close(self._master)
        os.close(self._slave)
        self._master = self._slave = None
        if self.link is not None:
            with suppress(FileNotFoundError):
                self.link.unlink()

    def _write(self, master: int, data: bytes) -> None:
        if self.byte_delay > 0:
            for index in range(len(data)):
                self._write_all(master, data[index : index + 1])
                time.sleep(self.byte_delay)
        else:
            self._write_all(master, data)

    @staticmethod
    def _write_all(master: int, data: bytes) -> None:
        pending = memoryview(data)
        while pending:
            try:
                pending = pending[os.write(master, pending) :]
            except BlockingIOError:
                # Nobody has drained the line for a while: the rest is lost, as on a UART.
                if not select.select([], [master], [], 0.5)[1]:
                    return

    def _on_thread(self, action: Callable[[], None]) -> None:
        thread = self._thread
        if thread is None or threading.current_thread() is thread:
            action()
            return
        if not thread.is_alive():
            raise RuntimeError("the emulator thread has stopped")
        request = _Request(action)
        self._requests.put(request)
        os.write(self._wake_write, b"\0")
        if not request.done.wait(_CALL_TIMEOUT):
            raise RuntimeError("the emulator thread did not carry out the request")
        if request.error is not None:
            raise request.error

    def _run(self) -> None:
        while not self._stopping:
            due = self._device.next_due()
            timeout = None if due is None else max(0.0, due - time.monotonic())
            watched = [self._wake_read] if self._master is None else [self._wake_read,
                                                                       self._master]
            readable = select.select(watched, [], [], timeout)[0]
            if self._wake_read in readable:
                os.read(self._wake_read, 4096)
                self._carry_out_requests()
            if self._master is not None and self._master in readable:
                self._read_host(self._master)
            self._device.tick(time.monotonic())

    def _carry_out_requests(self) -> None:
        while True:
            try:
                request = self._requests.get_nowait()
            except queue.Empty:
                return
            try:
                request.action()
            except Exception as error:  # handed to the caller, who raises it
                request.error = error
            request.done.set()

    def _read_host(self, master: int) -> None:
        try:
            packet = os.read(master, 4096)
        except BlockingIOError:
            return
        except OSError as error:
            if error.errno == errno.EIO:  # no slave open at the moment
                return
            raise
        if not packet:
            return
        if packet[0] == termios.TIOCPKT_DATA:
            if len(packet) > 1:
                self._device.host_wrote(packet[1:])
        elif packet[0] & termios.TIOCPKT_FLUSHREAD:
            self._device.host_flushed()


# ---------------------------------------------------------------------------------------------
# The command line


def run_script_line(emulator: ReaderEmulator, line: str) -> str | None:
    """Carry out one script command and return the reply (`ok ...` or `error: ...`), or None
    for a blank line or a comment."""
    words = line.split("#", 1)[0].split()
    if not words:
        return None
    command, arguments = words[0].lower(), words[1:]
    try:
        if command == "lay" and len(arguments) == 1:
            emulator.lay(arguments[0])
            return f"ok lay {normalise_uid(emulator.family, arguments[0])}"
        if command == "lift" and len(arguments) <= 1:
            emulator.lift(arguments[0] if arguments else None)
            return "ok lift " + (normalise_uid(emulator.family, arguments[0]) if arguments
                                 else "all")
        if command == "garbage" and arguments:
            data = bytes.fromhex("".join(arguments))
            emulator.garbage(data)
            return f"ok garbage {len(data)} bytes"
        if command in ("silent", "wake") and not arguments:
            emulator.go_silent(command == "silent")
            return f"ok {command}"
        if command == "unplug" and not arguments:
            emulator.unplug()
            return "ok unplug"
        if command == "replug" and not arguments:
            emulator.replug()
            return f"ok replug {emulator.port}"
        if command == "wait" and len(arguments) == 1:
            seconds = float(arguments[0])
            if not 0 <= seconds <= 3600:
                raise ValueError(f"cannot wait {arguments[0]} seconds")
            time.sleep(seconds)
            return f"ok wait {seconds:g}"
        if command == "quit" and not arguments:
            return "ok quit"
    except (ValueError, RuntimeError, OSError) as error:
        return f"error: {error}"
    known = ("lay", "lift", "garbage", "silent", "wake", "unplug", "replug", "wait", "quit")
    if command in known:
        return f"error: wrong arguments for {command}: {' '.join(arguments) or '(none)'}"
    return f"error: unknown command {command!r}"


def main(argv: list[str] | None = None) -> int:
    """Run an emulated reader: print its port, then obey a script on stdin until quit or EOF."""
    parser = argparse.ArgumentParser(
        prog="python -m companion.reader.emulator",
        description="An emulated card reader on a pseudo-terminal. Prints the port on the first "
        "line, then reads commands from stdin, one per line: lay UID, lift [UID], garbage HEX, "
        "silent, wake, unplug, replug, wait SECONDS, quit (# starts a comment). Each command "
        "is answered with 'ok ...' or 'error: ...'.",
    )
    parser.add_argument("family", choices=FAMILIES)
    parser.add_argument("--link", type=Path, default=None,
                        help="keep a symlink here pointing at the current pty")
    parser.add_argument("--repeat-interval", type=float, default=0.1,
                        help="seconds between an RDM6300's repeats (default 0.1)")
    parser.add_argument("--line-format", default="Card UID: {spaced}",
                        help="the line family's text per card; {hex} and {spaced} are replaced")
    parser.add_argument("--alternate-misses", action="store_true",
                        help="pn532: miss a tag every second poll unless the host resets RF")
    args = parser.parse_args(argv)
    try:
        emulator = ReaderEmulator(args.family, link=args.link,
                                  repeat_interval=args.repeat_interval,
                                  line_format=args.line_format,
                                  alternate_misses=args.alternate_misses)
    except ValueError as error:
        parser.error(f"bad option: {error}")
    # Ctrl+C or SIGTERM ends it like quit, even when started with SIGINT ignored.
    with emulator, StopSignals():
        try:
            print(emulator.port, flush=True)
            for line in sys.stdin:
                reply = run_script_line(emulator, line)
                if reply is not None:
                    print(reply, flush=True)
                if reply == "ok quit":
                    break
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
