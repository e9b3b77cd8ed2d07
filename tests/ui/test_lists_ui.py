"""A tap on a button inside a scrolling column acts in the frame after the finger lifts, as a
tap on any other button does. Kivy's ScrollView, unable to tell a tap from the start of a drag
until the lift, pressed the button then and lifted it 0.2 s later: every step action, picker
row and panel stepper answered a fifth of a second late (companion/ui/kivy_list_fixes.py).

These taps are the raw touches a panel reports, without the harness's help: it does a
ScrollView's pending lift at once (tests/ui/harness.py), which would hide the delay.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

from .harness import Harness
from .tour import go_to, leviathan_stops

pytestmark = pytest.mark.ui


def pending_lifts() -> list[Any]:
    """A ScrollView's lifts still on Kivy's clock."""
    from kivy.clock import Clock

    return [event for event in Clock.get_events()
            if isinstance(callback := event.get_callback(), functools.partial)
            and getattr(callback.func, "__name__", "") == "_do_touch_up"]


def raw_tap(ui: Harness, widget: Any) -> list[float]:
    """Touch the middle of `widget` and lift the finger, drawing one frame between; returns the
    delays of the lifts a ScrollView put on the clock at the lift."""
    from kivy.tests.common import UnitTestTouch

    ui.scroll_into_view(widget)
    touch = UnitTestTouch(*widget.to_window(*widget.center))
    ui.as_in_the_loop(touch.touch_down)
    ui.frames(1)
    ui.as_in_the_loop(touch.touch_up)
    return [event.timeout for event in pending_lifts()]


def test_an_ap_action_in_the_step_s_column_is_taken_the_frame_after_the_lift(
        tmp_path: Path) -> None:
    ui = Harness(tmp_path / "games.db")
    try:
        go_to(ui, leviathan_stops, "lw-table-actions")
        app = ui.app
        active = app.game_state["active"]
        before = app.game_state["guardians"][active]["ap_left"]
        climb = ui.screen.ids.climb
        assert any(type(parent).__name__ == "PromptColumn" for parent in ancestors(climb))
        delays = raw_tap(ui, climb)
        assert delays == [0], f"the lift waits {delays} s on the clock"
        ui.frames(2)
        assert app.game_state["guardians"][active]["ap_left"] == before - 1
        assert not pending_lifts()
    finally:
        ui.close()


def ancestors(widget: Any) -> list[Any]:
    found, parent = [], widget.parent
    while parent is not None and parent is not parent.parent:
        found.append(parent)
        parent = parent.parent
    return found
