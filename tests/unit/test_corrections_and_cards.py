"""Corrections by hand and the card catalogue in play, all through the script driver.

Every correction is a logged command: undo puts the game back exactly as it was before it, and
redo brings the corrected game back.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.games.spirit_island.blight_cards import ACTIVE_BLIGHT_CARDS, BLIGHT_CARDS
from companion.games.spirit_island.cards import ALL_CARDS
from companion.games.spirit_island.fear_cards import FEAR_CARDS
from companion.games.spirit_island.texts import AWAITING_BLIGHT_CARD_PROMPT
from tests.table_player import Table, new_driver

# The only parts of the driver's state that undo itself changes: the command taken back can
# now be redone.
REDO_KEYS = ("can_redo", "redo_count")
EVERY_INVADER_PHASE = ("each_invader_phase", "on_flip_and_each_invader_phase")


def without_redo(state: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in state.items() if key not in REDO_KEYS}


def corrected(t: Table, cmd: str, **fields: Any) -> list[dict[str, Any]]:
    """Send a correction; check undo restores the exact game before it and redo the corrected
    one. Returns the correction's events; the table is left with the correction in effect."""
    before = t.state
    events = t.do(cmd, **fields)
    after = t.state
    assert without_redo(after) != without_redo(before), f"{cmd} changed nothing"
    assert after["undo_count"] == before["undo_count"] + 1, f"{cmd} was not logged"
    t.do("undo")
    assert without_redo(t.state) == without_redo(before)
    assert (t.state["can_redo"], t.state["redo_count"]) == (True, before["redo_count"] + 1)
    t.do("redo")
    assert t.state == after
    return events


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event for event in events if event["type"] == kind]


def events_until(t: Table, step: str) -> list[dict[str, Any]]:
    """Play on to `step`; every event sent on the way."""
    start = len(t.game.answers)
    t.until(step)
    return [event for answer in t.game.answers[start:] for event in answer.get("events", [])]


def in_round(round_number: int, **new_game: Any) -> Table:
    """A game (2 players, seed 1) at the start of `round_number`."""
    t = Table(**new_game)
    while t.state["round"] < round_number:
        t.next_round()
    return t


def in_fear_step(fear: int, **new_game: Any) -> Table:
    """A 2-player game in round 1's Fear step, after `fear` fear was generated in Growth."""
    t = in_round(1, **new_game)
    t.do("fear", amount=fear)
    t.until("fear")
    return t


def stage_of(card: str) -> int:
    return ALL_CARDS[card].stage


# --- move_card --------------------------------------------------------------------------------


def test_a_card_moved_from_ravage_to_the_deck_top_is_the_next_card_explore_turns_over() -> None:
    t = in_round(2)
    card = t.state["invader"]["ravage"][0]
    before = t.state["invader"]
    events = corrected(t, "move_card", card=card, to="deck_top")
    assert of_type(events, "card_moved") == [
        {"type": "card_moved", "card": card, "source": "ravage", "destination": "deck_top"}]
    invader = t.state["invader"]
    assert invader["ravage"] == []
    assert invader["deck_count"] == before["deck_count"] + 1
    assert invader["deck_stages"] == [stage_of(card), *before["deck_stages"]]
    t.until("explore")
    revealed = of_type(t.last_events, "invader_card_revealed")
    assert [event["card"] for event in revealed] == [card]
    assert t.state["invader"]["explore"] == [card]


def test_a_card_moved_to_the_top_of_a_physical_deck_is_the_only_card_that_may_come_up() -> None:
    t = in_round(2, deck="physical")
    card = t.state["invader"]["ravage"][0]
    corrected(t, "move_card", card=card, to="deck_top")
    t.until("explore")
    invader = t.state["invader"]
    assert invader["awaiting_reveal"] and invader["candidates"] == [card]


def test_a_card_moved_to_the_deck_bottom_goes_under_every_other_card() -> None:
    t = in_round(2)
    card = t.state["invader"]["ravage"][0]
    before = t.state["invader"]
    corrected(t, "move_card", card=card, to="deck_bottom")
    invader = t.state["invader"]
    assert invader["ravage"] == []
    assert invader["deck_count"] == before["deck_count"] + 1
    assert invader["deck_stages"] == [*before["deck_stages"], stage_of(card)]


def test_a_card_moved_to_the_discard_leaves_the_board_and_the_deck_alone() -> None:
    t = in_round(2)
    card = t.state["invader"]["ravage"][0]
    before = t.state["invader"]
    events = corrected(t, "move_card", card=card, to="discard")
    invader = t.state["invader"]
    assert (invader["ravage"], invader["discard"]) == ([], [card])
    assert invader["deck_stages"] == before["deck_stages"]
    assert of_type(events, "card_moved")[0]["destination"] == "discard"
    skipped = of_type(events_until(t, "build"), "step_skipped")
    assert {"type": "step_skipped", "step": "ravage",
            "why": "no card lies on the Ravage space"} in skipped


def test_a_card_moved_from_build_to_explore_joins_the_card_explore_turns_over() -> None:
    t = in_round(2)
    card = t.state["invader"]["build"][0]
    events = corrected(t, "move_card", card=card, to="explore")
    assert of_type(events, "card_moved") == [
        {"type": "card_moved", "card": card, "source": "build", "destination": "explore"}]
    assert (t.state["invader"]["build"], t.state["invader"]["explore"]) == ([], [card])
    t.until("explore")
    explore = t.state["invader"]["explore"]
    assert len(explore) == 2 and explore[0] == card


def test_a_card_moved_to_the_box_is_counted_as_removed_and_can_come_back_out() -> None:
    t = in_round(2)
    card = t.state["invader"]["ravage"][0]
    before = t.state["invader"]
    corrected(t, "move_card", card=card, to="box")
    invader = t.state["invader"]
    assert invader["ravage"] == []
    assert invader["removed"] == before["removed"] + 1
    assert invader["deck_count"] == before["deck_count"]
    events = corrected(t, "move_card", card=card, to="discard")
    assert of_type(events, "card_moved")[0]["source"] == "box"
    assert (t.state["invader"]["removed"], t.state["invader"]["discard"]) == \
        (before["removed"], [card])


@pytest.mark.parametrize("card", ["III-jungle-mountain", "IV-ocean"])
def test_move_card_refuses_a_card_not_on_the_board_in_the_discard_or_in_the_box(
    card: str,
) -> None:
    t = in_round(2)
    assert t.refused("move_card", card=card, to="discard").startswith(
        f"{card} is not on the Invader Board, in the discard or in the box")


def test_move_card_refuses_to_move_a_card_where_it_already_lies() -> None:
    t = in_round(2)
    card = t.state["invader"]["ravage"][0]
    assert t.refused("move_card", card=card, to="ravage") == f"{card} is already there"


def test_move_card_refuses_the_high_immigration_space_in_a_game_without_it() -> None:
    t = in_round(2)
    card = t.state["invader"]["ravage"][0]
    assert t.state["invader"]["high_immigration"] is None
    reason = t.refused("move_card", card=card, to="high_immigration")
    assert reason == "this game has no High Immigration space"


def test_move_card_refuses_a_place_it_does_not_know() -> None:
    t = in_round(2)
    card = t.state["invader"]["ravage"][0]
    reason = t.refused("move_card", card=card, to="ocean")
    assert reason.startswith("'move_card': to must be one of deck_top, deck_bottom, discard")
    assert reason.endswith("not 'ocean'")


def test_england_level_4_lets_a_card_be_moved_onto_its_high_immigration_space() -> None:
    t = in_round(1, adversary="england", level=4)
    card = t.state["invader"]["build"][0]
    assert t.state["invader"]["high_immigration"] == []
    events = corrected(t, "move_card", card=card, to="high_immigration")
    assert of_type(events, "card_moved")[0]["destination"] == "high_immigration"
    assert (t.state["invader"]["high_immigration"], t.state["invader"]["build"]) == ([card], [])
    t.until("high_immigration")
    assert t.state["phase"] == "invader"


# --- accelerate -------------------------------------------------------------------------------


def test_accelerate_boxes_the_topmost_card_of_the_lowest_stage_left_in_the_deck() -> None:
    # 1-2-11-...: after the initial explore a Stage II card lies on top of two Stage I cards.
    order = "1-2-11-222-33333"
    t = in_round(1, deck_order=order)
    before = t.state["invader"]
    assert before["deck_stages"] == [2, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3]
    events = corrected(t, "accelerate")
    [moved] = of_type(events, "card_moved")
    assert (moved["source"], moved["destination"]) == ("deck", "box")
    assert stage_of(moved["card"]) == 1
    invader = t.state["invader"]
    assert invader["deck_stages"] == [2, 1, 2, 2, 2, 3, 3, 3, 3, 3]
    assert invader["deck_count"] == before["deck_count"] - 1
    assert invader["removed"] == before["removed"] + 1
    # The same game without the correction turns the boxed card over in round 2's explore.
    twin = in_round(2, deck_order=order)
    twin.until("explore")
    assert twin.state["invader"]["explore"] == [moved["card"]]
    t.next_round()
    t.until("explore")
    explored = t.state["invader"]["explore"]
    assert stage_of(explored[0]) == 1 and explored != [moved["card"]]


@pytest.mark.parametrize("new_game", [{}, {"adversary": "habsburg-livestock", "level": 5}],
                         ids=["empty deck", "only a special card left"])
def test_accelerate_is_refused_once_the_deck_holds_no_invader_card(
    new_game: dict[str, Any],
) -> None:
    t = in_round(1, **new_game)
    invader_cards = sum(1 for stage in t.state["invader"]["deck_stages"] if stage)
    for _ in range(invader_cards):
        t.do("accelerate")
    assert all(stage == 0 for stage in t.state["invader"]["deck_stages"])
    assert t.refused("accelerate") == "no invader card is left in the deck"


# --- the fear deck ----------------------------------------------------------------------------


def test_a_returned_fear_card_goes_back_on_top_of_the_fear_deck_unearned() -> None:
    t = in_round(1)
    t.do("fear", amount=8)
    assert (t.state["fear"]["earned"], t.state["fear"]["deck"]) == (1, 8)
    events = corrected(t, "return_fear_card")
    assert of_type(events, "fear_deck_corrected") == [
        {"type": "fear_deck_corrected", "action": "returned", "earned": 0, "deck": 9,
         "terror_level": 1}]
    fear = t.state["fear"]
    assert (fear["earned"], fear["deck"], fear["groups"]) == (0, 9, [3, 3, 3])
    assert fear["cards_to_next_terror_level"] == 3


def test_returning_a_fear_card_after_a_divider_leaves_the_terror_level_where_it_is() -> None:
    t = in_round(1)
    t.do("fear", amount=24)
    assert (t.state["terror_level"], t.state["fear"]["earned"]) == (2, 3)
    corrected(t, "return_fear_card")
    fear = t.state["fear"]
    assert t.state["terror_level"] == 2
    assert (fear["earned"], fear["deck"], fear["groups"]) == (2, 7, [0, 4, 3])
    assert fear["cards_to_next_terror_level"] == 4


def test_a_discarded_fear_card_is_unearned_without_going_back_into_the_deck() -> None:
    t = in_round(1)
    t.do("fear", amount=8)
    events = corrected(t, "discard_fear_card")
    assert of_type(events, "fear_deck_corrected")[0]["action"] == "discarded"
    fear = t.state["fear"]
    assert (fear["earned"], fear["discarded"], fear["deck"], fear["resolved"]) == (0, 1, 8, 0)


@pytest.mark.parametrize("cmd", ["return_fear_card", "discard_fear_card"])
def test_an_earned_fear_card_cannot_be_returned_or_discarded_when_none_is_earned(
    cmd: str,
) -> None:
    t = in_round(1)
    t.do("fear", amount=7)
    assert t.refused(cmd) == "no earned fear card is waiting"


def test_an_added_fear_card_means_one_more_card_before_the_next_terror_level() -> None:
    t = in_round(1)
    events = corrected(t, "add_fear_card")
    assert of_type(events, "fear_deck_corrected")[0]["action"] == "added"
    fear = t.state["fear"]
    assert (fear["deck"], fear["groups"], fear["cards_to_next_terror_level"]) == \
        (10, [4, 3, 3], 4)
    t.do("fear", amount=24)
    assert t.state["terror_level"] == 1
    t.do("fear", amount=8)
    assert t.state["terror_level"] == 2


def test_a_removed_fear_card_leaves_the_deck_without_being_earned() -> None:
    t = in_round(1)
    events = corrected(t, "remove_fear_card")
    assert of_type(events, "fear_deck_corrected") == [
        {"type": "fear_deck_corrected", "action": "removed", "earned": 0, "deck": 8,
         "terror_level": 1}]
    fear = t.state["fear"]
    assert (fear["deck"], fear["earned"], fear["cards_to_next_terror_level"]) == (8, 0, 2)
    assert t.state["terror_level"] == 1


def test_removing_the_last_fear_card_of_a_group_raises_the_terror_level() -> None:
    t = in_round(1)
    t.do("remove_fear_card")
    t.do("remove_fear_card")
    events = corrected(t, "remove_fear_card")
    raised = of_type(events, "terror_level_raised")
    assert [event["terror_level"] for event in raised] == [2]
    assert (t.state["terror_level"], t.state["fear"]["groups"]) == (2, [0, 3, 3])


def test_removing_the_last_card_of_the_fear_deck_is_the_fear_victory() -> None:
    # Decided: the fear deck lies on the Victory space (German rulebook, setup and "Furcht"):
    # however its last card leaves, Victory lies open and wins at once. A correction is not an
    # earned card, and the ending says so.
    t = in_round(1, fear_split=[1, 1, 1])
    t.do("remove_fear_card")
    t.do("remove_fear_card")
    assert t.state["outcome"] is None
    events = corrected(t, "remove_fear_card")
    assert of_type(events, "game_ended")[0]["result"] == "victory"
    assert of_type(events, "fear_card_earned") == []
    outcome = t.state["outcome"]
    assert (outcome["result"], outcome["reason"]) == ("victory", "fear")
    assert "correction" in outcome["detail"] and "not earned" in outcome["detail"]
    assert "was earned" not in outcome["detail"]
    assert t.state["terror_level"] == 4
    assert (t.state["fear"]["earned"], t.state["fear"]["deck"]) == (0, 0)


def test_the_fear_victory_by_a_correction_is_told_in_the_players_language() -> None:
    driver = new_driver("de")
    answers = [driver.handle_line(json.dumps(command)) for command in (
        {"cmd": "new_game", "players": 1, "seed": 1, "fear_split": [1, 0, 0]},
        {"cmd": "remove_fear_card"})]
    outcome = answers[-1]["state"]["outcome"]
    assert outcome["reason"] == "fear"
    assert "Korrektur" in outcome["detail"]


def test_lost_fear_goes_back_to_the_pool() -> None:
    t = in_round(1)
    t.do("fear", amount=3)
    events = corrected(t, "lose_fear", amount=2)
    assert of_type(events, "fear_lost") == [
        {"type": "fear_lost", "amount": 2, "pool": 7, "generated": 1}]
    assert (t.state["fear"]["pool"], t.state["fear"]["generated"]) == (7, 1)


def test_no_more_fear_is_lost_than_was_generated_toward_the_next_card() -> None:
    t = in_round(1)
    t.do("fear", amount=9)  # one card earned, 1 marker toward the next
    events = corrected(t, "lose_fear", amount=5)
    assert of_type(events, "fear_lost")[0]["amount"] == 1
    fear = t.state["fear"]
    assert (fear["generated"], fear["pool"], fear["earned"]) == (0, 8, 1)


def test_losing_fear_is_refused_when_none_was_generated() -> None:
    t = in_round(1)
    reason = t.refused("lose_fear", amount=1)
    assert reason == "no fear has been generated toward the next fear card; nothing to lose"


# --- set_blight -------------------------------------------------------------------------------


def test_set_blight_sets_the_blight_on_the_card_and_leaves_the_island_alone() -> None:
    t = in_round(1)
    assert (t.state["blight"]["on_card"], t.state["blight"]["on_island"]) == (5, 2)
    events = corrected(t, "set_blight", on_card=3)
    assert of_type(events, "blight_set") == [{"type": "blight_set", "on_card": 3, "on_island": 2}]
    blight = t.state["blight"]
    assert (blight["on_card"], blight["on_island"], blight["side"]) == (3, 2, "healthy")


def test_set_blight_sets_the_island_too_when_given() -> None:
    t = in_round(1)
    corrected(t, "set_blight", on_card=7, on_island=4)
    blight = t.state["blight"]
    assert (blight["on_card"], blight["on_island"]) == (7, 4)


def test_set_blight_refuses_an_empty_blight_card() -> None:
    t = in_round(1)
    reason = t.refused("set_blight", on_card=0, on_island=3)
    assert reason.startswith("the blight card holds at least 1 blight while the game goes on")


# --- fear cards in play -----------------------------------------------------------------------


def test_naming_a_fear_card_shows_its_effect_at_the_current_terror_level() -> None:
    t = in_fear_step(8)
    card = FEAR_CARDS["avoid-the-dahan"]
    events = corrected(t, "fear_card", card=card.id)
    assert of_type(events, "fear_card_named") == [
        {"type": "fear_card_named", "card": card.id, "name": card.name, "terror_level": 1,
         "effect": card.effect_at(1)}]
    assert t.state["fear"]["card"] == {"id": card.id, "name": card.name, "terror_level": 1,
                                       "effect": card.effect_at(1)}


def test_a_fear_card_named_at_terror_level_2_shows_its_level_2_effect() -> None:
    t = in_fear_step(32)  # 4 cards earned: the Terror Level II divider came up
    assert t.state["terror_level"] == 2
    card = FEAR_CARDS["trade-suffers"]
    t.do("fear_card", card=card.id)
    shown = t.state["fear"]["card"]
    assert (shown["terror_level"], shown["effect"]) == (2, card.effect_at(2))
    assert shown["effect"] != card.effect_at(1)


def test_resolving_a_named_fear_card_records_it_as_seen_and_clears_it() -> None:
    t = in_fear_step(8)
    t.do("fear_card", card="dahan-raid")
    events = corrected(t, "resolve_fear")
    assert of_type(events, "fear_card_resolved") == [
        {"type": "fear_card_resolved", "number": 1, "terror_level": 1, "waiting": 0,
         "card": "dahan-raid"}]
    fear = t.state["fear"]
    assert (fear["card"], fear["seen"], fear["earned"], fear["resolved"]) == \
        (None, ["dahan-raid"], 0, 1)


def test_resolve_fear_with_a_card_names_and_resolves_it_at_once() -> None:
    t = in_fear_step(8)
    card = FEAR_CARDS["isolation"]
    events = t.do("resolve_fear", card=card.id)
    assert [event["type"] for event in events] == ["fear_card_named", "fear_card_resolved"]
    assert events[0]["effect"] == card.effect_at(1)
    assert events[1]["card"] == card.id
    fear = t.state["fear"]
    assert (fear["card"], fear["seen"], fear["earned"]) == (None, [card.id], 0)


def test_a_fear_card_already_resolved_is_refused_unless_forced() -> None:
    t = in_fear_step(16)
    t.do("resolve_fear", card="retreat")
    reason = t.refused("fear_card", card="retreat")
    assert reason.startswith("Retreat! was already resolved in this game")
    assert t.refused("resolve_fear", card="retreat").startswith("Retreat! was already resolved")
    t.do("fear_card", card="retreat", force=True)
    assert t.state["fear"]["card"]["id"] == "retreat"
    t.do("resolve_fear")
    assert t.state["fear"]["seen"] == ["retreat", "retreat"]


@pytest.mark.parametrize("cmd", ["fear_card", "resolve_fear"])
def test_an_unknown_fear_card_is_refused(cmd: str) -> None:
    t = in_fear_step(8)
    assert t.refused(cmd, card="fear-of-the-ocean").startswith(
        "unknown fear card 'fear-of-the-ocean'")


def test_a_fear_card_is_named_only_in_the_fear_step() -> None:
    t = in_round(1)
    t.do("fear", amount=8)
    assert t.state["step"] == "growth"
    reason = t.refused("fear_card", card="avoid-the-dahan")
    assert reason.startswith("earned fear cards are resolved in the Fear step")
    assert t.refused("resolve_fear", card="avoid-the-dahan") == reason


def test_no_fear_card_is_named_once_every_earned_card_is_resolved() -> None:
    t = in_fear_step(8)
    t.do("resolve_fear", card="scapegoats")
    assert t.state["step"] == "fear"
    reason = t.refused("fear_card", card="avoid-the-dahan")
    assert reason == "no earned fear card is waiting to be turned over"


# --- the catalogue ----------------------------------------------------------------------------


def catalogue() -> dict[str, Any]:
    answer = new_driver().handle_line(json.dumps({"cmd": "catalogue"}))
    assert answer["ok"], answer
    return dict(answer["catalogue"])


def test_the_catalogue_lists_the_active_blight_cards_by_box_without_tipping_point() -> None:
    boxes = catalogue()["blight_cards"]
    assert list(boxes) == ["base", "branch-and-claw", "jagged-earth", "nature-incarnate"]
    assert {box: len(cards) for box, cards in boxes.items()} == {
        "base": 2, "branch-and-claw": 6, "jagged-earth": 7, "nature-incarnate": 8}
    ids = [card["id"] for cards in boxes.values() for card in cards]
    assert "tipping-point" not in ids
    assert sorted(ids) == sorted(ACTIVE_BLIGHT_CARDS)
    liking = next(card for card in boxes["jagged-earth"]
                  if card["id"] == "invaders-find-the-land-to-their-liking")
    assert (liking["still_healthy"], liking["blighted_per_player"], liking["timing"]) == \
        (True, 2, "on_flip")


def test_the_catalogue_lists_all_fifty_fear_cards_by_box_with_three_effects_each() -> None:
    boxes = catalogue()["fear_cards"]
    assert {box: len(cards) for box, cards in boxes.items()} == {
        "base": 15, "branch-and-claw": 15, "jagged-earth": 6, "promo-pack-2": 5,
        "nature-incarnate": 9}
    cards = [card for box in boxes.values() for card in box]
    assert len(cards) == len({card["id"] for card in cards}) == 50
    assert all(card["effects"] == list(FEAR_CARDS[card["id"]].effects) for card in cards)


def test_the_catalogue_lists_eight_adversaries_with_levels_0_to_6_and_fifteen_scenarios() -> None:
    listed = catalogue()
    adversaries = listed["adversaries"]
    assert len(adversaries) == 8
    assert all([level["level"] for level in a["levels"]] == list(range(7)) for a in adversaries)
    assert len(listed["scenarios"]) == len({s["id"] for s in listed["scenarios"]}) == 15


def test_asking_for_the_catalogue_in_a_game_changes_nothing() -> None:
    t = in_round(1)
    before = t.state
    answer = t.send("catalogue")
    assert answer["ok"] and answer["events"] == []
    assert "blight_cards" in answer["catalogue"]
    assert answer["state"] == before


# --- blight cards in play ---------------------------------------------------------------------


@pytest.mark.parametrize("card_id", ACTIVE_BLIGHT_CARDS)
def test_a_game_can_start_with_any_blight_card_and_shows_its_back_once_it_flips(
    card_id: str,
) -> None:
    card = BLIGHT_CARDS[card_id]
    t = in_round(1, blight_card=card_id)
    blight = t.state["blight"]
    assert (blight["card"], blight["name"], blight["side"]) == (card_id, card.name, "healthy")
    assert blight["effect"] is None  # the back of a Healthy Island card is not looked at
    events = t.do("blight", amount=5)
    side = "still_healthy" if card.still_healthy else "blighted"
    refill = card.blighted_per_player * 2
    assert of_type(events, "blight_card_flipped") == [
        {"type": "blight_card_flipped", "card": card_id, "name": card.name, "refilled": refill,
         "effect": card.effect, "side": side, "timing": card.timing}]
    blight = t.state["blight"]
    assert (blight["side"], blight["on_card"], blight["on_island"]) == (side, refill, 7)
    assert (blight["effect"], blight["timing"]) == (card.effect, card.timing)
    assert t.state["outcome"] is None


@pytest.mark.parametrize("card_id", ACTIVE_BLIGHT_CARDS)
def test_the_blighted_island_step_happens_only_for_cards_that_act_every_invader_phase(
    card_id: str,
) -> None:
    card = BLIGHT_CARDS[card_id]
    t = in_round(1, blight_card=card_id)
    t.do("blight", amount=5)
    t.next_round()
    events = events_until(t, "ravage")
    started = [event["step"] for event in of_type(events, "step_started")]
    skipped = {event["step"]: event["why"] for event in of_type(events, "step_skipped")}
    if card.timing in EVERY_INVADER_PHASE:
        assert "blighted_island" in started
        assert "blighted_island" not in skipped
    else:
        assert "blighted_island" not in started
        assert skipped["blighted_island"] == \
            "the blight card acts only when it flips or as a standing rule"


def test_a_card_that_acts_only_on_its_flip_skips_the_blighted_island_step_later() -> None:
    t = in_round(1, blight_card="a-pall-upon-the-land")
    events = t.do("blight", amount=5)
    assert of_type(events, "blight_card_flipped")[0]["refilled"] == 6
    assert t.state["blight"]["effect"] == BLIGHT_CARDS["a-pall-upon-the-land"].effect
    t.next_round()
    skipped = of_type(events_until(t, "ravage"), "step_skipped")
    assert {"type": "step_skipped", "step": "blighted_island",
            "why": "the blight card acts only when it flips or as a standing rule"} in skipped


def test_an_every_invader_phase_card_opens_the_invader_phase_with_its_effect() -> None:
    t = in_round(1, blight_card="downward-spiral")
    t.do("blight", amount=5)
    assert t.state["blight"]["on_card"] == 10
    events_until(t, "blighted_island")
    assert (t.state["phase"], t.state["round"]) == ("invader", 1)
    assert BLIGHT_CARDS["downward-spiral"].effect in t.state["prompt"]
    t.next_round()
    events_until(t, "blighted_island")
    assert t.state["round"] == 2


# --- Still-Healthy Island cards ---------------------------------------------------------------


def still_healthy_emptied(**new_game: Any) -> Table:
    """Strong Earth Shatters Slowly (2 players) flipped and then emptied in round 1."""
    t = in_round(1, blight_card="strong-earth-shatters-slowly", **new_game)
    t.do("blight", amount=5)
    t.do("blight", amount=4)
    return t


def test_emptying_a_still_healthy_card_flips_it_to_its_still_healthy_side_not_a_loss() -> None:
    t = in_round(1, blight_card="strong-earth-shatters-slowly")
    events = t.do("blight", amount=5)
    [flipped] = of_type(events, "blight_card_flipped")
    assert (flipped["side"], flipped["refilled"]) == ("still_healthy", 4)
    blight = t.state["blight"]
    assert (blight["side"], blight["on_card"], blight["awaiting_card"]) == \
        ("still_healthy", 4, False)
    assert t.state["outcome"] is None


def test_when_the_still_healthy_side_empties_the_players_must_name_the_next_blight_card() -> None:
    t = in_round(1, blight_card="strong-earth-shatters-slowly")
    t.do("blight", amount=5)
    events = t.do("blight", amount=4)
    assert of_type(events, "blight_card_needed") == [
        {"type": "blight_card_needed", "owed": 0, "flipping": False}]
    assert of_type(events, "game_ended") == []
    state = t.state
    assert state["outcome"] is None
    assert state["blight"]["awaiting_card"] is True
    assert state["blight"]["on_card"] == 0
    assert state["blight"]["earlier_cards"] == ["strong-earth-shatters-slowly"]
    assert state["prompt"] == AWAITING_BLIGHT_CARD_PROMPT
    assert "next_blight_card" in t.refused("next")
    assert "next_blight_card" in t.refused("heal", amount=1)
    assert "next_blight_card" in t.refused("set_blight", on_card=3)


def test_the_next_blight_card_goes_straight_to_its_blighted_side_less_the_blight_owed() -> None:
    t = still_healthy_emptied()
    island = t.state["blight"]["on_island"]
    t.do("blight", amount=2)  # taken while no card is in place: owed by the next card
    assert t.state["blight"]["on_island"] == island + 2
    assert (t.state["blight"]["awaiting_card"], t.state["blight"]["on_card"]) == (True, 0)
    events = corrected(t, "next_blight_card", card="downward-spiral")
    [flipped] = of_type(events, "blight_card_flipped")
    assert (flipped["card"], flipped["side"], flipped["refilled"]) == \
        ("downward-spiral", "blighted", 10)
    blight = t.state["blight"]
    assert (blight["card"], blight["side"], blight["on_card"], blight["awaiting_card"]) == \
        ("downward-spiral", "blighted", 8, False)
    assert blight["earlier_cards"] == ["strong-earth-shatters-slowly"]
    assert blight["effect"] == BLIGHT_CARDS["downward-spiral"].effect
    t.do("next")  # the game goes on


def test_blight_beyond_the_still_healthy_pool_in_one_go_is_owed_by_the_next_card() -> None:
    t = in_round(1, blight_card="strong-earth-shatters-slowly")
    t.do("blight", amount=5)
    t.do("blight", amount=7)  # 4 from the card, 3 owed
    assert t.state["blight"]["awaiting_card"]
    t.do("next_blight_card", card="memory-fades-to-dust")
    assert t.state["blight"]["on_card"] == 4 * 2 - 3


def test_the_blight_card_needed_event_counts_blight_taken_past_the_empty_card_in_one_go() -> None:
    t = in_round(1, blight_card="strong-earth-shatters-slowly")
    t.do("blight", amount=5)
    events = t.do("blight", amount=7)  # 4 from the card, 3 owed by the next one
    assert of_type(events, "blight_card_needed") == [
        {"type": "blight_card_needed", "owed": 3, "flipping": False}]


def test_a_next_card_with_too_little_blight_for_the_owed_blight_is_used_up_at_once() -> None:
    t = still_healthy_emptied()
    t.do("blight", amount=3)
    events = t.do("next_blight_card", card="the-border-of-life-and-death")  # 1 per player
    assert of_type(events, "blight_card_needed") == [
        {"type": "blight_card_needed", "owed": 1, "flipping": False}]
    blight = t.state["blight"]
    assert blight["awaiting_card"] and blight["on_card"] == 0
    assert blight["earlier_cards"] == ["strong-earth-shatters-slowly",
                                       "the-border-of-life-and-death"]
    t.do("next_blight_card", card="downward-spiral")
    assert t.state["blight"]["on_card"] == 10 - 1


def test_a_blight_card_already_used_cannot_be_named_again() -> None:
    t = still_healthy_emptied()
    reason = t.refused("next_blight_card", card="strong-earth-shatters-slowly")
    assert reason == "Strong Earth Shatters Slowly was already used in this game"
    t.do("next_blight_card", card="thriving-crops")
    assert (t.state["blight"]["side"], t.state["blight"]["on_card"]) == ("still_healthy", 4)
    t.do("blight", amount=4)
    assert t.state["blight"]["awaiting_card"]
    assert t.refused("next_blight_card", card="thriving-crops") == \
        "Thriving Crops was already used in this game"
    assert t.refused("next_blight_card", card="no-such-card").startswith(
        "unknown blight card 'no-such-card'")


def test_next_blight_card_is_refused_while_a_card_still_holds_blight() -> None:
    t = in_round(1, blight_card="strong-earth-shatters-slowly")
    assert t.refused("next_blight_card", card="downward-spiral").startswith(
        "a blight card is named only when the card drawn face down flips")
    t.do("blight", amount=5)
    assert t.refused("next_blight_card", card="downward-spiral").startswith(
        "a blight card is named only when")


def test_emptying_the_blighted_island_card_drawn_after_a_still_healthy_one_loses() -> None:
    t = still_healthy_emptied()
    t.do("next_blight_card", card="downward-spiral")
    t.do("blight", amount=9)
    assert t.state["outcome"] is None
    events = t.do("blight", amount=1)
    [ended] = of_type(events, "game_ended")
    assert (ended["result"], ended["reason"]) == ("defeat", "blight")
    assert (t.state["outcome"]["result"], t.state["outcome"]["reason"]) == ("defeat", "blight")


# --- Invaders Find the Land to Their Liking ---------------------------------------------------


@pytest.mark.parametrize(("players", "fear", "terror_level", "pool_size", "grown"), [
    (2, 0, 1, 8, 10),    # 1 per player
    (3, 36, 2, 12, 16),  # 1.5 per player, rounded down
    (2, 48, 3, 8, 12),   # 2 per player
])
def test_invaders_find_the_land_to_their_liking_grows_the_fear_pool_when_it_flips(
    players: int, fear: int, terror_level: int, pool_size: int, grown: int,
) -> None:
    t = in_round(1, players=players, blight_card="invaders-find-the-land-to-their-liking")
    if fear:
        t.do("fear", amount=fear)
    t.do("fear", amount=3)
    assert (t.state["terror_level"], t.state["fear"]["pool_size"]) == (terror_level, pool_size)
    events = corrected(t, "blight", amount=2 * players + 1)
    [flipped] = of_type(events, "blight_card_flipped")
    assert (flipped["side"], flipped["refilled"]) == ("still_healthy", 2 * players)
    assert of_type(events, "fear_pool_changed") == [
        {"type": "fear_pool_changed", "pool_size": grown, "pool": grown - 3}]
    fear_track = t.state["fear"]
    assert (fear_track["pool_size"], fear_track["pool"], fear_track["generated"]) == \
        (grown, grown - 3, 3)


def test_the_fear_pool_grows_when_that_card_is_drawn_after_a_still_healthy_card() -> None:
    t = still_healthy_emptied()
    events = t.do("next_blight_card", card="invaders-find-the-land-to-their-liking")
    assert of_type(events, "fear_pool_changed") == [
        {"type": "fear_pool_changed", "pool_size": 10, "pool": 10}]
    assert t.state["blight"]["side"] == "still_healthy"
