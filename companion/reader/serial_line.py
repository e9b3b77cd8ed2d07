"""The line to a card reader: one opened port, pyserial's reader thread decoding what arrives,
and what can go wrong with it (the reader's exceptions, pyserial's errors in a person's words).

The supervisor in serial_reader.py opens a `SerialLine` for each attempt to reach the reader
and reads the decoded frames from it; the PN532 dialogue (pn532_polling.py) writes through it.
"""

from __future__ import annotations

import contextlib
import errno
import queue
from collections.abc import Callable
from typing import Any

import serial
import serial.threaded

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


class _ReaderThread(serial.threaded.ReaderThread):
    """pyserial's reader thread, made to report every way the port can fail.

    pyserial catches only SerialException around its read; when the cable goes just after
    bytes arrived, `in_waiting` raises OSError(EIO) instead (pyserial issue 401), the thread
    dies without `connection_lost`, and nobody would learn that the line is gone.
    """

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # whatever the port raised: the line is lost
            self.alive = False
            protocol = self.protocol
            if protocol is not None:
                protocol.connection_lost(error)


class SerialLine:
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
        self.thread = _ReaderThread(self.serial, lambda: self.protocol)
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
