"""The invader cards and the deck-order strings that say how a deck is stacked.

Pure data and pure functions: nothing here knows about the table, the screen or a file.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .texts import Phrase, stage_phrase

TERRAINS = ("jungle", "mountain", "sands", "wetland", "coastal")

TERRAIN_NAMES = {
    "jungle": "Jungle",
    "mountain": "Mountain",
    "sands": "Sands",
    "wetland": "Wetland",
    "coastal": "Coastal Lands",
}


@dataclass(frozen=True)
class InvaderCard:
    id: str
    stage: int
    """1-3 for invader cards; 0 for a special card that is not an invader card."""
    terrains: tuple[str, ...]
    escalation: bool
    title: str | None = None
    """The printed name of a special card (its lands are on the card, not in its id)."""
    effect: str | None = None
    """What a special card asks of the table when it comes up, in the project's words."""

    @property
    def name(self) -> str:
        if self.title:
            return self.title
        return " + ".join(TERRAIN_NAMES[t] for t in self.terrains)

    @property
    def is_invader_card(self) -> bool:
        return self.stage > 0


def _card(card_id: str, escalation: bool = False) -> InvaderCard:
    numeral, _, rest = card_id.partition("-")
    return InvaderCard(card_id, len(numeral), tuple(rest.split("-")), escalation)


INVADER_CARDS: dict[str, InvaderCard] = {
    c.id: c
    for c in (
        _card("I-jungle"),
        _card("I-mountain"),
        _card("I-sands"),
        _card("I-wetland"),
        # Every Stage II card but Coastal Lands carries the escalation flag.
        _card("II-jungle", escalation=True),
        _card("II-mountain", escalation=True),
        _card("II-sands", escalation=True),
        _card("II-wetland", escalation=True),
        _card("II-coastal"),
        _card("III-jungle-mountain"),
        _card("III-jungle-sands"),
        _card("III-jungle-wetland"),
        _card("III-mountain-sands"),
        _card("III-mountain-wetland"),
        _card("III-sands-wetland"),
    )
}

# Cards only some adversaries put into the deck, always at a fixed place (`S` in a deck order).
SPECIAL_CARDS: dict[str, InvaderCard] = {
    c.id: c
    for c in (
        # Habsburg Mining Expedition level 4: a real Stage II invader card without the
        # escalation flag; the lands it hits are printed on it.
        InvaderCard("II-salt-deposits", 2, (), False, title="Salt Deposits"),
        # Habsburg Livestock Colony level 5: a reminder card, not an invader card. When it comes
        # up, its effect happens and the next card is turned over for the same Explore.
        InvaderCard(
            "S-wave-of-immigration", 0, (), False, title="Wave of Immigration",
            effect=("On each board add 1 City to a Coastal land that has no City, and 1 Town to "
                    "each of the 3 Inland lands with the least Blight. Then turn over the next "
                    "invader card for this Explore."),
        ),
    )
}

ALL_CARDS: dict[str, InvaderCard] = {**INVADER_CARDS, **SPECIAL_CARDS}

DEFAULT_DECK_ORDER = "111-2222-33333"

# Deck-order letters that stand for one fixed card rather than a random card of a stage.
FIXED_CARD_LETTERS = {"C": "II-coastal"}


@dataclass(frozen=True)
class DeckEntry:
    """One position in the invader deck: its stage, and the card if the app knows it.

    In a virtual deck every card is known. In a physical deck only fixed cards (such as the
    Coastal Lands card an adversary places) are known until the players reveal them.
    """

    stage: int
    card: str | None = None


def cards_of_stage(stage: int) -> list[str]:
    return [c.id for c in INVADER_CARDS.values() if c.stage == stage]


class DeckOrderError(ValueError):
    """A deck order that cannot be read; `phrase` says why, in any language."""

    def __init__(self, phrase: Phrase) -> None:
        self.phrase = phrase
        super().__init__(phrase.render())


def parse_deck_order(order: str, special: str | None = None) -> tuple[DeckEntry, ...]:
    """Read a deck-order string (top of the deck first) into deck positions.

    `1`, `2`, `3` stand for a random card of that stage, `C` for the Stage II Coastal Lands card,
    `S` for the adversary's special card (`special`, an id of SPECIAL_CARDS); dashes and spaces
    only group positions for the eye. Raises DeckOrderError with a reason.
    """
    if not isinstance(order, str):
        raise DeckOrderError(Phrase("the deck order must be a string such as 111-2222-33333"))
    entries: list[DeckEntry] = []
    for letter in order:
        if letter in "- ":
            continue
        if letter in "123":
            entries.append(DeckEntry(int(letter)))
        elif letter.upper() == "S":
            if special is None:
                raise DeckOrderError(Phrase(
                    "the deck order {order} places a special card (S), but only an adversary "
                    "level that has one (Habsburg Livestock 5+, Habsburg Mining 4+) can say "
                    "which card that is", order=repr(order)))
            entries.append(DeckEntry(SPECIAL_CARDS[special].stage, special))
        elif letter.upper() in FIXED_CARD_LETTERS:
            card = INVADER_CARDS[FIXED_CARD_LETTERS[letter.upper()]]
            entries.append(DeckEntry(card.stage, card.id))
        else:
            raise DeckOrderError(Phrase(
                "the deck order {order} has {letter}; use 1, 2, 3 for a card of that stage, "
                "C for the Coastal Lands card, and dashes to group them", order=repr(order),
                letter=repr(letter)))
    if not entries:
        raise DeckOrderError(Phrase("the deck order names no cards"))
    fixed = [e.card for e in entries if e.card]
    if len(fixed) != len(set(fixed)):
        raise DeckOrderError(Phrase("the deck order {order} places the same fixed card twice",
                                    order=repr(order)))
    for stage in (1, 2, 3):
        wanted = sum(1 for e in entries if e.stage == stage)
        if wanted > len(cards_of_stage(stage)):
            raise DeckOrderError(Phrase(
                "the deck order {order} needs {wanted} {stage} cards, but there are only {count}",
                order=repr(order), wanted=wanted, stage=stage_phrase(stage),
                count=len(cards_of_stage(stage))))
    return tuple(entries)


def build_virtual_deck(
    order: tuple[DeckEntry, ...], rng: random.Random, excluded: tuple[str, ...] = ()
) -> tuple[tuple[DeckEntry, ...], tuple[str, ...]]:
    """Shuffle each stage and deal the deck the order asks for.

    `excluded` cards are taken out before the piles are shuffled (an adversary's rule).
    Returns the deck (every card known, top first) and the cards set aside unseen.
    """
    fixed = {e.card for e in order if e.card} | set(excluded)
    piles: dict[int, list[str]] = {}
    for stage in (1, 2, 3):
        pile = [c for c in cards_of_stage(stage) if c not in fixed]
        rng.shuffle(pile)
        piles[stage] = pile
    deck = tuple(e if e.card else DeckEntry(e.stage, piles[e.stage].pop()) for e in order)
    set_aside = tuple(card for stage in (1, 2, 3) for card in piles[stage])
    return deck, set_aside
