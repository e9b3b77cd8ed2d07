"""Corrections to Kivy's scrolling lists (ScrollView, RecycleView), applied with the others in
kivy_fixes before the app builds a widget."""

from __future__ import annotations

import sys
import weakref
from functools import partial
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.uix import scrollview
from kivy.uix.scrollview import ScrollView

LIFT_DELAY_S = 0.2
"""Kivy's ScrollView passes a short touch's lift to what it holds this long after the finger
left (scrollview.py, on_scroll_stop)."""


def apply() -> None:
    _one_bar_colour_binding_per_scroll_view()
    _a_tap_in_a_list_acts_when_the_finger_lifts()


def forget_recycled_rows() -> None:
    """As an app stops (tests run one after another in a process): Kivy's lists (RecycleView)
    keep the rows they take off the screen in one cache for the whole process and hand them to
    the next list that shows rows of that kind. A row's kv rules stay bound to the app that
    built it: shown by a later app, the reader check's last reads kept the colours of an earlier
    app's theme. The rows kept now are let go of, and from now on a list takes from the cache
    only rows built while its own app runs (a list of a stopped app, refreshed late, still puts
    its rows there). Kivy's lists are not imported at the start; none used, nothing is kept."""
    views: Any = sys.modules.get("kivy.uix.recycleview.views")
    if views is None:
        return
    views._cached_views.clear()
    views._cache_count = 0
    adapter = views.RecycleDataAdapter
    if getattr(adapter.get_view, "own_rows_only", False):
        return
    create_view, get_view = adapter.create_view, adapter.get_view

    def create_view_marked(self: Any, index: int, data_item: Any, viewclass: Any) -> Any:
        view = create_view(self, index, data_item, viewclass)
        if view is not None:
            app = App.get_running_app()
            view.built_by_app = weakref.ref(app) if app is not None else None
        return view

    def get_view_of_this_app(self: Any, index: int, data_item: Any, viewclass: Any) -> Any:
        cached = views._cached_views.get(viewclass)
        running = App.get_running_app()
        while cached and _built_by(cached[-1]) is not running:
            cached.pop()
            views._cache_count -= 1
        return get_view(self, index, data_item, viewclass)

    get_view_of_this_app.own_rows_only = True  # type: ignore[attr-defined]
    adapter.create_view = create_view_marked
    adapter.get_view = get_view_of_this_app


def _built_by(row: Any) -> Any:
    """The app that built a list's row; None for a row built before forget_recycled_rows."""
    built_by_app = getattr(row, "built_by_app", None)
    return built_by_app() if built_by_app is not None else None


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
