"""The printed tag sheet: for one game, every card of each kind with the UID of its tag, or an
empty box to tick when it gets a sticker, so a table sees which cards still need one.

`tag_sheet` decides what the sheet says (pure); `sheet_pdf` lays it out on A4 with fpdf2, in
the fonts Kivy ships (Roboto), so German and French names print without a system font.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import Any

from fpdf import FPDF

from .core.phrases import Translate
from .games.registry import GAMES
from .i18n import N_
from .reader.tags import COMMAND, TAG_COMMANDS, TagMeaning, card_name, kinds, known_cards

TITLE = N_("Card tags: {game}")
PRINTED = N_("Printed on {date}: {done} of {total} cards have a tag. An empty box is a card "
             "that still needs one: tick it when the sticker is on, then enrol the card.")
COVERAGE = N_("{done} of {total} enrolled")
CONTINUED = N_("{cards} (continued)")
PAGE = N_("Page {page} of {pages}")


@dataclass(frozen=True)
class SheetRow:
    card: str
    name: str
    """What players call the card, in the sheet's language."""
    uids: tuple[str, ...]
    """The tags enrolled to this card (none: it still needs a sticker)."""


@dataclass(frozen=True)
class SheetSection:
    kind: str
    heading: str
    """The kind's cards, as a heading in the sheet's language ("Invader cards")."""
    rows: tuple[SheetRow, ...]
    coverage: str = ""
    """How many of its cards have a tag ("12 of 15 enrolled")."""
    continued: str = ""
    """The heading on a page the kind's list goes on to."""

    @property
    def done(self) -> int:
        return sum(1 for row in self.rows if row.uids)

    @property
    def total(self) -> int:
        return len(self.rows)


@dataclass(frozen=True)
class TagSheet:
    game: str
    """The game's id."""
    title: str
    printed: str
    """The line under the title: the day and how many cards have a tag."""
    sections: tuple[SheetSection, ...]
    """Each of the game's kinds of card in its order, then the command tags."""
    page_words: str
    """The footer, with {page} and {pages} to fill."""


def enrolled_tags(listed: Iterable[Mapping[str, Any]]) -> dict[str, TagMeaning]:
    """uid → meaning, from the rows of the `tags` command's answer."""
    return {tag["uid"]: TagMeaning(tag["kind"], tag["card"]) for tag in listed}


def tag_sheet(game_id: str, enrolled: Mapping[str, TagMeaning], translate: Translate,
              day: date) -> TagSheet:
    """What the sheet of `game_id` says, with the tags `enrolled` now; KeyError for a game the
    registry does not know."""
    listing = GAMES.listing(game_id)
    cards = known_cards()
    uids: dict[tuple[str, str], list[str]] = {}
    for uid, meaning in sorted(enrolled.items()):
        uids.setdefault((meaning.kind, meaning.card), []).append(uid)
    named = kinds()
    sections = []
    for kind in (*listing.tag_kinds, COMMAND):
        ids = TAG_COMMANDS if kind == COMMAND else cards.get(kind, ())
        many = translate(named[kind].many)
        heading = many[:1].upper() + many[1:]
        rows = tuple(SheetRow(card, card_name(TagMeaning(kind, card), translate),
                              tuple(uids.get((kind, card), ()))) for card in ids)
        done = sum(1 for row in rows if row.uids)
        sections.append(SheetSection(
            kind, heading, rows, translate(COVERAGE).format(done=done, total=len(rows)),
            translate(CONTINUED).format(cards=heading)))
    done, total = coverage(sections)
    printed = translate(PRINTED).format(date=day.isoformat(), done=done, total=total)
    return TagSheet(game_id, translate(TITLE).format(game=translate(listing.name)), printed,
                    tuple(sections), translate(PAGE))


def coverage(sections: Iterable[SheetSection]) -> tuple[int, int]:
    """How many of the game's cards have a tag, and how many cards it has (commands aside)."""
    cards = [section for section in sections if section.kind != COMMAND]
    return sum(section.done for section in cards), sum(section.total for section in cards)


def sheet_file_name(game_id: str, day: date) -> str:
    return f"tag-sheet-{game_id}-{day.isoformat()}.pdf"


def font_folder() -> Path:
    """Kivy's own fonts, found without importing Kivy (which would start its logging and
    configuration in a command that shows no window)."""
    spec = importlib.util.find_spec("kivy")
    if spec is None or spec.origin is None:
        raise FileNotFoundError("Kivy is not installed, and the tag sheet uses its fonts")
    return Path(spec.origin).parent / "data" / "fonts"


FONTS = {("Roboto", ""): "Roboto-Regular.ttf", ("Roboto", "B"): "Roboto-Bold.ttf",
         ("RobotoMono", ""): "RobotoMono-Regular.ttf"}

MARGIN = 15.0
ROW = 6.5
"""A card's row, in mm: room to tick a box with a pen."""
BOX = 4.2
UID_COLUMN = 62.0
"""Wide enough for a 20-digit UID in the monospaced font."""
HEADING = 10.0
SHADE = (238, 240, 243)
INK = (30, 30, 30)
FAINT = (110, 110, 110)


class _SheetPDF(FPDF):
    """A4 in mm, with the page's number in the footer."""

    def __init__(self, page_words: str) -> None:
        super().__init__(orientation="portrait", unit="mm", format="A4")
        self._page_words = page_words
        self.set_margins(MARGIN, MARGIN, MARGIN)
        self.set_auto_page_break(False)  # rows are placed by hand, a heading kept with its rows
        fonts = font_folder()
        for (family, style), file in FONTS.items():
            self.add_font(family, style, str(fonts / file))

    def footer(self) -> None:
        self.set_y(-MARGIN + 4)
        self.set_font("Roboto", "", 8)
        self.set_text_color(*FAINT)
        # fpdf2 puts the number of pages in place of "{nb}" when the file is written.
        self.cell(0, 5, self._page_words.format(page=self.page_no(), pages="{nb}"),
                  align="C")


def sheet_pdf(sheet: TagSheet, made: date) -> bytes:
    """The sheet as a PDF file (A4, as many pages as its cards need)."""
    pdf = _SheetPDF(sheet.page_words)
    pdf.set_title(sheet.title)
    pdf.set_creator("companion tags sheet")
    # The day the sheet is made, not the second: the same registry gives the same file that day.
    pdf.set_creation_date(datetime.combine(made, time(), tzinfo=UTC))
    pdf.add_page()
    pdf.set_text_color(*INK)
    pdf.set_font("Roboto", "B", 18)
    pdf.cell(0, 10, sheet.title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Roboto", "", 10)
    pdf.set_text_color(*FAINT)
    pdf.multi_cell(0, 5, sheet.printed, align="L", new_x="LMARGIN", new_y="NEXT")
    for section in sheet.sections:
        _section(pdf, section)
    return bytes(pdf.output())


def _section(pdf: _SheetPDF, section: SheetSection) -> None:
    bottom = pdf.h - MARGIN - 6  # the footer's line below
    if pdf.get_y() + HEADING + 3 * ROW > bottom:  # a heading never ends a page alone
        pdf.add_page()
    _heading(pdf, section.heading, section.coverage)
    for index, row in enumerate(section.rows):
        height = ROW * max(1, len(row.uids))
        if pdf.get_y() + height > bottom:
            pdf.add_page()
            _heading(pdf, section.continued, "")
        _row(pdf, row, height, shaded=index % 2 == 1)


def _heading(pdf: _SheetPDF, heading: str, coverage: str) -> None:
    pdf.ln(3)
    pdf.set_text_color(*INK)
    pdf.set_font("Roboto", "B", 13)
    y = pdf.get_y()
    pdf.cell(0, HEADING - 3, heading)
    pdf.set_font("Roboto", "", 11)
    pdf.set_xy(pdf.l_margin, y)
    pdf.cell(0, HEADING - 3, coverage, align="R", new_x="LMARGIN", new_y="NEXT")
    pdf.set_draw_color(*INK)
    pdf.set_line_width(0.4)
    pdf.line(pdf.l_margin, pdf.get_y(), pdf.w - pdf.r_margin, pdf.get_y())


def _row(pdf: _SheetPDF, row: SheetRow, height: float, shaded: bool) -> None:
    left, y = pdf.l_margin, pdf.get_y()
    width = pdf.w - pdf.l_margin - pdf.r_margin
    if shaded:
        pdf.set_fill_color(*SHADE)
        pdf.rect(left, y, width, height, style="F")
    box_y = y + (ROW - BOX) / 2
    pdf.set_draw_color(*INK)
    pdf.set_line_width(0.3)
    pdf.rect(left + 1.5, box_y, BOX, BOX)
    if row.uids:  # ticked: the card has its sticker
        pdf.set_line_width(0.5)
        pdf.line(left + 2.3, box_y + BOX * 0.55, left + 1.5 + BOX * 0.4, box_y + BOX - 0.8)
        pdf.line(left + 1.5 + BOX * 0.4, box_y + BOX - 0.8, left + 1.5 + BOX - 0.6, box_y + 0.7)
    name_x = left + BOX + 4.5
    name_width = width - (name_x - left) - UID_COLUMN
    size = 10.0
    pdf.set_font("Roboto", "", size)
    while size > 7 and pdf.get_string_width(row.name) > name_width - 1:  # a long name shrinks
        size -= 0.5
        pdf.set_font_size(size)
    pdf.set_text_color(*INK)
    pdf.set_xy(name_x, y)
    pdf.cell(name_width, ROW, row.name)
    pdf.set_font("RobotoMono", "", 9.5)
    for line, uid in enumerate(row.uids):
        pdf.set_xy(left + width - UID_COLUMN, y + line * ROW)
        pdf.cell(UID_COLUMN - 1.5, ROW, uid, align="R")
    pdf.set_xy(left, y + height)
