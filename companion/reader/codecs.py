"""Byte codecs for the three families of serial card readers: PN532, EM4100 ASCII, line bridges.

Pure functions and small incremental decoders only: the serial thread feeds whatever bytes it
read, in chunks of any size, and gets back whole frames. Decoders never raise on line noise;
they drop what cannot be a frame and count it in `discarded`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import reduce
from operator import xor


class CodecError(ValueError):
    """A payload that does not have the shape its command code promises."""


def uid_hex(uid: bytes) -> str:
    """The UID as the app names tags: upper-case hex without separators."""
    return uid.hex().upper()


class _Scan(Enum):
    """What a decoder can say about a candidate frame besides "here it is"."""

    INCOMPLETE = "wait for more bytes"
    REJECTED = "not a frame"


# --- PN532 over HSU -----------------------------------------------------------------------------

PN532_ACK = bytes.fromhex("00 00 FF 00 FF 00")
PN532_NACK = bytes.fromhex("00 00 FF FF 00 00")
PN532_ERROR = bytes.fromhex("00 00 FF 01 FF 7F 81 00")
HOST_TO_PN532 = 0xD4
PN532_TO_HOST = 0xD5
IN_LIST_PASSIVE_TARGET_RESPONSE = 0x4B

_PN532_SYNC = b"\x00\xff"
_PN532_ERROR_TFI = 0x7F  # the error frame is a one-byte frame whose only byte is 7F
_PN532_MAX_DATA = 265  # TFI and PD0..PDn together, extended frames included
_PN532_NORMAL_MAX_DATA = 255
_PN532_FILL = (0x00, 0x55)  # 00 pads frames (any number is allowed); 55 wakes the chip over HSU
_ATS_FOLLOWS = 0x20  # SEL_RES bit of an ISO 14443-4 card, which answers RATS with an ATS
_UID_LENGTHS = (4, 7, 10)


@dataclass(frozen=True)
class Pn532Frame:
    """One frame off the wire: an ACK, a NACK, the error frame or a data frame."""

    kind: str  # "ack" | "nack" | "error" | "data"
    tfi: int = 0  # D4 or D5 for data frames; whatever arrived, for the caller to check
    payload: bytes = b""  # PD0..PDn: the command or response code first, then its parameters


def _checksum(data: bytes) -> int:
    """The byte that brings the sum of `data` to zero modulo 256 (LCS and DCS)."""
    return -sum(data) & 0xFF


def pn532_frame(tfi: int, payload: bytes) -> bytes:
    """Wrap a payload in a PN532 frame, switching to the extended header above 255 data bytes."""
    if not payload:
        raise ValueError("a PN532 data frame needs at least a command or response code")
    data = bytes([tfi]) + payload
    if len(data) > _PN532_MAX_DATA:
        raise ValueError(f"a PN532 frame holds at most {_PN532_MAX_DATA} bytes with the TFI, "
                         f"not {len(data)}")
    if len(data) <= _PN532_NORMAL_MAX_DATA:
        header = bytes([len(data), _checksum(bytes([len(data)]))])
    else:
        length = len(data).to_bytes(2, "big")
        header = b"\xff\xff" + length + bytes([_checksum(length)])
    return b"\x00" + _PN532_SYNC + header + data + bytes([_checksum(data)]) + b"\x00"


def pn532_command(code: int, params: bytes = b"") -> bytes:
    """The frame the host sends to run command `code` with `params`."""
    return pn532_frame(HOST_TO_PN532, bytes([code]) + params)


def _pn532_frame_at(buffer: bytearray, start: int) -> tuple[Pn532Frame, int] | _Scan:
    """Judge the candidate whose `00 FF` sync is at `start`; on success, also where it ends."""
    if len(buffer) - start < 4:
        return _Scan.INCOMPLETE
    length, length_check = buffer[start + 2], buffer[start + 3]
    if (length, length_check) == (0x00, 0xFF):
        return Pn532Frame("ack"), start + 4
    if (length, length_check) == (0xFF, 0x00):
        return Pn532Frame("nack"), start + 4
    if (length, length_check) == (0xFF, 0xFF):
        if len(buffer) - start < 7:
            return _Scan.INCOMPLETE
        header = buffer[start + 4:start + 7]
        length = int.from_bytes(header[:2], "big")
        if sum(header) & 0xFF or not 1 <= length <= _PN532_MAX_DATA:
            return _Scan.REJECTED
        data_start = start + 7
    else:
        if (length + length_check) & 0xFF or length == 0:
            return _Scan.REJECTED
        data_start = start + 4
    end = data_start + length + 1  # the data checksum is the last byte; the postamble is not
    if len(buffer) < end:
        return _Scan.INCOMPLETE
    if sum(buffer[data_start:end]) & 0xFF:
        return _Scan.REJECTED
    tfi, payload = buffer[data_start], bytes(buffer[data_start + 1:end - 1])
    if tfi == _PN532_ERROR_TFI and not payload:
        return Pn532Frame("error"), end
    return Pn532Frame("data", tfi, payload), end


class Pn532Decoder:
    """Turns the bytes of a PN532 HSU link into frames, whatever the chunking and the noise.

    It synchronises on `00 FF` and checks both checksums. A candidate that fails gives up only
    its `00 FF`, and the search goes on from the byte after it: a real frame hidden among the
    bytes a false header claimed is still found. A frame is complete at its data checksum; the
    postamble is not waited for (it is padding, skipped like any leading `00`). A false header
    can hold the frames after it back until enough bytes arrive to refute it, never more than
    the largest frame, so the buffer stays under 300 bytes between calls.
    """

    def __init__(self) -> None:
        self._buffer = bytearray()
        self.discarded = 0
        """Bytes thrown away: noise, broken frames. `00` and `55` padding between frames is
        expected on a healthy line and is not counted."""

    @property
    def buffered(self) -> int:
        """Bytes held back as the possible start of a frame."""
        return len(self._buffer)

    def reset(self) -> None:
        """Forget any partial frame, e.g. after the port was opened again."""
        self._buffer.clear()

    def feed(self, data: bytes) -> list[Pn532Frame]:
        """Take the next bytes off the line; return the frames they complete."""
        buffer = self._buffer
        buffer += data
        frames: list[Pn532Frame] = []
        start = 0
        while True:
            sync = buffer.find(_PN532_SYNC, start)
            if sync < 0:
                # A last 00 may be the first half of the next sync.
                keep = 1 if buffer[start:].endswith(b"\x00") else 0
                self._drop(buffer[start:len(buffer) - keep])
                start = len(buffer) - keep
                break
            self._drop(buffer[start:sync])
            found = _pn532_frame_at(buffer, sync)
            if found is _Scan.INCOMPLETE:
                start = sync
                break
            if found is _Scan.REJECTED:
                self.discarded += len(_PN532_SYNC)
                start = sync + len(_PN532_SYNC)
                continue
            frame, start = found
            frames.append(frame)
        del buffer[:start]
        return frames

    def _drop(self, noise: bytearray) -> None:
        self.discarded += len(noise) - sum(noise.count(fill) for fill in _PN532_FILL)


@dataclass(frozen=True)
class Pn532Target:
    """One ISO 14443 type A card as InListPassiveTarget reports it at 106 kbps."""

    number: int  # Tg, the PN532's own number for the card
    sens_res: bytes  # ATQA, 2 bytes in wire order
    sel_res: int  # SAK
    uid: bytes  # NFCID1: 4, 7 or 10 bytes
    ats: bytes = b""  # ISO 14443-4 cards only, starting with its own length byte


def parse_passive_targets(payload: bytes) -> list[Pn532Target]:
    """The cards in the payload of an InListPassiveTarget response (106 kbps type A).

    An ATS is read when SEL_RES announces one and bytes are left; a card that announces one
    but ends the payload without it (the host turned automatic RATS off) gets an empty ATS.
    """
    if payload[:1] != bytes([IN_LIST_PASSIVE_TARGET_RESPONSE]):
        raise CodecError(f"not an InListPassiveTarget response: {payload[:1].hex() or 'empty'}")
    if len(payload) < 2:
        raise CodecError("InListPassiveTarget response without a target count")
    count, position = payload[1], 2
    targets = []
    for index in range(count):
        header = payload[position:position + 5]
        if len(header) < 5:
            raise CodecError(f"target {index + 1} of {count} is cut short")
        number, sens_res, sel_res, uid_length = header[0], header[1:3], header[3], header[4]
        if uid_length not in _UID_LENGTHS:
            raise CodecError(f"target {index + 1} has a {uid_length}-byte UID, not 4, 7 or 10")
        position += 5
        uid = payload[position:position + uid_length]
        if len(uid) < uid_length:
            raise CodecError(f"the UID of target {index + 1} is cut short")
        position += uid_length
        ats = b""
        if sel_res & _ATS_FOLLOWS and position < len(payload):
            ats_length = payload[position]
            ats = payload[position:position + ats_length]
            if ats_length == 0 or len(ats) < ats_length:
                raise CodecError(f"the ATS of target {index + 1} is cut short")
            position += ats_length
        targets.append(Pn532Target(number, sens_res, sel_res, uid, ats))
    if position != len(payload):
        raise CodecError(f"{len(payload) - position} bytes after the last target")
    return targets


def passive_targets_payload(targets: Sequence[Pn532Target]) -> bytes:
    """The InListPassiveTarget response payload listing `targets` (what an emulator answers)."""
    payload = bytearray([IN_LIST_PASSIVE_TARGET_RESPONSE, len(targets)])
    for target in targets:
        if len(target.sens_res) != 2 or len(target.uid) not in _UID_LENGTHS:
            raise ValueError(f"not a type A target: {target}")
        payload += bytes([target.number]) + target.sens_res
        payload += bytes([target.sel_res, len(target.uid)]) + target.uid + target.ats
    return bytes(payload)


# --- EM4100 ASCII readers (RDM6300, ID-12LA / ID-20LA) ------------------------------------------

EM4100_STYLES = ("rdm6300", "id12la")

_STX, _ETX = b"\x02", b"\x03"
_ID12LA_TAIL = b"\r\n" + _ETX
_EM4100_HEX = 12  # 5 data bytes and the checksum, as ASCII hex
_HEX_DIGITS = frozenset(b"0123456789ABCDEFabcdef")
_EM4100_UID = re.compile(r"[0-9A-Fa-f]{10}")


@dataclass(frozen=True)
class Em4100Read:
    """One 125 kHz tag read: the version byte and the 32-bit number, as 10 hex characters."""

    uid: str  # upper case, e.g. "0C000621A5"
    style: str  # "rdm6300" (ETX right after the checksum) or "id12la" (CR LF before ETX)

    @property
    def card_number(self) -> int:
        """The 32-bit number without the version byte, as printed on 125 kHz cards."""
        return int(self.uid[2:], 16)


def _xor(data: bytes) -> int:
    return reduce(xor, data, 0)


def em4100_frame(uid: str, style: str = "rdm6300") -> bytes:
    """The frame a reader of `style` sends for the tag `uid` (10 hex characters)."""
    if not _EM4100_UID.fullmatch(uid):
        raise ValueError(f"an EM4100 UID is 10 hex characters, not {uid!r}")
    if style not in EM4100_STYLES:
        raise ValueError(f"unknown EM4100 frame style {style!r}; expected one of {EM4100_STYLES}")
    text = uid.upper() + f"{_xor(bytes.fromhex(uid)):02X}"
    tail = _ID12LA_TAIL if style == "id12la" else _ETX
    return _STX + text.encode("ascii") + tail


def _em4100_frame_at(buffer: bytearray, start: int) -> tuple[Em4100Read, int] | _Scan:
    """Judge the candidate whose STX is at `start`; on success, also where it ends."""
    digits = buffer[start + 1:start + 1 + _EM4100_HEX]
    if any(byte not in _HEX_DIGITS for byte in digits):
        return _Scan.REJECTED
    if len(digits) < _EM4100_HEX:
        return _Scan.INCOMPLETE
    tail_start = start + 1 + _EM4100_HEX
    tail = bytes(buffer[tail_start:tail_start + len(_ID12LA_TAIL)])
    if tail[:1] == _ETX:
        style, end = "rdm6300", tail_start + 1
    elif _ID12LA_TAIL.startswith(tail):
        if len(tail) < len(_ID12LA_TAIL):
            return _Scan.INCOMPLETE
        style, end = "id12la", tail_start + len(_ID12LA_TAIL)
    else:
        return _Scan.REJECTED
    decoded = bytes.fromhex(digits.decode("ascii"))
    if _xor(decoded[:5]) != decoded[5]:
        return _Scan.REJECTED
    return Em4100Read(digits[:10].decode("ascii").upper(), style), end


class Em4100Decoder:
    """Turns the bytes of an RDM6300 or ID-12LA/ID-20LA into reads, both frame styles at once.

    A frame is STX, 12 hex digits of either case, an optional CR LF, ETX, with the XOR of the five
    data bytes equal to the sixth. Whatever fails gives up only its STX; the search resumes at
    the next STX, even one inside the bytes the failed candidate spanned.
    """

    def __init__(self) -> None:
        self._buffer = bytearray()
        self.discarded = 0
        """Bytes thrown away because they were not part of a valid frame."""

    @property
    def buffered(self) -> int:
        """Bytes held back as the possible start of a frame."""
        return len(self._buffer)

    def reset(self) -> None:
        """Forget any partial frame, e.g. after the port was opened again."""
        self._buffer.clear()

    def feed(self, data: bytes) -> list[Em4100Read]:
        """Take the next bytes off the line; return the reads they complete."""
        buffer = self._buffer
        buffer += data
        reads: list[Em4100Read] = []
        start = 0
        while True:
            stx = buffer.find(_STX, start)
            if stx < 0:
                self.discarded += len(buffer) - start
                start = len(buffer)
                break
            self.discarded += stx - start
            found = _em4100_frame_at(buffer, stx)
            if found is _Scan.INCOMPLETE:
                start = stx
                break
            if found is _Scan.REJECTED:
                self.discarded += 1
                start = stx + 1
                continue
            read, start = found
            reads.append(read)
        del buffer[:start]
        return reads


# --- line bridges (a microcontroller with an MFRC522 printing one line per card) ----------------

DEFAULT_LINE_PATTERN = (
    r"(?i)^(?:(?P<removed>REMOVED)\s*:|(?:Card\s+)?UID\s*:|In\s+hex\s*:)?"
    r"\s*(?P<uid>[0-9A-F]{2}(?:[\s:-]?[0-9A-F]{2})*)$"
)
"""Matches the miguelbalboa/rfid examples (`Card UID: 04 A1 …`, `In hex:  E6 3A …`), the
`UID:` and `REMOVED:` lines of a bridge sketch, and a bare UID (`04A1…` or `04:A1:…`).

A custom pattern names the UID with a group called `uid` (or has it as group 1); a group called
`removed` that takes part in a match makes the line a removal."""

_UID_SEPARATORS = re.compile(r"[\s:-]+")
_HEX_TEXT = re.compile(r"[0-9A-Fa-f]+")
_UID_HEX_LENGTHS = tuple(2 * length for length in _UID_LENGTHS)


@dataclass(frozen=True)
class LineRead:
    """One line naming a card: laid on the reader, or (for bridges that say so) taken away."""

    uid: str  # upper-case hex without separators, 4, 7 or 10 bytes
    removed: bool = False


def _uid_from_text(text: str) -> str | None:
    """The UID written in `text`, or None when it is not 4, 7 or 10 well-written bytes.

    Bytes set apart by separators must be two digits each: `4 A1` could be 04 A1 or 4A 1…,
    and a guess would name the wrong card.
    """
    parts = _UID_SEPARATORS.split(text.strip())
    if len(parts) > 1 and any(len(part) != 2 for part in parts):
        return None
    digits = "".join(parts)
    if len(digits) not in _UID_HEX_LENGTHS or not _HEX_TEXT.fullmatch(digits):
        return None
    return digits.upper()


def _continues_a_number(before: str) -> bool:
    """Whether a bare UID after `before` may be the rest of a longer word or number: a guess
    would name the wrong card, so resynchronising skips it."""
    before = before.rstrip()
    return bool(before) and (before[-1].isalnum() or before[-1] in ":-")


class LineDecoder:
    """Turns the text a bridge prints into reads: one line per card, everything else ignored.

    A line that does not name a card as a whole is searched for one that starts later in it:
    an Arduino that resets mid-line leaves noise without a newline, glued to the next card's
    line, and that card must not be lost with the noise. A run longer than `max_line` bytes
    keeps only its last `max_line` bytes, for the same search when its newline comes.
    """

    def __init__(self, pattern: str | None = None, max_line: int = 256) -> None:
        source = DEFAULT_LINE_PATTERN if pattern is None else pattern
        try:
            self._pattern = re.compile(source)
        except re.error as error:
            raise ValueError(f"the UID line pattern {source!r} is not a valid regular "
                             f"expression: {error}") from error
        if self._pattern.groups < 1:
            raise ValueError(f"the UID line pattern {source!r} needs a group that captures "
                             "the UID")
        if max_line < 1:
            raise ValueError(f"max_line must be at least 1, not {max_line}")
        self._uid_group: int | str = "uid" if "uid" in self._pattern.groupindex else 1
        self._knows_removal = "removed" in self._pattern.groupindex
        self._max_line = max_line
        self._partial = b""
        self._overlong = False
        self.discarded = 0
        """Non-blank lines that named no card, noise cut off before a card's line, and runs
        longer than `max_line` bytes."""

    @property
    def buffered(self) -> int:
        """Bytes of a line whose newline has not arrived yet."""
        return len(self._partial)

    def reset(self) -> None:
        """Forget any partial line, e.g. after the port was opened again."""
        self._partial = b""
        self._overlong = False

    def feed(self, data: bytes) -> list[LineRead]:
        """Take the next bytes off the line; return the reads of the lines they complete."""
        *lines, self._partial = (self._partial + data).split(b"\n")
        reads: list[LineRead] = []
        for line in lines:
            cut, self._overlong = self._overlong or len(line) > self._max_line, False
            if cut:
                self.discarded += 1
                line = line[-self._max_line:]
            read = self._read(line, whole=not cut)
            if read is not None:
                reads.append(read)
        if len(self._partial) > self._max_line:
            self._partial = self._partial[-self._max_line:]
            self._overlong = True
        return reads

    def _read(self, line: bytes, whole: bool = True) -> LineRead | None:
        """The card `line` names, or the first one a later part of it names. `whole`: the line
        is all there (not the tail of a longer run), so it may be taken from its start."""
        text = line.decode("ascii", "ignore").strip()
        if not text:
            return None
        for start in range(0 if whole else 1, len(text)):
            found = self._parse(text[start:])
            if found is None:
                continue
            read, labelled = found
            if start and not labelled and _continues_a_number(text[:start]):
                continue  # the tail of a longer number (`UID: 04A1B2C3D4`), not a card
            if start:
                self.discarded += 1  # the noise before it
            return read
        if whole:
            self.discarded += 1
        return None

    def _parse(self, text: str) -> tuple[LineRead, bool] | None:
        """The card `text` names, and whether a label came before its UID."""
        match = self._pattern.search(text)
        uid_text = match.group(self._uid_group) if match else None
        uid = _uid_from_text(uid_text) if uid_text is not None else None
        if match is None or uid is None:
            return None
        removed = self._knows_removal and match.group("removed") is not None
        labelled = bool(text[:match.start(self._uid_group)].strip())
        return LineRead(uid, removed), labelled
