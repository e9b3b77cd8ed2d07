"""What a Glow companion laid on the reader does, at each moment of a game (pure: the game's
views and the shared rules of companion.ui.reads, without Kivy or a reader); the command the
table then sends is given to the model, to show the card goes where the message says."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from companion import i18n
from companion.games.glow.definition import GLOW
from companion.games.glow.reads import plan_read as glow_plan
from companion.games.glow.state import State
from companion.games.glow.view import view
from companion.ui.reads import ReadPlan, plan_read

from .play import do, done, new, to_phase

BRIKI = "glow-A11"


def tag(card: str, name: str = "Briki") -> dict[str, Any]:
    return {"uid": "04C1C2C3C4C5C6", "kind": "companion", "card": card, "name": name}


def read(state: State, card: str = BRIKI, screen: str = "table") -> ReadPlan:
    return plan_read("04C1C2C3C4C5C6", tag(card), view(state), screen)


@pytest.fixture
def german() -> Iterator[None]:
    i18n.set_language("de")
    try:
        yield
    finally:
        i18n.set_language("en")


def test_every_companion_of_the_card_list_can_have_a_tag() -> None:
    cards = GLOW.tag_cards()["companion"]
    assert [card["id"] for card in cards] == [c["id"] for c in GLOW.catalogue()["companions"]]
    assert {"id": BRIKI, "name": "Briki", "stage": None} in cards
    assert GLOW.tag_kinds["companion"].many == "companion cards"


def test_a_companion_read_in_the_morning_is_recruited_by_the_player_whose_pick_it_is() -> None:
    state = new(players=3, start_player=1, names=["Ada", "Bo", "Cy"])
    plan = read(state)
    assert (plan.kind, plan.card, plan.command) == ("choose_companion", BRIKI, None)
    assert plan.message == "Bo recruits Briki: from which area?"
    # The table asks for the area, then sends the pick for the player whose pick it is.
    after = do(state, "pick", player=1, area=3, card=BRIKI)
    assert [c.card for c in after.players[1].companions] == [BRIKI]
    assert read(after, "glow-A01").message == "Cy recruits Likyar: from which area?"


def test_the_companion_someone_holds_read_again_changes_nothing() -> None:
    state = do(new(players=3, start_player=0), "pick", player=0, area=1, card=BRIKI)
    assert glow_plan("companion", BRIKI, view(state), "table") is None
    plan = read(state)
    assert (plan.kind, plan.command) == ("show", None)
    assert plan.message == "Briki (companion card). Nothing to do with it just now."


@pytest.mark.parametrize("phase", ["late_morning", "noon", "afternoon", "evening"])
def test_a_companion_read_after_the_morning_only_says_what_it_is(phase: str) -> None:
    state = to_phase(new(players=2), phase)
    assert read(state).kind == "show"


def test_with_two_players_a_companion_read_while_the_start_player_discards_says_what_it_is(
        ) -> None:
    state = do(new(players=2, start_player=0), "pick", player=0, area=2)
    assert view(state)["needs_discard"]
    assert read(state).kind == "show"
    after = do(state, "discard", area=4)
    assert read(after).kind == "choose_companion"


def test_a_companion_read_once_everyone_recruited_off_the_table_or_after_the_game_says_what_it_is(
        ) -> None:
    state = new(players=3, start_player=0)
    for player in (0, 1, 2):
        state = do(state, "pick", player=player, area=player + 1)
    assert read(state).kind == "show"
    assert read(new(players=3), screen="rules").kind == "show"
    assert plan_read("04C1C2C3C4C5C6", tag(BRIKI), None, "new_game").kind == "show"
    over = new(players=2)
    while over.phase != "over":
        over = done(over)
    assert read(over).kind == "show"


def test_the_question_is_asked_in_the_players_language(german: None) -> None:
    plan = read(new(players=3, start_player=2, names=["Ada", "Bo", "Cy"]))
    assert plan.message == "Cy wirbt Briki an: aus welchem Bereich?"
