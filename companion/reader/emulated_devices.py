"""The emulated readers' common shape, and the readers that only talk: the RDM6300, the
ID-12LA (both 125 kHz EM4100) and an Arduino bridge that prints one text line per card.

The emulator (emulator_pty.py) feeds a device the host's bytes, the tags laid and lifted and
the time; the device answers through the emulator. The wire formats are written here a second
time, on purpose without codecs.py, so that a mistake cannot hide in both: third-party clients
are the judge (tests/reader).
"""

from __future__ import annotations

import time
from functools import reduce
from operator import xor
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .emulator_pty import ReaderEmulator


def em4100_frame(data: str, *, crlf: bool) -> bytes:
    """STX, the 10 hex digits, their XOR as 2 hex digits, (CR LF for the ID-12LA), ETX."""
    check = reduce(xor, bytes.fromhex(data))
    return b"\x02" + f"{data}{check:02X}".encode("ascii") + (b"\r\n" if crlf else b"") + b"\x03"


# ---------------------------------------------------------------------------------------------
# The reader families


class EmulatedDevice:
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


class EmulatedRdm6300(EmulatedDevice):
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


class EmulatedId12la(EmulatedDevice):
    """Sends one frame each time a tag is presented; removal is not reported on the line."""

    def tag_laid(self, uid: str) -> None:
        self.emulator.send_frame(em4100_frame(uid, crlf=True))


class EmulatedLineBridge(EmulatedDevice):
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
