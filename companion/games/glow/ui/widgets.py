"""Glow's table widgets: a day (or a phase) of the day track, a player's tile, and an area of
the encounter track. They send nothing themselves: the table screen they name does.

Their look is in layouts/glow/table.kv; here is only what they hold and do.
"""

from __future__ import annotations

from kivy.properties import (
    BooleanProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label

from companion.ui.widgets import MarkFrame

NEUTRAL = "#5A5F66"


class DayCell(Label):
    """One day of the day track, or one phase of the day."""

    when = StringProperty("future")
    """"past", "now" or "future"."""


class PlayerTile(MarkFrame, BoxLayout):
    """One player's numbers at a glance, with the buttons a phase needs most."""

    index = NumericProperty(0)
    """The player's seat, from 0."""
    name = StringProperty("")
    colour = StringProperty("")
    """Their colour's id: the name's band is drawn in it, with its symbol (palette.py)."""
    starts = BooleanProperty(False)
    """They hold the start marker."""
    score = NumericProperty(0)
    """Light shards, absolute."""
    lap_text = StringProperty("")
    """Where the marker stands on the board: space and lap."""
    rerolls = NumericProperty(0)
    rerolls_text = StringProperty("")
    """Usable now, and gained today (usable tomorrow) apart."""
    threshold_text = StringProperty("")
    """"glowworms 4 / companions 5"."""
    threshold_met = BooleanProperty(False)
    board_text = StringProperty("")
    """Camp village (realm) or boats' islands (sea)."""
    over = BooleanProperty(False)
    """The game is over: the tile shows the end scoring."""
    scored = BooleanProperty(False)
    """Their end scoring is entered."""
    final_text = StringProperty("")
    """The total, or what the app suggests."""
    end_text = StringProperty("")
    """The four categories apart, once entered."""
    rank_text = StringProperty("")
    can_accept = BooleanProperty(False)
    """The app knows every category (a whole game played with it): one tap scores them."""
    winner = BooleanProperty(False)
    compact = BooleanProperty(False)
    """Leave out the lap and board lines: the encounter track's row needs their room (a
    landscape screen while the morning or the evening asks for the areas)."""
    screen = ObjectProperty(None)
    """The table screen (which sends the commands)."""


class AreaCell(FloatLayout):
    """One area of the encounter track, as the morning and the evening ask for it: its small
    dice with − and + while they are entered, or a button to recruit its companion (or send it
    to the graveyard) while the morning's picks go on. The two lie over each other, each as
    large as the cell, and one is folded away: the evening's end changes what the cells show
    without laying out the table again."""

    area = NumericProperty(1)
    """The area, 1-5 left to right."""
    caption = StringProperty("")
    count = NumericProperty(0)
    """The small dice entered for it so far (not sent until the whole track is entered)."""
    mode = StringProperty("")
    """"dice", "pick" or "discard" (the screen's `area_mode`)."""
    action_text = StringProperty("")
    """The pick or discard button's words."""
    has_companion = BooleanProperty(True)
    """A companion still lies there."""
    screen = ObjectProperty(None)

    def step(self, amount: int) -> None:
        self.screen.step_dice(self, amount)

    def act(self) -> None:
        self.screen.area_tapped(self.area)
