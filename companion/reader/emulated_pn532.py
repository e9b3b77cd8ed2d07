"""The emulated PN532 (firmware v1.6 over HSU): its frames, cut from the host's byte stream
and built for the answers, and the firmware's answers to the commands clients send.

The wire format is written here a second time, on purpose without codecs.py, so that a mistake
cannot hide in both: third-party clients are the judge (tests/reader).
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from .emulated_devices import EmulatedDevice

if TYPE_CHECKING:
    from .emulator_pty import ReaderEmulator

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
# The firmware


@dataclass
class _Poll:
    """An InListPassiveTarget the chip is still working on (it retries for ever by default)."""

    max_targets: int
    wanted: str | None
    type_a: bool = True
    # Tags this poll cannot see: they were still selected from the previous poll.
    blind_to: set[str] = field(default_factory=set)


class EmulatedPn532(EmulatedDevice):
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
