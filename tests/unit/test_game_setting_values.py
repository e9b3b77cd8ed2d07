"""A game's setting as companion.ini stores it: what each text means, a hand-edited file's
nonsense included."""

from __future__ import annotations

import pytest

from companion.core.game import Setting

SWITCH = Setting("companion/a_switch", "switch", "A switch")
NUMBER = Setting("companion/a_number", "number", "A number", default="3")


@pytest.mark.parametrize(("stored", "value"), [("1", True), ("0", False), ("True", True),
                                               ("", False), ("yes please", False)])
def test_a_switch_is_on_only_for_what_the_settings_file_writes_as_on(stored: str,
                                                                     value: bool) -> None:
    assert SWITCH.value(stored) is value
    assert SWITCH.is_on(stored) is value


@pytest.mark.parametrize(("stored", "value"), [("5", 5), ("2.0", 2), ("-4", 0), (" 7 ", 7),
                                               ("many", 3), ("nan", 3), ("inf", 3), ("", 3)])
def test_a_number_is_a_whole_number_from_zero_and_nonsense_reads_as_its_default(
        stored: str, value: int) -> None:
    assert NUMBER.value(stored) == value


def test_a_number_is_on_above_zero() -> None:
    assert not NUMBER.is_on("0") and NUMBER.is_on("1")
