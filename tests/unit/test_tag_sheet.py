"""The printed tag sheet: which cards it lists with which tag, its coverage counts, the PDF's
text read back, its fonts' reach, and where a USB stick is found."""

from __future__ import annotations

import io
from datetime import date
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from pypdf import PdfReader

from companion.files import write_atomically
from companion.games.registry import GAMES
from companion.i18n import translations
from companion.reader.tags import TagMeaning, card_name, known_cards
from companion.tag_sheet import (
    coverage,
    enrolled_tags,
    sheet_file_name,
    tag_sheet,
)
from companion.tag_sheet_pdf import FONTS, font_folder, sheet_pdf
from companion.usb_sticks import mounted_sticks

DAY = date(2026, 5, 4)
ENGLISH = translations("en").gettext
GERMAN = translations("de").gettext


def some_spirit_island_tags() -> dict[str, TagMeaning]:
    """Twelve invader cards, one fear card with two tags, a command tag, and a Leviathan Wilds
    threat card that the Spirit Island sheet must leave out."""
    cards = known_cards()
    enrolled = {f"04A1B2C3D4E5{i:02X}": TagMeaning("invader", card)
                for i, card in enumerate(cards["invader"][:12])}
    enrolled["E63AE5D5"] = TagMeaning("fear", cards["fear"][2])
    enrolled["0011223344556677889A"] = TagMeaning("fear", cards["fear"][2])
    enrolled["AABBCCDD"] = TagMeaning("command", "undo")
    enrolled["0102030405"] = TagMeaning("threat", cards["threat"][0])
    return enrolled


def pdf_text(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def test_the_sheet_lists_every_card_of_the_games_kinds_with_its_tags_and_counts_them() -> None:
    sheet = tag_sheet("spirit-island", some_spirit_island_tags(), ENGLISH, DAY)
    assert [s.kind for s in sheet.sections] == ["invader", "fear", "blight", "command"]
    cards = known_cards()
    invader, fear, blight, command = sheet.sections
    assert [row.card for row in invader.rows] == cards["invader"]
    assert [row.uids for row in invader.rows[:2]] == [("04A1B2C3D4E500",), ("04A1B2C3D4E501",)]
    assert all(row.uids == () for row in invader.rows[12:])
    assert (invader.heading, invader.done, invader.total) == ("Invader cards", 12, 17)
    assert invader.coverage == "12 of 17 enrolled"
    twice = fear.rows[2]
    assert twice.uids == ("0011223344556677889A", "E63AE5D5")
    assert twice.name == card_name(TagMeaning("fear", cards["fear"][2]))
    assert (fear.done, fear.total, blight.done, blight.total) == (1, 50, 0, 23)
    assert [(row.card, row.uids) for row in command.rows] == [
        ("done", ()), ("undo", ("AABBCCDD",)), ("redo", ())]
    assert command.heading == "Command tags"
    assert coverage(sheet.sections) == (13, 90)  # the command tags are not cards
    assert sheet.title == "Card tags: Spirit Island"
    assert sheet.printed.startswith("Printed on 2026-05-04: 13 of 90 cards have a tag.")
    every_uid = {uid for section in sheet.sections for row in section.rows for uid in row.uids}
    assert "0102030405" not in every_uid  # Leviathan Wilds' threat card is not on this sheet


def test_another_games_sheet_has_its_own_kinds_and_names_in_the_language_asked() -> None:
    threat = known_cards()["threat"][0]
    sheet = tag_sheet("leviathan-wilds", {"0102030405": TagMeaning("threat", threat)},
                      GERMAN, DAY)
    assert [(s.kind, s.heading, s.done, s.total) for s in sheet.sections] == [
        ("threat", "Bedrohungskarten", 1, 85), ("weakness", "Schwächekarten", 0, 12),
        ("command", "Befehls-Tags", 0, 3)]
    assert sheet.sections[0].rows[0].name == card_name(TagMeaning("threat", threat), GERMAN)
    assert sheet.sections[0].coverage == "1 von 85 registriert"
    with pytest.raises(KeyError):
        tag_sheet("chess", {}, ENGLISH, DAY)


def test_the_pdf_reads_back_with_its_headings_coverage_names_and_uids() -> None:
    sheet = tag_sheet("spirit-island", some_spirit_island_tags(), ENGLISH, DAY)
    pdf = sheet_pdf(sheet, DAY)
    assert pdf.startswith(b"%PDF-")
    reader = PdfReader(io.BytesIO(pdf))
    width, height = reader.pages[0].mediabox.width, reader.pages[0].mediabox.height
    assert (round(float(width)), round(float(height))) == (595, 842)  # A4 in points
    text = pdf_text(pdf)
    for line in ("Card tags: Spirit Island", "Invader cards", "12 of 17 enrolled",
                 "Fear cards", "1 of 50 enrolled", "Blight cards", "0 of 23 enrolled",
                 "Command tags", "1 of 3 enrolled", "04A1B2C3D4E50B", "0011223344556677889A",
                 "E63AE5D5", "AABBCCDD", f"Page 1 of {len(reader.pages)}"):
        assert line in text, line
    for section in sheet.sections:  # every card, tagged or not, is on the sheet
        for row in section.rows:
            assert row.name in text, row.name
    assert "0102030405" not in text
    assert "04A1B2C3D4E50C" not in text  # only twelve invader cards have a tag
    # A long kind goes on over a page with its heading again.
    assert "Fear cards (continued)" in text or "Blight cards (continued)" in text


def test_german_and_french_names_keep_their_accents_in_the_pdf() -> None:
    for language, heading, umlaut_or_accent in (("de", "Ödnis-Karten", "ö"),
                                                ("fr", "Cartes", "é")):
        translate = translations(language).gettext
        sheet = tag_sheet("spirit-island", {}, translate, DAY)
        text = pdf_text(sheet_pdf(sheet, DAY))
        names = [row.name for section in sheet.sections for row in section.rows]
        accented = [name for name in names if umlaut_or_accent in name.lower()]
        assert accented, language
        for name in accented:
            assert name in text, (language, name)
        assert heading in text


def test_the_fonts_kivy_ships_have_every_letter_of_every_card_name_in_every_language() -> None:
    folder = font_folder()
    regular = TTFont(folder / FONTS[("Roboto", "")])
    letters = set(regular.getBestCmap())
    missing = set()
    for language in ("en", "de", "fr"):
        translate = translations(language).gettext
        for game in GAMES.listed():
            sheet = tag_sheet(game.id, {}, translate, DAY)
            texts = [sheet.title, sheet.printed, sheet.page_words]
            for section in sheet.sections:
                texts += [section.heading, section.coverage, section.continued]
                texts += [row.name for row in section.rows]
            missing |= {ch for text in texts for ch in text if ord(ch) not in letters}
    assert not missing
    mono = set(TTFont(folder / FONTS[("RobotoMono", "")]).getBestCmap())
    assert {ord(ch) for ch in "0123456789ABCDEF"} <= mono


def test_the_enrolled_tags_come_from_the_tags_commands_rows_and_the_file_is_named_by_day() -> None:
    rows = [{"uid": "04A22B1C", "kind": "invader", "card": "I-jungle", "name": "Jungle"}]
    assert enrolled_tags(rows) == {"04A22B1C": TagMeaning("invader", "I-jungle")}
    assert sheet_file_name("glow", DAY) == "tag-sheet-glow-2026-05-04.pdf"


def test_a_pdf_is_written_whole_as_bytes(tmp_path: Path) -> None:
    target = tmp_path / "sheet.pdf"
    target.write_text("an older sheet")
    pdf = sheet_pdf(tag_sheet("glow", {}, ENGLISH, DAY), DAY)
    write_atomically(target, pdf, overwrite=True)
    assert target.read_bytes() == pdf
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.pdf"]  # no temporary file left


def test_a_usb_stick_is_a_writable_stick_file_system_mounted_under_a_removable_root(
        tmp_path: Path) -> None:
    media = tmp_path / "media"
    stick, spaced, read_only, disk = (media / "pi" / "STICK", media / "pi" / "MY STICK",
                                      media / "pi" / "LOCKED", media / "pi" / "DISK")
    elsewhere = tmp_path / "boot"
    for folder in (stick, spaced, read_only, disk, elsewhere):
        folder.mkdir(parents=True)
    mounts = tmp_path / "mounts"
    mounts.write_text(
        "/dev/mmcblk0p2 / ext4 rw,noatime 0 0\n"
        f"/dev/mmcblk0p1 {elsewhere} vfat rw,relatime 0 0\n"
        f"/dev/sda1 {stick} vfat rw,nosuid,nodev,relatime,uid=1000 0 0\n"
        f"/dev/sdb1 {str(spaced).replace(' ', chr(92) + '040')} exfat rw,relatime 0 0\n"
        f"/dev/sdc1 {read_only} vfat ro,relatime 0 0\n"
        f"/dev/sdd1 {disk} ext4 rw,relatime 0 0\n"
        # as a service's own mount namespace lists it: the stick once more, on the bind mount
        f"/dev/sda1 {stick} vfat rw,nosuid,nodev,relatime,uid=1000 0 0\n"
        "garbage\n")
    assert mounted_sticks(mounts, (str(media),)) == [stick, spaced]
    assert mounted_sticks(mounts, (str(tmp_path / "elsewhere"),)) == []
    assert mounted_sticks(tmp_path / "no-such-table", (str(media),)) == []
