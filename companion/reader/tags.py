"""The tag registry's rules: what a tag's UID means, and the CSV file that lists them.

Pure: the store keeps the registry and the service reads and writes files; this module only
decides what is a valid UID, a valid meaning and a valid file.
"""

from __future__ import annotations

import io
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from functools import cache

from companion.core.listing import TagKind
from companion.core.phrases import Phrase, Translate, as_written
from companion.games.registry import GAMES
from companion.i18n import N_

COMMAND = "command"
"""The kind every game shares: a tag that asks for done, undo or redo."""
COMMAND_KIND = TagKind(N_("Command"), N_("command tag"), N_("command tags"))
TAG_COMMANDS = ("done", "undo", "redo")
"""What a command tag asks: finish the current step, undo, redo."""


def _card_kinds() -> tuple[str, ...]:
    kinds: list[str] = []
    for game in GAMES.listed():  # the listings: reading the kinds imports no game's rules
        kinds += [kind for kind in game.tag_kinds if kind not in kinds]
    return tuple(kinds)


CARD_KINDS = _card_kinds()
"""The kinds whose tags name a game's card: each game's, in the registry's order."""
TAG_KINDS = (*CARD_KINDS, COMMAND)
"""Every kind of tag: the games' card kinds, then the shared "command"."""
UID_LENGTHS = (8, 10, 14, 20)
"""Hex digits in the UIDs readers report: 4, 5, 7 or 10 bytes."""
CSV_COLUMNS = ("uid", "kind", "card", "name")
REQUIRED_COLUMNS = ("uid", "kind", "card")
"""`name` is written for people and ignored on import."""

_COMMAND_NAMES = {"done": N_("Finish the step"), "undo": N_("Undo"), "redo": N_("Redo")}
_STAGED_NAME = N_("{name} (stage {stage})")


@dataclass(frozen=True)
class TagMeaning:
    kind: str
    """One of TAG_KINDS."""
    card: str
    """A catalogue id of that kind's cards, or one of TAG_COMMANDS."""


class TagFileError(ValueError):
    """A tag file that cannot be imported; the message names the line to fix."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line


def normalise_uid(text: str) -> str:
    """The UID as upper-case hex with no separators; ValueError when it is not a UID."""
    digits = text.strip()
    for separator in ":- ":
        digits = digits.replace(separator, "")
    digits = digits.upper()
    if len(digits) not in UID_LENGTHS or any(ch not in "0123456789ABCDEF" for ch in digits):
        raise ValueError(f"{text!r} is not a tag UID: a UID is 8, 10, 14 or 20 hex digits, "
                         "optionally split by ':', '-' or spaces (e.g. 04:A2:2B:1C)")
    return digits


@cache
def _names() -> dict[str, dict[str, Phrase]]:
    """Each card kind's ids, in the games' catalogue order, with the names players know them by."""
    names: dict[str, dict[str, Phrase]] = {}
    for game in GAMES.values():
        for kind, cards in game.tag_cards().items():
            named = names.setdefault(kind, {})
            for card in cards:
                stage = card.get("stage")
                values = {key: Phrase(value) if isinstance(value, str) else value
                          for key, value in card.get("values", {}).items()}
                name = Phrase(card["name"], **values)
                named[card["id"]] = Phrase(_STAGED_NAME, name=name, stage=stage) if stage \
                    else name
    return names


def kinds() -> dict[str, TagKind]:
    """What players call each kind, in TAG_KINDS order (English; translate where shown)."""
    named: dict[str, TagKind] = {}
    for game in GAMES.listed():
        for kind, words in game.tag_kinds.items():
            named.setdefault(kind, words)
    return {kind: COMMAND_KIND if kind == COMMAND else named.get(kind, TagKind(kind, kind, kind))
            for kind in TAG_KINDS}


def known_cards() -> dict[str, list[str]]:
    """The ids a tag of each card kind may name, from the catalogue."""
    return {kind: list(names) for kind, names in _names().items()}


def check_meaning(kind: str, card: str, cards: Mapping[str, Collection[str]]) -> TagMeaning:
    """The meaning, when `card` is one of `kind`'s cards; ValueError saying what is wrong."""
    if kind not in TAG_KINDS:
        raise ValueError(f"{kind!r} is not a kind of tag; the kinds are "
                         f"{', '.join(TAG_KINDS)}")
    choices = TAG_COMMANDS if kind == COMMAND else cards.get(kind, ())
    if card not in choices:
        if kind == COMMAND:
            hint = f"command tags are {', '.join(TAG_COMMANDS)}"
        else:
            import difflib  # only for a wrong card id: kept out of the app's start

            close = difflib.get_close_matches(card, list(choices), n=1)
            hint = (f"did you mean {close[0]!r}?" if close
                    else "the catalogue command lists every card's id")
        raise ValueError(f"{card!r} is not a{'n' if kind[:1] in 'aeiou' else ''} {kind} "
                         f"card id; {hint}")
    return TagMeaning(kind, card)


def card_name(meaning: TagMeaning, translate: Translate = as_written) -> str:
    """What players call the card (or the command), for screens and the CSV's name column;
    English unless `translate` says otherwise."""
    if meaning.kind == COMMAND:
        return translate(_COMMAND_NAMES.get(meaning.card, meaning.card))
    # A card this version does not know (kept from a newer catalogue) shows its id.
    name = _names().get(meaning.kind, {}).get(meaning.card)
    return meaning.card if name is None else name.render(translate)


def progress(tags: Collection[TagMeaning],
             cards: Mapping[str, Collection[str]]) -> dict[str, list[int]]:
    """Per card kind of every game: [how many of its cards have a tag, how many it has]."""
    tagged = {(m.kind, m.card) for m in tags}
    return {kind: [sum(1 for card in cards.get(kind, ()) if (kind, card) in tagged),
                   len(cards.get(kind, ()))] for kind in CARD_KINDS}


def tags_from_csv(text: str, cards: Mapping[str, Collection[str]]) -> dict[str, TagMeaning]:
    """Every tag in a CSV file, uid → meaning; TagFileError at the first line that is wrong.

    Columns are found by their header (in any order, extra ones ignored); blank lines are
    skipped; UIDs may be written in any form normalise_uid accepts, kinds in any case.
    """
    # Spreadsheet programs often start a CSV file with a byte-order mark.
    rows = _rows(text.removeprefix("\ufeff"))
    header = [column.strip().lower() for column in next(rows, (1, []))[1]]
    missing = [column for column in REQUIRED_COLUMNS if column not in header]
    if missing:
        raise TagFileError(1, f"the header lacks {', '.join(missing)}; the first line must "
                              f"name the columns: {','.join(CSV_COLUMNS)}")
    where = {column: header.index(column) for column in REQUIRED_COLUMNS}
    tags: dict[str, TagMeaning] = {}
    first_seen: dict[str, int] = {}
    for line, row in rows:
        if not any(cell.strip() for cell in row):
            continue
        uid_text, kind, card = (row[where[c]].strip() if where[c] < len(row) else ""
                                for c in REQUIRED_COLUMNS)
        try:
            uid = normalise_uid(uid_text)
            meaning = check_meaning(kind.lower(), card, cards)
        except ValueError as error:
            raise TagFileError(line, str(error)) from None
        if uid in tags:
            raise TagFileError(line, f"the tag {uid} is already listed on line "
                                     f"{first_seen[uid]}; a tag has one meaning")
        tags[uid] = meaning
        first_seen[uid] = line
    return tags


def _rows(text: str) -> Iterator[tuple[int, list[str]]]:
    """Each CSV row with the line it starts on; a row that cannot be split is a TagFileError."""
    import csv  # only for a tag file: kept out of the app's start

    reader = csv.reader(io.StringIO(text))
    end = 0  # a quoted cell may hold line breaks, so a row can span several lines
    try:
        for row in reader:
            yield end + 1, row
            end = reader.line_num
    except csv.Error as error:
        raise TagFileError(end + 1, f"this is not a CSV line ({error})") from None


def tags_to_csv(tags: Mapping[str, TagMeaning]) -> str:
    """The file tags_from_csv reads, plus each card's name; by kind, then card, then uid."""
    import csv

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for uid, meaning in sorted_tags(tags):
        writer.writerow([uid, meaning.kind, meaning.card, card_name(meaning)])
    return out.getvalue()


def sorted_tags(tags: Mapping[str, TagMeaning]) -> list[tuple[str, TagMeaning]]:
    """The tags as lists show them: by kind (in TAG_KINDS order), then card, then uid."""
    def key(item: tuple[str, TagMeaning]) -> tuple[int, str, str]:
        uid, meaning = item
        kind = TAG_KINDS.index(meaning.kind) if meaning.kind in TAG_KINDS else len(TAG_KINDS)
        return kind, meaning.card, uid

    return sorted(tags.items(), key=key)
