"""Corrections to Kivy itself, applied once before the app builds a widget.

Each is for every screen of every game, so it lives here rather than in one game's widgets.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.clock import Clock
from kivy.uix import scrollview
from kivy.uix.scrollview import ScrollView

LIFT_DELAY_S = 0.2
"""Kivy's ScrollView passes a short touch's lift to what it holds this long after the finger
left (scrollview.py, on_scroll_stop)."""


def apply() -> None:
    _one_bar_colour_binding_per_scroll_view()
    _a_tap_in_a_list_acts_when_the_finger_lifts()


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


class _ClockLiftingAtOnce:
    """Kivy's Clock as scrollview.py sees it: everything as the Clock does, except that a short
    tap's lift reaches the list's button in the next frame instead of 0.2 s later."""

    lifts_at_once = True

    def __getattr__(self, name: str) -> Any:
        return getattr(Clock, name)

    def schedule_once(self, callback: Any, timeout: float = 0) -> Any:
        if (timeout == LIFT_DELAY_S and isinstance(callback, partial)
                and getattr(callback.func, "__name__", "") == "_do_touch_up"):
            timeout = 0
        return Clock.schedule_once(callback, timeout)


def _a_tap_in_a_list_acts_when_the_finger_lifts() -> None:
    """A ScrollView cannot tell a tap from the start of a drag until the finger lifts; then it
    presses the button under it and lifts it 0.2 s later, and the button acts only then. Every
    button in a scrolling column (a step's actions, a picker's rows, a panel's steppers) answered
    a fifth of a second late, before any of the tap's own work. The press still shows: a
    button stays down for its `min_state_time` after the lift."""
    if getattr(scrollview.Clock, "lifts_at_once", False):
        return
    scrollview.Clock = _ClockLiftingAtOnce()
