"""A pretend card reader behind a pseudo-terminal, for demos and tests.

A client opens the pty's slave path (or a by-id style symlink to it) exactly as it would open
/dev/ttyUSB0 and hears a PN532 (HSU), an RDM6300, an ID-12LA or an Arduino that prints UIDs as
text. This module is the pty, the thread that owns its master side and the requests callers
make; the devices themselves are in emulated_devices.py and emulated_pn532.py, and the
scriptable command line in emulator.py.
"""

from __future__ import annotations

import errno
import fcntl
import os
import queue
import select
import struct
import termios
import threading
import time
import tty
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from .emulated_devices import EmulatedDevice, EmulatedId12la, EmulatedLineBridge, EmulatedRdm6300
from .emulated_pn532 import EmulatedPn532

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


_DEVICES: dict[str, Callable[[ReaderEmulator], EmulatedDevice]] = {
    "pn532": EmulatedPn532,
    "rdm6300": EmulatedRdm6300,
    "id12la": EmulatedId12la,
    "line": EmulatedLineBridge,
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
        self._device: EmulatedDevice = _DEVICES[family](self)
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
