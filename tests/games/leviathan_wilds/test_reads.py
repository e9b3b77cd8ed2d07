"""What a Leviathan Wilds card laid on the reader does, at each moment of a game (pure: the
game's views and the shared rules of companion.ui.reads, without Kivy or a reader); each command
planned is then given to the model, to show it does what the message says."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from companion import i18n
from companion.core.errors import Refused
from companion.games.leviathan_wilds.api import view
from companion.games.leviathan_wilds.reads import plan_read as leviathan_plan
from companion.games.leviathan_wilds.state import State
from companion.ui.reads import ReadPlan, plan_read

from .play import do, new, to_step

SAGE_TWO = "LW-threat-1-2"  # the games below are against leviathan 1, the Sage


def tag(kind: str, card: str) -> dict[str, Any]:
    return {"uid": "04C1C2C3C4C5C6", "kind": kind, "card": card, "name": card}


def read(state: State, kind: str, card: str, screen: str = "table") -> ReadPlan:
    return plan_read("04C1C2C3C4C5C6", tag(kind, card), view(state), screen)


def carry_out(state: State, plan: ReadPlan) -> State:
    assert plan.kind == "send" and plan.command is not None
    fields = {key: value for key, value in plan.command.items() if key != "cmd"}
    return do(state, plan.command["cmd"], **fields)


@pytest.fixture
def german() -> Iterator[None]:
    i18n.set_language("de")
    try:
        yield
    finally:
        i18n.set_language("en")


# --- threats ----------------------------------------------------------------------------------


def test_a_threat_card_read_in_step_1_turns_the_next_threat_over_as_that_card() -> None:
    state = new()
    plan = read(state, "threat", SAGE_TWO)
    assert plan.command == {"cmd": "reveal", "card": SAGE_TWO}
    assert plan.message == "Threat card read: 1 Sage · threat 2"
    after = carry_out(state, plan)
    assert after.revealed_slot == 0
    assert after.row[0].face_up and after.row[0].card == SAGE_TWO


def test_a_threat_card_read_after_the_reveal_names_the_card_turned_over() -> None:
    turned = do(new(), "reveal")  # turned over by a tap, its card not named
    plan = read(turned, "threat", SAGE_TWO)
    assert plan.command == {"cmd": "reveal", "card": SAGE_TWO}
    assert plan.message == "Threat 1 is 1 Sage · threat 2"
    named = carry_out(turned, plan)
    assert named.row[0].card == SAGE_TWO and named.next_slot == 1

    renamed = carry_out(named, read(named, "threat", "LW-threat-1-5"))
    assert renamed.row[0].card == "LW-threat-1-5"


def test_the_threat_card_already_named_read_again_changes_nothing() -> None:
    named = do(new(), "reveal", card=SAGE_TWO)
    assert leviathan_plan("threat", SAGE_TWO, view(named), "table") is None
    plan = read(named, "threat", SAGE_TWO)
    assert (plan.kind, plan.command) == ("show", None)
    assert plan.message == "1 Sage · threat 2 (threat card). Nothing to do with it just now."


@pytest.mark.parametrize("step", ["activate", "resolve", "draw"])
def test_a_threat_card_read_after_step_1_only_says_what_it_is(step: str) -> None:
    state = to_step(new(), step)
    assert read(state, "threat", SAGE_TWO).kind == "show"


def test_another_leviathans_threat_is_sent_and_the_model_says_why_it_is_refused() -> None:
    state = new()
    plan = read(state, "threat", "LW-threat-3-2")
    assert plan.command == {"cmd": "reveal", "card": "LW-threat-3-2"}
    with pytest.raises(Refused, match="is a threat of leviathan 3"):
        carry_out(state, plan)


# --- weaknesses -------------------------------------------------------------------------------


@pytest.mark.parametrize("step", ["reveal", "activate", "resolve", "draw"])
def test_a_weakness_read_is_drawn_by_the_guardian_whose_turn_it_is(step: str) -> None:
    state = to_step(do(to_step(new(), "draw"), "next"), step)  # guardian 2's turn
    assert state.active == 1
    plan = read(state, "weakness", "LW-weakness-7")
    assert plan.command == {"cmd": "weakness", "guardian": 1, "card": "LW-weakness-7"}
    assert plan.message == "Guardian 2 draws a weakness: Weakness 7"
    after = carry_out(state, plan)
    assert after.guardians[1].weaknesses == ("LW-weakness-7",)
    assert after.weakness_deck == state.weakness_deck - 1


def test_a_weakness_a_guardian_holds_is_got_rid_of_when_it_is_read_again() -> None:
    state = do(new(), "weakness", guardian=1, card="LW-weakness-3")
    plan = read(state, "weakness", "LW-weakness-3")
    assert plan.command == {"cmd": "weakness", "guardian": 1, "card": "LW-weakness-3",
                            "remove": True}
    assert plan.message == "Guardian 2 gets rid of a weakness: Weakness 3"
    after = carry_out(state, plan)
    assert after.guardians[1].weaknesses == () and after.weakness_deck == 12


def test_a_weakness_is_named_after_the_guardians_character_when_it_has_one() -> None:
    state = new(guardians=[{"character": "Rowan", "class": "Scout"},
                           {"character": "Ilse", "class": "Mystic"}])
    assert read(state, "weakness", "LW-weakness-1").message == (
        "Rowan draws a weakness: Weakness 1")


def test_a_defeated_guardian_draws_no_weakness() -> None:
    state = do(new(players=3), "health", guardian=0, amount=-8)
    assert state.guardians[0].defeated and state.active == 0
    assert read(state, "weakness", "LW-weakness-1").kind == "show"


def test_the_read_messages_are_in_the_players_language(german: None) -> None:
    state = new()
    assert read(state, "weakness", "LW-weakness-7").message == (
        "Hüter 1 zieht eine Schwäche: Schwäche 7")
    assert read(state, "threat", SAGE_TWO).message == (
        "Bedrohungskarte gelesen: 1 Sage · Bedrohung 2")


# --- the shared rules on Leviathan's table -------------------------------------------------------


def test_nothing_is_sent_off_the_table_or_once_the_game_is_over() -> None:
    state = new()
    assert read(state, "threat", SAGE_TWO, screen="home").kind == "show"
    assert read(state, "weakness", "LW-weakness-1", screen="tags").kind == "show"
    over = do(do(new(), "health", guardian=0, amount=-8), "health", guardian=1, amount=-8)
    assert over.outcome is not None
    assert read(over, "weakness", "LW-weakness-1").kind == "show"
    assert read(over, "command", "undo").kind == "show"


def test_command_tags_work_on_leviathans_table() -> None:
    state = new()
    assert read(state, "command", "done").kind == "act"
    assert read(state, "command", "undo").command == {"cmd": "undo"}
    assert read(state, "command", "redo").command == {"cmd": "redo"}


def test_spirit_island_cards_on_leviathans_table_only_say_what_they_are() -> None:
    state = new()
    for kind, card in (("invader", "I-jungle"), ("fear", "avoid-the-dahan"),
                       ("blight", "downward-spiral")):
        plan = read(state, kind, card)
        assert (plan.kind, plan.command) == ("show", None), kind


def test_leviathan_cards_on_spirit_islands_table_only_say_what_they_are() -> None:
    spirit_island = {"title": "spirit-island", "phase": "invader", "step": "explore",
                     "deck_mode": "physical", "invader": {"awaiting_reveal": True},
                     "fear": {"earned": 0}, "blight": {"awaiting_card": False}}
    for kind, card in (("threat", SAGE_TWO), ("weakness", "LW-weakness-1")):
        plan = plan_read("X", tag(kind, card), spirit_island, "table")
        assert (plan.kind, plan.command) == ("show", None), kind
