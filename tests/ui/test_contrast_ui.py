"""Every text on screen reads in every theme: each game's table (its first steps, their banners
and pickers, its panels and its menu) and the main screens, at 800x480, measured label by label
on the drawn frame (tests/ui/text_contrast.py): 4.5:1, 3:1 for large text (WCAG AA).

One window and one app per case; the theme is switched as the Settings screen does, without a
restart. CONTRAST_SHOTS=<folder> also writes a screenshot of every stop in every theme.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from companion.ui.theme import THEMES

from .any_game import STEP_BUTTON
from .every_game import start_on_table
from .harness import Harness
from .text_contrast import Reading, readings

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
        """Measure every text now on top in each theme, and switch back to the first."""
        for theme in THEMES:
            self.ui.app.change_setting("companion", "theme", theme)
            self.ui.frames(2)
            if self.shots is not None:
                name = re.sub(r"[^\w-]+", "-", f"{theme}-{where}")
                self.ui.screenshot(self.shots / f"{name}.png")
            found, passed_over = readings(self.ui.window, f"{theme}: {where}")
            self.measured += len(found)
            self.exempt += passed_over
            self.failures += [reading for reading in found if reading.ratio < reading.needed]
        self.ui.app.change_setting("companion", "theme", next(iter(THEMES)))
        self.ui.frames(2)

    def assert_readable(self) -> None:
        """No text too faint; each one reported once, where it was first seen."""
        assert self.measured > 0, "no text was measured"
        first_seen = {reading.same_text(): reading for reading in reversed(self.failures)}
        assert not self.failures, (
            f"{len(first_seen)} texts too faint ({len(self.failures)} of {self.measured} "
            "readings):\n" + "\n".join(map(str, reversed(first_seen.values()))))


def answer(ui: Harness) -> None:
    """Answer the popup a step opened: a picker's last choice, a question's yes."""
    popup = ui.popup()
    if hasattr(popup, "shown"):
        ui.pick(ui.choices()[-1])
    elif hasattr(popup, "confirm"):
        popup.confirm()
    else:
        popup.dismiss()
    ui.frames(2)


def panels_of(table: Any) -> list[Any]:
    """What opens a panel on the table: its tappable tiles (not its buttons)."""
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.label import Label

    return [widget for widget in table.walk(restrict=True)
            if isinstance(widget, ButtonBehavior) and not isinstance(widget, Label)
            and widget.opacity > 0 and not widget.disabled and widget.width > 0]


def test_every_text_on_every_table_reads_in_every_theme(game_id: str, ui: Harness) -> None:
    table = start_on_table(ui, game_id)
    seen = Inspection(ui)
    seen.look(f"{game_id} table")
    for step in range(STEPS):
        if ui.popup() is not None:  # a step that asks which card, or asks to be sure
            seen.look(f"{game_id} popup {step}")
            answer(ui)
        ui.tap(table.ids[STEP_BUTTON])
        seen.look(f"{game_id} step {step + 1}")
    if ui.popup() is not None:
        ui.popup().dismiss()
        ui.frames(2)
    for number, tile in enumerate(panels_of(table)):
        ui.tap(tile)
        if ui.popup() is not None:
            seen.look(f"{game_id} panel {number}")
            ui.popup().dismiss()
            ui.frames(2)
    table.open_menu()
    ui.frames(2)
    seen.look(f"{game_id} menu")
    seen.assert_readable()


def test_every_text_on_the_main_screens_reads_in_every_theme(ui: Harness) -> None:
    seen = Inspection(ui)
    seen.look("home")
    ui.tap_id("new_game")
    seen.look("new game")
    for screen in ("settings", "system", "rules", "history"):
        ui.app.show(screen)
        ui.frames(3)
        seen.look(screen)
    seen.assert_readable()
