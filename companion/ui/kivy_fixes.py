"""Corrections to Kivy itself, applied once before the app builds a widget.

Each is for every screen of every game, so it lives here rather than in one game's widgets.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.scrollview import ScrollView


def apply() -> None:
    _one_bar_colour_binding_per_scroll_view()


def _one_bar_colour_binding_per_scroll_view() -> None:
    """Kivy 2.3's ScrollView binds `_change_bar_color` to `bar_color` again in every
    `update_from_scroll` (each frame its content moves or changes size), and takes one binding
    away only when the bar fades, half a second after the last. A list scrolled by a finger, or
    a panel refitted tap after tap, left thousands of bindings on one ScrollView: Leviathan
    Wilds' soak grew by 141 MB over 10,000 taps. Unbinding first keeps it at one."""
    original = ScrollView.update_from_scroll
    if getattr(original, "keeps_one_binding", False):
        return

    def update_from_scroll(self: ScrollView, *args: Any) -> None:
        self.funbind("bar_color", self._change_bar_color)
        original(self, *args)

    update_from_scroll.keeps_one_binding = True  # type: ignore[attr-defined]
    ScrollView.update_from_scroll = update_from_scroll
