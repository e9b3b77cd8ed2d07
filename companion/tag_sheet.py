"""The printed tag sheet: for one game, every card of each kind with the UID of its tag, or an
empty box to tick when it gets a sticker, so a table sees which cards still need one.

`tag_sheet` decides what the sheet says (pure); tag_sheet_pdf.py lays it out on A4.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

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
