"""Leviathan Wilds' table tiles: the threat row's spaces, the guardians, the wrath track's spaces
and the crystals' dice, in the game's colours.

The table screen (`table.py`) fills them from the driver's JSON state; their layout is in
layouts/leviathan_wilds/table.kv.
"""

from __future__ import annotations

from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from companion.ui.marks import ColourCue, CueMark
from companion.ui.palette import CORNER_MARK, Cue, add_cues
from companion.ui.theme import rgba
from companion.ui.widgets import FitLabel, MarkFrame

CALM = "#5B3F8C"
"""A threat's calm half: the game's purple."""
WILD = "#0F6B6B"
"""A threat's wild half: the game's turquoise, dark enough for white text."""
FACE_DOWN = "#4A4F55"

# A crystal's die is purple, or turquoise with a white corner once corrupted (the game's colours
# stay apart for every colour-vision deficiency, so both palettes keep them).
add_cues("crystal", {"": Cue("", {"standard": CALM}),
                     "corrupted": Cue(CORNER_MARK, {"standard": WILD})})


class ThreatTile(MarkFrame, BoxLayout):
    """One space of the threat row: face down, or its calm or wild half up."""

    slot = NumericProperty(1)
    """The space, counted 1-5 from the left as players do."""
    face = StringProperty("")
    """What lies there, in words: face down, calm, wild (and the card's name once known)."""
    half = StringProperty("")
    """The upright half, in words: WILD or calm."""
    face_up = BooleanProperty(False)
    """The card lies face up."""
    half_colour = ListProperty(rgba(CALM))
    """The upright half's colour (shown along a face-down card's top edge)."""
    background = ListProperty(rgba(FACE_DOWN))
    """The half's colour (grey face down)."""
    ink = ListProperty([1, 1, 1, 1])
    """The text colour that reads on it."""
    mark = StringProperty("")
    """"next" for the space the next reveal turns over, "now" for the one revealed this turn."""
    card = StringProperty("")
    """The threat card's number (1-5 of its leviathan) once the players named it."""


class GuardianTile(MarkFrame, ButtonBehavior, BoxLayout):
    """One guardian's numbers; a tap chooses the guardian the quick buttons act on."""

    index = NumericProperty(0)
    """The guardian's number, from 0."""
    name = StringProperty("")
    """The guardian's name."""
    health = NumericProperty(0)
    """Health (the red cube)."""
    corruption = NumericProperty(0)
    """Corruption (the turquoise cube)."""
    margin = NumericProperty(0)
    """Health above corruption: the guardian is defeated when it reaches 0."""
    cards = StringProperty("")
    """Deck, hand and discard, in words."""
    deck = NumericProperty(0)
    """Cards in the deck: the guardian's grip."""
    hand = NumericProperty(0)
    """Cards in the hand."""
    discard = NumericProperty(0)
    """Cards in the discard pile."""
    status = StringProperty("")
    """Falling, focus, weaknesses."""
    active = BooleanProperty(False)
    """It is this guardian's turn."""
    selected = BooleanProperty(False)
    """The quick buttons act on this guardian."""
    defeated = BooleanProperty(False)
    """Out of the game."""
    falling = BooleanProperty(False)
    """Falling (said beside the name when there is no room for the status line)."""
    roomy = BooleanProperty(False)
    """The tile has room for a line of its own for the status (portrait); else the status
    follows the name."""


class WrathSpace(FitLabel):
    """One space of the wrath track (one label: a track of ten is rebuilt never, refilled on
    every tap)."""

    wild = NumericProperty(0)
    """The number printed under it: how many threats turn wild at a round's end there."""
    current = BooleanProperty(False)
    """The wrath marker stands on it."""


class CrystalDie(ColourCue, FitLabel):
    """A crystal standing, as its dice (a giant crystal's two values joined by "+"), in its
    `text`; its `cue_state` is "" (calm: purple) or "corrupted" (turquoise, with a corner)."""


class CornerMark(CueMark):
    """A die's mark: its top right corner filled (a glyph's own margins would keep it off the
    corner, and a die has no room for a symbol beside its figures)."""


def threat_number(card: str | None) -> str:
    """"3" for the card id LW-threat-<leviathan>-3: the threat's number within its leviathan."""
    return card.rsplit("-", 1)[1] if card else ""
