"""The palettes (standard and colour-blind safe) and the marks that tell a state without its
colour: a symbol per terrain and per Glow player, a word per blight side, a warning sign, the
active player's arrow.

Pure Python: a widget with the ColourCue mixin (companion/ui/marks.py) names its kind and state
("terrain", "jungle") and takes its fill and its mark from here, so every screen draws one
terrain with one symbol, and a game added later gets the same marks by naming a kind.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import N_
from .theme import rgba, text_colour_on

PALETTES = ("standard", "colour_blind")
DEFAULT_PALETTE = "standard"

SYMBOL_FONT = "DejaVuSans"
"""Kivy's own font with the symbols' glyphs (Roboto, the app's text font, has none of them)."""

# The board game's terrain colours; the colour-blind safe ones are Okabe and Ito's (2008),
# but for a light stone grey for mountains (their black would hide the name).
TERRAIN_COLOURS = {
    "standard": {
        "jungle": "#2E7D32",
        "mountain": "#8D8D8D",
        "sands": "#E0B060",
        "wetland": "#4FA3A5",
        "coastal": "#1E5FA8",
    },
    "colour_blind": {
        "jungle": "#009E73",
        "mountain": "#CCCCCC",
        "sands": "#F0E442",
        "wetland": "#56B4E9",
        "coastal": "#0072B2",
    },
}
# A tree, a peak, the desert sun, waves, an anchor.
TERRAIN_SYMBOLS = {
    "jungle": "♣",
    "mountain": "▲",
    "sands": "☀",
    "wetland": "≈",
    "coastal": "⚓",
}

# Glow's player colours; the colour-blind safe ones are Okabe and Ito's eight.
PLAYER_COLOURS = {
    "standard": {
        "blue": "#2F6DB5",
        "red": "#B53131",
        "green": "#2E8540",
        "yellow": "#E0B624",
        "purple": "#7445A8",
        "orange": "#D9731F",
        "white": "#E6E6E6",
        "black": "#2A2A2A",
    },
    "colour_blind": {
        "blue": "#0072B2",
        "red": "#D55E00",
        "green": "#009E73",
        "yellow": "#F0E442",
        "purple": "#CC79A7",
        "orange": "#E69F00",
        "white": "#F2F2F2",
        "black": "#000000",
    },
}
# Shapes told apart by their outline alone, filled or open.
PLAYER_SYMBOLS = {
    "blue": "●",
    "red": "■",
    "green": "▲",
    "yellow": "★",
    "purple": "◆",
    "orange": "✚",
    "white": "○",
    "black": "✖",
}
NO_PLAYER_COLOUR = "#5A5F66"

WARNING_SIGN = "⚠"
ACTIVE_ARROW = "▶"
CORNER_MARK = "◥"
"""A corner of its own colour, for a chip too small for a symbol beside its figure."""


@dataclass(frozen=True)
class Cue:
    """How one state of an element shows itself besides its colour."""

    mark: str
    """A symbol (drawn in SYMBOL_FONT), a word to translate (`word`), or "" for the plain state
    (no warning, not the active one) that the others stand out from."""
    fill: dict[str, str] | str | None = None
    """Its fill: a colour per palette, a theme role, or None where the element keeps its own."""
    word: bool = False


CUES: dict[str, dict[str, Cue]] = {
    "terrain": {terrain: Cue(symbol, {name: colours[terrain]
                                      for name, colours in TERRAIN_COLOURS.items()})
                for terrain, symbol in TERRAIN_SYMBOLS.items()},
    "player": {colour: Cue(symbol, {name: colours[colour]
                                    for name, colours in PLAYER_COLOURS.items()})
               for colour, symbol in PLAYER_SYMBOLS.items()},
    # Spirit Island's blight card: the side's name is written on the side's colour.
    "blight_side": {
        "healthy": Cue(N_("Healthy"), "healthy", word=True),
        "still_healthy": Cue(N_("Still healthy"), "still_healthy", word=True),
        "blighted": Cue(N_("Blighted"), "blighted", word=True),
    },
    "warning": {"": Cue(""), "warning": Cue(WARNING_SIGN)},
    "active": {"": Cue(""), "active": Cue(ACTIVE_ARROW)},
}
"""Every kind of element whose states a colour tells, with each state's cue (a game adds its
own kinds with `add_cues`)."""


def add_cues(kind: str, cues: dict[str, Cue]) -> None:
    """A game's own kind of coloured element (Leviathan Wilds' crystals), from its own code: the
    marks, the colour-blind test and the palettes then treat it as any other."""
    CUES[kind] = dict(cues)


def cue(kind: str, state: str) -> Cue | None:
    return CUES.get(kind, {}).get(state)


def cue_mark(kind: str, state: str) -> str:
    """The state's symbol or (untranslated) word; "" for a plain or unknown state."""
    found = cue(kind, state)
    return found.mark if found is not None else ""


def cue_is_word(kind: str) -> bool:
    return any(found.word for found in CUES.get(kind, {}).values())


def fill_hex(kind: str, state: str, palette: str, theme: dict[str, str]) -> str | None:
    """The state's fill as "#RRGGBB" in `palette` and the theme's colours (hex, by role), or
    None where the element keeps its own."""
    found = cue(kind, state)
    if found is None or found.fill is None:
        return None
    if isinstance(found.fill, str):
        return theme.get(found.fill)
    return found.fill.get(palette, found.fill[DEFAULT_PALETTE])


def cue_fill(kind: str, state: str, palette: str, colours: dict[str, list[float]],
             keep: list[float]) -> list[float]:
    """The state's fill as a Kivy colour; `keep` where the element keeps its own. `colours`
    is the app's theme as Kivy colours (a theme role's fill is taken from it)."""
    found = cue(kind, state)
    if found is not None and isinstance(found.fill, str):
        return list(colours.get(found.fill, keep))
    colour = fill_hex(kind, state, palette, {})
    return rgba(colour) if colour else list(keep)


def cue_ink(kind: str, state: str, palette: str, colours: dict[str, list[float]],
            keep: list[float]) -> list[float]:
    """A text colour that reads on the state's fill: black or white on a palette colour, the
    role's own "_text" colour on a theme role; `keep` where the element keeps its fill."""
    found = cue(kind, state)
    if found is not None and isinstance(found.fill, str):
        return list(colours.get(found.fill + "_text", keep))
    colour = fill_hex(kind, state, palette, {})
    return rgba(text_colour_on(colour)) if colour else list(keep)


def palette_named(stored: object) -> str:
    """The palette companion.ini asks for; a value it does not know reads as the standard."""
    return stored if isinstance(stored, str) and stored in PALETTES else DEFAULT_PALETTE


def terrain_colour(terrain: str, palette: str = DEFAULT_PALETTE) -> str:
    return TERRAIN_COLOURS.get(palette, TERRAIN_COLOURS[DEFAULT_PALETTE])[terrain]


def player_colour(colour: str | None, palette: str = DEFAULT_PALETTE) -> str:
    """How the screen draws a Glow player's colour (a neutral grey for none)."""
    colours = PLAYER_COLOURS.get(palette, PLAYER_COLOURS[DEFAULT_PALETTE])
    return colours.get(colour or "", NO_PLAYER_COLOUR)

