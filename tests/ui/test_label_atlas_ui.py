"""Label texts are drawn from regions of a few shared textures (companion/ui/label_atlas.py): the
window must show exactly what Kivy's texture-per-text drew, a page is never written to after
the frame began drawing, and a text not on the screen is not rendered before it is."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .harness import Harness

pytestmark = pytest.mark.ui

LABELS = (
    {"text": "Play the AP card", "font_size": 24},
    {"text": "Wrath 3 of 9", "font_size": 40, "bold": True, "color": (1, 0.8, 0.2, 1)},
    {"text": "Discard a card, then draw two\nfrom the top of the deck", "font_size": 18,
     "halign": "center"},
    {"text": "Undo", "font_size": 20, "disabled": True},
)


@pytest.fixture
def sharing() -> Iterator[Any]:
    from companion.ui import label_atlas
    from companion.ui.kivy_fixes import label_textures

    label_textures.clear()
    yield label_atlas
    label_atlas.share_textures(True)
    label_textures.clear()


def window_pixels(ui: Harness, folder: Path) -> bytes:
    from PIL import Image

    with Image.open(ui.screenshot(folder / "window.png")) as picture:
        return picture.convert("RGBA").tobytes()


def labels_on_screen(ui: Harness) -> list[Any]:
    from kivy.uix.label import Label

    labels = [Label(size_hint=(None, None), size=(360, 110), pos=(20 + 380 * (i % 2),
                                                                  20 + 120 * (i // 2)), **kwargs)
              for i, kwargs in enumerate(LABELS)]
    for label in labels:
        ui.window.add_widget(label)
    ui.frames(3)
    return labels


def test_texts_on_shared_pages_look_as_in_textures_of_their_own(
        ui: Harness, sharing: Any, tmp_path: Path) -> None:
    from companion.ui.kivy_fixes import label_textures

    pictures = {}
    for shared in (False, True):
        sharing.share_textures(shared)
        label_textures.clear()
        labels = labels_on_screen(ui)
        assert all(sharing.is_shared(label.texture) == shared for label in labels)
        if shared:  # one GL texture for all four texts
            assert len({label.texture.id for label in labels}) == 1
        pictures[shared] = window_pixels(ui, tmp_path)
        for label in labels:
            ui.window.remove_widget(label)
    assert pictures[True] == pictures[False]


def test_a_changed_text_is_drawn_anew_and_its_old_place_given_back(
        ui: Harness, sharing: Any, tmp_path: Path) -> None:
    from kivy.uix.label import Label

    from companion.ui.kivy_fixes import label_textures

    label = labels_on_screen(ui)[0]
    first = label.texture
    page = next(page for page in sharing.atlas.pages if page.texture.id == first.id)
    label.text = "Wrath rises: the Leviathan strikes"
    ui.frames(3)
    assert sharing.is_shared(label.texture) and label.texture is not first
    changed = window_pixels(ui, tmp_path)
    ui.window.remove_widget(label)

    sharing.share_textures(False)  # the same text in a texture of its own, as Kivy draws it
    label_textures.clear()
    alone = Label(size_hint=(None, None), size=label.size, pos=label.pos, **LABELS[0])
    alone.text = label.text
    ui.window.add_widget(alone)
    ui.frames(3)
    assert not sharing.is_shared(alone.texture)
    assert window_pixels(ui, tmp_path) == changed
    ui.window.remove_widget(alone)

    # The first text's place is given back once nothing holds its region any more.
    x, y = sharing._places[first].origin
    width = first.width + 2 * sharing.GUTTER
    del first
    label_textures.clear()
    gc.collect()
    assert (x - sharing.GUTTER, y - sharing.GUTTER, width) in page.given_back


@pytest.fixture
def writes_and_draws(ui: Harness, sharing: Any) -> Iterator[list[str]]:
    """What happens, in order: "write" for each text written to a page, "draw" as the
    window's canvas starts drawing a frame."""
    from kivy.graphics import Callback

    events: list[str] = []
    original = sharing._Writer.blit_data

    def blit_data(self: Any, image: Any, pos: Any = None) -> None:
        events.append("write")
        original(self, image, pos)

    sharing._Writer.blit_data = blit_data
    first = Callback(lambda _instruction: events.append("draw"))
    ui.window.canvas.before.insert(0, first)
    try:
        yield events
    finally:
        ui.window.canvas.before.remove(first)
        sharing._Writer.blit_data = original


def test_texts_are_written_before_the_frame_draws_from_their_page(
        ui: Harness, writes_and_draws: list[str]) -> None:
    labels = labels_on_screen(ui)
    assert "write" in writes_and_draws
    for number, label in enumerate(labels):
        writes_and_draws.clear()
        label.text = f"Round {number + 2}: {label.text}"
        ui.window.canvas.ask_update()
        ui.frames(1)
        assert writes_and_draws[0] == "write" and writes_and_draws[-1] == "draw"
        assert writes_and_draws.count("draw") == 1  # every write came before the drawing
    for label in labels:
        ui.window.remove_widget(label)


def test_a_text_off_the_screen_waits_until_it_is_shown(
        ui: Harness, sharing: Any, writes_and_draws: list[str], tmp_path: Path) -> None:
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.label import Label

    box = BoxLayout(size_hint=(None, None), size=(360, 110), pos=(20, 20))
    label = Label(**LABELS[1])
    box.add_widget(label)
    label.texture_update()  # laid out and measured, as a screen built ahead is
    assert sharing.is_shared(label.texture)
    ui.window.canvas.ask_update()
    ui.frames(2)
    assert "write" not in writes_and_draws  # not rendered while not shown
    box.opacity = 0
    ui.window.add_widget(box)
    ui.frames(2)
    assert "write" not in writes_and_draws  # shown at opacity 0: nothing to see
    box.opacity = 1
    ui.frames(2)
    assert "write" in writes_and_draws
    shown = window_pixels(ui, tmp_path)
    ui.window.remove_widget(box)

    sharing.share_textures(False)
    alone = Label(size_hint=(None, None), size=(360, 110), pos=(20, 20), **LABELS[1])
    ui.window.add_widget(alone)
    ui.frames(3)
    assert window_pixels(ui, tmp_path) == shown
    ui.window.remove_widget(alone)


def test_a_label_let_go_before_it_was_shown_gives_its_place_back(
        ui: Harness, sharing: Any) -> None:
    from kivy.uix.label import Label

    label = Label(**LABELS[0])
    label.texture_update()
    place = sharing._places[label.texture]
    given_back = (place.origin[0] - sharing.GUTTER, place.origin[1] - sharing.GUTTER,
                  label.texture.width + 2 * sharing.GUTTER)
    page = place.page
    del label, place
    gc.collect()
    ui.window.canvas.ask_update()
    ui.frames(1)  # its text, still waiting, is let go of instead of written
    gc.collect()
    assert given_back in page.given_back


def test_a_text_with_no_room_on_a_page_gets_a_texture_of_its_own(
        ui: Harness, sharing: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sharing, "atlas", sharing.LabelAtlas())
    monkeypatch.setattr(sharing, "PAGE_SIDE", 128)
    monkeypatch.setattr(sharing, "PAGES_MOST", 1)
    labels = labels_on_screen(ui)
    shared = [sharing.is_shared(label.texture) for label in labels]
    assert any(shared) and not all(shared)  # texts too wide for the page drew on their own
    with_no_room = window_pixels(ui, tmp_path)
    for label in labels:
        ui.window.remove_widget(label)
    sharing.share_textures(False)
    labels = labels_on_screen(ui)
    assert window_pixels(ui, tmp_path) == with_no_room
    for label in labels:
        ui.window.remove_widget(label)


def test_markup_keeps_a_texture_of_its_own(ui: Harness, sharing: Any) -> None:
    from kivy.uix.label import Label

    label = Label(text="See [ref=fear]the fear deck[/ref]", markup=True, font_size=24,
                  size_hint=(None, None), size=(360, 60))
    ui.window.add_widget(label)
    ui.frames(2)
    assert not sharing.is_shared(label.texture) and "fear" in label.refs
    ui.window.remove_widget(label)


def test_the_packer_fills_shelves_and_takes_back_what_is_given_back(sharing: Any) -> None:
    packer = sharing.ShelfPacker(64)
    first = packer.place(30, 10)
    second = packer.place(30, 12)  # rounds up to the same 16-pixel shelf
    assert first == (0, 0) and second == (30, 0)
    tall = packer.place(20, 30)  # a shelf of its own, below
    assert tall == (0, 16)
    assert packer.place(10, 40) is None  # no height left below the shelves
    assert packer.place(65, 4) is None  # wider than the page
    packer.release(*first, 30)
    packer.release(*second, 30)
    assert packer.shelves[0].free == [[0, 64]]  # joined with its neighbours
    assert packer.place(60, 9) == (0, 0)  # taken again
    packer.release(0, 0, 60)
    packer.release(*tall, 20)
    assert packer.shelves == [] and packer.top == 0  # empty shelves give their height back


def test_a_benchmark_can_switch_every_label_between_both_kinds(
        ui: Harness, sharing: Any, tmp_path: Path) -> None:
    """bench_every_table times its before and after in one app: the switch renders every
    label of the window again, as the mode it switches to makes them."""
    from tests.benchmarks.bench_every_table import label_texts_on_shared_pages

    switch = label_texts_on_shared_pages(ui)
    labels = labels_on_screen(ui)
    shared = window_pixels(ui, tmp_path)
    try:
        switch(False)
        ui.frames(3)
        assert not any(sharing.is_shared(label.texture) for label in labels)
        assert window_pixels(ui, tmp_path) == shared
    finally:
        switch(True)
    ui.frames(3)
    assert all(sharing.is_shared(label.texture) for label in labels)
    assert window_pixels(ui, tmp_path) == shared
    for label in labels:
        ui.window.remove_widget(label)
