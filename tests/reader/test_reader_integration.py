"""The serial reader against the emulator over a pseudo-terminal: lay, leave, lift, swap,
garbage, a silent reader, unplug and replug, ports that do not exist, the wrong family."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import serial

from companion.reader.emulator_pty import ReaderEmulator
from companion.reader.serial_line import describe_open_error
from companion.reader.serial_reader import ReaderEvent, ReaderSettings, SerialReader

NTAG = "04497622D93881"
CLASSIC = "E63AE5D5"
LONG_UID = "04A1B2C3D4E5F6A7B8C9"
EM_TAG = "0C000621A5"
OTHER_EM_TAG = "3C00CE754C"
WAIT_S = 5.0


class Events:
    """What the reader reported, taken from its callback in the order it came."""

    def __init__(self) -> None:
        self.queue: queue.Queue[ReaderEvent] = queue.Queue()
        self.seen: list[ReaderEvent] = []

    def __call__(self, event: ReaderEvent) -> None:
        self.queue.put(event)

    def next(self, kind: str, timeout: float = WAIT_S) -> ReaderEvent:
        """Wait for the next event of `kind`; the ones before it are kept in `seen`."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                event = self.queue.get(timeout=max(left, 0.001))
            except queue.Empty:
                raise AssertionError(f"no {kind!r} event within {timeout} s; seen: "
                                     f"{[e.to_dict() for e in self.seen]}") from None
            self.seen.append(event)
            if event.event == kind:
                return event

    def quiet_for(self, seconds: float) -> list[ReaderEvent]:
        """Everything reported in the next `seconds` (for "nothing happens" checks)."""
        got = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                got.append(self.queue.get(timeout=left))
            except queue.Empty:
                break
        self.seen.extend(got)
        return got


@pytest.fixture
def started() -> Iterator[list[object]]:
    """Emulators and readers started by a test, stopped after it whatever happens."""
    running: list[object] = []
    yield running
    for thing in reversed(running):
        if isinstance(thing, SerialReader):
            thing.stop()
        elif isinstance(thing, ReaderEmulator):
            thing.close()


def emulator(started: list[object], family: str, **options: object) -> ReaderEmulator:
    device = ReaderEmulator(family, **options)  # type: ignore[arg-type]
    device.start()
    started.append(device)
    return device


def reader(started: list[object], port: str, family: str, **options: object) -> Events:
    events = Events()
    settings = ReaderSettings(port=port, family=family, **options)  # type: ignore[arg-type]
    running = SerialReader(settings, events)
    running.start()
    started.append(running)
    return events


# --- PN532 -----------------------------------------------------------------------------------


def test_a_pn532_is_woken_configured_and_reports_a_card_laid_left_and_lifted(started):
    device = emulator(started, "pn532")
    events = reader(started, device.port, "pn532")
    connected = events.next("connected")
    assert (connected.family, connected.port) == ("pn532", device.port)
    commands = [frame[1] for frame in device.received[:3]]
    assert commands == [0x14, 0x02, 0x32]  # SAMConfiguration, firmware version, retries

    device.lay(NTAG)
    present = events.next("present")
    assert (present.uid, present.family) == (NTAG, "pn532")
    # Left lying: read steadily (enrolment may take it now), and nothing else.
    lying = [e for e in events.quiet_for(1.0) if e.event != "connected"]
    assert [(e.event, e.uid, e.reads) for e in lying] == [("steady", NTAG, 3)]
    device.lift()
    assert events.next("removed").uid == NTAG


def test_a_pn532_reads_four_and_ten_byte_uids_and_a_swap_is_a_removal_and_a_presence(started):
    device = emulator(started, "pn532")
    events = reader(started, device.port, "pn532")
    events.next("connected")
    device.lay(CLASSIC)
    assert events.next("present").uid == CLASSIC
    device.lift()
    device.lay(LONG_UID)
    # The new card is seen at the next poll, but waits until the old one counts as lifted
    # after its grace time: one card at a time, in the order they came.
    assert events.next("removed").uid == CLASSIC
    assert events.next("present").uid == LONG_UID
    assert [e.event for e in events.seen] == ["connected", "present", "removed", "present"]


def test_the_rf_field_is_switched_off_after_each_poll_so_a_card_left_lying_stays_present(
        started):
    # A real PN532 polled again without a reset misses the card every other time.
    device = emulator(started, "pn532", alternate_misses=True)
    events = reader(started, device.port, "pn532")
    events.next("connected")
    device.lay(NTAG)
    events.next("present")
    assert [e.event for e in events.quiet_for(1.5)] == ["steady"]


def test_garbage_on_a_pn532_line_invents_no_card_and_the_next_card_is_still_read(started):
    device = emulator(started, "pn532")
    events = reader(started, device.port, "pn532")
    events.next("connected")
    device.garbage(bytes.fromhex("00FF0AF6D54B0101") + b"\x55\x00\xff" * 20 + bytes(range(256)))
    device.lay(NTAG)
    assert events.next("present").uid == NTAG
    assert [e.uid for e in events.seen if e.event == "present"] == [NTAG]


def test_a_pn532_that_falls_silent_is_reported_and_found_again_when_it_answers(started):
    device = emulator(started, "pn532")
    events = reader(started, device.port, "pn532")
    events.next("connected")
    device.go_silent()
    lost = events.next("disconnected")
    assert "stopped answering" in (lost.message or "")
    device.go_silent(False)
    assert events.next("connected").family == "pn532"


def test_the_wrong_family_says_what_to_check(started):
    device = emulator(started, "rdm6300")
    events = reader(started, device.port, "pn532")
    problem = events.next("disconnected")
    assert "no PN532 answered" in (problem.message or "")
    assert "family" in (problem.message or "")


# --- EM4100 and line bridges -------------------------------------------------------------------


def test_an_rdm6300_repeating_its_frame_gives_one_presence_and_a_removal_after_silence(started):
    device = emulator(started, "rdm6300", repeat_interval=0.05)
    events = reader(started, device.port, "em4100")
    events.next("connected")
    device.lay(EM_TAG)
    present = events.next("present")
    assert (present.uid, present.family) == (EM_TAG, "em4100")
    # Repeats are the same card, read steadily from the third frame on.
    assert [(e.event, e.reads) for e in events.quiet_for(0.8)] == [("steady", 3)]
    device.lift()
    assert events.next("removed").uid == EM_TAG


def test_an_id12la_frame_is_read_once_and_counts_as_lifted_after_the_silence(started):
    device = emulator(started, "id12la")
    events = reader(started, device.port, "em4100", removal_after=0.3)
    events.next("connected")
    device.lay(OTHER_EM_TAG)
    assert events.next("present").uid == OTHER_EM_TAG
    assert events.next("removed", timeout=2.0).uid == OTHER_EM_TAG


def test_a_line_bridge_banner_is_ignored_and_its_card_lines_are_read(started):
    device = emulator(started, "line", line_format="Card UID: {spaced}")
    events = reader(started, device.port, "line")
    events.next("connected")
    device.lay(NTAG)
    assert events.next("present").uid == NTAG
    assert [e.event for e in events.seen] == ["connected", "present"]


def test_family_auto_finds_an_em4100_reader_by_its_first_frame(started):
    device = emulator(started, "rdm6300", repeat_interval=0.05)
    events = reader(started, device.port, "auto")
    events.next("connected")
    device.lay(EM_TAG)
    present = events.next("present")
    assert (present.uid, present.family) == (EM_TAG, "em4100")


def test_family_auto_finds_a_pn532_by_asking_it(started):
    device = emulator(started, "pn532")
    events = reader(started, device.port, "auto")
    assert events.next("connected").family == "pn532"


def test_undecodable_bytes_on_an_em4100_line_are_reported_as_a_probable_wrong_family(started):
    device = emulator(started, "line")
    events = reader(started, device.port, "em4100")
    events.next("connected")
    device.garbage(b"this is not an EM4100 reader at all\r\n" * 4)
    warning = events.next("error")
    assert "family" in (warning.message or "")


# --- the line lost and back ---------------------------------------------------------------------


def test_unplugging_is_reported_and_replugging_reconnects_without_laying_the_card_again(
        started, tmp_path: Path):
    device = emulator(started, "pn532", link=tmp_path / "rfid-reader")
    events = reader(started, device.port, "pn532")
    events.next("connected")
    device.lay(NTAG)
    events.next("present")
    device.unplug()
    lost = events.next("disconnected")
    assert device.port in (lost.message or "")
    device.replug()  # the card still lies there: the fresh reader sees it again
    assert device.laid == [NTAG]
    events.next("connected", timeout=10.0)
    assert "present" not in [e.event for e in events.quiet_for(1.0)]  # not laid again
    device.lift()
    assert events.next("removed").uid == NTAG


def test_a_port_that_does_not_exist_is_named_and_retried_until_it_appears(started,
                                                                           tmp_path: Path):
    link = tmp_path / "rfid-reader"
    events = reader(started, str(link), "em4100")
    missing = events.next("disconnected")
    assert "does not exist" in (missing.message or "")
    device = emulator(started, "rdm6300", link=link, repeat_interval=0.05)
    events.next("connected", timeout=10.0)
    device.lay(EM_TAG)
    assert events.next("present").uid == EM_TAG


def test_open_errors_become_messages_a_person_can_act_on():
    port = "/dev/ttyUSB0"
    denied = serial.SerialException(13, f"could not open port {port}: [Errno 13] Permission "
                                     f"denied: '{port}'")
    assert "dialout" in describe_open_error(port, denied)
    missing = serial.SerialException(2, f"could not open port {port}: [Errno 2] No such file "
                                     f"or directory: '{port}'")
    assert "does not exist" in describe_open_error(port, missing)
    busy = serial.SerialException(f"Could not exclusively lock port {port}: [Errno 11]")
    assert "in use" in describe_open_error(port, busy)
    unplugged = serial.SerialException("device reports readiness to read but returned no data "
                                       "(device disconnected or multiple access on port?)")
    assert "disconnected" in describe_open_error(port, unplugged)


def test_settings_refuse_an_unknown_family_and_a_broken_line_pattern():
    with pytest.raises(ValueError, match="family"):
        ReaderSettings(port="/dev/ttyUSB0", family="rfm")
    with pytest.raises(ValueError):
        ReaderSettings(port="/dev/ttyUSB0", family="line", line_pattern="UID: (")
