"""The reader check through the real window, with a PN532 emulator on a pseudo-terminal and the
real reader thread: Settings → Card reader → Check names an enrolled card and counts its reads,
offers to enrol an unknown tag, says two tags at once, counts a phantom without showing it as a
card, and leads through the range test. Screenshots at 800x480 and 720x1280 in English and
German (READER_CHECK_SHOTS names a folder to keep them)."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.reader import check, range_test
from companion.reader.emulator_pty import ReaderEmulator

from .harness import Harness
from .test_reader_ui import enrol, wait_until

pytestmark = pytest.mark.ui

JUNGLE = "04497622D93881"
STRANGER = "E63AE5D5"
PHANTOM = "00000000"  # a 4-byte UID of zeros: a frame no card sends


def reader_app(folder: Path, size: tuple[int, int] = (800, 480),
               language: str = "English") -> tuple[ReaderEmulator, Harness]:
    device = ReaderEmulator("pn532", link=folder / "rfid-reader")
    device.start()
    (folder / "companion.ini").write_text(
        f"[companion]\nlanguage = {language}\n"
        f"[reader]\nport = {device.port}\nfamily = pn532\nline_pattern = \n")
    harness = Harness(folder / "games.db", size)
    wait_until(harness, lambda: "pn532" in harness.app.reader_status)
    return device, harness


@pytest.fixture
def reader_and_app(tmp_path: Path) -> Iterator[tuple[ReaderEmulator, Harness]]:
    device, harness = reader_app(tmp_path)
    try:
        yield device, harness
    finally:
        harness.close()
        device.close()


def open_check(ui: Harness) -> None:
    """Settings → Card reader → Check, as a player taps it."""
    ui.tap_id("settings")
    ui.tap_id("reader_check")
    assert ui.screen.name == "reader_check"


def reads_of(screen: Any) -> int:
    """The count the status gives ("… read 7 times in the last 10 s"; German "7-mal")."""
    found = re.search(r"(\d+)(?: times|-mal)", screen.status_text)
    return int(found.group(1)) if found else 0


def test_the_check_names_cards_offers_enrolment_and_says_two_tags_and_phantoms(
        reader_and_app: tuple[ReaderEmulator, Harness]) -> None:
    device, ui = reader_and_app
    enrol(ui, JUNGLE, "invader", "I-jungle")
    open_check(ui)
    screen = ui.screen
    wait_until(ui, lambda: screen.status_kind == check.WAITING)
    assert screen.status_text == "Connected. Lay a card on the reader."
    assert "pn532" in screen.line_text and "reads a second" in screen.line_text

    device.lay(JUNGLE)
    wait_until(ui, lambda: screen.status_kind == check.CARD)
    assert screen.status_text.startswith("Jungle")
    first = reads_of(screen)
    wait_until(ui, lambda: reads_of(screen) > first + 3)  # the count rises while it lies there
    assert screen.reads[0]["meaning"].startswith("read: Jungle")
    assert len(screen.reads) == min(20, reads_of(screen))  # one card, every read listed
    assert screen.ids.enrol.opacity == 0  # an enrolled card needs no enrolment

    device.lift()
    device.lay(STRANGER)
    wait_until(ui, lambda: screen.status_kind == check.UNKNOWN)
    assert screen.status_text == f"Unknown tag {STRANGER}. Enrol it?"
    assert screen.ids.enrol.opacity == 1 and not screen.ids.enrol.disabled
    assert ui.popup() is None  # the check shows reads; it takes none (no enrol question)

    device.lay(JUNGLE)  # on top of the stranger
    wait_until(ui, lambda: screen.status_kind == check.TWO_TAGS)
    assert "Two tags at once" in screen.status_text
    wait_until(ui, lambda: screen.reads[0]["meaning"] == "two tags at once: ignored")
    device.lift()

    device.lay(PHANTOM)
    wait_until(ui, lambda: "phantom reads ignored: 0" not in screen.line_text)
    wait_until(ui, lambda: screen.reads[0]["kind"] == "phantom")
    assert screen.status_kind not in (check.CARD, check.UNKNOWN)
    assert PHANTOM not in screen.status_text
    device.lift()

    # The unknown tag, laid again: "Enrol this card" opens the tag screen with it.
    device.lay(STRANGER)
    wait_until(ui, lambda: screen.status_kind == check.UNKNOWN and screen.enrol_uid)
    device.lift()
    ui.tap_id("enrol")
    assert ui.screen.name == "tags" and ui.screen.uid == STRANGER
    assert "not enrolled yet" in ui.screen.status_text


def test_the_screen_looks_at_the_reader_only_while_shown(
        reader_and_app: tuple[ReaderEmulator, Harness]) -> None:
    device, ui = reader_and_app
    open_check(ui)
    screen = ui.screen
    ui.tap_id("back")
    assert ui.screen.name == "settings"
    device.lay(JUNGLE)
    ui.frames(10)
    time.sleep(0.3)
    ui.frames(5)
    assert screen.status_kind == check.WAITING  # not refreshed while away


def test_the_range_test_leads_through_lay_and_lift_and_judges_the_rhythm(
        reader_and_app: tuple[ReaderEmulator, Harness]) -> None:
    device, ui = reader_and_app
    open_check(ui)
    screen = ui.screen
    ui.tap_id("range_test")
    assert "Lay the card flat" in screen.range_text
    assert screen.ids.range_test.text == "Stop the test"

    # Lifted slowly from a weak reader: the reads come and go over a long stretch. Each
    # silence lasts twice what the test counts as a gap, from the rhythm it measured while the
    # card lay still (0.1 s a read here, slower on a loaded machine: 0.3 s against a bound of
    # 0.25 s was once judged no gap), and holds the polls that found nothing which tell a
    # missed card from a busy host; the card is read again before the next one.
    device.lay(JUNGLE)
    wait_until(ui, lambda: "lift it slowly" in screen.range_text)
    measuring = screen._range
    reader = ui.app.reader_link.reader
    gap = range_test.GAP_FACTOR * measuring._interval
    for _ in range(5):
        lifted = reader.now()
        device.lift()
        # Laid again as soon as the silence is a gap: longer than the gap's time, with the
        # empty polls that show the reader missed the card. Fewer than the empty polls after
        # which the card counts as gone come before the card is back, however slow the machine.
        wait_until(ui, lambda lifted=lifted: is_a_gap(reader.watch, lifted, gap))
        reads = len(measuring._frames)
        device.lay(JUNGLE)
        wait_until(ui, lambda reads=reads: len(measuring._frames) >= reads + 2)
    device.lift()
    wait_until(ui, lambda: screen.range_band)
    assert screen.range_band == "weak", screen.range_text
    assert "Range: weak" in screen.range_text and "closer to the surface" in screen.range_text
    assert screen.ids.range_test.text == "Test again"

    # Read steadily, then gone at once: a good range, however late a loaded machine polls.
    ui.tap_id("range_test")
    assert not screen.range_band and "Lay the card flat" in screen.range_text
    device.lay(JUNGLE)
    wait_until(ui, lambda: "lift it slowly" in screen.range_text)
    device.lift()
    wait_until(ui, lambda: screen.range_band)
    assert screen.range_band == "good", screen.range_text
    assert "Range: good" in screen.range_text


def is_a_gap(watch: Any, lifted: float, gap: float) -> bool:
    """The silence since the card was lifted (at `lifted`, the reader's clock) counts as a gap."""
    last_read = max((frame.at for frame in watch.since(lifted - 5.0)), default=lifted)
    empty = watch.empty_polls_since(last_read)
    return len(empty) >= range_test.EMPTY_POLLS_IN_A_GAP and empty[-1] - last_read > gap


def pause(ui: Harness, seconds: float) -> None:
    """Let time pass while the window goes on drawing (the screen looks 4×/s)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ui.frames(1)
        time.sleep(0.01)


def test_with_the_reader_off_the_check_says_so_and_leads_to_the_settings(
        tmp_path: Path) -> None:
    ui = Harness(tmp_path / "games.db")
    try:
        open_check(ui)
        screen = ui.screen
        assert screen.status_kind == check.OFF and "off" in screen.status_text
        assert screen.ids.range_test.opacity == 0 and screen.ids.settings.opacity == 1
        ui.tap_id("settings")
        ui.frames(3)
        assert ui.screen.name == "settings"
    finally:
        ui.close()


SHOT_CASES = [((800, 480), "English"), ((720, 1280), "English"), ((800, 480), "Deutsch"),
              ((720, 1280), "Deutsch")]


@pytest.mark.parametrize(("size", "language"), SHOT_CASES,
                         ids=[f"{w}x{h}-{lang}" for (w, h), lang in SHOT_CASES])
def test_screenshots_of_the_check_and_the_range_test(size: tuple[int, int], language: str,
                                                      tmp_path: Path) -> None:
    from .test_layout import layout_problems

    folder = Path(os.environ.get("READER_CHECK_SHOTS", tmp_path / "shots"))
    name = f"reader-check-{size[0]}x{size[1]}-{language}"
    device, ui = reader_app(tmp_path, size, language)
    try:
        enrol(ui, JUNGLE, "invader", "I-jungle")
        open_check(ui)
        screen = ui.screen
        device.lay(PHANTOM)
        pause(ui, 0.2)
        device.lift()
        device.lay(STRANGER)
        wait_until(ui, lambda: screen.status_kind == check.UNKNOWN)
        problems = layout_problems(ui)
        ui.screenshot(folder / f"{name}-unknown.png")
        device.lift()
        device.lay(JUNGLE)
        wait_until(ui, lambda: reads_of(screen) > 5)
        problems += layout_problems(ui)
        ui.screenshot(folder / f"{name}-card.png")
        ui.tap_id("range_test")
        # The card lying there is measured, then the lift is asked for.
        wait_until(ui, lambda: screen.range_step in ("lift", "done"))
        ui.screenshot(folder / f"{name}-lift.png")
        device.lift()
        wait_until(ui, lambda: screen.range_band)
        problems += layout_problems(ui)
        ui.screenshot(folder / f"{name}-verdict.png")
    finally:
        ui.close()
        device.close()
    assert not problems, "\n".join(problems)


def test_a_later_app_in_the_process_lists_its_reads_in_its_own_theme(tmp_path: Path) -> None:
    """Kivy keeps the rows a list takes off the screen in one cache for the process and hands
    them to the next list of their kind; a row built by an app that has stopped follows that
    app's theme, not the next one's. Two apps, one after the other, as the tests run them: the
    second's last reads change colour with its theme."""
    from .tour import reader_check_stops

    for run in ("first", "second"):
        (tmp_path / run).mkdir()
        ui = Harness(tmp_path / run / "games.db")
        try:
            ui.tap_id("settings")
            walk = reader_check_stops(ui)
            assert "reader-check" in iter(walk)  # stops there, the rows listed
            rows = [row for row in ui.screen.ids.reads.walk(restrict=True)
                    if type(row).__name__ == "ReadRow"]
            assert rows
            for theme in ("light", "night", "dark"):
                ui.app.change_setting("companion", "theme", theme)
                ui.frames(2)
                inks = [list(ui.app.colours[role]) for role in ("text", "muted")]
                stale = [(label.text, list(label.color)) for row in rows
                         for label in row.children if list(label.color) not in inks]
                assert not stale, (run, theme, stale)
            walk.close()
        finally:
            ui.close()
