"""Every screen at every supported size: no text spills out of its box, no target is too small.

A label fails when its wrapped text is taller than its box, or when a one-line label had to cut
its text short. A button (anything tappable) fails when it is narrower or lower than 48 px.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.ui.app_settings import TEXT_SCALES

from .harness import Harness
from .tour import SIZES, stops, with_text_size

pytestmark = pytest.mark.ui

MIN_TARGET = 48
# On the 7-inch 800x480 panel 40 px are 8 mm: the board's key figures are at least that tall
# (their font size, and the line they draw), 15 px (3 mm) for the words beside them, and an
# invader card keeps 64 px however large the text. Larger windows scale all three.
KEY_FIGURE = 40
BOARD_LABEL = 15
CARD_HEIGHT = 64
KEY_FIGURES = ("terror", "fear_pool", "blight_count", "deck")
BOARD_LABELS = ("terror_label", "fear_label", "fear_pool_size", "terror_goal", "discard",
                "blight_side_label")


def visible_widgets(root: Any) -> Iterator[Any]:
    if root.opacity == 0 or root.width < 1 or root.height < 1:
        return
    yield root
    for child in root.children:
        yield from visible_widgets(child)


def natural_width(label: Any, line: str) -> float:
    from kivy.core.text import Label as CoreLabel

    core = CoreLabel(text=line, font_size=label.font_size, bold=label.bold,
                     font_name=label.font_name)
    core.refresh()
    return float(core.texture.size[0])


def label_problem(label: Any) -> str | None:
    from companion.ui.widgets import FitText

    if not label.text.strip():
        return None
    if isinstance(label, FitText):
        if not label.fits():
            return (f"needs {label.needed_width:.0f}x{label.needed_height:.0f} px "
                    f"of {label.width:.0f}x{label.height:.0f}")
        return None
    label.texture_update()
    width = (label.text_size[0] if label.text_size[0] else label.width) - 2 * label.padding[0]
    if label.shorten or not label.text_size[0]:
        for line in label.text.split("\n"):
            needed = natural_width(label, line)
            if needed > width + 1:
                return f"{line!r} needs {needed:.0f} px of {width:.0f}"
    if label.texture_size[1] > label.height + 1:
        return f"needs {label.texture_size[1]:.0f} px high of {label.height:.0f}"
    return None


def layout_problems(ui: Harness) -> list[str]:
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.label import Label

    problems = []
    for root in ui.window.children:
        for widget in visible_widgets(root):
            name = f"{type(widget).__name__} {getattr(widget, 'text', '')!r}"[:80]
            if isinstance(widget, Label):
                problem = label_problem(widget)
                if problem:
                    problems.append(f"{name}: {problem}")
            if isinstance(widget, ButtonBehavior) and not widget.disabled and (
                    widget.width < MIN_TARGET or widget.height < MIN_TARGET):
                problems.append(f"{name}: a {widget.width:.0f}x{widget.height:.0f} target")
    return problems


def window_scale(ui: Harness) -> float:
    """How much larger than the 800x480 panel the window is, in either orientation."""
    width, height = ui.window.size
    return max(1.0, min(max(width, height) / 800, min(width, height) / 480))


def board_problems(ui: Harness) -> list[str]:
    """The table's key figures, the words beside them and the invader cards, measured."""
    ids = ui.screen.ids
    scale = window_scale(ui)
    problems = []
    for name in KEY_FIGURES:
        figure = ids[name]
        figure.texture_update()
        if figure.text.isdigit() or figure.text in ("I", "II", "III"):
            if figure.font_size < KEY_FIGURE * scale - 0.5:
                problems.append(f"{name} {figure.text!r} is drawn at {figure.font_size:.0f} px")
            if figure.texture_size[1] < KEY_FIGURE * scale:
                problems.append(f"{name} {figure.text!r} is {figure.texture_size[1]} px high")
    for name in BOARD_LABELS:
        label = ids[name]
        if label.text and label.font_size < BOARD_LABEL * scale - 0.5:
            problems.append(f"{name} {label.text!r} is drawn at {label.font_size:.0f} px")
    for slot in ("ravage", "build", "explore"):
        for tile in ids[slot].ids.tiles.children:
            if tile.ids.chips.height < CARD_HEIGHT * scale - 0.5:
                problems.append(f"a card on {slot} is {tile.ids.chips.height:.0f} px high")
    return problems


# Every size with the normal text in English; German and French, which run longer, at the
# largest text where the room is least: the smallest landscape panel (fewest lines) and the
# portrait one (fewest letters a line). The board's matrix below crosses all of them.
CASES = [(size, "normal", "English") for size in SIZES] + [
    (size, "largest", language) for size in ("800x480", "720x1280")
    for language in ("Deutsch", "Français")]


@pytest.mark.parametrize(("size", "text_size", "language"), CASES)
def test_every_screen_fits_its_text_and_targets(size: str, text_size: str, language: str,
                                                tmp_path: Path) -> None:
    with_text_size(tmp_path, text_size, language)
    ui = Harness(tmp_path / "games.db", SIZES[size])
    assert ui.app.text_scale == TEXT_SCALES[text_size]
    failures: dict[str, list[str]] = {}
    seen = []
    try:
        for stop in stops(ui):
            ui.frames(3)
            seen.append(stop)
            problems = layout_problems(ui)
            if stop.startswith("table"):
                problems += board_problems(ui)
            if problems:
                failures[stop] = problems
    finally:
        ui.close()
    assert {"home", "new-game", "checklist", "table", "end", "history"} <= set(seen)
    assert not failures, "\n".join(f"{stop} at {size}, {text_size} text, {language}: {p}"
                                    for stop, problems in failures.items() for p in problems)


@pytest.mark.parametrize("language", ["English", "Deutsch", "Français"])
@pytest.mark.parametrize("text_size", ["normal", "largest"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_board_reads_at_arm_s_length_at_every_size_language_and_text_size(
        size: str, text_size: str, language: str, tmp_path: Path) -> None:
    """The whole matrix for the table alone (the tour above walks every screen in a part of
    it): the key figures at 8 mm on a 7-inch panel, scaled, and nothing cut."""
    from .tour import BUSY_GAME, _play_to

    with_text_size(tmp_path, text_size, language)
    ui = Harness(tmp_path / "games.db", SIZES[size])
    try:
        assert ui.app.send({**BUSY_GAME, "deck": "virtual"})
        ui.app.show("table")
        _play_to(ui, "ravage", round_number=2, fear_per_round=25)
        ui.frames(3)
        problems = layout_problems(ui) + board_problems(ui)
    finally:
        ui.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("size", "text_size", "language"), CASES)
def test_every_leviathan_wilds_screen_fits_its_text_and_targets(
        size: str, text_size: str, language: str, tmp_path: Path) -> None:
    """Leviathan Wilds' table at each step, its panels and pickers, Last Chance and the end,
    in the same cases as the walk above."""
    from .tour import leviathan_stops

    with_text_size(tmp_path, text_size, language)
    ui = Harness(tmp_path / "games.db", SIZES[size])
    failures: dict[str, list[str]] = {}
    seen = []
    try:
        for stop in leviathan_stops(ui):
            ui.frames(3)
            seen.append(stop)
            problems = layout_problems(ui)
            if problems:
                failures[stop] = problems
    finally:
        ui.close()
    assert {"lw-table-actions", "lw-panel-guardian", "lw-panel-crystals",
            "lw-table-last-chance", "lw-table-lost"} <= set(seen)
    assert not failures, "\n".join(f"{stop} at {size}, {text_size} text, {language}: {p}"
                                    for stop, problems in failures.items() for p in problems)


@pytest.mark.parametrize(("size", "text_size", "language"), CASES)
def test_every_glow_screen_fits_its_text_and_targets(
        size: str, text_size: str, language: str, tmp_path: Path) -> None:
    """Glow's setup form and its numbers, the checklist, a morning, noon and its question,
    the evening, the player and scoring panels and the result, in the same cases."""
    from .tour import glow_stops

    with_text_size(tmp_path, text_size, language)
    ui = Harness(tmp_path / "games.db", SIZES[size])
    failures: dict[str, list[str]] = {}
    seen = []
    try:
        for stop in glow_stops(ui):
            ui.frames(3)
            seen.append(stop)
            problems = layout_problems(ui)
            if problems:
                failures[stop] = problems
    finally:
        ui.close()
    assert {"glow-new-game", "glow-checklist", "glow-table-noon", "glow-noon-question",
            "glow-panel-player", "glow-panel-scoring", "glow-result"} <= set(seen)
    assert not failures, "\n".join(f"{stop} at {size}, {text_size} text, {language}: {p}"
                                    for stop, problems in failures.items() for p in problems)
