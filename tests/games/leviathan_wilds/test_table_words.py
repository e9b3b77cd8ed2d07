"""The table's words and corrections: the Last Chance banner counts the turn being played as
one still left; a shattered crystal is not raised again by the crystals panel's +1; the wrath
track counted from 1; the prompt of a defeated guardian's turn does not tell them to act."""

from __future__ import annotations

import pytest

from companion.games.leviathan_wilds.table_words import state_banner
from companion.i18n import _, ngettext


def last_chance_state(active: int, owed: list[int], defeated: set[int]) -> dict:
    return {"outcome": None, "active": active, "last_chance": owed,
            "guardians": [{"defeated": i in defeated} for i in range(3)]}


def test_the_last_turn_of_last_chance_is_one_turn_left_while_it_is_played() -> None:
    kind, text = state_banner(last_chance_state(0, [], {1}), _, ngettext)
    assert kind == "last_chance" and "1 turn left" in text


def test_a_last_chance_turn_counts_itself_and_those_still_owed() -> None:
    _kind, text = state_banner(last_chance_state(2, [0], {1}), _, ngettext)
    assert "2 turns left" in text


def test_the_turn_of_the_defeat_counts_only_the_turns_owed() -> None:
    # B (1) is beaten in A's (0) turn: C and A each get one more turn.
    _kind, text = state_banner(last_chance_state(0, [2, 0], {1}), _, ngettext)
    assert "2 turns left" in text


def test_a_shattered_crystal_takes_no_plus_one_in_the_crystals_panel() -> None:
    from companion.games.leviathan_wilds.table_words import turned_dice

    assert turned_dice({"dice": [], "shattered": True}, 1) is None
    assert turned_dice({"dice": [2, 6], "shattered": False}, 1) == [3, 6]
    assert turned_dice({"dice": [1, 6], "shattered": False}, -1) == [6]


def test_the_wrath_track_is_counted_from_1_in_the_checklist_reminders_and_news() -> None:
    from companion.games.leviathan_wilds.data import WRATH_START
    from companion.games.leviathan_wilds.table_words import news
    from companion.games.leviathan_wilds.view import setup_checklist
    from tests.games.leviathan_wilds.play import new

    state = new(players=2, difficulty="medium")
    line = dict(setup_checklist(state))["lw-setup-wrath"]
    assert f"space {WRATH_START['medium'] + 1})" in line
    event = {"type": "round_ended", "round": 1, "wrath": 0, "wild": 1}
    assert "wrath 1," in news([event], {"guardians": []}, _, ngettext)[0][1]


@pytest.mark.parametrize("step", ["reveal", "draw"])
def test_after_their_defeat_the_prompt_no_longer_tells_the_guardian_to_act(step: str) -> None:
    from companion.games.leviathan_wilds.view import prompt
    from tests.games.leviathan_wilds.play import do, new, to_step

    state = to_step(new(players=3, difficulty="medium"), step)
    name = prompt(state)["values"]["guardian"]
    state = do(state, "corruption", guardian=state.active, amount=8)
    assert state.guardians[state.active].defeated and state.step == step
    shown = prompt(state)
    assert name not in shown["text"] and "defeated" in shown["text"]
