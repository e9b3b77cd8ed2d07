"""A row of buttons of which each step shows some, for the tables' kv (companion/ui/table_kit.py
makes it known to every game's table.kv)."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout


class ShowingRow(BoxLayout):
    """A row of buttons of which each step shows some (a child's `shown`): the hidden ones take
    no room and no spacing, and are neither moved nor resized. As a plain BoxLayout, each step
    moved every button of the row, hidden or not, and each move ran their canvas rules: 80 a
    Done on Leviathan Wilds' table, a third of its layout's work."""

    def __init__(self, **kwargs: Any) -> None:
        self._watched: set[int] = set()
        super().__init__(**kwargs)

    def on_kv_post(self, base_widget: Any) -> None:
        # A kv rule's children are added before their own rules give them `shown`.
        for child in self.children:
            self._watch(child)

    def add_widget(self, widget: Any, *args: Any, **kwargs: Any) -> None:
        super().add_widget(widget, *args, **kwargs)
        self._watch(widget)

    def remove_widget(self, widget: Any, *args: Any, **kwargs: Any) -> None:
        if widget.uid in self._watched:
            self._watched.discard(widget.uid)
            widget.funbind("shown", self._trigger_layout)
        super().remove_widget(widget, *args, **kwargs)

    def _watch(self, child: Any) -> None:
        if child.uid not in self._watched and "shown" in child.properties():
            self._watched.add(child.uid)
            child.fbind("shown", self._trigger_layout)

    def do_layout(self, *_args: Any) -> None:
        shown = [child for child in self.children if getattr(child, "shown", True)]
        if not shown:  # as a BoxLayout without children
            left, top, right, bottom = self.padding
            self.minimum_size = left + right, top + bottom
            return
        sizes = [(child.size, child.size_hint, child.pos_hint, child.size_hint_min,
                  child.size_hint_max) for child in shown]
        for index, x, y, width, height in self._iterate_layout(sizes):
            child = shown[index]
            child.pos = x, y
            hint_x, hint_y = child.size_hint
            if hint_x is None:
                if hint_y is not None:
                    child.height = height
            elif hint_y is None:
                child.width = width
            else:
                child.size = (width, height)
