"""The card picker every game's lists are chosen from: large buttons, the likeliest choice
pinned above them, a search with the on-screen keys for a long list. Its buttons are built
ahead while Home is looked at (`build_spares`) and kept from one opening to the next: Glow's
first recruit took a quarter of a second here, most of it building forty-seven buttons."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from kivy.app import App
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.scrollview import ScrollView

from .widgets import InstantPopup, MarkFrame

SPARES_AHEAD = 56
"""Picker buttons built ahead: more than the longest list a game offers (Glow's 46 companions
and "Not named"), so that no picker builds one in a tap."""
SPARES_A_FRAME = 8
"""Spares built in one frame while Home is looked at (about 15 ms here)."""


def build_spares() -> None:
    """Build a frame's share of the spare picker buttons, up to `SPARES_AHEAD` in all (those a
    picker took since included)."""
    spares = _spares()
    for _step in range(min(SPARES_A_FRAME, SPARES_AHEAD - spares.built)):
        spares.buttons.append(PickerButton())
        spares.built += 1


class _Spares:
    """The app's picker buttons not yet taken by a picker, and how many were ever built."""

    def __init__(self) -> None:
        self.buttons: list[PickerButton] = []
        self.built = 0


def _spares() -> _Spares:
    app = App.get_running_app()
    if app is None:  # a picker outside an app (a test of the widget alone)
        return _Spares()
    spares: _Spares = app.__dict__.setdefault("_picker_spares", _Spares())
    return spares


class PickerButton(MarkFrame, ButtonBehavior, BoxLayout):
    """One choice in a card picker: the card's colour band and its name, large, and its detail
    in full below (a picker's row grows to hold it)."""

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
    mark = StringProperty("")  # symbols that tell its colour without it (palette.py)
    natural_height = NumericProperty(0)
    """The height that shows its name and all of its detail (the kv works it out)."""

    def on_release(self) -> None:
        if self.picked:
            self.picked(self.value)


PICKER_CHOICE = ("value", "text", "detail", "background", "text_colour", "highlight", "mark")
"""What a choice given to `CardPicker.fill` may say of its button."""

SEARCH_FROM = 13
"""A picker with this many choices or more offers a search: a long list is found faster by
typing two letters than by scrolling."""


class CardPicker(InstantPopup):
    """A popup listing cards as large buttons; tapping one answers `when_picked` with its id.
    The likeliest choice (the one marked `highlight`) is pinned above the list; a long list
    has a search box with the on-screen keys, and says so when nothing matches."""

    when_picked = ObjectProperty(None, allownone=True)
    """Called with the chosen id."""
    columns = NumericProperty(3)
    """How many buttons in a row."""
    query = StringProperty("")
    """What is typed in the search box."""
    searchable = BooleanProperty(False)
    """The list is long enough for a search box."""
    nothing_found = BooleanProperty(False)
    """Something is typed and no choice matches it."""
    pinned_value = StringProperty("")
    """The id of the pinned choice, or empty when there is none."""

    def __init__(self, **kwargs: Any) -> None:
        self._buttons: list[PickerButton] = []
        self._pool: list[PickerButton] = []
        """Every button a filling made, refilled by the next (`_buttons` are those shown)."""
        self._left_out: set[str] = set()
        self._laid_out: tuple[Any, ...] = ()
        """The grid's buttons, width and columns when `_show` last laid them out."""
        super().__init__(**kwargs)

    def fill(self, choices: Sequence[dict[str, Any]], left_out: Iterable[str] = ()) -> None:
        """Offer `choices` (each a PickerButton's properties) but those in `left_out` (cards
        already used), on the buttons of an earlier filling where there are some."""
        spares = _spares()
        while len(self._pool) < len(choices):
            button = spares.buttons.pop() if spares.buttons else PickerButton()
            button.picked = self._picked
            button.bind(natural_height=button.setter("height"))
            self._pool.append(button)
        self._buttons = self._pool[:len(choices)]
        for button, choice in zip(self._buttons, choices, strict=False):
            for name in PICKER_CHOICE:
                setattr(button, name, choice.get(name, button.property(name).defaultvalue))
        self._left_out = set(left_out)
        self.searchable = len(self._buttons) >= SEARCH_FROM
        self._show()

    def reset(self) -> None:
        self.when_picked = None
        self.query = ""
        self._left_out = set()

    def on_query(self, *_args: Any) -> None:
        self._show()

    def _show(self) -> None:
        offered = [button for button in self._buttons if button.value not in self._left_out]
        pinned = next((button for button in offered if button.highlight), None)
        self.pinned_value = pinned.value if pinned is not None else ""
        box = self.ids.pinned
        if list(box.children) != ([pinned] if pinned is not None else []):
            box.clear_widgets()
            if pinned is not None:
                if pinned.parent is not None:
                    pinned.parent.remove_widget(pinned)
                box.add_widget(pinned)
        query = folded(self.query.strip())
        listed = [button for button in offered if button is not pinned
                  and (not query or matches(query, f"{button.text} {button.detail}"))]
        self.nothing_found = bool(query) and not listed
        grid = self.ids.grid
        if grid.children != listed[::-1]:  # the same choices as last time stay where they are
            grid.clear_widgets()
            for button in listed:
                grid.add_widget(button)
        # Widths now, down to the buttons' labels, before their words are drawn: laid out in the
        # next frame, each would draw them twice (at the last picker's column width, then this).
        # The same buttons in the same columns keep their widths (a list opened again).
        laid_out = (*listed, grid.width, grid.cols)
        if laid_out != self._laid_out:
            self._laid_out = laid_out
            grid.do_layout()
            for button in listed:
                button.do_layout()
        self.ids.scroll.draw_in_view()

    def shown(self) -> list[str]:
        """The ids that can be tapped now, the pinned one first."""
        return ([self.pinned_value] if self.pinned_value else []) + [
            button.value for button in reversed(self.ids.grid.children)]

    def _picked(self, value: str) -> None:
        self.dismiss()
        if self.when_picked:
            self.when_picked(value)


class ListInView(ScrollView):
    """A picker's scrolling list that draws only the buttons in view: forty-six companions drawn
    where sixteen show took half of the picker's drawing. The others are at opacity 0
    (not drawn at all, unseen.py) until a scroll brings them in."""

    def update_from_scroll(self, *args: Any) -> None:
        super().update_from_scroll(*args)  # the list moved, or the view's size changed
        self.draw_in_view()

    def draw_in_view(self) -> None:
        if not self.children:
            return
        # The list's rows are placed in the view's own coordinates, moved by the scroll.
        bottom = self.to_local(self.x, self.y)[1]
        top = self.to_local(self.right, self.top)[1]
        for row in self.children[0].children:
            row.opacity = 1 if row.top > bottom and row.y < top else 0


def matches(query: str, text: str) -> bool:
    """A folded query ("odn") matches a text that holds it anywhere ("Ödnis")."""
    return query in folded(text)


def folded(text: str) -> str:
    """Lower case without accents, so "odnis" finds "Ödnis" and "peur" finds "Peur"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


