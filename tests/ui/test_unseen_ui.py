"""A widget at opacity 0 is not drawn at all (companion/ui/unseen.py): its canvas leaves its
parent's and comes back to the same place, and what the window shows does not change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from companion.ui.unseen import is_drawn_hidden

from .every_game import start_on_table
from .harness import Harness

pytestmark = pytest.mark.ui

RED, GREEN, BLUE = (1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1)


def a_patch(rgba: tuple[float, ...], **kwargs: Any) -> Any:
    """A widget that fills its box with one colour."""
    from kivy.graphics import Color, Rectangle
    from kivy.uix.widget import Widget

    widget = Widget(**kwargs)
    with widget.canvas:
        Color(*rgba)
        rectangle = Rectangle(pos=widget.pos, size=widget.size)
    widget.bind(pos=lambda _w, pos: setattr(rectangle, "pos", pos),
                size=lambda _w, size: setattr(rectangle, "size", size))
    return widget


def drawn_order(parent: Any) -> list[Any]:
    """`parent`'s children in the order their canvases are drawn (those drawn at all)."""
    canvases = list(parent.canvas.children)
    return [child for child in sorted(parent.children, key=lambda c: canvases.index(c.canvas)
                                      if c.canvas in canvases else -1)
            if child.canvas in canvases]


def kivys_order(parent: Any) -> list[Any]:
    """The order Kivy draws children in: the last of `children` first."""
    return list(reversed(parent.children))


@pytest.fixture
def row(ui: Harness) -> Any:
    """Three patches side by side over the whole window, added to it."""
    from kivy.uix.boxlayout import BoxLayout

    layout = BoxLayout(size=ui.window.size, size_hint=(None, None))
    for rgba in (RED, GREEN, BLUE):
        layout.add_widget(a_patch(rgba))
    ui.window.add_widget(layout)
    ui.frames(2)
    yield layout
    ui.window.remove_widget(layout)


def colours_seen(ui: Harness, tmp_path: Path) -> set[tuple[int, int, int]]:
    with Image.open(ui.screenshot(tmp_path / "row.png")) as picture:
        return {colour[:3] for _count, colour in picture.convert("RGB").getcolors(1 << 20)}


def test_a_hidden_widget_is_out_of_the_drawing_and_back_in_its_place(
        ui: Harness, row: Any, tmp_path: Path) -> None:
    red, green, blue = reversed(row.children)
    before = list(row.canvas.children)
    green.opacity = 0
    ui.frames(2)
    assert is_drawn_hidden(green) and green.canvas not in row.canvas.children
    assert len(row.canvas.children) == len(before)  # a stand-in holds its place
    assert (0, 255, 0) not in colours_seen(ui, tmp_path)
    assert {(255, 0, 0), (0, 0, 255)} <= colours_seen(ui, tmp_path)
    green.opacity = 1
    ui.frames(2)
    assert not is_drawn_hidden(green) and list(row.canvas.children) == before
    assert {(255, 0, 0), (0, 255, 0), (0, 0, 255)} <= colours_seen(ui, tmp_path)
    assert drawn_order(row) == [red, green, blue]


def test_only_opacity_0_is_left_undrawn(ui: Harness, row: Any) -> None:
    green = row.children[1]
    for faint in (0.5, 0.01):
        green.opacity = faint
        ui.frames(1)
        assert not is_drawn_hidden(green) and green.canvas in row.canvas.children


def test_a_widget_added_among_hidden_ones_goes_where_kivy_puts_it(ui: Harness, row: Any) -> None:
    for child in row.children:
        child.opacity = 0
    for index in (0, 2, 3, 5):
        row.add_widget(a_patch(RED), index=index)
    hidden_later = a_patch(GREEN, opacity=0)
    row.add_widget(hidden_later, index=1)
    assert is_drawn_hidden(hidden_later)
    for child in row.children:
        child.opacity = 1
    assert drawn_order(row) == kivys_order(row)


def test_a_hidden_widget_taken_away_leaves_nothing_and_hides_again_elsewhere(
        ui: Harness, row: Any) -> None:
    from kivy.uix.boxlayout import BoxLayout

    green = row.children[1]
    green.opacity = 0
    count = len(row.canvas.children)
    row.remove_widget(green)
    assert len(row.canvas.children) == count - 1 and not is_drawn_hidden(green)
    other = BoxLayout()
    other.add_widget(a_patch(BLUE))
    other.add_widget(green, index=1)
    assert is_drawn_hidden(green) and green.canvas not in other.canvas.children
    green.opacity = 1
    assert drawn_order(other) == kivys_order(other)
    other.clear_widgets()
    assert list(other.canvas.children) == [] or all(
        child is not green.canvas for child in other.canvas.children)


def test_every_table_draws_none_of_its_hidden_widgets(game_id: str, ui: Harness) -> None:
    """The tables hide banners, steppers and drawers with opacity 0: none of them is drawn
    (one whose canvas lies elsewhere than in its parent's, in a list, is drawn as Kivy draws
    it)."""
    table = start_on_table(ui, game_id)
    ui.frames(2)
    hidden: list[Any] = []

    def walk(widget: Any) -> None:
        for child in widget.children:
            if child.opacity == 0:
                hidden.append(child)
            else:
                walk(child)

    walk(table)
    drawn = [widget for widget in hidden
             if widget.canvas in widget.parent.canvas.children]
    assert hidden, f"{game_id}'s first step hides nothing: this test would prove nothing"
    assert drawn == [], f"{game_id} still draws hidden {[type(w).__name__ for w in drawn]}"


def test_a_benchmark_can_draw_them_as_kivy_does_and_leave_them_out_again(
        ui: Harness, row: Any) -> None:
    """bench_every_table times its before and after in one app."""
    from companion.ui.unseen import draw_hidden_widgets

    green = row.children[1]
    order = list(row.canvas.children)
    green.opacity = 0
    try:
        draw_hidden_widgets(True, [row])
        assert green.canvas in row.canvas.children and drawn_order(row) == kivys_order(row)
        blue = row.children[0]
        blue.opacity = 0  # hidden while they are drawn: drawn too
        assert blue.canvas in row.canvas.children
    finally:
        draw_hidden_widgets(False, [row])
    assert not {green.canvas, blue.canvas} & set(row.canvas.children)
    blue.opacity = green.opacity = 1
    assert list(row.canvas.children) == order and drawn_order(row) == kivys_order(row)
