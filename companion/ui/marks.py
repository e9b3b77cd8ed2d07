"""Never colour alone: the widgets whose colour tells a state (a terrain, a player, a side of a
card, a warning, the active one) carry a symbol or a word as well.

A ColourCue names its kind and state ("terrain", "jungle"); layouts/style.kv gives it the state's
fill, a text colour on it and its mark from companion/ui/palette.py, in the palette the settings
chose. A CueMark shows the mark: a symbol in the symbol font, or a word in the app's. A game's
layout only sets `cue_kind` and `cue_state`; the tests find every ColourCue on a table and draw
each of its states (tests/ui/test_colour_blind_ui.py).
"""

from __future__ import annotations

from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label

from .widgets import FitText


class ColourCue:
    """Mixed into a widget whose colour tells a state."""

    cue_kind = StringProperty("")
    """One of palette.CUES's kinds."""
    cue_state = StringProperty("")
    """The state shown ("" for a plain one: no warning, not the active one)."""
    cue_keep = ListProperty([0, 0, 0, 0])
    """The fill (and, in `cue_keep_ink`, text colour) where the state's cue has none of its
    own: the element's usual look."""
    cue_keep_ink = ListProperty([1, 1, 1, 1])
    cue_fill = ListProperty([0, 0, 0, 0])
    """The state's fill, in the palette chosen (style.kv works it out)."""
    cue_ink = ListProperty([1, 1, 1, 1])
    """A text colour that reads on `cue_fill`."""
    cue_mark = StringProperty("")
    """The state's symbol, or its word in the language in use; "" for a plain state."""
    cue_word = BooleanProperty(False)
    """The mark is a word (drawn in the app's font), not a symbol."""


class CueMark(ColourCue, Label):
    """The mark of a state, on its own: a symbol, or a word."""


class FitCueMark(ColourCue, FitText, Label):
    """A word mark that shrinks to fit its box, as FitLabel does."""


class CueBox(ColourCue, BoxLayout):
    """A box drawn in its state's fill (a card's side)."""


class SymbolBeside(ColourCue):
    """Mixed into a button: its state's symbol drawn before its text, on its
    state's fill (style.kv)."""


class CueButton(SymbolBeside, FitText, Button):
    """A button in its state's colour, with its state's symbol (a Glow player's name)."""

