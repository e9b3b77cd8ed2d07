"""Layouts are laid out outermost first, each once a pass, in every game's screens
(companion/ui/layout_order.py)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from .harness import Harness

pytestmark = pytest.mark.ui

NESTED = """
BoxLayout:
    orientation: "vertical"
    BoxLayout:
        id: row
        size_hint_y: None
        height: 100
        BoxLayout:
            id: cell
            orientation: "vertical"
            Label:
                id: top
                size_hint_y: None
                height: 30
            Label:
                size_hint_y: None
                height: 30
    Label:
"""


def _counting(monkeypatch: pytest.MonkeyPatch, named: dict[str, Any]) -> Counter[str]:
    """How many times each of the `named` boxes is laid out from now on."""
    from kivy.uix.boxlayout import BoxLayout

    laid_out: Counter[str] = Counter()
    original = BoxLayout.do_layout

    def do_layout(self: Any, *args: Any) -> None:
        laid_out[next((name for name, widget in named.items() if widget is self), "other")] += 1
        original(self, *args)

    monkeypatch.setattr(BoxLayout, "do_layout", do_layout)
    return laid_out


def _settled(root: Any) -> bool:
    """Every box at the place and size that laying it out again gives."""
    from kivy.uix.layout import Layout

    def geometry() -> list[tuple[float, ...]]:
        return [(*widget.pos, *widget.size) for widget in root.walk(restrict=True)]

    before = geometry()
    for widget in root.walk(restrict=True):
        if isinstance(widget, Layout):
            widget.do_layout()
    return geometry() == before


@pytest.mark.parametrize("outermost_first", [False, True], ids=["as Kivy", "outermost first"])
def test_a_box_resized_by_its_parent_in_the_same_pass_is_laid_out_once(
        ui: Harness, monkeypatch: pytest.MonkeyPatch, outermost_first: bool) -> None:
    from kivy.lang import Builder

    from companion.ui.layout_order import lay_out_outermost_first

    outer = Builder.load_string(NESTED)
    ui.window.add_widget(outer)
    lay_out_outermost_first(outermost_first)
    try:
        ui.frames(2)
        laid_out = _counting(monkeypatch, {"outer": outer, "row": outer.ids.row.__self__,
                                           "cell": outer.ids.cell.__self__})
        # The innermost box is pulled first (its child grew), then the outer box (its row has a
        # new height). Kivy's own triggers lay the innermost out in its old box first, then
        # again when the row gives it its new height. (A box that sizes its children pulls
        # itself again, and is laid out twice either way.)
        outer.ids.top.height = 40
        outer.ids.row.height = 160
        ui.frames(1)
        if outermost_first:
            assert laid_out["cell"] == 1, laid_out
        else:  # what the change takes away
            assert laid_out["cell"] >= 2, laid_out
        assert outer.ids.cell.height == 160 and outer.ids.top.height == 40
        assert _settled(outer)
    finally:
        lay_out_outermost_first(True)
        ui.window.remove_widget(outer)


def test_a_trigger_answers_as_kivys_does(ui: Harness) -> None:
    from kivy.lang import Builder

    outer = Builder.load_string(NESTED)
    ui.window.add_widget(outer)
    try:
        ui.frames(2)
        cell = outer.ids.cell
        assert not cell._trigger_layout.is_triggered
        cell._trigger_layout()
        assert cell._trigger_layout.is_triggered  # ScrollView.scroll_to asks this
        cell._trigger_layout.cancel()
        assert not cell._trigger_layout.is_triggered
        outer.ids.top.height = 50
        ui.frames(1)
        assert not cell._trigger_layout.is_triggered and _settled(outer)
    finally:
        ui.window.remove_widget(outer)


def test_two_boxes_that_size_each_other_still_let_a_frame_be_drawn(ui: Harness) -> None:
    """A layout that pulls itself again each time it is laid out must not hold the frame: the
    pass stops after a bound and the Clock goes on, as it does with Kivy's own triggers."""
    from kivy.base import EventLoop
    from kivy.uix.boxlayout import BoxLayout

    from companion.ui import layout_order

    class Restless(BoxLayout):
        def do_layout(self, *args: Any) -> None:
            super().do_layout(*args)
            self.laid_out = getattr(self, "laid_out", 0) + 1
            self._trigger_layout()

    restless = Restless()
    ui.window.add_widget(restless)
    try:
        EventLoop.idle()
        EventLoop.idle()
        assert restless.laid_out >= 2 * layout_order.LAYOUTS_OF_ONE_BOX_IN_A_PASS
    finally:
        ui.window.remove_widget(restless)
        restless._trigger_layout.cancel()
    ui.frames(2)
