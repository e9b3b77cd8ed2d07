"""The app never disagrees with the physical table: a tap finishes only the step it was meant
for, a blight card drawn face down stays unknown until it flips and the players name it, and
the setup checklist says only what this table does."""

from __future__ import annotations

from companion.games.spirit_island.blight_cards import BLIGHT_CARDS
from companion.games.spirit_island.texts import AWAITING_FLIPPED_BLIGHT_CARD_PROMPT
from tests.table_player import Table

# --- a tap means one step -------------------------------------------------------------------


def test_next_naming_the_current_step_finishes_it() -> None:
    t = Table()
    t.until("growth")
    t.do("next", step="growth")
    assert t.state["step"] == "gain_energy"


def test_a_second_next_for_a_step_already_finished_is_refused_and_changes_nothing() -> None:
    t = Table()
    t.until("build", phase="invader")
    t.do("next", step="build")
    assert t.state["step"] == "explore"
    reason = t.refused("next", step="build")
    assert "'build'" in reason and "'explore'" in reason and "nothing was changed" in reason
    assert t.state["step"] == "explore"
    assert t.state["undo_count"] == t.game.answers[-2]["state"]["undo_count"]


def test_next_without_a_step_still_finishes_whatever_step_is_current() -> None:
    t = Table()
    t.until("slow_powers")
    t.do("next")
    t.do("next")
    assert t.state["step"] == "growth"


def test_next_with_a_step_is_logged_so_the_game_replays_the_same() -> None:
    t = Table()
    t.until("growth")
    t.do("next", step="growth")
    t.do("undo")
    t.do("redo")
    assert t.state["step"] == "gain_energy"


# --- a blight card drawn face down ----------------------------------------------------------


def _blight_taken_until_the_card_is_empty(t: Table) -> list[dict[str, object]]:
    return t.do("blight", amount=t.state["blight"]["on_card"])


def test_with_our_own_cards_a_random_blight_card_is_unknown_until_it_flips() -> None:
    t = Table(players=2, deck="physical")
    assert t.game.answers[0]["events"][0]["blight_card"] is None
    blight = t.state["blight"]
    assert (blight["card"], blight["name"], blight["effect"]) == (None, None, None)
    assert blight["on_card"] == 2 * 2 + 1  # the same for every card on its healthy side
    checklist = {item["id"]: item["text"] for item in t.state["setup_checklist"]}
    assert "at random" in checklist["base-blight-card"]


def test_when_the_unknown_card_flips_the_players_name_it_and_its_refill_follows() -> None:
    t = Table(players=2, deck="physical")
    t.until("growth")
    events = _blight_taken_until_the_card_is_empty(t)
    assert [e for e in events if e["type"] == "blight_card_needed"] == [
        {"type": "blight_card_needed", "owed": 0, "flipping": True}]
    assert [e for e in events if e["type"] == "blight_card_flipped"] == []
    state = t.state
    assert state["blight"]["awaiting_card"] and state["outcome"] is None
    assert state["prompt"] == AWAITING_FLIPPED_BLIGHT_CARD_PROMPT
    assert "which card it is" in t.refused("next", step="growth")
    t.do("blight")  # blight taken meanwhile is owed by the card when it is named
    events = t.do("next_blight_card", card="downward-spiral")
    [flipped] = [e for e in events if e["type"] == "blight_card_flipped"]
    card = BLIGHT_CARDS["downward-spiral"]
    assert flipped["card"] == "downward-spiral"
    assert flipped["refilled"] == card.blighted_per_player * 2
    blight = t.state["blight"]
    assert blight["card"] == "downward-spiral" and blight["name"] == card.name
    assert blight["effect"] == card.effect and blight["side"] == "blighted"
    assert blight["on_card"] == card.blighted_per_player * 2 - 1
    assert blight["earlier_cards"] == []


def test_a_still_healthy_card_named_at_the_flip_waits_for_the_next_card_when_it_runs_out() -> None:
    t = Table(players=2, deck="physical")
    t.until("growth")
    _blight_taken_until_the_card_is_empty(t)
    t.do("next_blight_card", card="strong-earth-shatters-slowly")
    assert t.state["blight"]["side"] == "still_healthy"
    events = _blight_taken_until_the_card_is_empty(t)
    assert [e for e in events if e["type"] == "blight_card_needed"] == [
        {"type": "blight_card_needed", "owed": 0, "flipping": False}]
    assert t.state["blight"]["earlier_cards"] == ["strong-earth-shatters-slowly"]


def test_with_the_app_shuffling_its_random_blight_card_shows_nothing_before_the_flip() -> None:
    t = Table(players=2, deck="virtual")
    assert t.game.answers[0]["events"][0]["blight_card"] is None
    blight = t.state["blight"]
    assert (blight["card"], blight["name"]) == (None, None)
    t.until("growth")
    events = _blight_taken_until_the_card_is_empty(t)
    [flipped] = [e for e in events if e["type"] == "blight_card_flipped"]
    assert t.state["blight"]["card"] == flipped["card"]
    assert t.state["blight"]["name"] == BLIGHT_CARDS[flipped["card"]].name


def test_a_blight_card_the_players_chose_is_named_from_setup_on() -> None:
    t = Table(players=2, deck="physical", blight_card="downward-spiral")
    assert t.state["blight"]["card"] == "downward-spiral"
    checklist = {item["id"]: item["text"] for item in t.state["setup_checklist"]}
    assert BLIGHT_CARDS["downward-spiral"].name in checklist["base-blight-card"]
    assert "at random" not in checklist["base-blight-card"]


def test_an_unknown_card_is_named_in_a_replayed_game_exactly_as_before() -> None:
    t = Table(players=1, deck="physical", seed=5)
    t.until("growth")
    _blight_taken_until_the_card_is_empty(t)
    t.do("next_blight_card", card="tipping-point")
    flipped_state = t.state
    t.do("undo")
    assert t.state["blight"]["awaiting_card"] and t.state["blight"]["card"] is None
    t.do("redo")
    assert t.state == flipped_state


# --- the checklist says what this table does ------------------------------------------------


def _checklist_ids(**new_game: object) -> list[str]:
    return [item["id"] for item in Table(**new_game).state["setup_checklist"]]


def test_with_the_app_dealing_the_deck_the_checklist_does_not_ask_to_stack_it() -> None:
    virtual = _checklist_ids(adversary="brandenburg-prussia", level=2, deck="virtual")
    physical = _checklist_ids(adversary="brandenburg-prussia", level=2, deck="physical")
    assert "brandenburg-prussia-2-surge-of-colonists" not in virtual
    assert "brandenburg-prussia-2-surge-of-colonists" in physical
    assert "brandenburg-prussia-1-fast-start" in virtual  # pieces on the boards stay


def test_playing_with_events_adds_the_event_deck_to_the_checklist() -> None:
    t = Table(events=True)
    texts = {item["id"]: item["text"] for item in t.state["setup_checklist"]}
    assert "25 cards" in texts["base-event-deck"]
    assert "base-event-deck" not in _checklist_ids()


# --- words -----------------------------------------------------------------------------------


def test_royal_backing_names_the_discarded_card_not_its_id() -> None:
    t = Table(adversary="sweden", level=4, seed=3)
    assert t.state["step"] == "royal_backing"
    discarded = t.state["invader"]["discard"][-1]
    assert discarded not in t.state["prompt"]
    assert "the top invader card, " in t.state["prompt"]


def test_the_fear_prompt_writes_the_terror_level_as_the_board_does() -> None:
    t = Table(players=1)
    t.until("growth")
    t.do("fear", amount=4 * 3 + 4)  # 4 cards: terror level II
    t.until("fear")
    assert "terror level II." in t.state["prompt"]
