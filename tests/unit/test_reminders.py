"""The setup checklist and the step reminders appear at the right step of the right game, only.

Whole games are played through the script driver for every adversary level and every scenario;
every state on the way is checked against the table-rules data.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from companion.games.spirit_island.adversaries import ADVERSARIES
from companion.games.spirit_island.adversary_table_rules import (
    ADVERSARY_REMINDERS,
    ADVERSARY_SETUP,
)
from companion.games.spirit_island.base_table_rules import BASE_SETUP
from companion.games.spirit_island.notes import Reminder
from companion.games.spirit_island.reminders import DECK_STACKING_NOTES
from companion.games.spirit_island.scenario_table_rules import (
    SCENARIO_REMINDERS,
    SCENARIO_SETUP,
)
from companion.games.spirit_island.scenarios import SCENARIOS
from tests.table_player import PlayedGame, Table, play_whole_game

GAMES = [(adversary, level, None) for adversary in ADVERSARIES for level in range(7)] + [
    ("england", 2, scenario) for scenario in SCENARIOS]


@cache
def _played(adversary: str | None, level: int | None, scenario: str | None) -> PlayedGame:
    new_game: dict[str, Any] = {"players": 2, "seed": 11}
    if adversary:
        new_game |= {"adversary": adversary, "level": level}
    if scenario:
        new_game["scenario"] = scenario
    return play_whole_game(new_game, fear_per_round=3)


def _rules_of(adversary: str, level: int, scenario: str | None) -> tuple[list[Reminder],
                                                                          set[str]]:
    """The reminders this game can show, and the ids it must never show."""
    rules = [rule for lvl in range(level + 1)
             for rule in ADVERSARY_REMINDERS.get(adversary, {}).get(lvl, ())]
    replaced = {rule.replaces for rule in rules if rule.replaces}
    never = replaced | {rule.id for lvl in range(level + 1, 7)
                        for rule in ADVERSARY_REMINDERS.get(adversary, {}).get(lvl, ())}
    never |= {rule.id for other, by_level in ADVERSARY_REMINDERS.items() if other != adversary
              for rules_of_level in by_level.values() for rule in rules_of_level}
    rules = [rule for rule in rules if rule.id not in replaced]
    rules += list(SCENARIO_REMINDERS.get(scenario, ())) if scenario else []
    never |= {rule.id for other, scenario_rules in SCENARIO_REMINDERS.items()
              if other != scenario for rule in scenario_rules}
    return rules, never


def _simple_condition_holds(rule: Reminder, state: dict[str, Any]) -> bool | None:
    """Whether a condition that depends on the round alone holds; None for the others."""
    if rule.when is None:
        return True
    if rule.when == "from_round_2":
        return bool(state["round"] >= 2)
    if rule.when == "odd_round":
        return bool(state["round"] % 2 == 1)
    if rule.when == "even_round":
        return bool(state["round"] % 2 == 0)
    if rule.when in ("surge_round", "larger_surge_round"):  # these games play the printed one
        return bool(state["round"] % 2 == 0) and rule.when == "surge_round"
    return None


@pytest.mark.parametrize(("adversary", "level", "scenario"), GAMES)
def test_each_reminder_shows_at_its_steps_and_nowhere_else(
        adversary: str, level: int, scenario: str | None) -> None:
    game = _played(adversary, level, scenario)
    assert not game.refused
    rules, never = _rules_of(adversary, level, scenario)
    by_id = {rule.id: rule for rule in rules}
    shown_ever: set[str] = set()
    for answer in game.answers:
        state = answer["state"]
        if state["outcome"] is not None:
            assert state["reminders"] == []
            continue
        shown = {item["id"] for item in state["reminders"]}
        shown_ever |= shown
        assert not shown & never, (state["step"], shown & never)
        for shown_id in shown:
            if shown_id.startswith(("blight-", "card-")):
                continue  # the blight card's and a special card's own reminders
            assert shown_id in by_id, shown_id
            assert state["step"] in by_id[shown_id].steps, (shown_id, state["step"])
        for rule in rules:
            holds = _simple_condition_holds(rule, state)
            if holds is not None and state["step"] in rule.steps:
                assert (rule.id in shown) == holds, (rule.id, state["round"], state["step"])
    # Every rule whose step this game reached without a condition was seen.
    steps_reached = {answer["state"]["step"] for answer in game.answers}
    for rule in rules:
        if rule.when is None and steps_reached & set(rule.steps):
            assert rule.id in shown_ever, rule.id


@pytest.mark.parametrize(("adversary", "level", "scenario"), GAMES)
def test_the_setup_checklist_lists_base_adversary_levels_and_scenario_in_order_during_setup(
        adversary: str, level: int, scenario: str | None) -> None:
    game = _played(adversary, level, scenario)
    expected = [note.id for note in BASE_SETUP]
    # These games let the app deal the deck: notes on stacking it by hand are left out.
    expected += [note.id for lvl in range(level + 1)
                 for note in ADVERSARY_SETUP.get(adversary, {}).get(lvl, ())
                 if note.id not in DECK_STACKING_NOTES]
    # Surges of Colonization at its printed difficulty: not the Larger Surges variant's note.
    expected += [note.id for note in SCENARIO_SETUP.get(scenario, ())
                 if note.id != "surges-of-colonization-larger-surges"] if scenario else []
    for answer in game.answers:
        state = answer["state"]
        checklist = state["setup_checklist"]
        if state["phase"] == "setup":
            assert [item["id"] for item in checklist] == expected
            assert all(item["text"] and "{" not in item["text"] for item in checklist)
        else:
            assert checklist == []


def test_the_checklist_fills_in_this_games_numbers() -> None:
    table = Table(players=3, adversary="england", level=6)
    texts = {item["id"]: item["text"] for item in table.state["setup_checklist"]}
    assert "4/5/4" in texts["base-fear-deck"] and "13 Fear Cards" in texts["base-fear-deck"]
    assert "15" in texts["base-fear-pool"]  # 5 markers per player at England level 6
    assert "7 Blight" in texts["base-blight-card"]


def test_a_beginner_game_puts_blight_on_the_board_instead_of_a_card() -> None:
    table = Table(players=2, mode="beginner")
    checklist = {item["id"]: item["text"] for item in table.state["setup_checklist"]}
    assert "base-blight-card" not in checklist
    assert "11 Blight" in checklist["base-blight-space"]


def test_reminders_that_wait_for_a_condition_appear_once_it_holds() -> None:
    # Ward the Shores: Stage III explore reminder only once a Stage III card is out.
    table = Table(players=2, seed=2, scenario="ward-the-shores")
    stage_3_rules = [rule.id for rule in SCENARIO_REMINDERS["ward-the-shores"]
                     if rule.when == "stage_3"]
    assert stage_3_rules
    seen_before_stage_3 = False
    while table.state["outcome"] is None:
        stages = [int(card.split("-")[0].count("I")) for card in
                  table.state["invader"]["explore"] + table.state["invader"]["build"]
                  + table.state["invader"]["ravage"] + table.state["invader"]["discard"]]
        shown = set(table.reminder_ids())
        if 3 not in stages:
            seen_before_stage_3 |= bool(shown & set(stage_3_rules))
        elif table.state["step"] == "explore":
            assert set(stage_3_rules) <= shown
            break
        table.play_on()
    assert not seen_before_stage_3


def test_a_flipped_blight_cards_standing_rule_is_reminded_at_its_steps() -> None:
    table = Table(players=2, blight_card="back-against-the-wall")
    table.until("fast_powers")
    table.do("blight", amount=5)
    assert table.state["blight"]["side"] == "blighted"
    table.until("gain_energy")
    assert "blight-back-against-the-wall" in table.reminder_ids()
    table.do("next")
    table.until("ravage")
    assert "blight-back-against-the-wall" not in table.reminder_ids()
