"""Every text on screen reads in every theme: each registered game's table (its first steps,
their banners and popups, its panels and its menu) and every stop of the screenshots' walk
(Home, the new-game forms, settings, System, rules, history and statistics, the tags, and the
three games' tables, panels and ends), at 800x480, measured label by label on the drawn frame
(tests/ui/text_contrast.py): 4.5:1, 3:1 for large text (WCAG AA). Text dimmed on purpose and
disabled buttons are exempt by WCAG's own rule, and passed over by that rule.

One window and one app per case; the theme is switched as the Settings screen does, without a
restart. CONTRAST_SHOTS=<folder> also writes a screenshot of every stop in every theme.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from companion.ui.theme import THEMES, contrast_ratio, rgba

from . import tour as tour_module
from .every_game import walk_the_table
from .harness import Harness
from .text_contrast import AA_TEXT, Reading, readings

pytestmark = pytest.mark.ui

STEPS = 4
"""Taps of each table's step button: enough for its first news and its first picker."""


class Inspection:
    """What the walk has measured so far, in every theme."""

    def __init__(self, ui: Harness) -> None:
        self.ui = ui
        self.failures: list[Reading] = []
        self.measured = 0
        self.exempt = 0
        shots = os.environ.get("CONTRAST_SHOTS")
        self.shots = Path(shots) if shots else None

    def look(self, where: str) -> None:
        """Measure every text now on top in each theme, the one on screen first (the walk
        goes on in whichever was measured last: it does not depend on the theme)."""
        app = self.ui.app
        current = app.config.get("companion", "theme")
        for theme in sorted(THEMES, key=lambda theme: theme != current):
            if theme != current:
                app.change_setting("companion", "theme", theme)
                self.ui.frames(1)  # the new colours are bound at once, drawn in one frame
            if self.shots is not None:
                name = re.sub(r"[^\w-]+", "-", f"{theme}-{where}")
                self.ui.screenshot(self.shots / f"{name}.png")
            found, passed_over = readings(self.ui.window, f"{theme}: {where}")
            self.measured += len(found)
            self.exempt += passed_over
            self.failures += [reading for reading in found if reading.ratio < reading.needed]
            current = theme

    def assert_readable(self) -> None:
        """No text too faint; each one reported once, where it was first seen."""
        assert self.measured > 0, "no text was measured"
        first_seen = {reading.same_text(): reading for reading in reversed(self.failures)}
        assert not self.failures, (
            f"{len(first_seen)} texts too faint ({len(self.failures)} of {self.measured} "
            "readings):\n" + "\n".join(map(str, reversed(first_seen.values()))))


def test_every_text_on_every_table_reads_in_every_theme(game_id: str, ui: Harness) -> None:
    seen = Inspection(ui)
    walk_the_table(ui, game_id, seen.look, STEPS)
    seen.assert_readable()


@pytest.mark.parametrize("tour", ["stops", "leviathan_stops", "glow_stops"])
def test_every_text_of_every_screen_and_popup_reads_in_every_theme(tour: str,
                                                                   ui: Harness) -> None:
    """The screenshots' walk (tests/ui/tour.py): Home, the new-game forms, the checklists,
    Spirit Island's table and pickers, the end, history and statistics, the tags, the rules,
    the settings, the reader check and the System screen; then Leviathan Wilds' and Glow's
    tables, panels and ends."""
    seen = Inspection(ui)
    stops = []
    for stop in getattr(tour_module, tour)(ui):
        seen.look(stop)
        stops.append(stop)
    assert len(stops) > 10, stops
    seen.assert_readable()


def test_the_measure_finds_faint_text_and_passes_over_dimmed_text(ui: Harness) -> None:
    """The check itself: grey on the dark theme's background is measured as it is drawn; the
    same words dimmed on purpose are passed over; words under the bar for the last card read
    are not read at all."""
    from kivy.graphics import Color, Rectangle
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.label import Label

    grey, background = "#30343A", THEMES["dark"]["background"]
    sheet = FloatLayout()  # a blank page over Home, in the screen's colour
    with sheet.canvas.before:
        Color(rgba=rgba(background))
        Rectangle(size=ui.window.size)
    faint = Label(text="faint words", color=rgba(grey), size_hint=(None, None),
                  size=(300, 60), pos=(250, 200))
    dimmed = Label(text="dimmed words", color=rgba(grey), opacity=0.5, size_hint=(None, None),
                   size=(300, 60), pos=(250, 300))
    hidden = Label(text="hidden words", size_hint=(None, None), size=(300, 30), pos=(250, 5))
    for label in (faint, dimmed, hidden):
        sheet.add_widget(label)
    ui.screen.add_widget(sheet)
    ui.app.read_message = "Card read: Jungle (stage I)"
    ui.frames(2)
    found, passed_over = readings(ui.window, "home")
    measured = {reading.text: reading for reading in found}
    assert measured["faint words"].text_colour == grey
    assert measured["faint words"].background == background
    assert measured["faint words"].ratio == pytest.approx(contrast_ratio(grey, background))
    assert measured["faint words"].ratio < AA_TEXT
    assert "dimmed words" not in measured and passed_over >= 1
    assert "hidden words" not in measured
    assert measured["Card read: Jungle (stage I)"].ratio >= AA_TEXT
    ui.app.read_message = ""
    ui.screen.remove_widget(sheet)
