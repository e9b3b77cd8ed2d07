"""Whole games of every scenario (Surges of Colonization and Rituals of Terror have their own),
at each of its printed difficulties, without an adversary and against one at level 6, played
through the script driver to their end; the state must stay consistent at every answer.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.spirit_island.adversaries import ADVERSARIES
from companion.games.spirit_island.scenarios import SCENARIOS
from tests.table_player import PlayedGame, play_whole_game

# Setup steps whose blight comes from the box.
SETUP_STEPS = ("royal_backing", "initial_explore")
OWN_TESTS = ("surges-of-colonization", "rituals-of-terror")
SCENARIO_GAMES = [
    (scenario, difficulty)
    for scenario in sorted(SCENARIOS) if scenario not in OWN_TESTS
    for difficulty in (SCENARIOS[scenario].difficulty, *SCENARIOS[scenario].difficulty_choices)
]
# Each scenario meets another adversary at level 6, so that all of them are met.
OPPONENTS = {scenario: sorted(ADVERSARIES)[index % len(ADVERSARIES)]
             for index, scenario in enumerate(sorted({s for s, _ in SCENARIO_GAMES}))}


def _cards_out(invader: dict[str, Any]) -> list[str]:
    return [*(invader["high_immigration"] or []), *invader["ravage"], *invader["build"],
            *invader["explore"], *invader["discard"]]


def _check_consistent(game: PlayedGame) -> None:
    """Counts that no rule may break, at every answer of the game."""
    first = game.answers[0]["state"]
    cards_total = None
    blight_was: dict[str, Any] | None = None
    step_was, round_was = first["step"], 0
    for answer in game.answers:
        state = answer["state"]
        fear, blight, invader = state["fear"], state["blight"], state["invader"]
        assert fear["pool"] + fear["generated"] == fear["pool_size"]
        assert fear["earned"] + fear["resolved"] + fear["discarded"] + fear["deck"] == sum(
            fear["split"])
        assert 1 <= state["terror_level"] <= 4
        assert state["round"] >= round_was
        round_was = state["round"]
        out = _cards_out(invader)
        assert len(out) == len(set(out)), f"a card lies in two places: {out}"
        cards = (invader["deck_count"] + len(out) + invader["removed"] + invader["set_aside"]
                 + fear["invader_cards_hidden"])
        cards_total = cards if cards_total is None else cards_total
        assert cards == cards_total, "an invader card appeared or vanished"
        assert min(blight["on_card"], blight["on_island"], blight["on_panel"]) >= 0
        if state["outcome"] is None and not blight["awaiting_card"]:
            assert blight["on_card"] > 0
        # Blight only moves between card, island and panel; it enters from the box while the
        # pieces are set out and when a flipped card is refilled.
        total = blight["on_card"] - blight["owed"] + blight["on_island"] + blight["on_panel"]
        if blight_was is not None:
            events = answer.get("events", [])
            refilled = sum(e["refilled"] for e in events if e["type"] == "blight_card_flipped")
            from_box = sum(e["amount"] for e in events
                           if e["type"] == "blight_added" and step_was in SETUP_STEPS)
            assert total - blight_was["total"] == refilled + from_box, events
        blight_was = {"total": total}
        step_was = state["step"] if state["phase"] == "setup" else ""


def _play(new_game: dict[str, Any], **rhythm: int) -> PlayedGame:
    game = play_whole_game(new_game, **rhythm)
    assert game.refused == [], game.refused[:3]
    assert game.final["outcome"] is not None, "the game never ended"
    _check_consistent(game)
    return game


@pytest.mark.parametrize(("scenario", "difficulty"), SCENARIO_GAMES)
def test_every_scenario_at_each_difficulty_plays_to_an_end_without_an_adversary(
        scenario: str, difficulty: int) -> None:
    game = _play({"players": 2, "seed": 31, "scenario": scenario,
                  "scenario_difficulty": difficulty}, fear_per_round=4)
    assert game.final["difficulty"] == difficulty
    if not SCENARIOS[scenario].fear_deck_victory:
        assert game.final["outcome"]["reason"] != "fear"


@pytest.mark.parametrize(("scenario", "difficulty"), SCENARIO_GAMES)
def test_every_scenario_at_each_difficulty_plays_to_an_end_against_a_level_6_adversary(
        scenario: str, difficulty: int) -> None:
    adversary = OPPONENTS[scenario]
    game = _play({"players": 3, "seed": 32, "scenario": scenario,
                  "scenario_difficulty": difficulty, "adversary": adversary, "level": 6,
                  "events": True},
                 fear_per_round=5, blight_every=1, blight_amount=2)
    assert game.final["difficulty"] == ADVERSARIES[adversary].levels[6].difficulty + difficulty
    assert "escalation" in game.steps_seen()


@pytest.mark.parametrize("scenario", ["ward-the-shores", "dahan-insurrection"])
def test_a_scenario_without_the_fear_victory_plays_on_after_the_last_fear_card(
        scenario: str) -> None:
    game = _play({"players": 1, "seed": 33, "scenario": scenario}, fear_per_round=20,
                 blight_every=0)
    assert game.final["fear"]["deck"] == 0 and game.final["terror_level"] == 4
    assert game.final["outcome"]["reason"] == "time"


def test_a_blitz_game_with_a_still_healthy_card_plays_on_past_its_flip() -> None:
    game = _play({"players": 2, "seed": 34, "scenario": "blitz",
                  "blight_card": "strong-earth-shatters-slowly"},
                 fear_per_round=2, blight_every=1, blight_amount=3)
    flips = game.events("blight_card_flipped")
    assert flips[0]["card"] == "strong-earth-shatters-slowly" and flips[0]["refilled"] == 4
