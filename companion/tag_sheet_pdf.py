"""The printed tag sheet laid out on A4 with fpdf2, in the fonts Kivy ships (Roboto), so German
and French names print without a system font. What it says is decided in tag_sheet.py."""

from __future__ import annotations

import importlib.util
from datetime import UTC, date, datetime, time
from pathlib import Path

from fpdf import FPDF

from .tag_sheet import SheetRow, SheetSection, TagSheet


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
