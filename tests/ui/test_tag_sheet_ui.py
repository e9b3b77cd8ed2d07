"""The tag screen's "Print sheet to USB stick", through the real window: offered only while a
stick is mounted (a folder and a table of mounts stand in for the kernel's), it writes the
sheet of the game whose cards are listed there and says where it went, or why it could not,
in the players' language."""

from __future__ import annotations

import io
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from pypdf import PdfReader

from .harness import Harness
from .test_reader_ui import enrol, wait_until

pytestmark = pytest.mark.ui


@pytest.fixture
def tag_screen(tmp_path: Path) -> Iterator[tuple[Harness, Path, Path]]:
    """The tag screen with two tags enrolled, looking for sticks in a stand-in table of mounts
    (empty: no stick yet); the stick's folder, not yet mounted."""
    harness = Harness(tmp_path / "games.db")
    try:
        enrol(harness, "04A22B1C", "invader", "I-jungle")
        enrol(harness, "E63AE5D5", "threat", "LW-threat-3-2")
        mounts = tmp_path / "mounts"
        mounts.write_text("/dev/mmcblk0p2 / ext4 rw,noatime 0 0\n")
        screen = harness.app.screen("tags")
        screen.mounts, screen.usb_roots = mounts, (str(tmp_path / "media"),)
        stick = tmp_path / "media" / "pi" / "TABLE STICK"
        stick.mkdir(parents=True)
        harness.tap_id("tags")
        assert harness.screen is screen
        yield harness, mounts, stick
    finally:
        harness.close()


def plug_in(mounts: Path, stick: Path) -> None:
    mounts.write_text(f"/dev/sda1 {str(stick).replace(' ', chr(92) + '040')} vfat "
                      "rw,nosuid,nodev,relatime 0 0\n")


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text()
                     for page in PdfReader(io.BytesIO(path.read_bytes())).pages)


def test_the_button_shows_while_a_stick_is_in_and_writes_the_listed_games_sheet_there(
        tag_screen: tuple[Harness, Path, Path], tmp_path: Path) -> None:
    from .test_layout import layout_problems

    ui, mounts, stick = tag_screen
    screen, button = ui.screen, ui.widget("print_sheet")
    assert screen.usb_stick == "" and button.disabled and button.opacity == 0
    plug_in(mounts, stick)
    wait_until(ui, lambda: screen.usb_stick == str(stick), timeout=15)  # it looks every 2 s
    ui.frames(2)
    assert button.text == "Print sheet to USB stick" and not button.disabled
    assert not layout_problems(ui)
    ui.screenshot(tmp_path / "tags-with-stick-800x480.png")

    ui.tap(button)
    written = stick / f"tag-sheet-spirit-island-{date.today().isoformat()}.pdf"
    assert ui.app.notice == (f"The tag sheet is on the USB stick ({stick}) as {written.name}: "
                             "print it from any computer.")
    text = pdf_text(written)
    assert "Card tags: Spirit Island" in text and "1 of 17 enrolled" in text
    assert "04A22B1C" in text and "E63AE5D5" not in text
    ui.app.notice = ""

    # Listing another game's kind prints that game's sheet.
    threat = next(b for b in screen.ids.kinds.children if b.kind == "threat")
    ui.tap(threat)
    ui.tap(button)
    leviathan = stick / f"tag-sheet-leviathan-wilds-{date.today().isoformat()}.pdf"
    assert "E63AE5D5" in pdf_text(leviathan) and "1 of 85 enrolled" in pdf_text(leviathan)
    ui.app.notice = ""

    mounts.write_text("")  # the stick is pulled
    wait_until(ui, lambda: screen.usb_stick == "", timeout=15)
    ui.frames(2)
    assert button.disabled and button.opacity == 0


def test_a_stick_that_cannot_be_written_is_said_in_the_players_language(
        tag_screen: tuple[Harness, Path, Path], tmp_path: Path) -> None:
    from .test_layout import layout_problems

    ui, mounts, stick = tag_screen
    ui.app.switch_language("de")
    try:
        plug_in(mounts, stick)
        screen = ui.screen
        screen.look_for_stick()
        ui.resize(720, 1280)
        button = ui.widget("print_sheet")
        assert button.text == "Tag-Liste auf USB-Stick" and not button.disabled
        assert not layout_problems(ui)
        ui.screenshot(tmp_path / "tags-with-stick-de-720x1280.png")
        # A folder in the way of the file (as a full or broken stick would refuse it).
        written = stick / f"tag-sheet-spirit-island-{date.today().isoformat()}.pdf"
        (written / "in the way").mkdir(parents=True)
        ui.tap(button)
        assert ui.app.notice.startswith(
            f"Die Tag-Liste konnte nicht auf den USB-Stick ({stick}) geschrieben werden: ")
        assert sorted(p.name for p in stick.iterdir()) == [written.name]  # nothing half-written
        ui.app.notice = ""
        (written / "in the way").rmdir()
        written.rmdir()
        ui.tap(button)
        assert ui.app.notice == (f"Die Tag-Liste ist als {written.name} auf dem USB-Stick "
                                 f"({stick}): Druckt sie an einem beliebigen Computer aus.")
        text = pdf_text(written)
        assert "Karten-Tags: Spirit Island" in text and "1 von 17 registriert" in text
    finally:
        ui.app.switch_language("en")
