"""Scenario rules and the Branch & Claw event deck, played through the script driver."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.spirit_island.ui import presenter
from tests.table_player import Table

# The scenario ids of ../shared/data/scenarios.md, in its order.
SCENARIO_IDS = (
    "blitz", "guard-the-isles-heart", "rituals-of-terror", "dahan-insurrection",
    "powers-long-forgotten", "second-wave", "ward-the-shores", "rituals-of-the-destroying-flame",
    "elemental-invocation", "despicable-theft", "the-great-river", "varied-terrains",
    "a-diversity-of-spirits", "destiny-unfolds", "surges-of-colonization",
)
# Fields the driver adds about the undo history; they differ after an undo by design.
HISTORY_FIELDS = ("can_undo", "can_redo", "undo_count", "redo_count")


def _events(answers: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event for answer in answers for event in answer["events"] if event["type"] == kind]


def _answers_since(table: Table, start: int) -> list[dict[str, Any]]:
    return table.game.answers[start:]


def _draws(table: Table) -> list[dict[str, Any]]:
    """The event cards drawn by the last command."""
    return [event for event in table.last_events if event["type"] == "event_card_drawn"]


def _to_event_step(table: Table, round_number: int) -> None:
    """Play on to the event step of the given round."""
    while table.state["round"] < round_number:
        table.play_on()
    assert table.state["round"] == round_number
    table.until("event")
    assert table.state["round"] == round_number


def _without_history(state: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in state.items() if key not in HISTORY_FIELDS}


# --- difficulty and choosing a scenario -------------------------------------------------------


@pytest.mark.parametrize(("new_game", "difficulty"), [
    ({}, 0),
    ({"scenario": "blitz"}, 0),
    ({"scenario": "powers-long-forgotten"}, 1),
    ({"scenario": "rituals-of-terror"}, 3),
    ({"scenario": "dahan-insurrection"}, 4),
    ({"scenario": "rituals-of-terror", "adversary": "france", "level": 2}, 5 + 3),
    ({"scenario": "ward-the-shores", "adversary": "england", "level": 3}, 6 + 2),
    ({"scenario": "the-great-river", "thematic": True}, 3 + 3),
    ({"scenario": "destiny-unfolds"}, -1),
    ({"scenario": "second-wave"}, 1),
    ({"scenario": "second-wave", "scenario_difficulty": -1}, -1),
    ({"scenario": "second-wave", "scenario_difficulty": -1, "adversary": "england",
      "level": 1}, 3 - 1),
    ({"scenario": "surges-of-colonization"}, 2),
    ({"scenario": "surges-of-colonization", "scenario_difficulty": 7}, 7),
    ({"scenario": "surges-of-colonization", "scenario_difficulty": 7, "adversary": "england",
      "level": 3, "thematic": True}, 6 + 7 + 3),
])
def test_difficulty_adds_adversary_level_scenario_and_thematic_board_difficulty(
    new_game: dict[str, Any], difficulty: int,
) -> None:
    assert Table(**new_game).state["difficulty"] == difficulty


def test_the_state_names_the_scenario_and_its_details() -> None:
    state = Table(scenario="dahan-insurrection").state
    assert state["scenario"] == "dahan-insurrection"
    detail = state["scenario_detail"]
    assert detail["name"] == "Dahan Insurrection"
    assert detail["difficulty"] == 4
    assert "fewer than 2 Dahan per player" in detail["loss_condition"]
    assert Table(scenario="blitz").state["scenario_detail"]["loss_condition"] is None


def test_a_game_without_scenario_has_no_scenario_detail() -> None:
    state = Table().state
    assert state["scenario"] is None and state["scenario_detail"] is None


@pytest.mark.parametrize(("scenario", "asked", "printed"), [
    ("second-wave", 0, ("1", "-1")),
    ("second-wave", 2, ("1", "-1")),
    ("surges-of-colonization", 3, ("2", "7")),
    ("blitz", 1, ("0",)),
])
def test_a_scenario_difficulty_that_is_not_printed_is_refused_with_the_choices(
    scenario: str, asked: int, printed: tuple[str, ...],
) -> None:
    table = Table()
    reason = table.refused("new_game", players=2, seed=1, scenario=scenario,
                           scenario_difficulty=asked)
    assert f"not {asked}" in reason
    for choice in printed:
        assert choice in reason


def test_a_scenario_difficulty_without_a_scenario_is_refused() -> None:
    reason = Table().refused("new_game", players=2, seed=1, scenario_difficulty=1)
    assert "needs a scenario" in reason
    assert "blitz" in reason


def test_an_unknown_scenario_is_refused_with_the_list_of_scenarios() -> None:
    reason = Table().refused("new_game", players=2, seed=1, scenario="lost-atlantis")
    assert "lost-atlantis" in reason
    for scenario in SCENARIO_IDS:
        assert scenario in reason


# --- Blitz --------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_blitz_puts_one_more_blight_per_player_on_the_card(players: int) -> None:
    plain = Table(players=players).state["blight"]["on_card"]
    blitz = Table(players=players, scenario="blitz").state["blight"]["on_card"]
    assert plain == 2 * players + 1
    assert blitz == 3 * players + 1


def test_blitz_setup_runs_a_build_an_explore_and_an_advance_after_the_initial_explore() -> None:
    table = Table(scenario="blitz")
    table.next_round()
    setup_steps = [(event["phase"], event["step"])
                   for event in _events(table.game.answers, "step_started")
                   if event["round"] == 0]
    assert setup_steps == [("setup", "initial_explore"), ("setup", "build"),
                           ("setup", "explore"), ("setup", "advance")]
    revealed = _events(table.game.answers, "invader_card_revealed")
    assert len(revealed) == 2, "the initial explore and the extra explore each turn one card"


def test_blitz_starts_round_one_with_a_card_on_ravage_and_one_on_build() -> None:
    table = Table(scenario="blitz")
    table.next_round()
    invader = table.state["invader"]
    assert (table.state["round"], table.state["phase"]) == (1, "spirit")
    assert len(invader["ravage"]) == 1 and len(invader["build"]) == 1
    assert invader["explore"] == []
    plain = Table()
    plain.next_round()
    assert plain.state["invader"]["ravage"] == [] and len(plain.state["invader"]["build"]) == 1


def test_blitz_round_one_ravages_at_once() -> None:
    table = Table(scenario="blitz")
    table.until("ravage")
    assert table.state["round"] == 1
    skipped = [event["step"] for event in _events(table.game.answers, "step_skipped")]
    assert "ravage" not in skipped


@pytest.mark.parametrize("players", [2, 3])
def test_blitz_puts_one_fewer_blight_per_player_on_the_flipped_card(players: int) -> None:
    # Downward Spiral is printed with 5 blight per player on its Blighted Island side.
    table = Table(players=players, scenario="blitz", blight_card="downward-spiral")
    table.until("growth")  # blight added during setup comes from the box
    on_card = table.state["blight"]["on_card"]
    events = table.do("blight", amount=on_card)
    flipped = [event for event in events if event["type"] == "blight_card_flipped"]
    assert len(flipped) == 1 and flipped[0]["refilled"] == 4 * players
    blight = table.state["blight"]
    assert (blight["side"], blight["on_card"]) == ("blighted", 4 * players)
    assert table.state["outcome"] is None


def test_without_blitz_the_flipped_card_gets_its_printed_blight() -> None:
    table = Table(players=2, blight_card="downward-spiral")
    table.until("growth")  # blight added during setup comes from the box
    events = table.do("blight", amount=table.state["blight"]["on_card"])
    flipped = [event for event in events if event["type"] == "blight_card_flipped"]
    assert flipped[0]["refilled"] == 10


# --- Rituals of Terror --------------------------------------------------------------------------


@pytest.mark.parametrize(("fear_cards", "deck"), [(None, 15), (20, 20), (12, 12)])
def test_rituals_of_terror_shuffles_every_fear_card_without_dividers(
    fear_cards: int | None, deck: int,
) -> None:
    options = {} if fear_cards is None else {"fear_cards": fear_cards}
    fear = Table(scenario="rituals-of-terror", **options).state["fear"]
    assert fear["deck"] == deck
    assert fear["split"] == [deck]
    assert fear["dividers"] is False


def test_in_rituals_of_terror_earning_fear_cards_never_raises_the_terror_level() -> None:
    table = Table(players=1, scenario="rituals-of-terror")
    events = table.do("fear", amount=4 * 10)
    assert [event["type"] for event in events].count("fear_card_earned") == 10
    assert "terror_level_raised" not in [event["type"] for event in events]
    assert table.state["terror_level"] == 1
    assert table.state["fear"]["earned"] == 10


def test_in_rituals_of_terror_earning_the_last_fear_card_does_not_win() -> None:
    table = Table(players=1, scenario="rituals-of-terror")
    events = table.do("fear", amount=4 * 15)
    state = table.state
    assert state["fear"]["deck"] == 0 and state["fear"]["earned"] == 15
    assert state["outcome"] is None
    assert state["terror_level"] == 1
    assert "game_ended" not in [event["type"] for event in events]


def test_in_rituals_of_terror_the_fear_step_is_skipped_and_earned_cards_wait() -> None:
    table = Table(scenario="rituals-of-terror")
    table.until("fast_powers")
    table.do("fear", amount=8)
    start = len(table.game.answers)
    table.until("slow_powers")
    answers = _answers_since(table, start)
    skipped = [event for event in _events(answers, "step_skipped") if event["step"] == "fear"]
    assert len(skipped) == 1 and "Rituals of Terror" in skipped[0]["why"]
    assert "fear" not in [event["step"] for event in _events(answers, "step_started")]
    assert table.state["fear"]["earned"] == 1
    assert table.state["fear"]["resolved"] == 0


def test_in_rituals_of_terror_earned_cards_cannot_be_resolved_in_the_invader_phase() -> None:
    table = Table(scenario="rituals-of-terror")
    table.until("fast_powers")
    table.do("fear", amount=8)
    table.until("build")
    reason = table.refused("resolve_fear")
    assert "ritual" in reason


@pytest.mark.parametrize("step", ["initial_explore", "growth", "play_cards", "build",
                                  "time_passes"])
def test_a_ritual_is_refused_outside_the_power_phases(step: str) -> None:
    table = Table(scenario="rituals-of-terror")
    table.until(step)
    reason = table.refused("ritual")
    assert "fast or slow power phase" in reason


def test_a_ritual_is_refused_in_a_game_without_rituals_of_terror() -> None:
    for options in ({}, {"scenario": "blitz"}):
        table = Table(**options)
        table.until("fast_powers")
        reason = table.refused("ritual")
        assert "Rituals of Terror" in reason


@pytest.mark.parametrize("step", ["fast_powers", "slow_powers"])
def test_a_ritual_raises_the_terror_level_by_one_and_lets_waiting_cards_be_resolved(
    step: str,
) -> None:
    table = Table(scenario="rituals-of-terror")
    table.until("fast_powers")
    table.do("fear", amount=16)
    table.until(step)
    events = table.do("ritual")
    assert [event["type"] for event in events] == ["ritual_performed", "terror_level_raised"]
    assert table.state["terror_level"] == 2
    assert events[1]["victory_condition"] == table.state["victory_condition"]
    resolved = table.do("resolve_fear")
    assert resolved[0]["type"] == "fear_card_resolved"
    assert resolved[0]["terror_level"] == 2
    assert "still wait" in table.refused("next")  # every waiting card goes after a ritual
    table.do("resolve_fear")
    assert (table.state["fear"]["earned"], table.state["fear"]["resolved"]) == (0, 2)
    assert table.state["step"] == step


def test_a_ritual_resolves_the_cards_waiting_when_it_is_performed_and_a_later_card_waits(
) -> None:
    table = Table(players=2, seed=1, scenario="rituals-of-terror")
    table.until("fast_powers")
    table.do("ritual")  # nothing waits: nothing to resolve
    table.do("fear", amount=8)  # earned after the ritual: it waits for the next one
    table.do("next")
    assert table.state["step"] != "fast_powers"
    assert table.state["fear"]["earned"] == 1
    table.until("slow_powers")
    table.refused("resolve_fear")
    table.do("fear", amount=8)
    table.do("ritual")  # two cards wait now: this ritual resolves both
    table.do("resolve_fear")
    table.do("fear", amount=8)  # a third card, earned between the two resolutions
    assert "still wait" in table.refused("next")
    table.do("resolve_fear")
    assert "next ritual" in table.refused("resolve_fear")
    table.do("next")
    assert table.state["fear"]["earned"] == 1 and table.state["fear"]["resolved"] == 2


def test_waiting_fear_cards_are_not_resolved_in_a_power_phase_without_a_ritual() -> None:
    table = Table(scenario="rituals-of-terror")
    table.until("fast_powers")
    table.do("fear", amount=8)
    table.next_round()
    table.until("fast_powers")
    assert table.state["fear"]["earned"] == 1 and table.state["terror_level"] == 1
    table.refused("resolve_fear")


def test_the_third_ritual_of_terror_wins_the_game() -> None:
    table = Table(scenario="rituals-of-terror")
    table.until("fast_powers")
    table.do("ritual")
    table.until("slow_powers")
    table.do("ritual")
    assert table.state["terror_level"] == 3 and table.state["outcome"] is None
    table.next_round()
    table.until("fast_powers")
    events = table.do("ritual")
    assert events[-1]["type"] == "game_ended"
    outcome = table.state["outcome"]
    assert (outcome["result"], outcome["reason"]) == ("victory", "ritual")
    assert table.state["terror_level"] == 4


# --- Dahan Insurrection ---------------------------------------------------------------------------


def test_dahan_insurrection_changes_the_terror_level_two_victory_condition() -> None:
    plain = Table(players=1)
    insurrection = Table(players=1, scenario="dahan-insurrection")
    for table in (plain, insurrection):
        table.do("fear", amount=4 * 3)
        assert table.state["terror_level"] == 2
    assert insurrection.state["victory_condition"] != plain.state["victory_condition"]
    assert "Dahan" in insurrection.state["victory_condition"]


def test_in_dahan_insurrection_earning_the_last_fear_card_does_not_end_the_game() -> None:
    table = Table(players=1, scenario="dahan-insurrection")
    events = table.do("fear", amount=4 * 9)
    state = table.state
    assert state["outcome"] is None
    assert state["terror_level"] == 4
    assert "game_ended" not in [event["type"] for event in events]
    raised = [event for event in events if event["type"] == "terror_level_raised"]
    assert raised[-1]["terror_level"] == 4
    assert raised[-1]["victory_condition"] == state["victory_condition"]


def test_at_the_victory_level_of_dahan_insurrection_fear_cards_are_resolved_at_terror_iii(
) -> None:
    # Cards have levels 1-3: the Victory level (4) is never shown or recorded for a card.
    table = Table(players=1, scenario="dahan-insurrection")
    table.do("next")
    table.do("fear", amount=4 * 9)
    assert table.state["terror_level"] == 4 and table.state["outcome"] is None
    table.until("fear")
    prompt = table.state["prompt"]
    assert "terror level III" in prompt
    assert "terror level 4" not in prompt and "terror level IV" not in prompt
    assert table.do("fear_card", card="dahan-raid")[0]["terror_level"] == 3
    card = table.state["fear"]["card"]
    assert card["terror_level"] == 3
    assert presenter.table_view(table.state).fear_card.startswith("Dahan Raid (terror level III)")
    assert table.do("resolve_fear")[0]["terror_level"] == 3
    assert table.do("resolve_fear")[0]["terror_level"] == 3  # one resolved without a name


def test_dahan_insurrection_lists_its_loss_condition() -> None:
    state = Table(scenario="dahan-insurrection").state
    assert state["loss_conditions"] == [{
        "reason": "scenario", "source": "dahan-insurrection",
        "text": state["scenario_detail"]["loss_condition"],
    }]


def test_declaring_the_dahan_insurrection_defeat_ends_the_game_with_its_loss_text() -> None:
    table = Table(scenario="dahan-insurrection")
    table.until("fast_powers")
    events = table.do("declare", result="defeat", reason="scenario")
    assert events[-1]["type"] == "game_ended"
    outcome = table.state["outcome"]
    assert (outcome["result"], outcome["reason"]) == ("defeat", "scenario")
    assert outcome["detail"].startswith("Dahan Insurrection: ")
    assert table.state["scenario_detail"]["loss_condition"] in outcome["detail"]


# --- Ward the Shores ----------------------------------------------------------------------------


@pytest.mark.parametrize(("new_game", "split"), [
    ({}, [3, 3, 9]),
    ({"fear_split": [4, 4, 4]}, [4, 4, 7]),
    ({"fear_cards": 20}, [3, 3, 14]),
    ({"adversary": "england", "level": 3}, [4, 5, 6]),
])
def test_ward_the_shores_puts_every_unused_fear_card_under_the_deck(
    new_game: dict[str, Any], split: list[int],
) -> None:
    fear = Table(scenario="ward-the-shores", **new_game).state["fear"]
    assert fear["split"] == split
    assert fear["groups"] == split
    assert fear["deck"] == sum(split)
    assert fear["dividers"] is True


def test_without_ward_the_shores_the_unused_fear_cards_stay_in_the_box() -> None:
    fear = Table(adversary="england", level=3).state["fear"]
    assert (fear["split"], fear["deck"]) == ([4, 5, 4], 13)


# --- Surges of Colonization ---------------------------------------------------------------------


def test_surges_the_initial_explore_turns_over_two_cards() -> None:
    table = Table(scenario="surges-of-colonization")
    revealed = _events(table.game.answers, "invader_card_revealed")
    assert len(revealed) == 2
    assert table.state["invader"]["explore"] == [event["card"] for event in revealed]
    assert table.state["invader"]["deck_count"] == 10


def test_surges_skip_explore_in_odd_rounds_turn_two_cards_in_even_ones_and_end_in_round_12(
) -> None:
    table = Table(scenario="surges-of-colonization")
    revealed = {0: len(_events(table.game.answers, "invader_card_revealed"))}
    explored: set[int] = set()
    skipped: dict[int, str] = {}
    while table.state["outcome"] is None:
        table.play_on()
        round_number = table.state["round"]
        for event in table.last_events:
            if event["type"] == "invader_card_revealed":
                revealed[round_number] = revealed.get(round_number, 0) + 1
            elif event["type"] == "step_started" and event["step"] == "explore":
                explored.add(round_number)
            elif event["type"] == "step_skipped" and event["step"] == "explore":
                skipped[round_number] = event["why"]
    assert revealed == {0: 2, 2: 2, 4: 2, 6: 2, 8: 2, 10: 2}
    assert sorted(skipped) == [1, 3, 5, 7, 9, 11]
    assert all("odd-numbered rounds" in why for why in skipped.values())
    assert explored == {2, 4, 6, 8, 10, 12}
    outcome = table.state["outcome"]
    assert (outcome["result"], outcome["reason"], outcome["round"]) == ("defeat", "time", 12)


def _revealed_by_round(table: Table) -> dict[int, list[dict[str, Any]]]:
    """Play the game to its end; the invader cards turned over in each round (0: setup)."""
    revealed: dict[int, list[dict[str, Any]]] = {
        0: _events(table.game.answers, "invader_card_revealed")}
    while table.state["outcome"] is None:
        table.play_on()
        for event in table.last_events:
            if event["type"] == "invader_card_revealed":
                revealed.setdefault(table.state["round"], []).append(event)
    return revealed


def test_surges_final_surge_takes_unused_stage_iii_cards_and_only_the_normal_card_loses(
) -> None:
    # Issue 15: Prussia 3's deck runs out in round 10 after the normal Explore card; the surge
    # card comes from the unused Stage III cards, and time runs out in round 12.
    table = Table(players=2, seed=163, scenario="surges-of-colonization",
                  adversary="brandenburg-prussia", level=3)
    set_aside = table.state["invader"]["set_aside"]
    revealed = _revealed_by_round(table)
    last = revealed[10]
    assert len(last) == 2 and last[0]["deck_left"] == 0
    assert last[1]["stage"] == 3 and last[1]["card"] not in [
        event["card"] for cards in revealed.values() for event in cards][:-1]
    outcome = table.state["outcome"]
    assert (outcome["result"], outcome["reason"], outcome["round"]) == ("defeat", "time", 12)
    assert table.state["invader"]["set_aside"] == set_aside - 1


def test_larger_surges_add_a_fear_card_to_each_terror_group() -> None:
    fear = Table(scenario="surges-of-colonization", scenario_difficulty=7).state["fear"]
    assert (fear["split"], fear["groups"], fear["deck"]) == ([4, 4, 4], [4, 4, 4], 12)
    against = Table(scenario="surges-of-colonization", scenario_difficulty=7,
                    adversary="england", level=3).state["fear"]
    assert against["split"] == [5, 6, 5]
    plain = Table(scenario="surges-of-colonization").state["fear"]
    assert plain["split"] == [3, 3, 3]


def test_larger_surges_turn_three_explore_cards_in_even_rounds_then_surge_from_box_and_discard(
) -> None:
    # The unaltered deck: setup 1+1, then 1+2+2, 2+2+3, 3+3+3; in round 8 the normal card is
    # the last in the deck, and the two surge cards come from the box (the Stage III card set
    # aside), then from the discard's Stage III cards. Round 10 has no normal card: time.
    table = Table(scenario="surges-of-colonization", scenario_difficulty=7, deck="physical")
    stages = []
    while table.state["outcome"] is None:
        state = table.state
        if state["invader"]["awaiting_reveal"]:
            if state["round"] == 8 and not state["invader"]["deck_count"]:
                assert "Final Surge" in state["prompt"]
                candidates = state["invader"]["candidates"]
                in_discard = [card for card in candidates if card in state["invader"]["discard"]]
                assert in_discard == [] if len(stages) == 12 else in_discard == candidates
                assert all(card.startswith("III-") for card in candidates)
            stages.append((state["round"], state["invader"]["candidates"][0].split("-")[0]))
        table.play_on()
    by_round: dict[int, str] = {}
    for round_number, numeral in stages:
        by_round[round_number] = by_round.get(round_number, "") + numeral
    assert by_round == {0: "II", 2: "IIIII", 4: "IIIIIII", 6: "IIIIIIIII", 8: "IIIIIIIII"}
    outcome = table.state["outcome"]
    assert (outcome["result"], outcome["reason"], outcome["round"]) == ("defeat", "time", 10)
    assert table.state["invader"]["set_aside"] == 2


def test_larger_surges_show_their_own_setup_note_and_reminder() -> None:
    larger = Table(scenario="surges-of-colonization", scenario_difficulty=7)
    ids = [item["id"] for item in larger.state["setup_checklist"]]
    assert "surges-of-colonization-larger-surges" in ids
    assert "surges-of-colonization-explore-pattern" not in ids
    plain = Table(scenario="surges-of-colonization")
    ids = [item["id"] for item in plain.state["setup_checklist"]]
    assert "surges-of-colonization-explore-pattern" in ids
    assert "surges-of-colonization-larger-surges" not in ids
    for table, wanted in ((larger, "surges-of-colonization-larger-surge"),
                          (plain, "surges-of-colonization-surge")):
        table.until("explore")  # round 1 has none
        assert table.state["round"] == 2
        surges = [rule for rule in table.reminder_ids() if rule.endswith("surge")]
        assert surges == [wanted]


@pytest.mark.parametrize("adversary", ["brandenburg-prussia", "sweden", "habsburg-mining"])
def test_surges_two_flagged_stage_ii_cards_in_one_explore_escalate_once_each(
    adversary: str,
) -> None:
    # Decided: the escalation comes with each flagged card turned over (German rulebook,
    # "Eskalation"), whatever the adversary's timing: before or after the explore, or after
    # the advance. Seed 1 turns II-jungle and II-mountain in round 4.
    table = Table(players=2, seed=1, scenario="surges-of-colonization", adversary=adversary)
    table.until("explore")
    start = len(table.game.answers)
    table.next_round()
    table.until("explore")
    table.next_round()
    assert table.state["round"] == 5
    rounds = _answers_since(table, start)
    revealed = [event["card"] for event in _events(rounds, "invader_card_revealed")]
    assert revealed[-2:] == ["II-jungle", "II-mountain"]
    escalations = [event for event in _events(rounds, "step_started")
                   if event["step"] == "escalation" and event["round"] == 4]
    assert len(escalations) == 2


@pytest.mark.parametrize("scenario", ["surges-of-colonization", "blitz"])
def test_a_flagged_card_turned_during_a_setup_explore_does_not_escalate(scenario: str) -> None:
    # Decided: escalation belongs to the Invader Phase's Explore step; setup is no Invader
    # Phase. Prussia 6's deck (3-222-3333) turns a Stage II card in Surges' two-card initial
    # explore and in Blitz's extra setup explore.
    table = Table(players=2, seed=1, scenario=scenario, adversary="brandenburg-prussia",
                  level=6)
    table.until("growth")
    setup_cards = [event for event in _events(table.game.answers, "invader_card_revealed")]
    assert any(event["stage"] == 2 and event["escalation"] for event in setup_cards)
    assert "escalation" not in table.game.steps_seen()
    assert table.state["invader"]["escalation_due"] is False


# --- scenarios that add a way to lose -----------------------------------------------------------


@pytest.mark.parametrize(("scenario", "name", "words"), [
    ("guard-the-isles-heart", "Guard the Isle's Heart", "Inner Land"),
    ("the-great-river", "The Great River", "3 Towns per player"),
])
def test_a_scenario_loss_condition_is_listed_and_can_be_declared(
    scenario: str, name: str, words: str,
) -> None:
    table = Table(scenario=scenario)
    losses = table.state["loss_conditions"]
    assert [(loss["reason"], loss["source"]) for loss in losses] == [("scenario", scenario)]
    assert words in losses[0]["text"]
    table.do("declare", result="defeat", reason="scenario")
    outcome = table.state["outcome"]
    assert (outcome["result"], outcome["reason"]) == ("defeat", "scenario")
    assert outcome["detail"] == f"{name}: {losses[0]['text']}"


def test_a_scenario_defeat_can_be_declared_by_the_scenario_id() -> None:
    table = Table(scenario="the-great-river")
    table.do("declare", result="defeat", reason="the-great-river")
    assert table.state["outcome"]["reason"] == "scenario"


@pytest.mark.parametrize("new_game", [{"scenario": "blitz"}, {}])
def test_declaring_a_scenario_defeat_is_refused_when_the_scenario_adds_no_way_to_lose(
    new_game: dict[str, Any],
) -> None:
    table = Table(**new_game)
    assert table.state["loss_conditions"] == []
    reason = table.refused("declare", result="defeat", reason="scenario")
    assert "scenario adds no way to lose" in reason


def test_adversary_and_scenario_loss_conditions_are_listed_together() -> None:
    state = Table(scenario="dahan-insurrection", adversary="england", level=1).state
    assert [loss["reason"] for loss in state["loss_conditions"]] == ["adversary", "scenario"]


# --- Powers Long Forgotten ----------------------------------------------------------------------


@pytest.mark.parametrize("result", ["victory", "defeat"])
def test_powers_long_forgotten_adds_the_bonus_points_to_the_score(result: str) -> None:
    table = Table(scenario="powers-long-forgotten")
    table.next_round()
    table.do("declare", result=result)
    table.do("score", dahan=10, bonus=4)
    with_bonus = table.state["outcome"]
    assert with_bonus["bonus"] == 4
    table.do("undo")
    assert table.state["outcome"]["score"] is None
    table.do("score", dahan=10)
    without = table.state["outcome"]
    assert with_bonus["score"] == without["score"] + 4
    assert with_bonus["dahan"] == without["dahan"] == 10
    assert with_bonus["blight_on_island"] == without["blight_on_island"]


# --- the event deck -----------------------------------------------------------------------------


def test_the_event_step_comes_after_the_blighted_island_and_before_the_fear_step() -> None:
    table = Table(events=True, blight_card="downward-spiral")
    table.until("growth")  # blight added during setup comes from the box
    table.do("blight", amount=table.state["blight"]["on_card"])
    assert table.state["blight"]["side"] == "blighted"
    table.until("fast_powers")
    table.do("fear", amount=8)
    start = len(table.game.answers)
    table.until("build")
    started = [(event["phase"], event["step"])
               for event in _events(_answers_since(table, start), "step_started")]
    assert started[:4] == [("invader", "blighted_island"), ("invader", "event"),
                           ("invader", "fear"), ("invader", "build")]


def test_the_event_step_opens_the_invader_phase_of_a_healthy_island_before_fear() -> None:
    table = Table(events=True)
    table.until("fast_powers")
    table.do("fear", amount=8)
    table.until("build")
    steps = table.game.steps_seen()
    assert steps.index("fast_powers") < steps.index("event") < steps.index("fear")
    assert steps[steps.index("event") + 1] == "fear"


def test_without_events_there_is_no_event_step_and_no_event_state() -> None:
    table = Table()
    assert table.state["events"] is None
    table.next_round()
    table.next_round()
    assert "event" not in table.game.steps_seen()
    assert "event" not in [event["step"] for event in _events(table.game.answers,
                                                               "step_skipped")]
    assert _events(table.game.answers, "event_card_drawn") == []


@pytest.mark.parametrize("events", [None, False])
def test_an_event_deck_size_without_events_is_refused(events: bool | None) -> None:
    options = {} if events is None else {"events": events}
    reason = Table().refused("new_game", players=2, seed=1, event_deck=5, **options)
    assert "events: true" in reason


@pytest.mark.parametrize(("event_deck", "deck"), [(None, 25), (10, 10), (30, 30)])
def test_the_event_deck_starts_full(event_deck: int | None, deck: int) -> None:
    options = {} if event_deck is None else {"event_deck": event_deck}
    events = Table(events=True, **options).state["events"]
    assert events == {"deck": deck, "discard": 0, "drawn": 0, "slave_rebellion_depth": None,
                      "drawn_this_round": []}


def test_in_round_one_the_event_card_is_drawn_and_discarded_unresolved() -> None:
    table = Table(events=True)
    _to_event_step(table, 1)
    assert table.state["phase"] == "invader"
    assert _draws(table) == [{"type": "event_card_drawn", "card": "event", "resolved": False,
                              "deck_left": 24}]
    events = table.state["events"]
    assert (events["deck"], events["discard"], events["drawn"]) == (24, 1, 1)
    assert "discard it without resolving it" in table.state["prompt"]


def test_from_round_two_the_event_card_is_resolved() -> None:
    table = Table(events=True)
    _to_event_step(table, 2)
    assert _draws(table) == [{"type": "event_card_drawn", "card": "event", "resolved": True,
                              "deck_left": 23}]
    events = table.state["events"]
    assert (events["deck"], events["discard"], events["drawn"]) == (23, 2, 2)
    assert "resolve it" in table.state["prompt"]
    assert "without resolving" not in table.state["prompt"]


def test_every_event_step_moves_one_card_from_the_deck_to_the_discard() -> None:
    table = Table(events=True, event_deck=12)
    for round_number in range(1, 7):
        _to_event_step(table, round_number)
        events = table.state["events"]
        assert events["drawn"] == round_number
        assert (events["deck"], events["discard"]) == (12 - round_number, round_number)
        assert events["deck"] + events["discard"] == 12
        assert events["drawn_this_round"] == ["event"]


def test_an_empty_event_deck_is_refilled_from_the_shuffled_discard() -> None:
    table = Table(events=True, event_deck=2)
    _to_event_step(table, 2)
    assert (table.state["events"]["deck"], table.state["events"]["discard"]) == (0, 2)
    _to_event_step(table, 3)
    kinds = [event["type"] for event in table.last_events]
    assert kinds.index("event_deck_reshuffled") < kinds.index("event_card_drawn")
    reshuffled = [event for event in table.last_events
                  if event["type"] == "event_deck_reshuffled"]
    assert reshuffled[0]["deck"] == 2
    assert _draws(table)[0]["resolved"] is True
    events = table.state["events"]
    assert (events["deck"], events["discard"], events["drawn"]) == (1, 1, 3)
    for round_number in range(4, 8):
        _to_event_step(table, round_number)
        events = table.state["events"]
        assert events["deck"] + events["discard"] == 2
    assert len(_events(table.game.answers, "event_deck_reshuffled")) == 3


# --- France: Slave Rebellion ------------------------------------------------------------------


def test_france_level_2_puts_slave_rebellion_under_the_top_three_event_cards() -> None:
    events = Table(events=True, adversary="france", level=2).state["events"]
    assert events["deck"] == 26
    assert events["slave_rebellion_depth"] == 3


@pytest.mark.parametrize("level", [0, 1])
def test_below_level_2_france_adds_no_slave_rebellion(level: int) -> None:
    events = Table(events=True, adversary="france", level=level).state["events"]
    assert (events["deck"], events["slave_rebellion_depth"]) == (25, None)


def test_slave_rebellion_comes_up_on_the_fourth_draw() -> None:
    table = Table(events=True, adversary="france", level=2)
    for round_number, depth in ((1, 2), (2, 1), (3, 0)):
        _to_event_step(table, round_number)
        assert [draw["card"] for draw in _draws(table)] == ["event"]
        assert table.state["events"]["slave_rebellion_depth"] == depth
    _to_event_step(table, 4)
    assert _draws(table)[0]["card"] == "slave_rebellion"


def test_in_stages_i_and_ii_slave_rebellion_draws_another_event_and_goes_back_under_three() -> None:
    table = Table(events=True, adversary="france", level=2)
    _to_event_step(table, 4)
    assert table.state["invader"]["stage"] in (1, 2)
    draws = _draws(table)
    assert [(draw["card"], draw["resolved"]) for draw in draws] == [
        ("slave_rebellion", True), ("event", True)]
    events = table.state["events"]
    assert events["slave_rebellion_depth"] == 3
    assert events["drawn_this_round"] == ["slave_rebellion", "event"]
    # 26 cards: three discarded earlier, one more now; Slave Rebellion is back in the deck.
    assert (events["deck"], events["discard"], events["drawn"]) == (22, 4, 5)
    assert "Slave Rebellion" in table.state["prompt"]
    assert "back into the event deck under the top 3" in table.state["prompt"]


def test_slave_rebellion_back_in_the_deck_comes_up_again_four_draws_later() -> None:
    table = Table(events=True, adversary="france", level=2)
    _to_event_step(table, 4)
    for round_number in (5, 6, 7):
        _to_event_step(table, round_number)
        assert [draw["card"] for draw in _draws(table)] == ["event"]
    _to_event_step(table, 8)
    assert _draws(table)[0]["card"] == "slave_rebellion"


def test_in_stage_iii_slave_rebellion_draws_another_event_and_is_discarded_for_good() -> None:
    table = Table(events=True, adversary="france", level=2, deck_order="1-3-3-3-3-3-3")
    _to_event_step(table, 4)
    assert table.state["invader"]["stage"] == 3
    assert [(draw["card"], draw["resolved"]) for draw in _draws(table)] == [
        ("slave_rebellion", True), ("event", True)]
    events = table.state["events"]
    assert events["slave_rebellion_depth"] is None
    assert (events["deck"], events["discard"]) == (21, 4), "it left the game"
    assert "discarded for good" in table.state["prompt"]
    for round_number in (5, 6):  # the seven invader cards run out in round 7
        _to_event_step(table, round_number)
        assert [draw["card"] for draw in _draws(table)] == ["event"]
        assert table.state["events"]["slave_rebellion_depth"] is None


def test_slave_rebellion_lies_at_the_bottom_of_an_event_deck_of_fewer_than_three_cards() -> None:
    table = Table(events=True, adversary="france", level=2, event_deck=2)
    assert table.state["events"]["deck"] == 3
    assert table.state["events"]["slave_rebellion_depth"] == 2
    _to_event_step(table, 3)
    assert _draws(table)[0]["card"] == "slave_rebellion"


# --- undo ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("round_number", [1, 2, 4])
def test_undo_after_an_event_step_puts_the_event_counts_back_exactly(round_number: int) -> None:
    table = Table(events=True, adversary="france", level=2)
    while table.state["round"] < round_number:
        table.play_on()
    table.until("fast_powers")
    before = table.state
    table.until("event")
    assert table.state["events"]["drawn"] > before["events"]["drawn"]
    table.do("undo")
    after = table.state
    assert after["events"] == before["events"]
    assert (after["step"], after["round"]) == ("fast_powers", round_number)
    assert _without_history(after) == _without_history(before)
