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


def _measured_widths(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The widths at which texts that shrink to fit are measured from now on."""
    from companion.ui.widgets import FitText

    widths: list[float] = []
    original = FitText._measure

    def measure(self: Any, width: float, room: float) -> tuple[float, float, float]:
        widths.append(width)
        return original(self, width, room)

    monkeypatch.setattr(FitText, "_measure", measure)
    return widths


def test_a_new_text_is_measured_in_the_box_its_layout_gives_it_not_before(
        ui: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """A label is born 100 x 100; measured there, a long question shrinks through every size
    for nothing (7.7 ms of Glow's Done). It is measured once, at the width its row gives."""
    from kivy.uix.boxlayout import BoxLayout

    from companion.ui.widgets import FitLabel

    row = BoxLayout(size_hint=(None, None), size=(600, 80), padding=0)
    ui.window.add_widget(row)
    try:
        ui.frames(2)
        widths = _measured_widths(monkeypatch)
        question = FitLabel(text="Has everyone moved their marker and put the dice back? "
                                 "(a text no other test fits)", padding=(0, 0, 0, 0))
        row.add_widget(question)
        ui.frames(1)
        assert widths == [600], widths
        assert question.fits() and question.font_size == question.base_font_size
    finally:
        ui.window.remove_widget(row)


def test_a_box_that_is_never_done_laying_out_does_not_hold_a_text_from_its_fit(
        ui: Harness) -> None:
    from kivy.uix.boxlayout import BoxLayout

    from companion.ui.widgets import FitLabel

    class Restless(BoxLayout):
        def do_layout(self, *args: Any) -> None:
            super().do_layout(*args)
            self._trigger_layout()

    restless = Restless(size_hint=(None, None), size=(300, 60))
    label = FitLabel(text="Fitted all the same (a text of this test's own)")
    restless.add_widget(label)
    ui.window.add_widget(restless)
    try:
        ui.frames(3)
        assert label.needed_width > 0 and label.fits()
        assert label.texture_size[0] > 1  # and drawn
    finally:
        ui.window.remove_widget(restless)
        restless._trigger_layout.cancel()
    ui.frames(2)


def test_a_box_let_go_of_while_it_waits_is_forgotten(ui: Harness) -> None:
    """Else a text would wait for it (above) at every fit, for as long as the app runs."""
    import gc

    from kivy.uix.boxlayout import BoxLayout

    from companion.ui import layout_order

    ui.frames(2)
    box = BoxLayout()
    box._trigger_layout()
    assert layout_order._waiting.waits(box)
    del box
    gc.collect()
    ui.frames(1)
    assert not layout_order._waiting.after(lambda: None)  # nothing waits any more
