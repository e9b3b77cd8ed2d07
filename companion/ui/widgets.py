"""Small widgets the screens share: a label that shrinks its text to fit, steppers, popups.
Their look is in layouts/style.kv; here is only what they do."""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.metrics import dp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.popup import Popup

from .. import i18n
from .kivy_fixes import laid_out_size
from .layout_order import after_waiting_layouts
from .outlines import FrameOver
from .theme_frame import ThemeFrame

NEUTRAL_CARD = "#5A5F66"


FIT_CACHE_SIZE = 2048
"""How many fits `FitText` remembers: the texts of a few screens at a few sizes."""
_fits: OrderedDict[tuple[Any, ...], tuple[float, float, float]] = OrderedDict()
"""(text, box and font) -> (font size, needed height, needed width), the least recently
used first: a table shows the same texts again and again (a step's prompt, a button's words),
and measuring one takes a render of the text at each size tried."""


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
    overhang = NumericProperty(0)
    """How far, as a share of the font size, the text's lines may stand out above and below
    its box: a line is as high as the font's tallest accent and deepest descender, and a
    figure's digits have neither (the digits of a 0.94-row font still lie inside the row)."""
    needed_height = NumericProperty(0)
    """The height the text takes at the font size chosen, less what may stand out (the
    layout test compares it)."""
    needed_width = NumericProperty(0)
    """The width of its widest line (a word longer than the box cannot wrap)."""

    def __init__(self, **kwargs: Any) -> None:
        self._fit_trigger = Clock.create_trigger(self._fit, -1)
        self._fit_waits_for_layouts = False
        self._texture_waits = False
        super().__init__(**kwargs)
        self.bind(size=self._fit_trigger, text=self._fit_trigger,  # type: ignore[attr-defined]
                  base_font_size=self._fit_trigger, padding=self._fit_trigger,
                  overhang=self._fit_trigger)
        self._fit_trigger()

    def texture_update(self, *args: Any) -> None:
        """Kivy draws a changed text in the same frame as the fit, and first: at the font size
        of the text before, for nothing. Drawn once, after the fit."""
        if self._fit_trigger.is_triggered or self._fit_waits_for_layouts:
            self._texture_waits = True
            return
        label: Any = self
        box_width, box_height = label.text_size
        if (box_height is not None and 0 < box_height <= 1 or box_width is not None
                and 0 < box_width <= 1) and label.text.strip() and not (
                label.markup or label.shorten):
            # A closed row's button (the banner's OK), a cell's part folded to no width
            # (Glow's area cells): Kivy would lay the words out to draw its one-pixel
            # texture, a letter a line, again each time the row closes
            label.texture = label._label.texture_1px
            label.texture_size = [1, 1]
            label.is_shortened = False
            return
        super().texture_update(*args)  # type: ignore[misc]

    def _fit(self, *_: Any) -> None:
        # A box still to be laid out may give this text another size in this pass: fit it
        # after (once; a box that is never done laying out does not hold it longer).
        if not self._fit_waits_for_layouts and after_waiting_layouts(self._fit_trigger):
            self._fit_waits_for_layouts = True
            return
        self._fit_waits_for_layouts = False
        label: Any = self
        width = max(label.width - label.padding[0] - label.padding[2], 1)
        room = label.height - label.padding[1] - label.padding[3]
        if width <= 1 or room <= 1:  # folded away: nothing to fit, until it opens again
            label.text_size = (width, max(room + 2 * self.overhang * label.font_size, 1))
            self.needed_height = self.needed_width = 0
            if self._texture_waits:
                self._texture_waits = False
                label._trigger_texture()
            return
        key = (label.text, width, room, tuple(label.padding), self.base_font_size,
               self.min_font_size, label.font_name, label.bold, label.italic, label.markup,
               label.line_height, label.font_blended, label.font_hinting, label.max_lines,
               label.shorten, label.strip, label.outline_width, label.font_features,
               self.overhang)
        if key in _fits:  # measured before: the label renders once, in the frame
            _fits.move_to_end(key)
        else:
            _fits[key] = self._measure(width, room)
            while len(_fits) > FIT_CACHE_SIZE:
                _fits.popitem(last=False)
        label.font_size, self.needed_height, self.needed_width = _fits[key]
        # Now give the text the whole box, and what may stand out, so valign places it.
        label.text_size = (width, max(room + 2 * self.overhang * label.font_size, 1))
        if self._texture_waits:
            self._texture_waits = False
            label._trigger_texture()

    def _measure(self, width: float, room: float) -> tuple[float, float, float]:
        """Lay the text out smaller until it fits: (font size, needed height, needed width).
        Only laid out: the label's texture is drawn once, at the size found."""
        label: Any = self
        label.text_size = (width, None)  # measure the wrapped text's natural size
        label.font_size = self.base_font_size
        size = laid_out_size(label)
        while (size[1] > self._room(room) or size[0] > width + 1
               or self._breaks_a_word(width)
               or self._box_drops_a_line(width, self._room(room), size[1])) \
                and label.font_size > self.min_font_size:
            label.font_size = max(self.min_font_size, label.font_size * 0.9)
            size = laid_out_size(label)
        return (label.font_size, size[1] - (self._room(room) - room)
                + label.padding[1] + label.padding[3],
                size[0] + label.padding[0] + label.padding[2])

    def _room(self, room: float) -> float:
        """The box's height for the text's lines, with what may stand out at the font size."""
        label: Any = self
        return float(room + 2 * self.overhang * label.font_size)

    def _box_drops_a_line(self, width: float, room: float, height: float) -> bool:
        """Text measured as fitting, to within a line, loses its last line when drawn in the box:
        Kivy leaves out a wrapped line that the measure without a height kept ("Area 1: recruit
        / dice not entered · 0 trails" showed two of its three lines in a 74 px button). Lay it
        out in the box and count what it shows. (`height`: the text's, laid out unbounded.)"""
        label: Any = self
        if label.markup or height <= room - label.font_size * 1.5:
            return False  # (markup's tags are not drawn; clearly short text keeps its lines)
        # Laid out, not rendered: no texture, and none shown again from the kept ones (whose
        # lines would be another text's)
        label.text_size = (width, max(room, 1))
        label._label.render()
        drawn = sum(len(word.text.replace(" ", "")) for line in label._label._cached_lines
                    for word in line.words)
        label.text_size = (width, None)
        return drawn < len("".join(label.text.split()))

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
        return bool(core.texture.size[0] > width - label.padding[0] - label.padding[2] - 4)

    def fits(self) -> bool:
        label: Any = self
        return bool(self.needed_height <= label.height + 1
                    and self.needed_width <= label.width + 1)


@lru_cache(maxsize=512)
def longest_word_width(text: str, font_size: float, font_name: str, bold: bool) -> float:
    """How wide the longest word of `text` is drawn at `font_size`, in px: a row of buttons
    shares its width by it (a word cannot wrap, so the button with the longest word needs
    the most room). Measured, not rendered; each text, font and size once."""
    words = text.split()
    if not words:
        return 1.0
    core = CoreLabel(font_size=font_size, font_name=font_name, bold=bold)
    return float(max(core.get_extents(word)[0] for word in words)) or 1.0


class FitLabel(FitText, Label):
    """A wrapping label whose text shrinks to fit its box."""

    ink = ListProperty([])
    """A text colour no theme changes (empty: the theme's): an instance's own `color:` would
    lose to the <FitLabel> rule's at the next change of theme."""


class FitButton(FitText, Button, ThemeFrame):
    """A button whose text wraps and shrinks to fit it (every button of the app is one)."""


class GrowLabel(Label):
    """A wrapping label as tall as its text, at its full size: in a scrolling box, long texts
    scroll rather than shrink or get cut off."""

    def fits(self) -> bool:
        return bool(self.height + 1 >= self.texture_size[1])


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


class Stepper(BoxLayout):
    """A number with large − and + buttons, for counts typed at the table."""

    value = NumericProperty(0)
    """The number shown."""
    minimum = NumericProperty(0)
    """The lowest value allowed."""
    maximum = NumericProperty(-1)
    """The highest value allowed; below `minimum` for no limit."""
    label = StringProperty("")
    """What the number counts."""

    def step(self, amount: int) -> None:
        value = max(self.minimum, self.value + amount)
        self.value = min(value, self.maximum) if self.maximum >= self.minimum else value


class LetsTouchesThrough:
    """Mixed into a widget that is at times there but not seen (a folded row, a popup opened
    unseen): meanwhile every touch passes it by, to what lies under it."""

    def lets_touches_through(self) -> bool:
        raise NotImplementedError

    def on_touch_down(self, touch: Any) -> bool:
        return False if self.lets_touches_through() else bool(
            super().on_touch_down(touch))  # type: ignore[misc]

    def on_touch_move(self, touch: Any) -> bool:
        return False if self.lets_touches_through() else bool(
            super().on_touch_move(touch))  # type: ignore[misc]

    def on_touch_up(self, touch: Any) -> bool:
        return False if self.lets_touches_through() else bool(
            super().on_touch_up(touch))  # type: ignore[misc]


class FoldingRow(LetsTouchesThrough, BoxLayout):
    """A row shown only while it asks for something (Glow's encounter track). Folded, it keeps
    its widgets, draws nothing and lets every touch through to what lies under it. (Disabling
    it instead would swallow the touches that land on it, and disabling and enabling its
    buttons re-ran each one's rules at every fold: 4 ms a fold on this VM, as much again to
    take them out and put them back.) Folded, it is not laid out either."""

    folded = BooleanProperty(False)

    def on_folded(self, _row: Any, folded: bool) -> None:
        self.opacity = 0 if folded else 1
        if not folded:
            self._trigger_layout()

    def do_layout(self, *args: Any) -> None:
        # Folded, nothing of it is seen: its widgets keep their last places until it unfolds,
        # rather than being laid out into no room and back.
        if not self.folded:
            super().do_layout(*args)

    def lets_touches_through(self) -> bool:
        return bool(self.folded)


KEPT_PER_KIND = 2
"""Closed popups of one kind an app keeps to open again: one may still be closing (it leaves
with the next frame) while the next one opens from its answer."""


class InstantPopup(LetsTouchesThrough, Popup, ThemeFrame):
    """A popup that appears and goes at once: a fading popup still catches the next tap."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._anim_duration = 0
        self._given: set[str] = set(kwargs)

    @classmethod
    def kept(cls, **properties: Any) -> Any:
        """A popup of this kind to fill and open: a closed one the app kept, `reset()` and
        given `properties` afresh (those given last time and not now back to their defaults),
        else a new one. Building a popup and its buttons was most of a tap's work
        (15–20 ms here, a Pi's frame three times over); refilling one costs a few."""
        kept = cls._kept_pool()
        for popup in kept:
            if not popup._is_open:
                popup.reset()
                for name in popup._given - set(properties):
                    setattr(popup, name, popup.property(name).defaultvalue)
                for name, value in properties.items():
                    setattr(popup, name, value)
                popup._given = set(properties)
                return popup
        popup = cls(**properties)
        if len(kept) < KEPT_PER_KIND:
            kept.append(popup)
        return popup

    @classmethod
    def build_ahead(cls) -> None:
        """Build one popup of this kind for `kept` to hand out, unless the app keeps one:
        done while nobody waits, it spares the first tap that opens one its build."""
        kept = cls._kept_pool()
        if not kept and App.get_running_app() is not None:
            kept.append(cls())

    @classmethod
    def _kept_pool(cls) -> list[InstantPopup]:
        """The closed popups of this kind the running app keeps (none outside an app)."""
        app = App.get_running_app()
        if app is None:
            return []
        pool: list[InstantPopup] = app.__dict__.setdefault("_kept_popups", {}).setdefault(cls, [])
        return pool

    def reset(self) -> None:
        """Forget what the last opening left behind (a kind kept to open again says what)."""

    def open_unseen(self) -> Callable[[], None]:
        """Open this popup, filled, where it is not seen, so that its texts are fitted and drawn
        once (a list lays out its rows only in the window) and its first real opening costs
        what any later one does. Returns what puts it away: call it a frame later. Until then
        a tap goes through it to what lies below (`on_touch_down`)."""
        self.opacity = 0
        self.open()

        def put_away() -> None:
            if self.opacity == 0:  # not opened for real meanwhile
                self.dismiss()
                self.opacity = 1

        return put_away

    def lets_touches_through(self) -> bool:
        return bool(self._is_open and self.opacity == 0)  # opened unseen


class TableMenu(InstantPopup):
    """A game's table menu (leaving, abandoning, the settings): the phones' code joins it
    while the mirror is on (layouts/mirror.kv), so every game's menu has it."""

    # The same three actions for every game; a game's menu adds its own (Spirit Island's
    # declare) in its subclass.
    def abandon(self) -> None:
        app = App.get_running_app()

        def go() -> None:
            self.dismiss()
            app.send({"cmd": "abandon"})
            app.reload_state()
            app.show("home")

        ask_then(i18n._("Abandon this game? It stays in the list of games but cannot be "
                        "resumed."), i18n._("Abandon"), go, app.confirm_destructive)

    def go_home(self) -> None:
        self.dismiss()
        App.get_running_app().show("home")

    def settings(self) -> None:
        self.dismiss()
        App.get_running_app().open_settings()


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
    when_confirmed = ObjectProperty(None, allownone=True)
    """Called when the player confirms."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("confirm_text", i18n._("Yes"))
        super().__init__(**kwargs)

    @classmethod
    def kept(cls, **properties: Any) -> Any:
        properties.setdefault("confirm_text", i18n._("Yes"))
        return super().kept(**properties)

    def confirm(self) -> None:
        self.dismiss()
        if self.when_confirmed:
            self.when_confirmed()


class MarkFrame:
    """Mixed into a tile or a button: a frame round it while `framed` (the threat that acts
    now, the chosen guardian, the likeliest choice in a picker), drawn over the tile's
    children. An unframed tile draws nothing: as a see-through Line, each cost every frame."""

    framed = BooleanProperty(False)
    """The frame is shown."""
    frame_colour = ListProperty([1, 1, 1, 1])
    """Its colour while shown."""
    frame_width = NumericProperty(dp(3))
    """Its width while shown, in px, inside the tile's edge."""

    def __init__(self, **kwargs: Any) -> None:
        self._mark = FrameOver(dp(6), lambda widget: float(widget.frame_width),
                               follows=("pos", "size", "frame_width"))
        super().__init__(**kwargs)
        widget: Any = self
        widget.fbind("framed", self._show_mark)
        widget.fbind("frame_colour", self._show_mark)
        self._show_mark()  # the kv rule may have framed it before the bindings

    def _show_mark(self, *_args: Any) -> None:
        self._mark.show(self, bool(self.framed), self.frame_colour)


def reuse_rows(box: Any, pool: list[Any], count: int, make: Callable[[int], Any]) -> list[Any]:
    """Show the first `count` widgets of `pool` in `box`, in order, building one only when the
    pool has too few (`make(index)`); returns them for the caller to fill in. A box refilled
    on every tap keeps the same widgets instead of building new ones each time."""
    while len(pool) < count:
        pool.append(make(len(pool)))
    shown = pool[:count]
    if list(reversed(box.children)) != shown:
        box.clear_widgets()
        for row in shown:
            box.add_widget(row)
    return shown


def ask_then(message: str, confirm_text: str, action: Callable[[], None], ask: bool) -> None:
    """Run `action` after a confirmation, or at once when the player turned confirmations off."""
    if not ask:
        action()
        return
    ConfirmPopup.kept(message=message, confirm_text=confirm_text, when_confirmed=action).open()
