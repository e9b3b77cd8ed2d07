"""A word's size in a font is measured once and remembered (companion/ui/kivy_fixes.py): the
same prompt, reminders and buttons come back all evening, and Kivy laid each out word by word
with SDL_ttf every time. What is remembered must never lay a text out otherwise than Kivy."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .harness import Harness

pytestmark = pytest.mark.ui

PROMPT = ("Guardian 1: play an AP card, take your actions, then tap Done. The AP card's "
          "protections hold for your whole activation, and only then.")


@pytest.fixture
def measures(ui: Harness, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text SDL_ttf is asked to measure, from a fresh memory."""
    from kivy.core.text import Label as CoreLabel

    from companion.ui import kivy_fixes

    asked: list[str] = []
    measure = CoreLabel.get_extents

    def counted(self: Any, text: str) -> Any:
        asked.append(text)
        return measure(self, text)

    monkeypatch.setattr(CoreLabel, "get_extents", counted)
    kivy_fixes._measures.clear()
    yield asked
    kivy_fixes._measures.clear()


def laid_out(text: str, **options: Any) -> tuple[Any, list[Any]]:
    """The size and the lines of `text` laid out in a 300 px wide box."""
    from kivy.core.text import Label as CoreLabel
    from kivy.core.text.markup import MarkupLabel

    kind = MarkupLabel if options.pop("markup", False) else CoreLabel
    core = kind(text=text, text_size=(300, None), font_size=options.pop("font_size", 20),
                **options)
    size = core.render()
    return size, [(line.w, line.h, [word.text for word in line.words])
                  for line in core._cached_lines]


def test_a_text_laid_out_again_is_not_measured_again(measures: list[str]) -> None:
    first = laid_out(PROMPT)
    asked = len(measures)
    assert asked > 10  # word by word, and each line as it grows
    assert laid_out(PROMPT) == first
    assert len(measures) - asked <= 1  # the width of a space, which Kivy asks outside the layout


def test_what_is_remembered_lays_out_as_kivy_does(measures: list[str]) -> None:
    from companion.ui import kivy_fixes

    for options in ({}, {"font_size": 31}, {"bold": True}, {"outline_width": 2}):
        remembered = laid_out(PROMPT, **options)
        again = laid_out(PROMPT, **options)
        kivy_fixes._measures.clear()
        assert remembered == again == laid_out(PROMPT, **options), options


def test_another_font_is_measured_anew(measures: list[str]) -> None:
    """A size, a weight or an outline makes a word another width: each is its own."""
    laid_out(PROMPT)
    for options in ({"font_size": 31}, {"bold": True}, {"outline_width": 2}):
        asked = len(measures)
        laid_out(PROMPT, **options)
        assert len(measures) - asked > 10, options


def test_markup_is_measured_as_kivy_does(measures: list[str]) -> None:
    """Markup changes the font inside a text while it is laid out."""
    text = "Wrath [b]rises[/b] by one, [size=30]then[/size] the wild die"
    laid_out(text, markup=True)
    asked = len(measures)
    laid_out(text, markup=True)
    assert len(measures) - asked > 5


def test_what_is_remembered_stays_within_its_bound(measures: list[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.ui import kivy_fixes

    monkeypatch.setattr(kivy_fixes, "MEASURES_KEPT", 50)
    for number in range(40):
        laid_out(f"Round {number}: reveal threat {number * 7}, then tap Done")
        assert len(kivy_fixes._measures) <= 50
