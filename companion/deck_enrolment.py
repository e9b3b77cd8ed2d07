"""Enrolling a whole deck: one game's cards in order, kind by kind, each named in turn for the
players to lay its tag on the reader. Pure: the screen sends each enrolment (the `tag_enrol`
command, saved as it happens) and tells the walk it was saved.

Where a walk stands is not stored: it is worked out from the registry, as the first card still
without a tag (from the kind the players started at). Pausing is leaving; resuming is asking the
registry again, so a tag forgotten or imported meanwhile, or an app restarted mid-deck, is
resumed where the registry says, never where a remembered position (wrong by then) would say.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .games.registry import GAMES
from .reader.tags import TagMeaning

ENROL = "enrol"
"""A tag no card has: enrol it as the card named."""
SAME = "same"
"""The tag already stands for the card named: nothing to save, on to the next."""
REPEAT = "repeat"
"""The tag taken just before, laid again: refused, the walk stays."""
ELSEWHERE = "elsewhere"
"""The tag already stands for another card: refused, the walk stays."""
FINISHED = "finished"
"""No card is named (the walk reached its end): nothing is taken."""


@dataclass(frozen=True)
class DeckCard:
    kind: str
    card: str
    """Its catalogue id."""
    number: int
    """Its place among its kind's cards, from 1."""
    of: int
    """How many cards its kind has."""

    @property
    def meaning(self) -> TagMeaning:
        return TagMeaning(self.kind, self.card)


@dataclass(frozen=True)
class KindCoverage:
    kind: str
    done: int
    """Its cards with at least one tag."""
    total: int


@dataclass(frozen=True)
class Lay:
    """What a steady read means to the walk (it changes nothing until `taken`)."""

    outcome: str
    """ENROL, SAME, REPEAT, ELSEWHERE or FINISHED."""
    uid: str
    card: DeckCard | None
    """The card named when the tag was laid."""
    meaning: TagMeaning | None = None
    """For REPEAT and ELSEWHERE: what the tag stands for already."""


def enrolment_games() -> list[str]:
    """The games whose cards take tags, in the registry's order."""
    return [listing.id for listing in GAMES.listed() if listing.tag_kinds]


def game_deck(game_id: str) -> dict[str, list[str]]:
    """The ids of `game_id`'s cards, kind by kind in its order, each kind in its catalogue's."""
    cards = GAMES[game_id].tag_cards()
    return {kind: [card["id"] for card in cards.get(kind, ())]
            for kind in GAMES.listing(game_id).tag_kinds}


class DeckWalk:
    """One game's cards named one after the other, the players laying each card's tag."""

    def __init__(self, game: str, deck: Mapping[str, Sequence[str]],
                 tags: Mapping[str, TagMeaning], start_kind: str = "") -> None:
        self.game = game
        self.kinds = tuple(deck)
        self.cards = tuple(DeckCard(kind, card, number, len(ids))
                           for kind, ids in deck.items() for number, card in enumerate(ids, 1))
        self.start_kind = start_kind if start_kind in deck else (self.kinds[:1] or ("",))[0]
        self.redo = False
        """Every card of `start_kind` in turn, those with a tag too (a new tag is added)."""
        self.last_uid = ""
        """The tag taken last: laid again at once, it is a repeat."""
        self._tags = dict(tags)
        self._index: int | None = None
        self._shown_before: list[int] = []
        self._enrolled_here: dict[int, str] = {}
        self.resume(tags)

    # --- where the walk is ---

    @property
    def current(self) -> DeckCard | None:
        """The card named now; None once the walk has reached its end."""
        return None if self._index is None else self.cards[self._index]

    @property
    def can_go_back(self) -> bool:
        return bool(self._shown_before)

    def coverage(self) -> list[KindCoverage]:
        """Per kind in the game's order: how many of its cards have a tag, of how many."""
        tagged = set(self._tags.values())
        return [KindCoverage(kind, sum(1 for c in self.cards if c.kind == kind
                                       and c.meaning in tagged),
                             sum(1 for c in self.cards if c.kind == kind))
                for kind in self.kinds]

    def missing(self) -> int:
        """How many of the game's cards have no tag yet."""
        tagged = set(self._tags.values())
        return sum(1 for card in self.cards if card.meaning not in tagged)

    # --- moving ---

    def resume(self, tags: Mapping[str, TagMeaning]) -> None:
        """Come back with the registry as it is now: to the first card still without a tag
        from the start kind on (else from the game's first). A redo of a kind goes on at the
        card it was on (every card of it may have a tag: the registry cannot say), and one
        that reached its end is over."""
        self._tags = dict(tags)
        if self.redo and self._index is not None:
            return
        self.redo = False
        self._place()

    def start_at(self, kind: str, redo: bool = False) -> None:
        """Begin again at `kind`: its first card without a tag, or with `redo` its first card
        whatever it has (the walk then ends with the kind's last)."""
        if kind not in self.kinds:
            raise ValueError(f"{kind!r} is not a kind of card of {self.game}")
        self.start_kind, self.redo = kind, redo
        self._place()

    def _place(self) -> None:
        self._shown_before.clear()
        self._enrolled_here.clear()
        start = self._first_of(self.start_kind)
        found = self._next_needing(start)
        self._index = found if found is not None or self.redo else self._next_needing(0)

    def skip(self) -> None:
        """On without a tag for the card named (it has no sticker yet)."""
        self._move_on()

    def back(self) -> str | None:
        """To the card named before. The tag this walk enrolled to it (if any) is dropped and
        returned, for the screen to forget it in the registry: the card is laid anew."""
        if not self._shown_before:
            return None
        self._index = self._shown_before.pop()
        self.last_uid = ""
        uid = self._enrolled_here.pop(self._index, None)
        if uid is not None:
            self._tags.pop(uid, None)
        return uid

    # --- a tag laid ---

    def read(self, uid: str) -> Lay:
        """What a tag read steadily means for the card named now (nothing changes yet)."""
        card = self.current
        if card is None:
            return Lay(FINISHED, uid, None)
        before = self._tags.get(uid)
        if uid == self.last_uid:
            return Lay(REPEAT, uid, card, before)
        if before == card.meaning:
            return Lay(SAME, uid, card)
        if before is not None:
            return Lay(ELSEWHERE, uid, card, before)
        return Lay(ENROL, uid, card)

    def taken(self, uid: str) -> None:
        """The tag stands for the card named now (enrolled and saved, or it did already):
        on to the next card."""
        card = self.current
        if card is None:
            return
        if uid not in self._tags:
            self._enrolled_here[self._index or 0] = uid
        self._tags[uid] = card.meaning
        self.last_uid = uid
        self._move_on()

    # --- helpers ---

    def _move_on(self) -> None:
        if self._index is None:
            return
        self._shown_before.append(self._index)
        self._index = self._next_needing(self._index + 1)

    def _first_of(self, kind: str) -> int:
        return next((i for i, card in enumerate(self.cards) if card.kind == kind), 0)

    def _next_needing(self, start: int) -> int | None:
        """The first card from `start` on the walk names: one without a tag, or redoing,
        each card of the kind redone."""
        tagged = set(self._tags.values())
        for index in range(start, len(self.cards)):
            card = self.cards[index]
            if self.redo:
                if card.kind != self.start_kind:
                    return None
                return index
            if card.meaning not in tagged:
                return index
        return None
