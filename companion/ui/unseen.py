"""A widget at opacity 0 is not drawn at all.

Kivy draws a widget at opacity 0 like any other, every frame: each of its colours, textures
and shapes goes to the GL driver and is then blended away. The tables hide a good many this way
(a banner with nothing to say, the steppers of a mode not chosen, a player tile's closed
drawer): on this VM they took 0.3–0.5 ms of the 2–3 ms a frame's drawing costs, with every
tap. Here a hidden widget's canvas is taken out of its parent's and an empty stand-in holds its
place, so that it comes back where it was, under and over the same neighbours.

Layout and touches are Kivy's as before: only the drawing changes, and nothing a player could
see, since what is at opacity 0 draws no pixel. A widget whose canvas is not in its parent's
own (a ScrollView's content, a widget added to `canvas.before`, a window's popup) is drawn as
Kivy draws it.
"""

from __future__ import annotations

from typing import Any

from kivy.graphics import InstructionGroup
from kivy.uix.widget import Widget

_STAND_IN = "_unseen_stand_in"
"""The attribute holding a hidden widget's (holder canvas, stand-in) while it is not drawn."""

_drawn_as_kivy_draws = False
"""True while hidden widgets are drawn as Kivy draws them (a benchmark's "before")."""


def is_drawn_hidden(widget: Any) -> bool:
    """Whether `widget` is hidden and out of its parent's canvas (for tests)."""
    return _STAND_IN in widget.__dict__


def draw_hidden_widgets(drawn: bool, roots: list[Any]) -> None:
    """Draw the widgets at opacity 0 under `roots` as Kivy does (`drawn`), or leave them out
    again: a benchmark's before and after in one run (tests/benchmarks/bench_every_table.py)."""
    global _drawn_as_kivy_draws
    _drawn_as_kivy_draws = drawn

    def walk(widget: Any) -> None:
        for child in list(widget.children):
            walk(child)
            if child.opacity == 0 and drawn:
                _show(child)
            elif child.opacity == 0:
                _hide(child)

    for root in roots:
        walk(root)


def _hide(widget: Widget) -> None:
    parent = widget.parent
    if (_drawn_as_kivy_draws or not isinstance(parent, Widget) or is_drawn_hidden(widget)
            or widget.canvas is None):
        return
    holder = parent.canvas
    index = holder.indexof(widget.canvas)
    if index < 0:
        return
    stand_in = InstructionGroup()
    holder.remove(widget.canvas)
    holder.insert(index, stand_in)
    widget.__dict__[_STAND_IN] = (holder, stand_in)


def _show(widget: Widget) -> None:
    kept = widget.__dict__.pop(_STAND_IN, None)
    if kept is None:
        return
    holder, stand_in = kept
    index = holder.indexof(stand_in)
    if index < 0:  # its place went with a canvas cleared by hand: draw it last, as Kivy would
        holder.add(widget.canvas)
        return
    holder.remove(stand_in)
    holder.insert(index, widget.canvas)


def apply() -> None:
    """Patch Kivy's Widget; before the first widget is built (Kivy binds `on_opacity` to each
    widget as it is made)."""
    if getattr(Widget.on_opacity, "draws_only_when_seen", False):
        return
    original_on_opacity = Widget.on_opacity
    original_add = Widget.add_widget
    original_remove = Widget.remove_widget

    def on_opacity(self: Widget, instance: Any, value: float) -> None:
        original_on_opacity(self, instance, value)
        if value == 0:
            _hide(self)
        else:
            _show(self)

    def add_widget(self: Widget, widget: Widget, *args: Any, **kwargs: Any) -> None:
        # Kivy finds the place of a widget added behind others from its siblings' canvases;
        # one added in front (index 0, every widget a layout builds) goes last
        index = args[0] if args else kwargs.get("index", 0)
        hidden = [child for child in self.children if is_drawn_hidden(child)] if index else []
        for child in hidden:
            _show(child)
        try:
            original_add(self, widget, *args, **kwargs)
        finally:
            for child in hidden:
                _hide(child)
        if widget.opacity == 0:
            _hide(widget)

    def remove_widget(self: Widget, widget: Widget, *args: Any, **kwargs: Any) -> None:
        if widget in self.children:  # Kivy takes its canvas out of ours: no stand-in left
            _show(widget)
        original_remove(self, widget, *args, **kwargs)

    on_opacity.draws_only_when_seen = True  # type: ignore[attr-defined]
    Widget.on_opacity = on_opacity
    Widget.add_widget = add_widget
    Widget.remove_widget = remove_widget
