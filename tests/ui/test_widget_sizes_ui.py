"""A widget's pos and size (Kivy's ReferenceListProperty) are read without an exception raised
and caught inside each read (companion/ui/kivy_fixes.py), and still follow x, y, width and
height both ways."""

from __future__ import annotations

import pytest

from .harness import Harness

pytestmark = pytest.mark.ui


def test_the_list_behind_a_widgets_size_takes_a_slice_as_kivy_meant(ui: Harness) -> None:
    """Kivy refreshes the list at every read through `__setslice__`; on Kivy's own class that
    raises AttributeError (Python 3 lists have none), which Kivy catches."""
    from kivy.uix.widget import Widget

    widget = Widget(size=(100, 50))
    size = widget.size  # the list itself, not read again through the property
    size.__setslice__(0, 2, [70, 30], update_properties=False)
    assert list(size) == [70, 30] and widget.width == 100  # the list alone
    size.__setslice__(0, 2, [80, 40])
    assert (widget.width, widget.height) == (80, 40) and list(widget.size) == [80, 40]


def test_pos_and_size_follow_their_parts_both_ways(ui: Harness) -> None:
    from kivy.uix.widget import Widget

    widget = Widget(pos=(1, 2), size=(100, 50))
    seen: list[tuple[str, list[float]]] = []
    widget.bind(pos=lambda _w, pos: seen.append(("pos", list(pos))),
                size=lambda _w, size: seen.append(("size", list(size))))
    widget.x, widget.height = 11, 55
    assert list(widget.pos) == [11, 2] and list(widget.size) == [100, 55]
    widget.pos = (20, 30)
    widget.pos = (20, 30)  # the same again: nothing to tell
    widget.size[0] = 120
    assert (widget.x, widget.y, widget.width, widget.height) == (20, 30, 120, 55)
    assert seen == [("pos", [11, 2]), ("size", [100, 55]), ("pos", [20, 30]),
                    ("size", [120, 55])]
    assert list(widget.center) == [80, 57.5] and list(widget.size_hint) == [1, 1]


def test_a_box_lays_its_children_out_as_before(ui: Harness) -> None:
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.widget import Widget

    box = BoxLayout(orientation="vertical", size=(200, 300), pos=(10, 20), spacing=10,
                    padding=5)
    fixed = Widget(size_hint_y=None, height=40)
    half = Widget(size_hint=(0.5, 1), pos_hint={"right": 1})
    rest = Widget(size_hint_min_y=100)
    for child in (fixed, half, rest):
        box.add_widget(child)
    box.do_layout()
    assert [(list(child.pos), list(child.size)) for child in (fixed, half, rest)] == [
        ([15, 275], [190, 40]), ([110, 150], [95, 115]), ([15, 25], [190, 115])]
