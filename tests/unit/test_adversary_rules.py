"""The adversaries' special rules, played through the script driver as a table would."""

from __future__ import annotations

import pytest

from companion.games.spirit_island.adversaries import ADVERSARIES
from companion.games.spirit_island.cards import INVADER_CARDS
from tests.table_player import Table


def _round_steps(table: Table) -> list[str]:
    """The steps one whole round goes through, from growth to growth."""
    table.until("growth")
    start = len(table.game.answers)
    table.next_round()
    return [event["step"] for answer in table.game.answers[start:]
            for event in answer["events"] if event["type"] == "step_started"]


def _play_to_flagged_explore(table: Table) -> None:
    """Play on until an explore step turns over a card with the escalation flag."""
    for _ in range(400):
        if table.state["step"] == "escalation":
            return
        if table.state["step"] == "explore" and any(
                INVADER_CARDS[card].escalation for card in table.state["invader"]["explore"]):
            return
        table.play_on()
    raise AssertionError("no flagged card came up")


def _to_next_reveal(table: Table) -> None:
    """Play on until the game waits for a card to be named."""
    table.play_on()
    while not table.state["invader"]["awaiting_reveal"]:
        table.play_on()


def _reveal_next(table: Table) -> str:
    _to_next_reveal(table)
    card = str(table.state["invader"]["candidates"][0])
    table.do("reveal", card=card)
    return card


# --- escalation -------------------------------------------------------------------------------


def test_a_flagged_stage_ii_card_brings_the_escalation_step_before_exploring() -> None:
    table = Table(adversary="england", level=0, seed=3)
    _play_to_flagged_explore(table)
    state = table.state
    assert state["step"] == "escalation" and state["phase"] == "invader"
    assert "Building Boom" in state["prompt"]
    flagged = state["invader"]["explore"][-1]
    table.do("next")
    assert table.state["step"] == "explore"
    assert table.state["invader"]["explore"][-1] == flagged, "no second card is turned over"
    table.do("next")
    assert table.state["step"] == "advance"


def test_sweden_escalates_after_exploring_and_habsburg_mining_after_advancing() -> None:
    sweden = Table(adversary="sweden", seed=3)
    _play_to_flagged_explore(sweden)
    assert sweden.state["step"] == "explore"
    sweden.do("next")
    assert sweden.state["step"] == "escalation" and "Swayed" in sweden.state["prompt"]
    sweden.do("next")
    assert sweden.state["step"] == "advance"

    mining = Table(adversary="habsburg-mining", seed=3)
    _play_to_flagged_explore(mining)
    mining.do("next")
    assert mining.state["step"] == "advance"
    mining.do("next")
    assert mining.state["step"] == "escalation" and "Mining Tunnels" in mining.state["prompt"]
    mining.do("next")
    assert mining.state["step"] == "slow_powers"


def test_without_an_adversary_a_flagged_card_has_no_escalation_step() -> None:
    table = Table(seed=3)
    _play_to_flagged_explore(table)
    assert table.state["step"] == "explore"
    table.do("next")
    assert table.state["step"] == "advance"


def test_the_coastal_lands_card_carries_no_escalation() -> None:
    table = Table(adversary="england", deck="physical", deck_order="1-C-2")
    table.do("reveal", card="I-jungle")
    table.until("explore")
    table.do("reveal", card="II-coastal")
    assert table.state["step"] == "explore"
    table.do("next")
    table.until("explore")
    table.do("reveal", card="II-sands")
    assert table.state["step"] == "escalation"


def test_the_escalation_step_is_undone_with_the_card_that_brought_it() -> None:
    table = Table(adversary="england", deck="physical", deck_order="1-2")
    table.do("reveal", card="I-jungle")
    table.until("explore")
    before = table.state
    table.do("reveal", card="II-sands")
    assert table.state["step"] == "escalation"
    table.do("undo")
    assert {**table.state, "can_redo": False, "redo_count": 0, "undo_count": 0} == {
        **before, "can_redo": False, "redo_count": 0, "undo_count": 0}


# --- England's High Immigration ---------------------------------------------------------------


def test_england_level_3_adds_a_high_immigration_space_that_builds_before_the_ravage() -> None:
    table = Table(adversary="england", level=3, seed=2)
    assert table.state["invader"]["high_immigration"] == []
    assert "high_immigration" not in _round_steps(table)  # nothing has reached it yet
    steps = _round_steps(table)
    assert "high_immigration" not in steps
    steps = _round_steps(table)
    assert steps.index("fast_powers") < steps.index("high_immigration") < steps.index("ravage")
    table.until("high_immigration")
    card = table.state["invader"]["high_immigration"][0]
    assert INVADER_CARDS[card].stage == 1
    assert INVADER_CARDS[card].name in table.state["prompt"]


def test_cards_slide_from_ravage_onto_high_immigration_and_then_to_the_discard() -> None:
    table = Table(adversary="england", level=4, seed=2)
    table.until("advance")
    table.until("advance")  # round 2: the first card leaves Ravage
    ravage = table.state["invader"]["ravage"]
    events = table.do("next")
    advanced = next(event for event in events if event["type"] == "invader_cards_advanced")
    assert advanced["high_immigration"] == ravage
    assert table.state["invader"]["high_immigration"] == ravage
    assert table.state["invader"]["discard"] == []
    table.until("advance")
    table.do("next")
    assert table.state["invader"]["discard"] == ravage


def test_at_level_3_a_stage_ii_card_removes_the_space_and_goes_to_the_discard() -> None:
    table = Table(adversary="england", level=3, deck="physical", deck_order="1-2-3-3-3")
    table.do("reveal", card="I-jungle")
    for _ in range(2):
        _reveal_next(table)
        table.until("advance")
        table.do("next")
    # Round 2's advance put I-jungle onto High Immigration; round 3's brings the Stage II card.
    assert table.state["invader"]["high_immigration"] == ["I-jungle"]
    stage_ii = table.state["invader"]["ravage"][0]
    _reveal_next(table)
    table.until("advance")
    events = table.do("next")
    removed = next(event for event in events if event["type"] == "high_immigration_removed")
    assert removed["discarded"] == [stage_ii]
    assert table.state["invader"]["high_immigration"] is None
    assert table.state["invader"]["discard"] == ["I-jungle", stage_ii]
    steps = _round_steps(table)
    assert "high_immigration" not in steps


def test_from_level_4_stage_ii_cards_also_stop_on_high_immigration() -> None:
    table = Table(adversary="england", level=4, deck="physical", deck_order="1-2-3-3-3")
    table.do("reveal", card="I-jungle")
    for _ in range(3):
        _reveal_next(table)
        table.until("advance")
        table.do("next")
    assert INVADER_CARDS[table.state["invader"]["high_immigration"][0]].stage == 2
    table.until("high_immigration")  # the Stage II card builds from the space
    assert INVADER_CARDS[table.state["invader"]["high_immigration"][0]].stage == 2


def test_england_6_builds_twice_on_high_immigration_only_without_a_resolved_fear_card() -> None:
    quiet = Table(adversary="england", level=6, seed=2)
    quiet.until("high_immigration")
    assert "england-6-independent-resolve" in quiet.reminder_ids()

    fearful = Table(adversary="england", level=6, seed=2)
    while (fearful.state["round"], fearful.state["step"]) != (quiet.state["round"],
                                                              "fast_powers"):
        fearful.play_on()
    fearful.do("fear", amount=10)  # one card with England 6's pool of 5 per player
    fearful.until("high_immigration")
    assert fearful.state["fear"]["resolved"] == 1
    assert "england-6-independent-resolve" not in fearful.reminder_ids()


# --- special cards in the invader deck --------------------------------------------------------


def test_habsburg_mining_plays_salt_deposits_as_its_second_stage_ii_card_without_coastal() -> None:
    table = Table(adversary="habsburg-mining", level=4, deck="physical")
    table.do("reveal", card="I-wetland")
    for _ in range(2):
        _reveal_next(table)
    _to_next_reveal(table)
    assert table.state["invader"]["expected_stage"] == 2
    assert table.state["invader"]["candidates"] == ["II-jungle", "II-mountain", "II-sands",
                                                    "II-wetland"], "Coastal Lands is out"
    table.do("reveal", card="II-jungle")
    _to_next_reveal(table)
    assert table.state["invader"]["candidates"] == ["II-salt-deposits"]
    refusal = table.refused("reveal", card="II-jungle")
    assert "II-salt-deposits" in refusal
    events = table.do("reveal", card="II-salt-deposits")
    revealed = next(event for event in events if event["type"] == "invader_card_revealed")
    assert revealed["escalation"] is False
    assert table.state["step"] == "explore", "Salt Deposits brings no escalation"
    assert "Salt Deposits" in table.state["prompt"]


def test_habsburg_livestock_wave_of_immigration_card_acts_then_the_next_card_explores() -> None:
    table = Table(adversary="habsburg-livestock", level=5, seed=4)
    for _ in range(4):
        table.until("explore")
        table.do("next")
    table.until("explore")
    state = table.state
    assert state["round"] == 5
    assert state["invader"]["special_card"] == "S-wave-of-immigration"
    assert "card-S-wave-of-immigration" in table.reminder_ids()
    assert "Wave of Immigration" in state["prompt"]
    assert len(state["invader"]["explore"]) == 1
    assert INVADER_CARDS[state["invader"]["explore"][0]].stage == 2
    table.do("next")
    assert table.state["invader"]["special_card"] is None
    assert "card-S-wave-of-immigration" not in table.reminder_ids()


def test_with_a_physical_deck_the_wave_of_immigration_card_is_named_then_the_next_card() -> None:
    table = Table(adversary="habsburg-livestock", level=5, deck="physical")
    table.do("reveal", card="I-sands")
    for _ in range(4):
        _reveal_next(table)
    _to_next_reveal(table)
    assert table.state["invader"]["candidates"] == ["S-wave-of-immigration"]
    events = table.do("reveal", card="S-wave-of-immigration")
    assert [event["type"] for event in events] == ["special_card_revealed"]
    assert table.state["invader"]["awaiting_reveal"], "the Explore still needs its card"
    assert "Wave of Immigration" in table.state["prompt"]
    table.do("reveal", card=table.state["invader"]["candidates"][0])
    assert len(table.state["invader"]["explore"]) == 1


def test_sweden_level_4_discards_the_top_card_before_the_initial_explore() -> None:
    table = Table(adversary="sweden", level=4, seed=6)
    state = table.state
    assert (state["phase"], state["step"]) == ("setup", "royal_backing")
    discarded = state["invader"]["discard"]
    assert len(discarded) == 1 and INVADER_CARDS[discarded[0]].stage == 1
    assert INVADER_CARDS[discarded[0]].name in state["prompt"]
    assert "sweden-4-royal-backing" in " ".join(item["id"] for item in state["reminders"]) \
        or state["reminders"]
    table.do("next")
    assert table.state["step"] == "initial_explore"
    table.do("next")
    assert table.state["invader"]["deck_count"] == 10


def test_sweden_royal_backing_with_a_physical_deck_asks_for_the_discarded_card() -> None:
    table = Table(adversary="sweden", level=4, deck="physical")
    assert table.state["invader"]["awaiting_reveal"]
    table.refused("next")
    events = table.do("reveal", card="I-mountain")
    revealed = next(event for event in events if event["type"] == "invader_card_revealed")
    assert revealed["slot"] == "discard"
    assert table.state["invader"]["discard"] == ["I-mountain"]
    table.do("next")
    assert "I-mountain" not in table.state["invader"]["candidates"]


def test_russia_level_5_invader_cards_under_fear_cards_3_and_7_go_to_the_build_space() -> None:
    table = Table(adversary="russia", level=5, seed=8)
    assert table.state["fear"]["invader_cards_hidden"] == 2
    table.until("fast_powers")
    build_before = list(table.state["invader"]["build"])
    events = table.do("fear", amount=3 * 8)  # three fear cards with 2 players
    uncovered = [event for event in events if event["type"] == "invader_card_uncovered"]
    assert len(uncovered) == 1 and uncovered[0]["stage"] == 2
    assert table.state["invader"]["build"] == build_before + [uncovered[0]["card"]]
    assert table.state["fear"]["earned"] == 3, "the invader card is not a fear card"
    assert table.state["fear"]["invader_cards_hidden"] == 1
    events = table.do("fear", amount=4 * 8)
    uncovered = [event for event in events if event["type"] == "invader_card_uncovered"]
    assert [event["stage"] for event in uncovered] == [3]


def test_russia_level_5_with_a_physical_deck_asks_which_card_came_out_of_the_fear_deck() -> None:
    table = Table(adversary="russia", level=5, deck="physical")
    table.do("reveal", card="I-sands")
    table.until("fast_powers")
    table.do("fear", amount=3 * 8)
    state = table.state
    assert state["invader"]["awaiting_reveal"] and state["invader"]["expected_stage"] == 2
    assert "fear" in state["prompt"]
    table.refused("next")
    table.refused("reveal", card="III-jungle-sands")
    table.do("reveal", card=state["invader"]["candidates"][0])
    assert table.state["invader"]["build"] == state["invader"]["build"] + [
        state["invader"]["candidates"][0]]
    table.do("next")


# --- loss conditions --------------------------------------------------------------------------


@pytest.mark.parametrize("adversary", sorted(ADVERSARIES))
def test_an_adversarys_extra_loss_condition_is_shown_and_can_be_declared(adversary: str) -> None:
    table = Table(adversary=adversary, level=2)
    rules = ADVERSARIES[adversary]
    shown = table.state["loss_conditions"]
    if rules.loss_condition is None:
        assert shown == []
        assert "no way to lose" in table.refused("declare", result="defeat", reason="adversary")
        return
    assert shown == [{"reason": "adversary", "source": adversary, "text": rules.loss_condition}]
    assert table.state["adversary"]["loss_condition"] == rules.loss_condition
    table.until("build")
    table.do("declare", result="defeat", reason="adversary")
    outcome = table.state["outcome"]
    assert outcome["result"] == "defeat" and outcome["reason"] == "adversary"
    assert rules.loss_condition in outcome["detail"]


def test_unknown_adversaries_and_levels_are_refused_with_the_valid_ones() -> None:
    table = Table()
    reason = table.refused("new_game", players=2, adversary="spain")
    assert all(adversary in reason for adversary in ADVERSARIES)
    assert "between 0 and 6" in table.refused("new_game", players=2, adversary="england",
                                              level=7)
