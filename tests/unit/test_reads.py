"""What a card laid on the reader does, at each moment of the game (the rules, without Kivy)."""

from __future__ import annotations

from typing import Any

from companion.ui.reads import forceable, plan_read


def tag(kind: str, card: str, name: str = "a card") -> dict[str, Any]:
    return {"uid": "04497622D93881", "kind": kind, "card": card, "name": name}


def state(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "phase": "invader", "step": "explore", "round": 1, "deck_mode": "physical",
        "invader": {"awaiting_reveal": True},
        "fear": {"earned": 0, "card": None},
        "blight": {"awaiting_card": False},
    }
    for key, value in changes.items():
        base[key] = {**base[key], **value} if isinstance(value, dict) else value
    return base


def test_an_unknown_tag_offers_enrolment():
    plan = plan_read("04497622D93881", None, state(), "table")
    assert plan.kind == "enrol"
    assert "04497622D93881" in plan.message


def test_an_invader_card_read_while_the_table_waits_for_one_reveals_it():
    plan = plan_read("X", tag("invader", "II-coastal", "Coastal Lands (stage II)"), state(),
                     "table")
    assert plan.kind == "send"
    assert plan.command == {"cmd": "reveal", "card": "II-coastal"}
    assert "Coastal Lands" in plan.message


def test_an_invader_card_read_with_the_virtual_deck_changes_nothing():
    plan = plan_read("X", tag("invader", "I-jungle"), state(deck_mode="virtual"), "table")
    assert plan.kind == "show"
    assert plan.command is None


def test_an_invader_card_read_in_another_step_only_says_what_it_is():
    waiting_for_nothing = state(step="build", invader={"awaiting_reveal": False})
    plan = plan_read("X", tag("invader", "I-jungle", "Jungle (stage I)"), waiting_for_nothing,
                     "table")
    assert (plan.kind, plan.command) == ("show", None)
    assert "Jungle (stage I)" in plan.message


def test_a_fear_card_read_in_the_fear_step_turns_it_over_so_its_effect_shows_until_done():
    fear_step = state(phase="invader", step="fear", invader={"awaiting_reveal": False},
                      fear={"earned": 2})
    plan = plan_read("X", tag("fear", "dahan-enheartened"), fear_step, "table")
    assert plan.command == {"cmd": "fear_card", "card": "dahan-enheartened"}


def test_a_fear_card_read_with_no_card_earned_changes_nothing():
    fear_step = state(step="fear", invader={"awaiting_reveal": False}, fear={"earned": 0})
    assert plan_read("X", tag("fear", "dahan-enheartened"), fear_step, "table").kind == "show"


def test_a_blight_card_read_during_setup_chooses_it():
    plan = plan_read("X", tag("blight", "downward-spiral"), None, "new_game")
    assert (plan.kind, plan.card) == ("choose_blight", "downward-spiral")


def test_a_blight_card_read_when_the_table_asks_for_the_next_one_names_it():
    asking = state(step="blighted_island", invader={"awaiting_reveal": False},
                   blight={"awaiting_card": True})
    plan = plan_read("X", tag("blight", "downward-spiral"), asking, "table")
    assert plan.command == {"cmd": "next_blight_card", "card": "downward-spiral"}


def test_command_tags_work_on_the_table_only():
    assert plan_read("X", tag("command", "done"), state(), "table").kind == "act"
    assert plan_read("X", tag("command", "undo"), state(), "table").command == {"cmd": "undo"}
    assert plan_read("X", tag("command", "redo"), state(), "table").command == {"cmd": "redo"}
    assert plan_read("X", tag("command", "done"), state(), "home").kind == "show"


def test_nothing_is_sent_once_the_game_is_over():
    over = state(phase="over")
    assert plan_read("X", tag("invader", "I-jungle"), over, "table").kind == "show"
    assert plan_read("X", tag("command", "undo"), over, "table").kind == "show"


def test_a_card_out_of_order_may_be_taken_anyway_but_a_second_card_may_not():
    out_of_order = ("I-jungle is a stage I card, but the next card in the deck is stage II "
                    "(send force: true if your table plays it that way)")
    assert forceable(out_of_order) == ("I-jungle is a stage I card, but the next card in the "
                                       "deck is stage II")
    assert forceable("a card was already turned over in this step; undo first") is None
