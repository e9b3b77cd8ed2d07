"""A text that shrinks to fit is measured by rendering it at each size tried; a table shows the
same texts again and again, so a fit is remembered (bounded) and not measured twice."""

from __future__ import annotations

from typing import Any

import pytest

from .harness import Harness

pytestmark = pytest.mark.ui

PROMPT = ("Evening of day 1: return the small dice, lay out the next row, put trail tokens "
          "out and pass the start marker. Then tap Done.")


def a_label(ui: Harness, **kwargs: Any) -> Any:
    from companion.ui.widgets import FitLabel

    label = FitLabel(size_hint=(None, None), **kwargs)
    ui.frames(2)  # its first fit
    return label


def counting_renders(label: Any) -> list[int]:
    renders: list[int] = []
    original = label.texture_update

    def counted(*args: Any) -> None:
        renders.append(1)
        original(*args)

    label.texture_update = counted
    return renders


def counting_measures(label: Any) -> list[int]:
    measures: list[int] = []
    original = label._measure

    def counted(*args: Any) -> Any:
        measures.append(1)
        return original(*args)

    label._measure = counted
    return measures


def test_a_text_fitted_once_in_a_box_is_not_measured_again(ui: Harness) -> None:
    first = a_label(ui, text=PROMPT, size=(220, 60), base_font_size=24, min_font_size=8)
    assert first.font_size < 24  # it had to shrink: several sizes were rendered
    second = a_label(ui, size=(220, 60), base_font_size=24, min_font_size=8)
    measures = counting_measures(second)
    second.text = PROMPT
    second._fit()
    assert measures == []
    assert (second.font_size, second.needed_height, second.needed_width) == (
        first.font_size, first.needed_height, first.needed_width)
    # Another box is another fit: measured, and as large as that box allows.
    second.size = (440, 60)
    second._fit()
    assert measures and second.font_size > first.font_size and second.fits()


def test_the_fits_remembered_are_bounded(ui: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.ui import widgets

    monkeypatch.setattr(widgets, "FIT_CACHE_SIZE", 20)
    label = a_label(ui, size=(200, 40))
    for number in range(60):  # a long evening's texts
        label.text = f"Round {number}: tap Done"
        label._fit()
    assert len(widgets._fits) <= 20


def test_a_fitted_text_shows_every_word_in_its_box(ui: Harness) -> None:
    # Glow's portrait area button: measured without a height it took three lines and fitted,
    # but drawn in its box Kivy left the third out ("dice not" and nothing after).
    text = "Area 1: recruit\ndice not entered · 0 trails"
    label = a_label(ui, text=text, size=(137.6, 78), padding=(4, 2), base_font_size=21,
                    min_font_size=11, halign="center", valign="middle")
    ui.frames(2)
    drawn = " ".join(word.text for line in label._label._cached_lines for word in line.words)
    assert drawn.split() == text.split(), f"drawn: {drawn!r}"
    assert label.fits() and label.font_size < 21


def counting_layouts(label: Any) -> list[tuple[float, tuple[Any, ...]]]:
    """Each time Kivy lays out and draws the label's text: (font size, box)."""
    drawn: list[tuple[float, tuple[Any, ...]]] = []
    core = label._label
    original = core.refresh

    def refresh() -> None:
        drawn.append((label.font_size, tuple(label.text_size)))
        original()

    core.refresh = refresh
    return drawn


def test_a_changed_text_is_drawn_once_at_its_fitted_size(ui: Harness) -> None:
    # Kivy's own redraw of a changed text comes before the fit in the frame: it drew the new
    # words at the old text's font size, for nothing.
    label = a_label(ui, text="Done", size=(220, 60), base_font_size=24, min_font_size=8)
    assert label.font_size == 24
    drawn = counting_layouts(label)
    label.text = PROMPT + " Once."  # no texture kept for it: drawn afresh
    ui.frames(2)
    assert label.font_size < 24 and label.fits()
    in_the_box = [layout for layout in drawn if layout[1][1] is not None]  # (not measures)
    assert in_the_box == [(label.font_size, tuple(label.text_size))], drawn


def test_a_text_in_a_box_of_no_height_is_not_laid_out_in_it(ui: Harness) -> None:
    # The banner's OK closed with its row: Kivy's texture for a box one pixel high is its
    # one-pixel one, whatever the words; laying them out each time the row closed was waste.
    # (Measuring it is remembered as every fit is.)
    from kivy.uix.label import Label

    label = a_label(ui, text="OK", size=(64, 52))
    drawn = counting_layouts(label)
    label.height = 0
    ui.frames(2)
    assert [layout for layout in drawn if layout[1][1] is not None] == []
    kivys = Label(text="OK", text_size=label.text_size)
    kivys.texture_update()
    assert label.texture is kivys.texture and label.texture_size == kivys.texture_size == [1, 1]
    label.height = 52  # opened again: drawn in full
    ui.frames(2)
    assert label.texture_size[0] > 1 and label.texture_size[1] > 1


def test_a_text_folded_to_no_width_is_not_measured_until_it_opens(ui: Harness) -> None:
    """Glow's area cells fold the part of a mode not chosen to no width: measured, a long
    button text was rendered at every size down to the smallest, a letter a line."""
    label = a_label(ui, text=PROMPT + " (folded)", size=(0, 48), base_font_size=24,
                    min_font_size=8)
    renders = counting_renders(label)
    label.text = PROMPT + " (folded, again)"
    label._fit()
    label.texture_update()
    assert renders == [1] and label.texture_size == [1, 1]  # one call, no words laid out
    assert label.font_size == 24 and label.needed_width == 0
    label.width = 440  # opened again: fitted and drawn as any other
    ui.frames(2)
    assert len(renders) > 1 and label.fits() and label.texture_size[0] > 1


def test_the_sizes_a_fit_tries_are_laid_out_and_no_texture_is_made_for_them(
        ui: Harness) -> None:
    """A texture made (and given to the label, its canvas updated) for each size tried was a
    third of a fit's time: the sizes are only laid out, and the label gets one texture, of the
    size found, the one Kivy makes for that text at that size."""
    from kivy.uix.label import Label

    label = a_label(ui, size=(220, 60), base_font_size=24, min_font_size=8)
    ui.window.add_widget(label)
    shown: list[Any] = []
    label.bind(texture=lambda _label, texture: shown.append(texture))
    try:
        label.text = PROMPT + " (laid out, not drawn)"
        ui.frames(2)
    finally:
        ui.window.remove_widget(label)
    assert label.font_size < 24 and label.fits()  # several sizes were tried
    assert len(shown) == 1, shown
    kivys = Label(text=label.text, font_size=label.font_size, text_size=label.text_size,
                  padding=label.padding, font_name=label.font_name, bold=label.bold)
    kivys.texture_update()
    assert label.texture_size == kivys.texture_size
