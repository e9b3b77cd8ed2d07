"""Small widgets the screens share: a label that shrinks its text to fit, card tiles, pickers.

Their look is in layouts/style.kv; here is only what they do.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.core.window import Window
from kivy.graphics import Color, Ellipse, Line, RoundedRectangle
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.popup import Popup
from kivy.uix.widget import Widget

from .. import i18n
from .presenter import CardFace
from .theme import rgba, text_colour_on

NEUTRAL_CARD = "#5A5F66"


class FitText:
    """Text that lowers its font size until it fits its box: mixed into a Label or a Button.

    Players choose the text size in the settings; a long prompt or button text must still fit
    the space the layout gives it, so the text wraps and the font shrinks (never below
    `min_font_size`) instead of spilling out or being cut short.
    """

    base_font_size = NumericProperty(18)
    """The size the text has when there is room; the kv binds it to the chosen text size."""
    min_font_size = NumericProperty(11)
    """The smallest size the text shrinks to."""
    needed_height = NumericProperty(0)
    """The height the text takes at the font size chosen (the layout test compares it)."""
    needed_width = NumericProperty(0)
    """The width of its widest line (a word longer than the box cannot wrap)."""

    def __init__(self, **kwargs: Any) -> None:
        self._fit_trigger = Clock.create_trigger(self._fit, -1)
        super().__init__(**kwargs)
        self.bind(size=self._fit_trigger, text=self._fit_trigger,  # type: ignore[attr-defined]
                  base_font_size=self._fit_trigger)
        self._fit_trigger()

    def _fit(self, *_: Any) -> None:
        label: Any = self
        width = max(label.width - 2 * label.padding[0], 1)
        label.text_size = (width, None)  # measure the wrapped text's natural size
        label.font_size = self.base_font_size
        label.texture_update()
        room = label.height - 2 * label.padding[1]
        while (label.texture_size[1] > room or label.texture_size[0] > width + 1
               or self._breaks_a_word(width)) and label.font_size > self.min_font_size:
            label.font_size = max(self.min_font_size, label.font_size * 0.9)
            label.texture_update()
        self.needed_height = label.texture_size[1] + 2 * label.padding[1]
        self.needed_width = label.texture_size[0] + 2 * label.padding[0]
        # Now give the text the whole box, so valign places it.
        label.text_size = (width, max(room, 1))

    def _breaks_a_word(self, width: float) -> bool:
        """The longest word is wider than the box, so wrapping would cut it in two
        ("Rückgän-gig"): the font must shrink instead."""
        label: Any = self
        longest = max(label.text.split(), key=len, default="")
        if len(longest) * label.font_size * 0.7 <= width:  # clearly fits: skip measuring
            return False
        core = CoreLabel(text=longest, font_size=label.font_size, bold=label.bold,
                         font_name=label.font_name)
        core.refresh()
        # Kivy lays the text out inside text_size less the padding, and breaks a word a few
        # pixels before the measured width is reached.
        return bool(core.texture.size[0] > width - 2 * label.padding[0] - 4)

    def fits(self) -> bool:
        label: Any = self
        return bool(self.needed_height <= label.height + 1
                    and self.needed_width <= label.width + 1)


class FitLabel(FitText, Label):
    """A wrapping label whose text shrinks to fit its box."""


class FitButton(FitText, Button):
    """A button whose text wraps and shrinks to fit it (every button of the app is one)."""


class GrowLabel(Label):
    """A wrapping label as tall as its text, at its full size: in a scrolling box, long texts
    scroll rather than shrink or get cut off."""

    def fits(self) -> bool:
        return bool(self.height + 1 >= self.texture_size[1])


class TerrainChip(FitText, Label):
    """One terrain of a card: its name written on its colour."""

    background = ListProperty([0.5, 0.5, 0.5, 1])
    """The terrain's colour."""
    ink = ListProperty([1, 1, 1, 1])
    """The text colour that reads on it."""
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
        self.bind(face=self._show)
        self._show()

    def _show(self, *_: Any) -> None:
        chips = self.ids.chips
        chips.clear_widgets()
        face: CardFace | None = self.face
        self.caption = face.stage if face is not None else ""
        if face is None:
            return
        for chip in face.terrains:
            chips.add_widget(TerrainChip(text=chip.name, background=rgba(chip.colour),
                                         ink=rgba(chip.text_colour), scale=self.scale))
        if not face.terrains:
            chips.add_widget(TerrainChip(text=face.name, background=rgba(NEUTRAL_CARD),
                                         ink=rgba(text_colour_on(NEUTRAL_CARD)),
                                         scale=self.scale))

    def on_scale(self, *_: Any) -> None:
        if "chips" in self.ids:
            for chip in self.ids.chips.children:
                chip.scale = self.scale


class SlotColumn(BoxLayout):
    """One space of the invader board (Ravage, Build, …) with the cards lying on it."""

    title = StringProperty("")
    """The space's name."""
    faces = ListProperty([])
    """The CardFaces on the space, oldest first."""
    title_lines = NumericProperty(1)
    """Lines the titles of the board's spaces take (two for "High Immigration")."""
    scale = NumericProperty(1)
    """How much larger than at 800x480 the board is drawn."""

    def on_kv_post(self, *_: Any) -> None:
        self.bind(faces=self._show)
        self._show()

    def _show(self, *_: Any) -> None:
        tiles = self.ids.tiles
        tiles.clear_widgets()
        for face in self.faces or [None]:
            tiles.add_widget(CardTile(face=face, scale=self.scale))

    def on_scale(self, *_: Any) -> None:
        if "tiles" in self.ids:
            for tile in self.ids.tiles.children:
                tile.scale = self.scale


def grid_for(count: int, width: float, height: float, aspect: float = 1.0) -> tuple[int, float]:
    """Columns and cell width that fit `count` cells of width/height `aspect` in a box as
    large as they can be: a track of markers wraps into rows rather than shrinking to dots."""
    best = (max(count, 1), 0.0)
    for rows in range(1, max(count, 1) + 1):
        columns = math.ceil(count / rows)
        cell = min(width / columns, height / rows * aspect)
        if cell > best[1]:
            best = (columns, cell)
    return best


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
        super().__init__(**kwargs)
        self.bind(pos=self._draw_trigger, size=self._draw_trigger, pool=self._draw_trigger,
                  total=self._draw_trigger, colour=self._draw_trigger,
                  spent_colour=self._draw_trigger)

    def _draw(self, *_: Any) -> None:
        self.canvas.clear()
        total = int(self.total)
        if total <= 0:
            return
        columns, cell = grid_for(total, self.width, self.height)
        rows = math.ceil(total / columns)
        size = cell * 0.78
        top = self.center_y + rows * cell / 2
        left = self.center_x - columns * cell / 2
        with self.canvas:
            for index in range(total):
                row, column = divmod(index, columns)
                x = left + column * cell + (cell - size) / 2
                y = top - (row + 1) * cell + (cell - size) / 2
                if index < self.pool:
                    Color(*self.colour)
                    Ellipse(pos=(x, y), size=(size, size))
                else:
                    Color(*self.spent_colour)
                    Line(ellipse=(x, y, size, size), width=max(1.0, size / 12))


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
                RoundedRectangle(pos=(x, y), size=(width, height), radius=[radius])
                Color(*self.edge)
                Line(rounded_rectangle=(x, y, width, height, radius), width=1.2)


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
        with self.canvas:
            Color(*self.colour)
            for index in range(count):
                row, column = divmod(index, columns)
                RoundedRectangle(pos=(self.x + column * cell, top - (row + 1) * cell / 0.7),
                                 size=(width, height), radius=[max(1.0, width / 6)])


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
        self.bind(runs=self._show)
        self._show()

    def _show(self, *_: Any) -> None:
        self.clear_widgets()
        for run in self.runs:
            self.add_widget(StageRunRow(label=run.label, count=run.count, stage=run.stage,
                                        font_size=self.font_size))

    def on_font_size(self, *_: Any) -> None:
        for row in self.children:
            row.font_size = self.font_size


class Stepper(BoxLayout):
    """A number with large − and + buttons, for counts typed at the table."""

    value = NumericProperty(0)
    """The number shown."""
    minimum = NumericProperty(0)
    """The lowest value allowed."""
    label = StringProperty("")
    """What the number counts."""

    def step(self, amount: int) -> None:
        self.value = max(self.minimum, self.value + amount)


class InstantPopup(Popup):
    """A popup that appears and goes at once: a fading popup still catches the next tap."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._anim_duration = 0


class DetailsPopup(InstantPopup):
    """The sentences behind a panel of numbers, one tap away."""

    text = StringProperty("")
    """The sentences, one per line."""


class ConfirmPopup(InstantPopup):
    """Asks before something that cannot be taken back casually."""

    message = StringProperty("")
    """The question."""
    confirm_text = StringProperty("Yes")
    """The label of the button that goes ahead ("Yes", in the language in use, unless given)."""
    when_confirmed = ObjectProperty(None)
    """Called when the player confirms."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("confirm_text", i18n._("Yes"))
        super().__init__(**kwargs)

    def confirm(self) -> None:
        self.dismiss()
        if self.when_confirmed:
            self.when_confirmed()


class PickerButton(ButtonBehavior, BoxLayout):
    """One choice in a card picker: the card's colour band and its name, large."""

    value = StringProperty("")
    """The id sent when it is chosen."""
    text = StringProperty("")
    """The card's name."""
    detail = StringProperty("")
    """A second line: stage, expansion."""
    background = ListProperty([0.3, 0.3, 0.3, 1])
    """The first terrain's colour (or a neutral one)."""
    text_colour = ListProperty([1, 1, 1, 1])
    """A colour that reads on the background."""
    picked = ObjectProperty(None)
    """Called with `value` when tapped."""
    highlight = BooleanProperty(False)
    """Drawn with a frame, for the likeliest choice."""

    def on_release(self) -> None:
        if self.picked:
            self.picked(self.value)


class CardPicker(InstantPopup):
    """A popup listing cards as large buttons; tapping one answers `when_picked` with its id."""

    when_picked = ObjectProperty(None)
    """Called with the chosen id."""
    columns = NumericProperty(3)
    """How many buttons in a row."""

    def fill(self, choices: Sequence[dict[str, Any]]) -> None:
        grid = self.ids.grid
        grid.clear_widgets()
        self._buttons = [PickerButton(picked=self._picked, **choice) for choice in choices]
        for button in self._buttons:
            grid.add_widget(button)

    def offer(self, left_out: set[str]) -> None:
        """Show every choice but those in `left_out` (cards already used), in the first order."""
        grid = self.ids.grid
        grid.clear_widgets()
        for button in self._buttons:
            if button.value not in left_out:
                grid.add_widget(button)

    def _picked(self, value: str) -> None:
        self.dismiss()
        if self.when_picked:
            self.when_picked(value)


def folded(text: str) -> str:
    """Lower case without accents, so "odnis" finds "Ödnis" and "peur" finds "Peur"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


class FearCardPicker(InstantPopup):
    """Names the fear card turned over: the cards of the expansions in play, a search by
    letters (on its own keys, or a keyboard), and "resolve without naming it" always in view
    (Space or Enter picks it). Built once; opening it only hands the list new data."""

    query = StringProperty("")
    """The letters typed so far."""
    when_picked = ObjectProperty(None)
    """Called with the chosen card's id, or "" for resolving it without a name."""
    columns = NumericProperty(3)
    """How many cards in a row (landscape)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._cards: list[dict[str, Any]] = []
        self._left_out: set[str] = set()
        self._expansions: set[str] | None = None

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


def ask_then(message: str, confirm_text: str, action: Callable[[], None], ask: bool) -> None:
    """Run `action` after a confirmation, or at once when the player turned confirmations off."""
    if not ask:
        action()
        return
    ConfirmPopup(message=message, confirm_text=confirm_text, when_confirmed=action).open()
