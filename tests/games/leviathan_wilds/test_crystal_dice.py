"""The box holds 12 crystal dice, 6 purple and 6 turquoise (component list): the crystals standing
at once never use more of one colour, whether they are entered at setup or corrected later."""

from __future__ import annotations

import pytest

from companion.core.errors import Refused

from .play import do, new

SIX_PURPLE = [{"dice": [6, 6]}, {"dice": [5, 5, 5]}, {"dice": [4]}]
SIX_TURQUOISE = [{"dice": [3, 3, 3, 3, 3, 3], "corrupted": True}]


def test_six_dice_of_each_colour_can_stand_at_setup() -> None:
    state = new(crystals=SIX_PURPLE + SIX_TURQUOISE)
    assert sum(len(c.dice) for c in state.crystals) == 12


@pytest.mark.parametrize(("crystals", "colour"), [
    ([*SIX_PURPLE, {"dice": [2]}], "7 regular \\(purple\\) dice"),
    ([*SIX_TURQUOISE, {"dice": [1], "corrupted": True}], "7 corrupted \\(turquoise\\) dice"),
])
def test_a_seventh_die_of_one_colour_at_setup_is_refused(crystals: list[object],
                                                         colour: str) -> None:
    with pytest.raises(Refused, match=f"need {colour}, but the box holds only 6 of each"):
        new(crystals=crystals)


def test_adding_a_seventh_purple_die_is_refused_but_a_turquoise_one_fits() -> None:
    state = new(crystals=SIX_PURPLE)
    with pytest.raises(Refused, match="7 regular \\(purple\\) dice"):
        do(state, "add_crystal", dice=[3])
    state = do(state, "add_crystal", dice=[3], corrupted=True)
    assert state.crystals[-1].corrupted


def test_a_shattered_crystals_dice_are_back_in_the_box() -> None:
    state = new(crystals=SIX_PURPLE)
    state = do(state, "set_crystal", crystal=2, dice=[])  # shatters the single die
    state = do(state, "add_crystal", dice=[5])
    assert [len(c.dice) for c in state.crystals] == [2, 3, 0, 1]


def test_growing_a_crystal_or_turning_it_turquoise_past_six_is_refused() -> None:
    state = new(crystals=[*SIX_PURPLE, {"dice": [2], "corrupted": True}])
    with pytest.raises(Refused, match="7 regular \\(purple\\) dice"):
        do(state, "set_crystal", crystal=2, dice=[4, 4])
    full = new(crystals=[*SIX_TURQUOISE, {"dice": [2]}])
    with pytest.raises(Refused, match="7 corrupted \\(turquoise\\) dice"):
        do(full, "set_crystal", crystal=1, dice=[2], corrupted=True)
    assert do(state, "set_crystal", crystal=3, dice=[2, 2]).crystals[3].dice == (2, 2)
