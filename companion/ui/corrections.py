"""A new-game form's correctable numbers: the numbers a game's rules digest could not verify
(its numbers.toml), each on a stepper with − and +, behind a button that opens and closes them.

A game's form mixes `NumberCorrections` into its ScrollView and says only what is its own: the
numbers it uses unless corrected (`defaults`), what a stepper's value means for its field
(`stepped`), and the steppers' rows with their words. A correction is kept only while it differs
from the default; `corrected` adds them to the new_game command.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, DictProperty, NumericProperty, StringProperty

from companion.i18n import _
from companion.resources import layouts_dir
from companion.ui.widgets import Stepper

StepperRow = tuple[str, int, str, int, int, int]
"""One stepper: (new_game field, place in its list or -1, words, value, lowest, highest)."""


class NumberStepper(Stepper):
    """One correctable number: a tap on − or + puts the new value into the form's corrections."""

    key = StringProperty("")
    """The number's new_game field."""
    index = NumericProperty(-1)
    """The place in its list, for a list's entry."""


class NumberCorrections:
    """The part of a new-game form that corrects numbers (mixed into its ScrollView)."""

    show_numbers = BooleanProperty(False)
    """The unverified numbers are shown (a tap on their button opens and closes them)."""
    corrections = DictProperty({})
    """The numbers the players changed, as new_game's fields."""
    numbers_text = StringProperty("")
    """The button that shows the numbers: how many are corrected."""

    def defaults(self) -> dict[str, Any]:
        """The numbers the game would use uncorrected, as new_game's fields."""
        raise NotImplementedError

    def stepped(self, stepper: NumberStepper, values: dict[str, Any]) -> Any:
        """The field's new value once `stepper` shows its value, `values` the numbers now."""
        raise NotImplementedError

    def hold_numbers(self, box: Any, heading: Any) -> None:
        """Take charge of the numbers' `box` (opened and closed) and its `heading`, which
        stays in view when they open; from the form's on_kv_post."""
        self._steppers: list[NumberStepper] = []
        self._numbers_box, self._numbers_parent, self._numbers_heading = box, box.parent, heading
        self.on_show_numbers()

    def values(self) -> dict[str, Any]:
        """The numbers the game will be started with: the defaults, with the corrections."""
        return {**self.defaults(), **self.corrections}

    def corrected(self, command: dict[str, Any]) -> dict[str, Any]:
        """`command` with each correction that still differs from the default."""
        defaults = self.defaults()
        for key, value in self.corrections.items():
            if value != defaults.get(key):
                command[key] = value
        return command

    def toggle_numbers(self) -> None:
        self.show_numbers = not self.show_numbers

    def on_show_numbers(self, *_args: Any) -> None:
        # Out of the tree while closed: hidden widgets would still catch the taps they overlap.
        box, parent = getattr(self, "_numbers_box", None), getattr(self, "_numbers_parent", None)
        if box is None or parent is None:
            return
        if self.show_numbers and box.parent is None:
            parent.add_widget(box, index=0)
            # Their button stays in view, the numbers below it.
            Clock.schedule_once(lambda _dt: self.scroll_to(  # type: ignore[attr-defined]
                self._numbers_heading, padding=0, animate=False))
        elif not self.show_numbers and box.parent is not None:
            parent.remove_widget(box)

    def change(self, stepper: NumberStepper) -> None:
        """A stepper was tapped: its value becomes a correction (or stops being one)."""
        values, defaults = self.values(), self.defaults()
        key, new = stepper.key, self.stepped(stepper, values)
        if values.get(key) == new:
            return
        corrections = dict(self.corrections)
        if new == defaults.get(key):
            corrections.pop(key, None)
        else:
            corrections[key] = new
        self.corrections = corrections

    def restore_numbers(self) -> None:
        """Every number back to the game's own."""
        self.corrections = {}

    def show_steppers(self, box: Any, shown: list[StepperRow]) -> None:
        """One stepper for each row of `shown` in `box` (made anew when their count changes),
        a corrected one's words marked so."""
        if len(self._steppers) != len(shown):
            box.clear_widgets()
            self._steppers = [NumberStepper() for _row in shown]
            for stepper in self._steppers:
                box.add_widget(stepper)
                stepper.bind(value=lambda stepper, _value: self.change(stepper))
        defaults = self.defaults()
        for stepper, (key, index, label, value, low, high) in zip(self._steppers, shown,
                                                                  strict=True):
            corrected = key in self.corrections and (
                index < 0 or self.corrections[key][index] != defaults[key][index])
            stepper.key, stepper.index, stepper.minimum, stepper.maximum = key, index, low, high
            stepper.label = _("{number} (corrected)").format(number=label) if corrected \
                else label
            stepper.value = value


_LAYOUT = str(layouts_dir() / "corrections.kv")
if _LAYOUT not in Builder.files:
    Builder.load_file(_LAYOUT)
