"""A label whose text, font, box and colour come back to what they were shows the texture it drew
then instead of rendering again (companion/ui/kivy_fixes.py): a pressed button released, Redo
greyed and back, a step's words next round. What is kept must never show wrong pixels."""

from __future__ import annotations

from typing import Any

import pytest

from .harness import Harness

pytestmark = pytest.mark.ui


def a_label(ui: Harness, **kwargs: Any) -> Any:
    """A label on the screen (a label's texture is filled when it is first drawn)."""
    from kivy.uix.label import Label

    label = Label(size_hint=(None, None), size=(300, 80), font_size=24, **kwargs)
    ui.window.add_widget(label)
    ui.frames(2)
    return label


def drawn_fresh(ui: Harness, **kwargs: Any) -> bytes:
    """The pixels of a label rendered now, with nothing kept from before."""
    from companion.ui.kivy_fixes import label_textures

    label_textures.clear()
    label = a_label(ui, **kwargs)
    try:
        return bytes(label.texture.pixels)
    finally:
        ui.window.remove_widget(label)


@pytest.fixture
def textures() -> Any:
    from companion.ui.kivy_fixes import label_textures

    label_textures.clear()
    yield label_textures
    label_textures.clear()


def test_a_label_back_at_an_earlier_text_shows_what_it_drew(ui: Harness, textures: Any) -> None:
    label = a_label(ui, text="Play the AP card")
    first = label.texture
    label.text = "Discard a card"
    ui.frames(2)
    assert label.texture is not first
    hits = textures.hits
    label.text = "Play the AP card"
    ui.frames(2)
    assert label.texture is first and textures.hits == hits + 1
    assert label.texture_size == list(first.size)
    ui.window.remove_widget(label)
    assert bytes(first.pixels) == drawn_fresh(ui, text="Play the AP card")


def test_a_colour_or_a_greyed_look_is_a_texture_of_its_own(ui: Harness, textures: Any) -> None:
    label = a_label(ui, text="Redo")
    normal = label.texture
    label.disabled = True
    ui.frames(2)
    greyed = label.texture
    assert greyed is not normal and bytes(greyed.pixels) != bytes(normal.pixels)
    label.disabled = False
    ui.frames(2)
    assert label.texture is normal
    label.color = (1, 0, 0, 1)
    ui.frames(2)
    assert label.texture is not normal
    ui.window.remove_widget(label)


def test_a_kept_texture_is_never_drawn_over(ui: Harness, textures: Any) -> None:
    """Kivy refills a label's texture when the next text has the same size ("ab", "ba"): the
    texture kept for "ab" must not become "ba"."""
    label = a_label(ui, text="ab")
    kept = label.texture
    kept_pixels = bytes(kept.pixels)
    label.text = "ba"
    ui.frames(2)
    assert list(label.texture.size) == list(kept.size)  # the case where Kivy would refill
    assert label.texture is not kept
    assert bytes(kept.pixels) == kept_pixels != bytes(label.texture.pixels)
    ui.window.remove_widget(label)


def test_a_text_never_drawn_is_not_kept(ui: Harness, textures: Any) -> None:
    """Kivy fills a texture when it is first drawn, from what its label says then: a text only
    measured (a fit trying sizes) and never drawn would be kept empty or wrong."""
    from kivy.uix.label import Label

    label = Label(text="Measured only", font_size=24)
    label.texture_update()
    assert len(textures) == 0
    label.text = "Drawn"
    ui.window.add_widget(label)
    ui.frames(2)
    assert len(textures) == 1
    hits, misses = textures.hits, textures.misses
    again = Label(text="Measured only", font_size=24)
    again.texture_update()
    assert (textures.hits, textures.misses) == (hits, misses + 1)  # rendered again
    ui.window.remove_widget(label)


def test_a_markup_label_keeps_its_references(ui: Harness, textures: Any) -> None:
    text = "See [ref=fear]the fear deck[/ref] now"
    label = a_label(ui, text=text, markup=True)
    refs = label.refs
    assert "fear" in refs
    label.text = "nothing"
    ui.frames(2)
    label.text = text
    ui.frames(2)
    assert textures.hits >= 1 and label.refs == refs
    ui.window.remove_widget(label)


def test_what_is_kept_stays_within_its_budget(ui: Harness, textures: Any,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(textures, "budget_bytes", 200_000)
    label = a_label(ui, text="start")
    for number in range(60):  # a long evening's texts
        label.text = f"Round {number}: reveal a threat, then tap Done"
        ui.frames(1)
        assert textures.bytes <= textures.budget_bytes
    assert 1 < len(textures) < 60
    ui.window.remove_widget(label)


def test_a_large_texture_is_not_kept(ui: Harness, textures: Any,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(textures, "largest_bytes", 20_000)
    small = a_label(ui, text="OK")
    large = a_label(ui, text="A prompt long enough to take more room than a button's words")
    assert small.texture.width * small.texture.height * 4 <= 20_000
    assert large.texture.width * large.texture.height * 4 > 20_000
    assert len(textures) == 1 and textures.bytes <= 20_000
    ui.window.remove_widget(small)
    ui.window.remove_widget(large)


def test_a_kept_texture_lets_its_label_go(ui: Harness, textures: Any) -> None:
    """What is kept is pixels and copies of what the label took from them, never the label:
    a kept markup label's own `refs` held it, its screen and its app for as long as its
    texture was kept (a test worker kept four apps alive that way)."""
    import gc
    import weakref

    label = a_label(ui, text="[ref=rule]Wrath[/ref] 3", markup=True)
    assert textures.misses and len(textures) == 1
    assert label.refs, "a markup label with a reference knows where it lies"
    gone = weakref.ref(label)
    ui.window.remove_widget(label)
    del label
    ui.frames(2)
    gc.collect()
    assert gone() is None, "the kept texture still holds the label"
    again = a_label(ui, text="[ref=rule]Wrath[/ref] 3", markup=True)
    assert textures.hits and again.refs, "a label drawing the same is given the kept references"
    ui.window.remove_widget(again)
