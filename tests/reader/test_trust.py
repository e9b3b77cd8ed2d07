"""A reader players can trust: a cable pulled mid-read is reported and retried, phantom frames
lay nothing, missed polls lift nothing, stacked cards do nothing, and emulated lays are
recognised. The counts are the issue's (10,000 phantom frames, 1,000 polls with one miss in
18, 500 lays); the time is passed in, so every run is the same."""

from __future__ import annotations

import errno
import random
import threading
from typing import Any

import pytest

from companion.reader.codecs import (
    Em4100Decoder,
    LineDecoder,
    Pn532Decoder,
    Pn532Target,
    em4100_frame,
    parse_passive_targets,
    passive_targets_payload,
    pn532_frame,
    uid_hex,
)
from companion.reader.presence import (
    ONCE,
    POLLED,
    REPEATING,
    Change,
    PresenceTracker,
    Seen,
    is_phantom,
)
from companion.reader.serial_reader import ReaderSettings, SerialReader, rhythm_of
from companion.reader.watch import PHANTOM, READ, STACKED, UNSTEADY

from .test_reader_integration import EM_TAG, NTAG, Events

PN532_POLL_S = 0.1
RDM6300_REPEAT_S = 0.1
GAME_EVENTS = ("present", "removed")


def game_actions(changes: list[Change]) -> list[Change]:
    """The changes the game acts on (a "stacked" or "steady" moves nothing)."""
    return [change for change in changes if change.event in GAME_EVENTS]


# --- the cable pulled just after bytes arrived -------------------------------------------------


class PulledCable:
    """A stand-in serial port: delivers `frames`, then fails as a USB adapter pulled out does
    (pyserial's `in_waiting` raising OSError(EIO), not a SerialException)."""

    def __init__(self, frames: list[bytes], pulled: bool = True) -> None:
        self.frames = list(frames)
        self.fails = pulled
        self.is_open = True
        self.timeout: float | None = None
        self.baudrate = 9600
        self.pulled = threading.Event()

    def cancel_read(self) -> None:
        self.pulled.set()

    @property
    def in_waiting(self) -> int:
        if not self.frames and self.fails:
            raise OSError(errno.EIO, "Input/output error")
        return len(self.frames[0]) if self.frames else 0

    def read(self, size: int = 1) -> bytes:
        if self.frames:
            return self.frames.pop(0)
        if self.fails:
            raise OSError(errno.EIO, "Input/output error")
        self.pulled.wait(0.05)  # plugged in again and quiet
        return b""

    def write(self, data: bytes) -> int:
        return len(data)

    def close(self) -> None:
        self.is_open = False


@pytest.mark.parametrize(("family", "frames"), [
    ("em4100", [em4100_frame(EM_TAG, "id12la")]),
    ("line", [b"Card UID: 04 49 76 22 D9 38 81\r\n"]),
])
def test_a_cable_pulled_just_after_a_frame_is_a_disconnect_that_is_retried(family, frames):
    opened: list[PulledCable] = []

    def opener(port: str, **_options: Any) -> PulledCable:
        cable = PulledCable(frames, pulled=not opened)
        opened.append(cable)
        return cable

    events = Events()
    reader = SerialReader(ReaderSettings(port="/dev/ttyUSB0", family=family), events,
                          opener=opener)  # type: ignore[arg-type]
    reader.start()
    try:
        events.next("connected")
        events.next("present")
        lost = events.next("disconnected")
        assert "disconnected" in (lost.message or "")
        assert not reader.watch.report().connected
        events.next("connected")  # opened again, by itself
        assert len(opened) == 2
        assert reader.watch.report().connected
    finally:
        reader.stop()


# --- phantoms --------------------------------------------------------------------------------


@pytest.mark.parametrize("uid", ["0000000000", "FFFFFFFFFF", "000000078F", "00000000",
                                 "FFFFFFFF", "00000000000000", "ffffffffffffff"])
def test_all_zero_all_f_and_known_ghost_uids_are_phantoms(uid):
    assert is_phantom(uid)


@pytest.mark.parametrize("uid", [EM_TAG, NTAG, "0F0000000F", "000000078E"])
def test_real_uids_are_not_phantoms(uid):
    assert not is_phantom(uid)


def phantom_wire_frames() -> list[tuple[str, bytes]]:
    """Each family's phantom frames, byte-exact, with the decoder family that reads them."""
    em = [em4100_frame(uid, style) for uid in ("0000000000", "FFFFFFFFFF", "000000078F")
          for style in ("rdm6300", "id12la")]
    assert em4100_frame("000000078F") == b"\x02000000078F88\x03"  # the ghost as reported
    pn532 = [pn532_frame(0xD5, passive_targets_payload(
        [Pn532Target(1, b"\x00\x04", 0x08, bytes.fromhex(uid))]))
        for uid in ("00000000", "FFFFFFFF", "00000000000000")]
    line = [b"Card UID: 00 00 00 00\r\n", b"UID: FFFFFFFFFFFFFF\r\n"]
    return ([("em4100", f) for f in em] + [("pn532", f) for f in pn532]
            + [("line", f) for f in line])


def uids_in(family: str, frame: bytes) -> tuple[list[str], str]:
    """Decode one frame as the reader does: the UIDs it names and the reader's rhythm."""
    if family == "pn532":
        decoded = Pn532Decoder().feed(frame)
        return [uid_hex(t.uid) for t in parse_passive_targets(decoded[0].payload)], POLLED
    reads: list[Any] = (Em4100Decoder() if family == "em4100" else LineDecoder()).feed(frame)
    return [reads[0].uid], rhythm_of(reads[0])


def test_ten_thousand_phantom_frames_give_no_action():
    frames = phantom_wire_frames()
    tracker = PresenceTracker()
    actions, meanings = [], set()
    for n in range(10_000):
        family, frame = frames[n % len(frames)]
        uids, rhythm = uids_in(family, frame)
        seen = tracker.see(uids, n * 0.05, rhythm)
        actions += game_actions(seen.changes)
        meanings.add(seen.meaning)
    actions += game_actions(tracker.expire(10_000.0))
    assert (actions, meanings, tracker.present) == ([], {PHANTOM}, [])


# --- repeating readers: two frames, one-frame readers: the first -----------------------------


def test_a_repeating_readers_card_is_laid_at_its_second_frame_within_300_ms():
    tracker = PresenceTracker()
    assert rhythm_of(Em4100Decoder().feed(em4100_frame(EM_TAG, "rdm6300"))[0]) == REPEATING
    assert tracker.see([EM_TAG], 0.0, REPEATING) == Seen(UNSTEADY, [])
    assert tracker.see([EM_TAG], 0.1, REPEATING).changes == [Change("present", EM_TAG)]
    assert tracker.see([EM_TAG], 0.2, REPEATING).changes == [Change("steady", EM_TAG, 3)]


def test_a_lone_frame_of_a_repeating_reader_lays_nothing():
    tracker = PresenceTracker()
    for at in (0.0, 0.35, 0.7, 5.0):  # each too far from the one before
        assert tracker.see([EM_TAG], at, REPEATING).meaning == UNSTEADY
    assert game_actions(tracker.expire(10.0)) == [] and tracker.present == []


def test_a_one_frame_readers_card_is_laid_and_steady_at_its_first_frame():
    tracker = PresenceTracker()
    assert rhythm_of(Em4100Decoder().feed(em4100_frame(EM_TAG, "id12la"))[0]) == ONCE
    assert rhythm_of(LineDecoder().feed(b"UID: 04A1B2C3\n")[0]) == ONCE
    seen = tracker.see([EM_TAG], 0.0, ONCE)
    assert (seen.meaning, seen.changes) == (READ, [Change("present", EM_TAG),
                                                   Change("steady", EM_TAG, 1)])


# --- missed polls and the grace time ---------------------------------------------------------


def test_a_card_missing_one_poll_in_18_is_never_lifted_over_1000_polls():
    tracker = PresenceTracker()  # the default grace time, 0.4 s
    rng = random.Random(28)
    changes: list[Change] = []
    for poll in range(1000):
        missed = poll % 18 == rng.randrange(18)  # about one in 18, at random places
        if not missed:
            changes += tracker.see([NTAG], poll * PN532_POLL_S, POLLED).changes
        else:
            changes += tracker.expire(poll * PN532_POLL_S)
    assert game_actions(changes) == [Change("present", NTAG)]


def test_the_same_card_read_again_within_the_grace_time_is_the_same_lay():
    tracker = PresenceTracker(removal_after=0.4)
    tracker.see([NTAG], 0.0)
    assert tracker.expire(0.39) == []
    assert tracker.see([NTAG], 0.39).changes == []
    assert tracker.expire(0.78) == []
    assert tracker.expire(0.79) == [Change("removed", NTAG)]


# --- stacked cards ---------------------------------------------------------------------------


def test_two_cards_in_one_poll_are_stacked_and_do_nothing():
    tracker = PresenceTracker()
    seen = tracker.see([NTAG, "E63AE5D5"], 0.0)
    assert (seen.meaning, seen.changes) == (STACKED, [Change("stacked", "E63AE5D5")])
    changes = []
    for poll in range(1, 200):
        changes += tracker.see([NTAG, "E63AE5D5"], poll * PN532_POLL_S).changes
    assert changes == [] and tracker.present == []


def test_a_second_card_laid_on_the_first_is_stacked_and_the_one_left_carries_on():
    tracker = PresenceTracker()
    assert tracker.see([NTAG], 0.0).changes == [Change("present", NTAG)]
    assert tracker.see([NTAG, "E63AE5D5"], 0.1).changes == [Change("stacked", "E63AE5D5")]
    changes = []
    for poll in range(2, 30):
        changes += tracker.see([NTAG, "E63AE5D5"], poll * PN532_POLL_S).changes
    for poll in range(30, 40):  # the second card taken away again
        changes += tracker.see([NTAG], poll * PN532_POLL_S).changes
    assert game_actions(changes) == [] and tracker.present == [NTAG] and not tracker.stacked


def test_alternating_uids_within_the_grace_time_are_stacked_and_do_nothing():
    tracker = PresenceTracker()
    first = tracker.see(["0C000621A5"], 0.0, ONCE).changes
    changes = []
    for n in range(1, 400):
        uid = "3C00CE754C" if n % 2 else "0C000621A5"
        changes += tracker.see([uid], n * RDM6300_REPEAT_S, REPEATING).changes
    assert game_actions(first) == [Change("present", "0C000621A5")]
    assert changes == [Change("stacked", "0C000621A5")]  # said once, nothing else


def test_stacked_poll_frames_byte_exact_give_no_action():
    both = passive_targets_payload([Pn532Target(1, b"\x00\x44", 0x00, bytes.fromhex(NTAG)),
                                    Pn532Target(2, b"\x00\x04", 0x08, bytes.fromhex("E63AE5D5"))])
    frame = pn532_frame(0xD5, both)
    tracker = PresenceTracker()
    changes = []
    for poll in range(1000):
        uids, rhythm = uids_in("pn532", frame)
        changes += tracker.see(uids, poll * PN532_POLL_S, rhythm).changes
    assert game_actions(changes) == []


# --- lays recognised -------------------------------------------------------------------------


@pytest.mark.parametrize(("style", "rhythm", "period"), [
    ("pn532", POLLED, PN532_POLL_S), ("rdm6300", REPEATING, RDM6300_REPEAT_S),
    ("id12la", ONCE, None), ("line", ONCE, None)])
def test_500_lays_with_missed_frames_are_recognised(style, rhythm, period):
    """Each lay lasts 0.5–3 s with a random one frame in 18 lost; a pause of 0.5–2 s between
    lays. A lay counts as recognised when exactly one "present" and one "removed" came."""
    rng = random.Random(500)
    tracker = PresenceTracker()
    now, recognised = 0.0, 0
    for lay in range(500):
        uid = f"0C{lay + 1:08X}" if style in ("rdm6300", "id12la") else f"04{lay + 1:012X}"
        lasts = rng.uniform(0.5, 3.0)
        changes: list[Change] = []
        frames = [now] if period is None else [now + k * period for k in range(int(lasts / period))]
        for at in frames:
            if period is None or rng.randrange(18):
                changes += tracker.see([uid], at, rhythm).changes
        now += lasts + rng.uniform(0.5, 2.0)
        changes += tracker.expire(now)
        if game_actions(changes) == [Change("present", uid), Change("removed", uid)]:
            recognised += 1
    assert recognised / 500 >= 0.995, recognised
