"""The reader emulator, judged by clients we did not write, and its own promises.

If a third-party client fails here, the emulator is wrong, not the client: Adafruit's
CircuitPython PN532 driver, nfcpy and pn532pi for the PN532, python-rdm6300 for the RDM6300.
The byte vectors come from datasheets, published captures and the clients' own constants,
or were worked out by hand where nothing was published (InDeselect, InRelease of one target,
an unknown command).
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nfc
import nfc.clf
import nfc.clf.pn532
import nfc.clf.transport
import pytest
import serial
from pn532pi.interfaces import pn532hsu
from pn532pi.interfaces.pn532hsu import Pn532Hsu
from pn532pi.nfc.pn532 import Pn532
from rdm6300 import BaseReader, CardData

from companion.reader.emulator_pty import ReaderEmulator

from .conftest import MakeEmulator, OpenSerial

ROOT = Path(__file__).resolve().parents[2]
NTAG = "04A1B2C3D4E5F6"  # 7-byte UID
CLASSIC = "E63AE5D5"  # 4-byte UID
TRIPLE = "04497622D938810102AB"  # 10-byte UID
ACK = bytes.fromhex("0000ff00ff00")
GET_FIRMWARE_VERSION = bytes.fromhex("0000ff02fed4022a00")
FIRMWARE_VERSION = bytes.fromhex("00 00 ff 06 fa d5 03 32 01 06 07 e8 00")
FINITE_RETRIES = bytes.fromhex("00 00 ff 06 fa d4 32 05 01 00 01 f3 00")
IN_LIST_PASSIVE_TARGET = bytes.fromhex("00 00 ff 04 fc d4 4a 01 00 e1 00")


def read_pn532_frame(port: serial.Serial) -> bytes:
    """One normal frame from the chip (preamble to postamble), or what arrived before timeout."""
    head = port.read(5)
    if len(head) < 5:
        return head
    return head + port.read(head[3] + 2)


def exchange(port: serial.Serial, command: bytes) -> tuple[bytes, bytes]:
    """Send a command frame; return the ACK and the answer frame that follow."""
    port.write(command)
    return port.read(6), read_pn532_frame(port)


# --- Adafruit CircuitPython PN532 (PN532_UART on a plain serial.Serial) -----------------------


@pytest.fixture
def adafruit(make_emulator: MakeEmulator, open_serial: OpenSerial,
             adafruit_pn532_uart: Any) -> tuple[Any, ReaderEmulator]:
    """Adafruit's client, woken and configured, on a fresh emulated PN532."""
    emulator = make_emulator("pn532")
    return adafruit_pn532_uart(open_serial(emulator.port, 115200, timeout=0.1)), emulator


def test_adafruit_wakes_the_chip_and_reads_its_firmware_version(adafruit: Any) -> None:
    pn532, emulator = adafruit
    assert pn532.firmware_version == (0x32, 1, 6, 7)
    # Its wake-up (55 55 and fifteen 00) came before a SAMConfiguration normal, 1 s, IRQ.
    assert emulator.received[0] == bytes.fromhex("d414011401")


@pytest.mark.parametrize("uid", [CLASSIC, NTAG])
def test_adafruit_reads_the_uid_of_the_tag_on_the_reader(adafruit: Any, uid: str) -> None:
    pn532, emulator = adafruit
    emulator.lay(uid)
    assert pn532.read_passive_target(timeout=1) == bytes.fromhex(uid)


def test_adafruit_gets_none_without_a_tag_and_its_next_poll_cancels_the_search(
        adafruit: Any) -> None:
    pn532, emulator = adafruit
    # The chip's default is to search for ever: no answer, so Adafruit times out to None ...
    assert pn532.read_passive_target(timeout=0.2) is None
    emulator.lay(NTAG)
    # ... and its next command (it never sends an ACK to abort) starts a fresh search.
    assert pn532.read_passive_target(timeout=1) == bytes.fromhex(NTAG)


def test_adafruit_reads_a_tag_laid_while_the_chip_is_searching(adafruit: Any) -> None:
    pn532, emulator = adafruit
    found: queue.Queue[Any] = queue.Queue()
    polls_before = emulator.received.count(bytes.fromhex("d44a0100"))
    waiter = threading.Thread(target=lambda: found.put(pn532.read_passive_target(timeout=3)))
    waiter.start()
    assert emulator.wait_for(
        lambda: emulator.received.count(bytes.fromhex("d44a0100")) > polls_before)
    emulator.lay(CLASSIC)
    assert found.get(timeout=5) == bytes.fromhex(CLASSIC)
    waiter.join()


def test_adafruit_misses_every_second_read_when_the_chip_alternates(
        make_emulator: MakeEmulator, open_serial: OpenSerial, adafruit_pn532_uart: Any) -> None:
    emulator = make_emulator("pn532", alternate_misses=True)
    pn532 = adafruit_pn532_uart(open_serial(emulator.port, 115200, timeout=0.1))
    emulator.lay(NTAG)
    # Adafruit never switches the field off or releases the tag between polls.
    reads = [pn532.read_passive_target(timeout=0.2) for _ in range(4)]
    assert reads == [bytes.fromhex(NTAG), None, bytes.fromhex(NTAG), None]


# --- nfcpy (nfc.clf.pn532 over nfc.clf.transport.TTY) -----------------------------------------


@pytest.fixture
def nfcpy_reader(make_emulator: MakeEmulator) -> Iterator[tuple[Any, ReaderEmulator]]:
    """nfcpy's contactless frontend, initialised on an emulated PN532 that alternates misses."""
    emulator = make_emulator("pn532", alternate_misses=True)
    frontend = nfc.ContactlessFrontend()
    # nfcpy's own path syntax cannot name /dev/pts/N, so its transport is opened directly.
    frontend.device = nfc.clf.pn532.init(nfc.clf.transport.TTY(emulator.port))
    yield frontend, emulator
    if frontend.device is not None:
        frontend.close()


def test_nfcpy_initialises_the_chip_with_an_extended_frame_and_asks_for_921600_baud(
        nfcpy_reader: tuple[Any, ReaderEmulator]) -> None:
    frontend, emulator = nfcpy_reader
    assert frontend.device.chipset_name == "PN532v1.6"
    # Whether the emulator then switches is left open: nfcpy reopens the port right after
    # its confirming ACK, and that reopen flushes the ACK away unless it was already read.
    assert bytes.fromhex("d41007") in emulator.received
    # Its line test sends the longest command there is (an extended frame) and wants it back.
    line_test = [body for body in emulator.received if body[:3] == bytes.fromhex("d40000")]
    assert [len(body) for body in line_test] == [265]


@pytest.mark.parametrize(("uid", "sens_res", "sel_res"), [
    (CLASSIC, "0400", "08"),
    (NTAG, "4400", "00"),
    (TRIPLE, "8400", "00"),
])
def test_nfcpy_senses_a_type_a_tag_with_its_identity(
        nfcpy_reader: tuple[Any, ReaderEmulator], uid: str, sens_res: str, sel_res: str) -> None:
    frontend, emulator = nfcpy_reader
    emulator.lay(uid)
    target = frontend.sense(nfc.clf.RemoteTarget("106A"))
    assert target is not None
    assert (target.sdd_res.hex().upper(), target.sens_res.hex(), target.sel_res.hex()) == (
        uid, sens_res, sel_res)


def test_nfcpy_senses_nothing_without_a_tag(nfcpy_reader: tuple[Any, ReaderEmulator]) -> None:
    frontend, emulator = nfcpy_reader
    assert frontend.sense(nfc.clf.RemoteTarget("106A")) is None
    # NbTg 0, then nfcpy looks in the CIU FIFO register to be sure no tag answered at all,
    # and switches the field off again.
    assert emulator.received[-3:] == [bytes.fromhex("d44a0100"), bytes.fromhex("d4066339"),
                                      bytes.fromhex("d4320102")]


def test_nfcpy_finds_only_the_uid_it_selects(nfcpy_reader: tuple[Any, ReaderEmulator]) -> None:
    frontend, emulator = nfcpy_reader
    emulator.lay(NTAG)
    other = nfc.clf.RemoteTarget("106A", sel_req=bytearray.fromhex("04497622D93881"))
    assert frontend.sense(other) is None
    wanted = nfc.clf.RemoteTarget("106A", sel_req=bytearray.fromhex(NTAG))
    assert frontend.sense(wanted).sdd_res.hex().upper() == NTAG
    # A 7-byte UID travels behind the cascade tag 88.
    assert bytes.fromhex("d44a010088" + NTAG) in emulator.received


def test_nfcpy_sees_a_tag_on_every_poll_because_it_switches_the_field_off_in_between(
        nfcpy_reader: tuple[Any, ReaderEmulator]) -> None:
    frontend, emulator = nfcpy_reader  # the emulator alternates misses
    emulator.lay(NTAG)
    senses = [frontend.sense(nfc.clf.RemoteTarget("106A")) for _ in range(3)]
    assert all(target is not None for target in senses)


def test_nfcpy_closing_restores_115200_baud_and_powers_the_chip_down(
        nfcpy_reader: tuple[Any, ReaderEmulator]) -> None:
    frontend, emulator = nfcpy_reader
    acks_before = emulator.acks_received
    frontend.close()
    assert emulator.baudrate == 115200
    assert emulator.received[-2:] == [bytes.fromhex("d41004"), bytes.fromhex("d416b000")]
    assert emulator.acks_received == acks_before + 2  # the abort, then the baud confirmation


# --- pn532pi (Pn532Hsu, which writes 55 00 00 55 before every frame) ---------------------------


def test_pn532pi_reads_the_firmware_and_a_uid(make_emulator: MakeEmulator,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    emulator = make_emulator("pn532")
    # It gives the ACK 10 ms, a real chip's pace; a busy test machine may not run the
    # emulator's thread that soon.
    monkeypatch.setattr(pn532hsu, "PN532_ACK_WAIT_TIME", 500)
    # Its constructor insists on /dev/serial0 or 1; give it an unopened port on the pty.
    interface = Pn532Hsu.__new__(Pn532Hsu)
    interface._serial = serial.Serial()
    interface._serial.port, interface._serial.baudrate, interface._serial.timeout = (
        emulator.port, 115200, 1)
    interface.command = 0
    nfc_chip = Pn532(interface)
    nfc_chip.begin()
    try:
        assert nfc_chip.getFirmwareVersion() == 0x32010607
        assert nfc_chip.SAMConfig()
        assert nfc_chip.setPassiveActivationRetries(0x01)
        assert nfc_chip.readPassiveTargetID(0x00, 500) == (False, bytearray())
        emulator.lay(NTAG)
        assert nfc_chip.readPassiveTargetID(0x00, 500) == (True, bytearray.fromhex(NTAG))
    finally:
        interface._serial.close()


# --- python-rdm6300 ----------------------------------------------------------------------------


class RecordingRdm6300(BaseReader):  # type: ignore[misc]
    """python-rdm6300's event reader, with its events put in a queue."""

    def __init__(self, port: str, heartbeat_interval: float) -> None:
        super().__init__(port, heartbeat_interval=heartbeat_interval)
        self.events: queue.Queue[tuple[str, CardData]] = queue.Queue()

    def card_inserted(self, card: CardData) -> None:
        self.events.put(("inserted", card))

    def card_removed(self, card: CardData) -> None:
        self.events.put(("removed", card))

    def invalid_card(self, card: CardData) -> None:
        self.events.put(("invalid", card))


def test_rdm6300_client_reports_the_card_keeps_it_while_it_lies_there_and_sees_it_go(
        make_emulator: MakeEmulator) -> None:
    emulator = make_emulator("rdm6300", repeat_interval=0.05)
    client = RecordingRdm6300(emulator.port, heartbeat_interval=0.25)
    loop = threading.Thread(target=client.start)
    loop.start()
    try:
        emulator.lay("62E3086CED")  # a Seeed wiki vector
        kind, card = client.events.get(timeout=2)
        assert (kind, card.type, card.value, card.is_valid) == ("inserted", 0x62, 3808980205,
                                                                True)
        # The repeats keep the card present well past the client's heartbeat ...
        with pytest.raises(queue.Empty):
            client.events.get(timeout=0.6)
        emulator.lift()
        # ... and once they stop, it reports the removal.
        assert client.events.get(timeout=2)[0] == "removed"
    finally:
        client.stop()
        loop.join()
        client.serial.close()


# --- The emulator's own promises ---------------------------------------------------------------


def test_rdm6300_repeats_the_datasheet_frame_while_the_tag_lies_there_and_then_stops(
        make_emulator: MakeEmulator, open_serial: OpenSerial) -> None:
    emulator = make_emulator("rdm6300", repeat_interval=0.05)
    port = open_serial(emulator.port, 9600, timeout=1)
    emulator.lay("01000734E0")
    frame = bytes.fromhex("02 30 31 30 30 30 37 33 34 45 30 44 32 03")
    assert port.read(3 * len(frame)) == 3 * frame
    emulator.lift()
    port.timeout = 0.3
    port.read(4096)  # a repeat may have been on its way when the tag was lifted
    assert port.read(1) == b""
    # The reader never listens, but what the host sends is kept for tests to see.
    port.write(b"hello")
    assert emulator.wait_for(lambda: emulator.received == [b"hello"])
    assert not emulator.wait_for(lambda: len(emulator.received) > 1, timeout=0.05)


def test_id12la_sends_exactly_one_frame_per_lay(make_emulator: MakeEmulator,
                                               open_serial: OpenSerial) -> None:
    emulator = make_emulator("id12la", repeat_interval=0.05)
    port = open_serial(emulator.port, 9600, timeout=0.5)
    frame = bytes.fromhex("02 30 43 30 30 30 36 32 31 41 35 38 45 0D 0A 03")  # the datasheet's
    emulator.lay("0C000621A5")
    assert port.read(100) == frame
    emulator.lift()
    emulator.lay("0C000621A5")
    assert port.read(100) == frame


def test_line_bridge_prints_its_banner_when_the_port_opens_then_a_line_per_card(
        make_emulator: MakeEmulator, open_serial: OpenSerial) -> None:
    emulator = make_emulator("line")
    port = open_serial(emulator.port, 9600, timeout=1)
    banner = [port.readline(), port.readline()]
    assert all(line.endswith(b"\r\n") and b"UID" not in line for line in banner)
    emulator.lay("04a1b2c3d4e5f6")
    assert port.readline() == b"Card UID: 04 A1 B2 C3 D4 E5 F6\r\n"


def test_line_bridge_starts_afresh_when_a_client_opens_the_port_again(
        make_emulator: MakeEmulator, open_serial: OpenSerial) -> None:
    emulator = make_emulator("line")
    first = open_serial(emulator.port, 9600, timeout=1)
    banner = [first.readline(), first.readline()]
    emulator.lay(CLASSIC)
    assert first.readline() == b"Card UID: E6 3A E5 D5\r\n"
    first.close()
    second = open_serial(emulator.port, 9600, timeout=1)
    # Opening resets the board: the banner again, and the card that still lies there.
    assert [second.readline() for _ in range(3)] == [*banner, b"Card UID: E6 3A E5 D5\r\n"]


def test_line_bridge_uses_the_line_format(make_emulator: MakeEmulator,
                                          open_serial: OpenSerial) -> None:
    emulator = make_emulator("line", line_format="UID:{hex}")
    port = open_serial(emulator.port, 9600, timeout=1)
    port.readline(), port.readline()
    emulator.lay(CLASSIC)
    assert port.readline() == f"UID:{CLASSIC}\r\n".encode()


def test_unplugging_makes_the_clients_read_fail_and_removes_the_link(
        make_emulator: MakeEmulator, open_serial: OpenSerial, tmp_path: Path) -> None:
    link = tmp_path / "serial" / "by-id" / "usb-emulated-if00"
    emulator = make_emulator("rdm6300", link=link)
    port = open_serial(str(link), 9600, timeout=2)
    assert emulator.plugged
    emulator.unplug()
    with pytest.raises(serial.SerialException):
        port.read(1)
    assert not emulator.plugged
    assert not link.is_symlink()
    with pytest.raises(serial.SerialException):
        serial.Serial(str(link))


def test_replugging_gives_a_new_pty_behind_the_same_link_and_a_fresh_chip(
        make_emulator: MakeEmulator, open_serial: OpenSerial, tmp_path: Path) -> None:
    link = tmp_path / "usb-emulated-pn532"
    emulator = make_emulator("pn532", link=link)
    assert emulator.port == str(link)
    first_pty = os.readlink(link)
    port = open_serial(str(link), 115200, timeout=1)
    set_921600 = bytes.fromhex("00 00 ff 03 fd d4 10 07 15 00")
    assert exchange(port, set_921600) == (ACK, bytes.fromhex("00 00 ff 02 fe d5 11 1a 00"))
    port.write(ACK)  # confirms the switch to 921600
    assert emulator.wait_for(lambda: emulator.baudrate == 921600)
    emulator.go_silent()  # and then it hangs: the power cycle cures that too
    emulator.unplug()
    emulator.replug()
    assert os.readlink(link) != first_pty
    assert emulator.baudrate == 115200
    again = open_serial(str(link), 115200, timeout=1)
    assert exchange(again, GET_FIRMWARE_VERSION) == (ACK, FIRMWARE_VERSION)


def test_garbage_reaches_the_client_byte_for_byte(make_emulator: MakeEmulator,
                                                  open_serial: OpenSerial) -> None:
    emulator = make_emulator("pn532")
    port = open_serial(emulator.port, 115200, timeout=1)
    noise = bytes(range(256))
    emulator.garbage(noise)
    assert port.read(len(noise)) == noise


def test_a_reader_nobody_reads_drops_what_does_not_fit_and_carries_on(
        make_emulator: MakeEmulator, open_serial: OpenSerial) -> None:
    emulator = make_emulator("pn532")
    emulator.garbage(bytes(1_000_000))  # far more than the pty holds: must not hang
    port = open_serial(emulator.port, 115200, timeout=1)  # opening flushes what was kept
    assert exchange(port, GET_FIRMWARE_VERSION) == (ACK, FIRMWARE_VERSION)


def test_a_silent_reader_sends_no_ack_until_it_wakes(make_emulator: MakeEmulator,
                                                     open_serial: OpenSerial) -> None:
    emulator = make_emulator("pn532")
    port = open_serial(emulator.port, 115200, timeout=0.3)
    emulator.go_silent()
    port.write(GET_FIRMWARE_VERSION)
    assert port.read(6) == b""
    assert emulator.received == [bytes.fromhex("d402")]  # heard, though not answered
    emulator.go_silent(False)
    assert exchange(port, GET_FIRMWARE_VERSION) == (ACK, FIRMWARE_VERSION)


@pytest.mark.parametrize(("command", "answer"), [
    # SAMConfiguration as libnfc sends it, then as nfcpy does
    ("00 00 ff 03 fd d4 14 01 17 00", "00 00 ff 02 fe d5 15 16 00"),
    ("00 00 ff 05 fb d4 14 01 00 00 17 00", "00 00 ff 02 fe d5 15 16 00"),
    # RFConfiguration: finite retries, then the RF field off
    ("00 00 ff 06 fa d4 32 05 01 00 01 f3 00", "00 00 ff 02 fe d5 33 f8 00"),
    ("00 00 ff 04 fc d4 32 01 00 f9 00", "00 00 ff 02 fe d5 33 f8 00"),
    # InRelease of all targets; PowerDown as nfcpy's close sends it
    ("00 00 ff 03 fd d4 52 00 da 00", "00 00 ff 03 fd d5 53 00 d8 00"),
    ("00 00 ff 04 fc d4 16 b0 00 66 00", "00 00 ff 03 fd d5 17 00 14 00"),
    # Diagnose line test with "libnfc", echoed
    ("00 00 ff 09 f7 d4 00 00 6c 69 62 6e 66 63 be 00",
     "00 00 ff 09 f7 d5 01 00 6c 69 62 6e 66 63 bc 00"),
    # GetFirmwareVersion behind libnfc's wake-up bytes
    ("55 55 00 00 00 00 00 ff 02 fe d4 02 2a 00", "00 00 ff 06 fa d5 03 32 01 06 07 e8 00"),
])
def test_pn532_answers_reference_frames_after_an_ack(
        make_emulator: MakeEmulator, open_serial: OpenSerial, command: str, answer: str) -> None:
    emulator = make_emulator("pn532")
    port = open_serial(emulator.port, 115200, timeout=1)
    assert exchange(port, bytes.fromhex(command)) == (ACK, bytes.fromhex(answer))


@pytest.mark.parametrize(("uid", "answer"), [
    (None, "00 00 ff 03 fd d5 4b 00 e0 00"),
    (CLASSIC, "00 00 ff 0c f4 d5 4b 01 01 00 04 08 04 e6 3a e5 d5 f4 00"),
    ("04497622D93881", "00 00 ff 0f f1 d5 4b 01 01 00 44 00 07 04 49 76 22 d9 38 81 1c 00"),
])
def test_pn532_lists_tags_as_in_the_reference_frames(
        make_emulator: MakeEmulator, open_serial: OpenSerial, uid: str | None,
        answer: str) -> None:
    emulator = make_emulator("pn532")
    port = open_serial(emulator.port, 115200, timeout=1)
    exchange(port, FINITE_RETRIES)
    if uid is not None:
        emulator.lay(uid)
    assert exchange(port, IN_LIST_PASSIVE_TARGET) == (ACK, bytes.fromhex(answer))


def test_pn532_ignores_a_frame_with_a_bad_checksum(make_emulator: MakeEmulator,
                                                  open_serial: OpenSerial) -> None:
    emulator = make_emulator("pn532")
    port = open_serial(emulator.port, 115200, timeout=0.3)
    port.write(bytes.fromhex("00 00 ff 02 fe d4 02 2b 00"))  # data checksum off by one
    port.write(bytes.fromhex("00 00 ff 02 fd d4 02 2a 00"))  # length checksum off by one
    assert port.read(6) == b""
    assert emulator.received == []
    assert exchange(port, GET_FIRMWARE_VERSION) == (ACK, FIRMWARE_VERSION)


def test_pn532_answers_an_unknown_command_with_ack_then_the_error_frame(
        make_emulator: MakeEmulator, open_serial: OpenSerial) -> None:
    emulator = make_emulator("pn532")
    port = open_serial(emulator.port, 115200, timeout=1)
    unknown = bytes.fromhex("00 00 ff 02 fe d4 fe 2e 00")  # command FE does not exist
    assert exchange(port, unknown) == (ACK, bytes.fromhex("00 00 ff 01 ff 7f 81 00"))


def test_pn532_resends_its_last_answer_on_a_nack(make_emulator: MakeEmulator,
                                                 open_serial: OpenSerial) -> None:
    emulator = make_emulator("pn532")
    port = open_serial(emulator.port, 115200, timeout=1)
    exchange(port, GET_FIRMWARE_VERSION)
    port.write(bytes.fromhex("00 00 ff ff 00 00"))  # NACK
    assert read_pn532_frame(port) == FIRMWARE_VERSION


def test_pn532_alternating_misses_hit_long_uids_until_the_host_releases_the_tag(
        make_emulator: MakeEmulator, open_serial: OpenSerial) -> None:
    emulator = make_emulator("pn532", alternate_misses=True)
    port = open_serial(emulator.port, 115200, timeout=1)
    exchange(port, FINITE_RETRIES)
    emulator.lay("04497622D93881")
    found = bytes.fromhex("00 00 ff 0f f1 d5 4b 01 01 00 44 00 07 04 49 76 22 d9 38 81 1c 00")
    missed = bytes.fromhex("00 00 ff 03 fd d5 4b 00 e0 00")
    polls = [exchange(port, IN_LIST_PASSIVE_TARGET)[1] for _ in range(3)]
    assert polls == [found, missed, found]
    # InDeselect keeps the tag selected; InRelease of target 1 lets it answer the next poll.
    deselect, release = "00 00 ff 03 fd d4 44 01 e7 00", "00 00 ff 03 fd d4 52 01 d9 00"
    assert exchange(port, bytes.fromhex(deselect))[1] == bytes.fromhex(
        "00 00 ff 03 fd d5 45 00 e6 00")
    assert exchange(port, IN_LIST_PASSIVE_TARGET)[1] == missed
    assert exchange(port, IN_LIST_PASSIVE_TARGET)[1] == found
    assert exchange(port, bytes.fromhex(release))[1] == bytes.fromhex(
        "00 00 ff 03 fd d5 53 00 d8 00")
    assert exchange(port, IN_LIST_PASSIVE_TARGET)[1] == found
    # A 4-byte tag answers every poll.
    emulator.lift()
    emulator.lay(CLASSIC)
    assert len({exchange(port, IN_LIST_PASSIVE_TARGET)[1] for _ in range(3)}) == 1


def test_pn532_host_ack_cancels_the_search_for_a_tag(make_emulator: MakeEmulator,
                                                     open_serial: OpenSerial) -> None:
    emulator = make_emulator("pn532")
    port = open_serial(emulator.port, 115200, timeout=0.3)
    # With the chip's default (endless) retries, no tag means no answer yet.
    assert exchange(port, IN_LIST_PASSIVE_TARGET) == (ACK, b"")
    port.write(ACK)
    assert emulator.wait_for(lambda: emulator.acks_received == 1)
    emulator.lay(CLASSIC)
    assert port.read(1) == b""


def test_byte_delay_paces_what_the_reader_sends(make_emulator: MakeEmulator,
                                                open_serial: OpenSerial) -> None:
    emulator = make_emulator("id12la", byte_delay=0.004)
    port = open_serial(emulator.port, 9600, timeout=1)
    started = time.monotonic()
    emulator.lay("0C000621A5")
    assert len(port.read(16)) == 16
    assert time.monotonic() - started >= 15 * 0.004


def test_on_frame_sent_hears_every_frame_once_it_is_written(
        make_emulator: MakeEmulator, open_serial: OpenSerial) -> None:
    emulator = make_emulator("pn532")
    sent: list[tuple[bytes, float]] = []
    emulator.on_frame_sent = lambda frame, when: sent.append((frame, when))
    port = open_serial(emulator.port, 115200, timeout=1)
    before = time.perf_counter()
    exchange(port, GET_FIRMWARE_VERSION)
    assert emulator.wait_for(lambda: len(sent) == 2)
    assert [frame for frame, _ in sent] == [ACK, FIRMWARE_VERSION]
    assert before <= sent[0][1] <= sent[1][1] <= time.perf_counter()


@pytest.mark.parametrize(("family", "uid"), [
    ("pn532", "04A1B2"),  # 3 bytes
    ("line", "not hex"),
    ("rdm6300", CLASSIC),  # an EM4100 tag has 5 bytes
    ("id12la", NTAG),
])
def test_lay_refuses_a_uid_the_family_cannot_carry(make_emulator: MakeEmulator, family: str,
                                                   uid: str) -> None:
    emulator = make_emulator(family)
    with pytest.raises(ValueError):
        emulator.lay(uid)
    assert emulator.laid == []


def test_a_tag_cannot_be_laid_twice_nor_lifted_when_absent(make_emulator: MakeEmulator) -> None:
    emulator = make_emulator("pn532")
    emulator.lay("04:a1:b2:c3")
    with pytest.raises(ValueError):
        emulator.lay("04A1B2C3")
    with pytest.raises(ValueError):
        emulator.lift(CLASSIC)
    emulator.lift()
    assert emulator.laid == []


# --- The command line --------------------------------------------------------------------------


def start_cli(*arguments: str) -> tuple[subprocess.Popen[str], queue.Queue[str]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.reader.emulator", *arguments], cwd=ROOT,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()
    stdout = process.stdout
    assert stdout is not None

    def pass_lines_on() -> None:
        for line in stdout:
            lines.put(line.rstrip("\n"))

    threading.Thread(target=pass_lines_on, daemon=True).start()
    return process, lines


def test_cli_script_drives_the_reader_and_answers_every_command(
        open_serial: OpenSerial) -> None:
    process, lines = start_cli("rdm6300", "--repeat-interval", "5")
    assert process.stdin is not None
    try:
        port_path = lines.get(timeout=10)
        assert port_path.startswith("/dev/")
        port = open_serial(port_path, 9600, timeout=2)

        def reply(command: str) -> str:
            assert process.stdin is not None
            process.stdin.write(command + "\n")
            process.stdin.flush()
            return lines.get(timeout=5)

        process.stdin.write("# comments and blank lines get no answer\n\n")
        assert reply("lay 62e3086ced") == "ok lay 62E3086CED"
        assert port.read(14) == bytes.fromhex("02 36 32 45 33 30 38 36 43 45 44 30 38 03")
        assert reply("lay 62E3086CED").startswith("error: ")
        assert reply("lay nonsense").startswith("error: ")
        assert reply("fly away") == "error: unknown command 'fly'"
        assert reply("wait soon").startswith("error: ")
        assert reply("lift 62E3086CED extra").startswith("error: ")
        assert reply("garbage 01 02ff") == "ok garbage 3 bytes"
        assert port.read(3) == b"\x01\x02\xff"
        assert reply("wait 0.01") == "ok wait 0.01"
        assert reply("silent") == "ok silent"
        assert reply("wake") == "ok wake"
        assert reply("lift") == "ok lift all"
        assert reply("unplug") == "ok unplug"
        assert reply("unplug").startswith("error: ")
        assert reply("garbage 00").startswith("error: ")
        assert reply("replug").startswith("ok replug /dev/")
        process.stdin.close()  # end of the script: the emulator quits
        assert process.wait(timeout=10) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_cli_options_reach_the_emulator(open_serial: OpenSerial, tmp_path: Path) -> None:
    link = tmp_path / "usb-bridge"
    process, lines = start_cli("line", "--link", str(link), "--line-format", "UID:{hex}")
    assert process.stdin is not None
    try:
        assert lines.get(timeout=10) == str(link)
        port = open_serial(str(link), 9600, timeout=2)
        port.readline(), port.readline()
        process.stdin.write(f"lay {NTAG}\n")
        process.stdin.flush()
        assert lines.get(timeout=5) == f"ok lay {NTAG}"
        assert port.readline() == f"UID:{NTAG}\r\n".encode()
    finally:
        process.stdin.close()
        assert process.wait(timeout=10) == 0


def test_cli_alternate_misses_reach_the_pn532(open_serial: OpenSerial) -> None:
    process, lines = start_cli("pn532", "--alternate-misses")
    assert process.stdin is not None
    try:
        port = open_serial(lines.get(timeout=10), 115200, timeout=1)
        exchange(port, FINITE_RETRIES)
        process.stdin.write(f"lay {NTAG}\n")
        process.stdin.flush()
        assert lines.get(timeout=5) == f"ok lay {NTAG}"
        answers = [exchange(port, IN_LIST_PASSIVE_TARGET)[1] for _ in range(2)]
        assert answers[1] == bytes.fromhex("00 00 ff 03 fd d5 4b 00 e0 00") != answers[0]
    finally:
        process.stdin.close()
        assert process.wait(timeout=10) == 0


def test_cli_refuses_a_line_format_with_unknown_fields() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "companion.reader.emulator", "line", "--line-format", "{uid}"],
        cwd=ROOT, text=True, input="", capture_output=True, timeout=20)
    assert result.returncode == 2
    assert "line_format" in result.stderr


def test_cli_stops_at_quit() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "companion.reader.emulator", "pn532"], cwd=ROOT, text=True,
        input=f"lay {NTAG}\nquit\nlay {CLASSIC}\n", capture_output=True, timeout=20)
    assert result.returncode == 0
    assert result.stdout.splitlines()[1:] == [f"ok lay {NTAG}", "ok quit"]
