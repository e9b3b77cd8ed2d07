"""The PN532 polling dialogue: wake the chip, configure it, then poll it for one type A card at
a time (two at most, so that stacked cards are seen as such) and hand what it sees to the
reader's presence tracker.

The serial reader (serial_reader.py) starts this on a line it opened when the family is
"pn532" or "auto"; the frames themselves are built and decoded in codecs.py.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from .codecs import (
    HOST_TO_PN532,
    PN532_ACK,
    PN532_TO_HOST,
    CodecError,
    Pn532Frame,
    parse_passive_targets,
    pn532_command,
    uid_hex,
)
from .presence import POLLED
from .serial_line import LineLost, ReaderProblem, SerialLine, Stopped

if TYPE_CHECKING:
    from .serial_reader import SerialReader

# The logger keeps the serial reader's name, where this dialogue used to live: the log lines
# (which print the logger's name) stay as they were.
log = logging.getLogger("companion.reader.serial_reader")

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
# MaxTg 2, 106 kbps ISO 14443 type A: a second card on the reader shows up in the same answer.
TWO_TYPE_A_TARGETS = b"\x02\x00"
PN532_IC = 0x32
ACK_TIMEOUT_S = 0.1
ANSWER_TIMEOUT_S = 0.5
GAP_BETWEEN_FRAMES_S = 0.001  # some USB adapters miss an ACK sent right after a frame
FAILED_POLLS_BEFORE_REINIT = 2


class Pn532Poller:
    """The dialogue with a PN532: wake it, configure it, then poll for one type A card."""

    def __init__(self, reader: SerialReader, line: SerialLine) -> None:
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
        failures = 0
        while True:
            try:
                answer = self.exchange(IN_LIST_PASSIVE_TARGET, TWO_TYPE_A_TARGETS)
                targets = parse_passive_targets(answer)
                if targets:  # reported before the RF-off exchange: no waiting
                    reader.sighting("pn532", [uid_hex(target.uid) for target in targets],
                                    POLLED)
                else:
                    reader.polled_nothing()
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


