"""Spirit Island's board widgets: card tiles and the spaces they lie on, the fear track, the
earned fear cards, the invader deck's pips, and the fear-card picker.

Their look is in layouts/spirit_island/table.kv; here is only what they do.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics import Color, Ellipse, InstructionGroup, RoundedRectangle
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.ui.marks import ColourCue
from companion.ui.outlines import circle_segments, corner_segments, ring, rounded_frame
from companion.ui.pickers import folded
from companion.ui.theme import rgba, text_colour_on
from companion.ui.widgets import (
    NEUTRAL_CARD,
    FitLabel,
    FitText,
    InstantPopup,
    grid_for,
    reuse_rows,
)

from .presenter import CardFace

NEUTRAL_INK = text_colour_on(NEUTRAL_CARD)


class TerrainChip(ColourCue, FitText, Label):
    """One terrain of a card: its name and its symbol written on its colour (`cue_state` is
    the terrain; a special card's name is written on `cue_keep`)."""

    scale = NumericProperty(1)
    """How much larger than at 800x480 the board is drawn."""


class CardTile(BoxLayout):
    """One invader card on the board (or an empty space), its terrains as colour and name."""

    face = ObjectProperty(None, allownone=True)
    """The CardFace shown, None for an empty space."""
    caption = StringProperty("")
    """The card's stage; empty for an empty space or a special card (the layout says which)."""
    scale = NumericProperty(1)
    """How much larger than at 800x480 the board is drawn."""

    def on_kv_post(self, *_: Any) -> None:
        self._chips: list[TerrainChip] = []
        """The chip widgets, refilled when another card lies here."""
        self.bind(face=self._show)
        self._show()

    def _show(self, *_: Any) -> None:
        face: CardFace | None = self.face
        self.caption = face.stage if face is not None else ""
        if face is None:
            chips = []
        elif face.terrains:
            chips = [(chip.name, chip.terrain) for chip in face.terrains]
        else:
            chips = [(face.name, "")]
        shown = reuse_rows(self.ids.chips, self._chips, len(chips),
                           lambda _index: TerrainChip(cue_keep=rgba(NEUTRAL_CARD),
                                                      cue_keep_ink=rgba(NEUTRAL_INK)))
        for widget, (name, terrain) in zip(shown, chips, strict=True):
            widget.text, widget.cue_state = name, terrain
            widget.scale = self.scale

    def on_scale(self, *_: Any) -> None:
        if "chips" in self.ids:
            for chip in self.ids.chips.children:
                chip.scale = self.scale


class SlotTitle(FitLabel):
    """A space's name over its cards: it shrinks to fit as a FitLabel does, then to the size
    of the board's most shrunk name (`shared_size`), so that the names read as one row."""

    fitted_size = NumericProperty(0)
    """The font size this name alone fits at (0 before its first fit)."""
    shared_size = NumericProperty(0)
    """The smallest fitted size of the names shown beside it (0: none known yet)."""

    def _fit(self, *args: Any) -> None:
        super()._fit(*args)
        self.fitted_size = self.font_size
        self.on_shared_size()

    def on_shared_size(self, *_: Any) -> None:
        if self.fitted_size:
            self.font_size = min(self.fitted_size, self.shared_size or self.fitted_size)


class SlotColumn(BoxLayout):
    """One space of the invader board (Ravage, Build, …) with the cards lying on it; the names
    of the spaces shown side by side share one font size."""

    title = StringProperty("")
    """The space's name."""
    faces = ListProperty([])
    """The CardFaces on the space, oldest first."""
    title_lines = NumericProperty(1)
    """Lines the titles of the board's spaces take (two for "High Immigration")."""
    scale = NumericProperty(1)
    """How much larger than at 800x480 the board is drawn."""

    def on_kv_post(self, *_: Any) -> None:
        self._tiles: list[CardTile] = []
        """The card widgets, refilled when the cards move (most Done taps, Undo, Redo)."""
        self.bind(faces=self._show)
        self._show()
        self.ids.title.bind(fitted_size=self._level_titles)
        self.bind(opacity=self._level_titles)

    def _level_titles(self, *_: Any) -> None:
        columns = [column for column in self.parent.children if isinstance(column, SlotColumn)
                   and "title" in column.ids] if self.parent is not None else [self]
        shared = min((column.ids.title.fitted_size for column in columns
                      if column.opacity > 0 and column.ids.title.fitted_size), default=0)
        for column in columns:
            column.ids.title.shared_size = shared

    def _show(self, *_: Any) -> None:
        faces = self.faces or [None]
        shown = reuse_rows(self.ids.tiles, self._tiles, len(faces), lambda _index: CardTile())
        for tile, face in zip(shown, faces, strict=True):
            tile.scale, tile.face = self.scale, face

    def on_scale(self, *_: Any) -> None:
        if "tiles" in self.ids:
            for tile in self.ids.tiles.children:
                tile.scale = self.scale


@dataclass
class _FearMarker:
    """One marker of the fear track: where it lies, and what it was last drawn as."""

    group: InstructionGroup
    x: float
    y: float
    size: float
    look: tuple[Any, ...] = ()
    """(in the pool, colour) as last drawn; () before the first drawing."""

    def show(self, in_pool: bool, colour: tuple[float, ...]) -> None:
        """Draw it filled (in the pool) or hollow (generated), unless it is so already."""
        look = (in_pool, colour)
        if look == self.look:
            return
        self.look = look
        x, y, size = self.x, self.y, self.size
        self.group.clear()
        self.group.add(Color(*colour))
        self.group.add(Ellipse(pos=(x, y), size=(size, size), segments=circle_segments(size))
                       if in_pool else ring(x, y, size, max(1.0, size / 12)))


class FearTrack(Widget):
    """The fear pool as markers: filled ones are still in the pool, hollow ones generated."""

    pool = NumericProperty(0)
    """Markers left in the pool."""
    total = NumericProperty(0)
    """The pool's size."""
    colour = ListProperty([1, 1, 1, 1])
    """A marker in the pool."""
    spent_colour = ListProperty([0.6, 0.6, 0.6, 1])
    """The outline of a generated marker."""

    def __init__(self, **kwargs: Any) -> None:
        self._draw_trigger = Clock.create_trigger(self._draw, -1)
        self._laid_out: tuple[Any, ...] = ()
        self._markers: list[_FearMarker] = []
        super().__init__(**kwargs)
        self.bind(pos=self._draw_trigger, size=self._draw_trigger, pool=self._draw_trigger,
                  total=self._draw_trigger, colour=self._draw_trigger,
                  spent_colour=self._draw_trigger)
        self._draw_trigger()  # as built, before anything changes

    def _draw(self, *_: Any) -> None:
        """Markers are placed when the track's size or the pool's size changes; a fear
        generated or taken back redraws only the markers that changed."""
        total = int(self.total)
        laid_out = (tuple(self.pos), tuple(self.size), total)
        if laid_out != self._laid_out:
            self._laid_out = laid_out
            self.canvas.clear()
            self._markers = []
            if total <= 0:
                return
            columns, cell = grid_for(total, self.width, self.height)
            rows = math.ceil(total / columns)
            size = cell * 0.78
            top = self.center_y + rows * cell / 2
            left = self.center_x - columns * cell / 2
            for index in range(total):
                row, column = divmod(index, columns)
                x = left + column * cell + (cell - size) / 2
                y = top - (row + 1) * cell + (cell - size) / 2
                marker = _FearMarker(InstructionGroup(), x, y, size)
                self.canvas.add(marker.group)
                self._markers.append(marker)
        for index, marker in enumerate(self._markers):
            in_pool = index < self.pool
            marker.show(in_pool, tuple(self.colour if in_pool else self.spent_colour))


class CardShapes(Widget):
    """A row of small cards: the earned fear cards waiting to be resolved."""

    count = NumericProperty(0)
    """How many cards."""
    colour = ListProperty([1, 1, 1, 1])
    """The cards' face."""
    edge = ListProperty([0, 0, 0, 1])
    """Their outline, so that overlapping cards stay countable."""

    def __init__(self, **kwargs: Any) -> None:
        self._draw_trigger = Clock.create_trigger(self._draw, -1)
        super().__init__(**kwargs)
        self.bind(pos=self._draw_trigger, size=self._draw_trigger, count=self._draw_trigger,
                  colour=self._draw_trigger, edge=self._draw_trigger)

    def _draw(self, *_: Any) -> None:
        self.canvas.clear()
        count = int(self.count)
        if count <= 0:
            return
        height = self.height * 0.9
        width = height * 0.7
        # Fanned like a held hand: each card shows half of itself, less when there are many.
        step = min(width * 0.5, (self.width - width) / max(count - 1, 1))
        y = self.center_y - height / 2
        radius = max(2.0, width / 8)
        with self.canvas:
            for index in range(count):
                x = self.x + index * step
                Color(*self.colour)
                RoundedRectangle(pos=(x, y), size=(width, height), radius=[radius],
                                 segments=corner_segments(radius))
                Color(*self.edge)
                rounded_frame(x, y, width, height, radius, 1.2)


class PipRow(Widget):
    """A run of the invader deck: one pip per card, coloured by stage."""

    count = NumericProperty(0)
    """Cards in the run."""
    colour = ListProperty([1, 1, 1, 1])
    """The pips' colour."""
    pip_height = NumericProperty(20)
    """The tallest a pip is drawn (in a wide row it would otherwise grow into a card)."""

    def __init__(self, **kwargs: Any) -> None:
        self._draw_trigger = Clock.create_trigger(self._draw, -1)
        super().__init__(**kwargs)
        self.bind(pos=self._draw_trigger, size=self._draw_trigger, count=self._draw_trigger,
                  colour=self._draw_trigger, pip_height=self._draw_trigger)

    def _draw(self, *_: Any) -> None:
        self.canvas.clear()
        count = int(self.count)
        if count <= 0:
            return
        # Pips are small upright cards; they wrap rather than shrink below half the row.
        columns, cell = grid_for(count, self.width, self.height, aspect=0.7)
        cell = min(cell, self.pip_height * 0.7)
        rows = math.ceil(count / columns)
        width, height = cell * 0.8, cell / 0.7 * 0.8
        top = self.center_y + rows * cell / 0.7 / 2
        radius = max(1.0, width / 6)
        with self.canvas:
            Color(*self.colour)
            for index in range(count):
                row, column = divmod(index, columns)
                RoundedRectangle(pos=(self.x + column * cell, top - (row + 1) * cell / 0.7),
                                 size=(width, height), radius=[radius],
                                 segments=corner_segments(radius))


class StageRunRow(BoxLayout):
    """One run of the invader deck: its stage in letters, then its pips."""

    label = StringProperty("")
    """"I", "II", "III" or "★"."""
    count = NumericProperty(0)
    """Cards in the run."""
    stage = NumericProperty(0)
    """The stage (0 for a special card): it picks the pips' colour."""
    font_size = NumericProperty(15)
    """The label's size."""


class DeckPips(BoxLayout):
    """The invader deck's stages, top first: a row of pips per run of equal stages."""

    runs = ListProperty([])
    """The StageRuns of the deck, top first."""
    font_size = NumericProperty(15)
    """The size of the stage labels."""

    def on_kv_post(self, *_: Any) -> None:
        self._rows: list[StageRunRow] = []
        """The run widgets, refilled when the deck changes."""
        self.bind(runs=self._show)
        self._show()

    def _show(self, *_: Any) -> None:
        shown = reuse_rows(self, self._rows, len(self.runs), lambda _index: StageRunRow())
        for row, run in zip(shown, self.runs, strict=True):
            row.label, row.count, row.stage = run.label, run.count, run.stage
            row.font_size = self.font_size

    def on_font_size(self, *_: Any) -> None:
        for row in self.children:
            row.font_size = self.font_size


class FearCardPicker(InstantPopup):
    """Names the fear card turned over: the cards of the expansions in play, a search by
    letters (on its own keys, or a keyboard), and "resolve without naming it" always in view
    (a keyboard's Space or Enter picks it). Built once; opening it only hands the list new data."""

    query = StringProperty("")
    """The letters typed so far."""
    when_picked = ObjectProperty(None)
    """Called with the chosen card's id, or "" for resolving it without a name."""
    nothing_found = BooleanProperty(False)
    """Letters are typed and no card matches them."""
    columns = NumericProperty(3)
    """How many cards in a row (landscape)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._cards: list[dict[str, Any]] = []
        self._left_out: set[str] = set()
        self._expansions: set[str] | None = None

    # Laid out unseen while Home is shown (the table's warm_up), it lies over Home for a frame
    # or two: a player's tap then is for Home, not for a popup nobody can see.
    def on_touch_down(self, touch: Any) -> bool:
        return self.opacity > 0 and bool(super().on_touch_down(touch))

    def on_touch_move(self, touch: Any) -> bool:
        return self.opacity > 0 and bool(super().on_touch_move(touch))

    def on_touch_up(self, touch: Any) -> bool:
        return self.opacity > 0 and bool(super().on_touch_up(touch))

    def fill(self, cards: Sequence[dict[str, Any]]) -> None:
        """Every card it may list: {"value", "text", "detail", "expansion"}."""
        self._cards = [{**card, "key": folded(card["text"])} for card in cards]

    def offer(self, left_out: set[str], expansions: set[str] | None) -> None:
        """List the cards of `expansions` (all when None) but those in `left_out`."""
        self._left_out, self._expansions = set(left_out), expansions
        self.query = ""
        self._show()

    def on_query(self, *_: Any) -> None:
        self._show()

    def _show(self) -> None:
        query = folded(self.query)
        self.ids.cards.data = [
            {"value": card["value"], "text": card["text"], "detail": card["detail"],
             "picked": self.pick}
            for card in self._cards
            if card["value"] not in self._left_out
            and (self._expansions is None or card["expansion"] in self._expansions)
            and (not query or any(word.startswith(query) for word in card["key"].split())
                 or query in card["key"])
        ]
        self.nothing_found = bool(query) and not self.ids.cards.data
        self.ids.cards.scroll_y = 1  # the list starts at its top, whatever was shown before

    def shown(self) -> list[str]:
        """The ids listed now, in order."""
        return [row["value"] for row in self.ids.cards.data]

    def type_key(self, key: str) -> None:
        if key == "Del":
            self.query = self.query[:-1]
        elif key == "Clear":
            self.query = ""
        else:
            self.query += key.lower()

    def pick(self, value: str) -> None:
        self.dismiss()
        if self.when_picked:
            self.when_picked(value)

    def on_open(self) -> None:
        Window.bind(on_key_down=self._on_key_down)

    def on_dismiss(self) -> None:
        Window.unbind(on_key_down=self._on_key_down)

    def _on_key_down(self, _window: Any, key: int, _scancode: int, codepoint: str | None,
                     modifiers: list[str]) -> bool:
        if key in (32, 13, 271) and not self.query:  # Space, Enter: the default choice
            self.pick("")
        elif key == 8:  # Backspace
            self.type_key("Del")
        elif key == 27:  # Escape
            self.dismiss()
        elif codepoint and codepoint.isalpha() and not modifiers:
            self.type_key(codepoint)
        elif key in (13, 271) and self.shown():  # Enter with letters typed: the first match
            self.pick(self.shown()[0])
        else:
            return False
        return True


