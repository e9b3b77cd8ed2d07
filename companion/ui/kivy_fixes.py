"""Corrections to Kivy itself, applied once before the app builds a widget.

Each is for every screen of every game, so it lives here rather than in one game's widgets.
"""

from __future__ import annotations

import contextlib
import os
from collections import OrderedDict
from collections.abc import Hashable
from configparser import RawConfigParser
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import kivy
from kivy.config import ConfigParser
from kivy.core.text import Label as CoreLabel
from kivy.core.text.markup import MarkupLabel
from kivy.graphics.context import get_context
from kivy.lang import builder
from kivy.logger import Logger
from kivy.properties import ObservableReferenceList
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget
from kivy.utils import get_hex_from_color

from . import kivy_list_fixes, layout_cache, layout_order, unseen
from .kivy_list_fixes import forget_recycled_rows as forget_recycled_rows  # (for the app)

LABEL_TEXTURES_BUDGET_BYTES = 8 * 1024 * 1024
"""Room for the textures of label texts drawn before (each takes width × height × 4 bytes, and
the GL driver about as much again): a table's buttons, titles and figures in every step of a
round. At 3 MB a Leviathan Wilds round or a Glow day no longer fitted, and a third of Done's
texts were drawn again each round (in 8 rounds, Leviathan's Done drew 36 texts at 3 MB and 23
at 8 or 12 MB; Glow's 62 and 44); 14 rounds of any game, each text kept, came to 8-12 MB."""
LABEL_TEXTURE_LARGEST_BYTES = 128 * 1024
"""A texture larger than this (a long prompt, a rules entry) is not kept: such texts seldom
come back soon, and a few would fill the room."""
MEASURES_KEPT = 20_000
"""Words and lines measured in one font, kept (about 150 bytes each); all are let go of once
there are more, and measured again as they come."""


def apply() -> None:
    _reading_a_size_raises_nothing()
    kivy_list_fixes.apply()
    _labels_show_again_what_they_drew_before()
    _a_word_is_measured_once_in_each_font()
    _kv_rules_run_without_tracing()
    unseen.apply()
    layout_order.apply()
    _a_touch_passes_over_what_cannot_take_it()
    _a_popup_opened_again_centres_itself_once()
    _a_settings_file_is_written_whole_or_not_at_all()
    layout_cache.install(Path(kivy.kivy_home_dir))


def _a_settings_file_is_written_whole_or_not_at_all() -> None:
    """Kivy writes a settings file over itself: a plug pulled in the middle left companion.ini
    empty or cut short, and the phones' seats, the mirror's address and every choice with it
    (a reader could also find it half written). Written beside it, flushed to the disk and
    renamed over it, the file is always the old one or the new one."""
    if getattr(ConfigParser.write, "whole_or_not_at_all", False):
        return

    def write(self: ConfigParser) -> bool:
        if self.filename is None:
            return False
        path = Path(self.filename)
        partial = path.with_name(f".{path.name}.{os.getpid()}.new")
        try:
            with open(partial, "w", encoding="utf-8") as out:
                RawConfigParser.write(self, out)
                out.flush()
                os.fsync(out.fileno())
            os.replace(partial, path)
        except OSError:
            Logger.exception("Unable to write the config <%s>", self.filename)
            with contextlib.suppress(OSError):
                partial.unlink()
            return False
        return True

    write.whole_or_not_at_all = True  # type: ignore[attr-defined]
    ConfigParser.write = write


def _reading_a_size_raises_nothing() -> None:
    """Kivy 2.3's ReferenceListProperty (a widget's `pos`, `size`, `size_hint`, their mins
    and maxes, `center`) refreshes its list at every read through the list's `__setslice__`,
    a Python 2 method that on Python 3 calls the missing `list.__setslice__`: every read
    raised an AttributeError, caught, before the list was refreshed another way. That was
    5 µs a read on this VM (2 µs without), and a box layout reads four for each child in
    each pass, a canvas rule `pos: self.pos` one at each move: half of what a layout pass
    took. The method now does what it meant to, as Kivy's fallback does."""
    if getattr(ObservableReferenceList.__setslice__, "works", False):
        return

    def __setslice__(self: Any, start: int, stop: int, value: list[Any],
                     update_properties: bool = True) -> None:
        list.__setitem__(self, slice(start, stop), value)
        if update_properties:
            self.prop.setitem(self.obj(), slice(start, stop), value)

    __setslice__.works = True  # type: ignore[attr-defined]
    ObservableReferenceList.__setslice__ = __setslice__


@dataclass(frozen=True)
class _Drawn:
    """What a label's rendering gave: the texture, and what Kivy's Label takes from it."""

    texture: Any
    is_shortened: bool
    refs: dict[str, Any]
    anchors: dict[str, Any]

    @property
    def bytes(self) -> int:
        """What its pixels take (RGBA, a byte each)."""
        width, height = self.texture.size
        return int(width * height * 4)


class LabelTextures:
    """Textures of label texts drawn before, by everything that decides their pixels, the
    least recently shown given up first once they take more than `budget_bytes` (none larger
    than `largest_bytes`)."""

    def __init__(self, budget_bytes: int, largest_bytes: int) -> None:
        self.budget_bytes = budget_bytes
        self.largest_bytes = largest_bytes
        self.bytes = 0
        self.hits = self.misses = 0
        self._drawn: OrderedDict[Hashable, _Drawn] = OrderedDict()

    def __len__(self) -> int:
        return len(self._drawn)

    def get(self, key: Hashable) -> _Drawn | None:
        drawn = self._drawn.get(key)
        if drawn is None:
            self.misses += 1
            return None
        self.hits += 1
        self._drawn.move_to_end(key)
        return drawn

    def keep(self, key: Hashable, drawn: _Drawn) -> None:
        if key in self._drawn or drawn.bytes > self.largest_bytes:
            return
        self._drawn[key] = drawn
        self.bytes += drawn.bytes
        while self.bytes > self.budget_bytes and len(self._drawn) > 1:
            _key, old = self._drawn.popitem(last=False)
            self.bytes -= old.bytes

    def clear(self, *_args: Any) -> None:
        self._drawn.clear()
        self.bytes = 0


label_textures = LabelTextures(LABEL_TEXTURES_BUDGET_BYTES, LABEL_TEXTURE_LARGEST_BYTES)
"""Every label's textures (one store for the app: two labels saying the same share one)."""

_NOT_PIXELS = frozenset({"text", "font_name_r", "text_size"})
"""Options of Kivy's core label that do not decide the pixels: `text` and `text_size` are
copies of what it draws from (its `text` and `usersize`), `font_name_r` is found from
`font_name`."""


def _hashable(value: Any) -> Hashable:
    if isinstance(value, list):  # colours, padding, text sizes (Kivy's ObservableLists)
        return tuple(value)
    if isinstance(value, dict):
        return tuple(sorted(value.items()))
    return value  # type: ignore[no-any-return]


def _texture_key(label: Any, text: str) -> Hashable:
    core = label._label
    # In the options' own order, not sorted (half the key's cost, taken with every render):
    # every core label fills them in the same order, and two orders would only make two keys
    # for one texture, never one key for two.
    options = tuple((name, _hashable(value)) for name, value in core.options.items()
                    if name not in _NOT_PIXELS)
    return type(core), text, tuple(core.usersize), options


def _drawn_text(label: Any) -> str:
    """The text Kivy's Label gives its core label to draw (markup: in the label's colour)."""
    core = label._label
    if type(core) is not MarkupLabel:
        return str(core.text)
    text = label.text.strip() if label.halign == "justify" or label.strip else label.text
    colour = label.disabled_color if label.disabled else label.color
    return f"[color={get_hex_from_color(colour)}]{text}[/color]"


def laid_out_size(label: Any) -> tuple[int, int]:
    """The `texture_size` Kivy's `Label.texture_update` would give `label` now: its text laid
    out, not drawn, and no texture made or shown (a text fitted to its box tries a few sizes)."""
    core = label._label
    if not core.text or ((label.halign == "justify" or label.strip) and not core.text.strip()):
        return 0, 0
    core.text = _drawn_text(label)
    core.resolve_font_name()
    width, height = core.render()
    if width <= 1 or height <= 1:  # (Kivy shows its one-pixel texture)
        return 1, 1
    return int(width), int(height)


def _fill_then_keep(core: Any, key: Hashable, drawn: _Drawn, texture: Any) -> None:
    """Kivy fills a label's texture when it is first drawn; only then is it worth keeping."""
    core._texture_fill(texture)
    label_textures.keep(key, drawn)


def _labels_show_again_what_they_drew_before() -> None:
    """Kivy renders a label's text again whenever any of its properties changes, also back to
    what it was a moment ago: a button pressed and released, Redo greyed and back, a step's
    prompt and buttons coming round again next round. On a Pi each render is a good part of a
    tap's frame. A label whose text, font, size, colour and box come back shows the texture it
    drew then."""
    original = Label.texture_update
    if getattr(original, "shows_again", False):
        return

    def texture_update(self: Any, *args: Any) -> None:
        core = self._label
        empty = not core.text or ((self.halign == "justify" or self.strip)
                                  and not core.text.strip())
        if empty:
            original(self, *args)
            return
        markup = type(core) is MarkupLabel
        key = _texture_key(self, _drawn_text(self))
        drawn = label_textures.get(key)
        if drawn is not None:
            self.texture = drawn.texture
            self.texture_size = list(drawn.texture.size)
            self.is_shortened = drawn.is_shortened
            if markup:
                self.refs, self.anchors = drawn.refs, drawn.anchors
            return
        # A texture of its own: Kivy would fill the one it drew before, if of the same size,
        # and that one may be kept for another label.
        core.texture = None
        original(self, *args)
        texture = self.texture
        if texture is None or texture is core.texture_1px:
            return
        # Copies: the label's own refs and anchors are its properties' dicts, which hold the
        # label, and through it its screen and the app, for as long as the texture is kept.
        drawn = _Drawn(texture, bool(self.is_shortened), dict(self.refs) if markup else {},
                       dict(self.anchors) if markup else {})
        if markup:  # Kivy's Label has filled it already, for the references
            label_textures.keep(key, drawn)
        else:
            texture.ask_update(partial(_fill_then_keep, core, key, drawn))

    texture_update.shows_again = True  # type: ignore[attr-defined]
    Label.texture_update = texture_update
    # A lost GL context (not on the Pi's SDL2 window, but Kivy allows for it) empties every
    # texture; Kivy refills the labels' own, not the ones kept here.
    get_context().add_reload_observer(label_textures.clear, before=True)


_measures: dict[tuple[Hashable, str], tuple[int, int]] = {}
"""Width and height of a text in a font (as `_font_of` says which)."""
_measures_remembered = True
"""False: every text measured as Kivy measures it (a benchmark's before)."""


def remember_measures(remembered: bool) -> None:
    """Measure every text as Kivy does (not `remembered`), or remember again, from nothing: a
    benchmark's before and after in one run (tests/benchmarks/bench_every_table.py)."""
    global _measures_remembered
    _measures_remembered = remembered
    _measures.clear()


_MEASURE_OPTIONS = ("outline_width", "font_hinting", "font_kerning", "font_direction",
                    "font_script_name", "font_features")
"""Options of a core label that may change a text's size besides those in Kivy's font id."""


def _font_of(core: Any) -> Hashable:
    options = core.options
    return (core._get_font_id(), *(_hashable(options.get(name)) for name in _MEASURE_OPTIONS))


def _a_word_is_measured_once_in_each_font() -> None:
    """Kivy lays a label's text out word by word, asking SDL_ttf for the size of each word and
    of each line as it grows: a couple of hundred measures for a step's prompt, reminders and
    buttons, again whenever one of them changes or is fitted to its box at another font size.
    Its `get_cached_extents`, despite the name, measures each time. The same words come back
    all evening, so a word's size in a font is measured once and then remembered.

    Not for markup, whose font changes within a text while it is laid out."""
    original = CoreLabel.get_cached_extents
    if getattr(original, "remembers", False) or not hasattr(CoreLabel, "_get_font_id"):
        return  # (a text provider other than SDL2's: measured as Kivy does)

    def get_cached_extents(self: Any) -> Any:
        if isinstance(self, MarkupLabel) or not _measures_remembered:
            return original(self)
        measure, font = self.get_extents, _font_of(self)

        def extents(text: str) -> tuple[int, int]:
            key = (font, text)
            size = _measures.get(key)
            if size is None:
                if len(_measures) >= MEASURES_KEPT:
                    _measures.clear()
                size = _measures[key] = measure(text)
            return size

        return extents

    get_cached_extents.remembers = True  # type: ignore[attr-defined]
    CoreLabel.get_cached_extents = get_cached_extents


def _kv_rule(args: tuple[Any, ...], _instance: Any, _value: Any) -> None:
    """Kivy's `call_fn` without its trace lines (see below)."""
    element, key, value, rule, idmap = args
    rule.count += 1
    setattr(element, key, eval(value, idmap))  # noqa: S307  (the kv rule's compiled expression)


def _kv_rules_run_without_tracing() -> None:
    """Every kv expression a property change sets off (a label that moved, a colour that
    follows a state) goes through Kivy's `call_fn`, which formats two trace lines, the
    widget's and the code's reprs included, before the logger drops them: half its cost, a
    few hundred times in a tap. Kivy binds its rules to whatever `call_fn` is when a widget
    is built, so this must come before the first widget."""
    if builder.call_fn is _kv_rule:
        return
    builder.call_fn = _kv_rule


def _a_touch_passes_over_what_cannot_take_it() -> None:
    """Kivy hands a finger's touch and lift to every widget of the screen, under the finger or
    not (a widget may track a finger that went down on it; Kivy's own grab the touch instead,
    and get the lift again from the window). A widget with no children and Kivy's own
    handlers, a label without links, an image, a spacer, does nothing with them but for one
    thing: a disabled one under the finger stops the touch; a button of Kivy's only presses
    under the finger and takes its lift from the window. That is most of a table's 100–130
    widgets, and most of the 0.7–1 ms each touch and each lift took on this VM before the
    tapped button's own work.

    Not for a childless widget something binds `on_touch_down` or `on_touch_up` to (Kivy
    cannot say which are): give such a widget a handler of its own."""
    if getattr(Widget.on_touch_up, "passes_over_leaves", False):
        return
    kivy_handlers = {"on_touch_down": (Widget, Label), "on_touch_up": (Widget,)}
    leaf_kinds: dict[tuple[type, str], str] = {}

    def leaf_kind(cls: type, event: str) -> str:
        """Whose handler of `event` a class has: Widget's or Label's ("kivy"), ButtonBehavior's
        over those ("button"), or its own ("own", dispatched as Kivy does)."""
        kind = leaf_kinds.get((cls, event))
        if kind is None:
            definers = [base for base in cls.__mro__ if event in vars(base)]
            if definers[0] in kivy_handlers[event]:
                kind = "kivy"
            elif definers[0] is ButtonBehavior and definers[1] in kivy_handlers[event]:
                kind = "button"
            else:
                kind = "own"
            leaf_kinds[cls, event] = kind
        return kind

    def on_touch_down(self: Widget, touch: Any) -> bool | None:
        if self.disabled and self.collide_point(*touch.pos):
            return True
        for child in self.children[:]:
            if not child.children and not getattr(child, "refs", None):  # links in a label
                kind = leaf_kind(type(child), "on_touch_down")
                if kind == "kivy":
                    if child.disabled and child.collide_point(*touch.pos):
                        return True
                    continue
                if kind == "button" and not child.collide_point(*touch.pos):
                    continue
            if child.dispatch("on_touch_down", touch):
                return True
        return None

    def on_touch_up(self: Widget, touch: Any) -> bool | None:
        if self.disabled:
            return None
        for child in self.children[:]:
            if not child.children:
                kind = leaf_kind(type(child), "on_touch_up")
                if kind == "kivy" or (kind == "button" and touch.grab_current is not child):
                    continue
            if child.dispatch("on_touch_up", touch):
                return True
        return None

    on_touch_up.passes_over_leaves = True  # type: ignore[attr-defined]
    Widget.on_touch_down = on_touch_down
    Widget.on_touch_up = on_touch_up


def _a_popup_opened_again_centres_itself_once() -> None:
    """Kivy 2.3's ModalView binds `_align_center` to its own `center` and `size` in every
    `open` and never unbinds it. The app keeps its pickers and panels to open them again, so a
    panel opened 100 times in an evening held 200 bindings, and each of its moves or resizes
    centred it 200 times over. Unbinding first keeps one of each."""
    original = ModalView.open
    if getattr(original, "centres_once", False):
        return

    def open_once(self: ModalView, *args: Any, **kwargs: Any) -> None:
        if not self._is_open:
            self.funbind("center", self._align_center)
            self.funbind("size", self._align_center)
        original(self, *args, **kwargs)

    open_once.centres_once = True  # type: ignore[attr-defined]
    ModalView.open = open_once
