"""The test scenarios of the rules digest (section 9.4), one test per rule."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.core.errors import Refused
from companion.games.leviathan_wilds.api import setup_checklist
from companion.games.leviathan_wilds.data import WRATH_START, WRATH_WILD_COUNTS
from companion.games.leviathan_wilds.effects import parry_options
from companion.games.leviathan_wilds.state import ThreatSlot

from .play import do, finish_turn, new, send, to_step, turns


# 1. Setup, medium, 2 guardians (Spielaufbau 11-24)
def test_setup_gives_each_guardian_8_health_0_corruption_exhausted_focus_and_3_cards() -> None:
    state = new(players=2, difficulty="medium")
    assert len(state.guardians) == 2
    for guardian in state.guardians:
        assert (guardian.health, guardian.corruption, guardian.hand) == (8, 0, 3)
        assert not guardian.focus_ready and not guardian.falling and not guardian.defeated
    assert state.row == (ThreatSlot(),) * 5
    assert state.wrath == WRATH_START["medium"]
    assert state.weakness_deck == 12
    assert (state.round, state.step, state.active) == (1, "reveal", 0)
    ids = [item for item, _ in setup_checklist(state)]
    assert "lw-setup-attack-markers" in ids and "lw-setup-wild" not in ids


# 2. Hard / expert setup (Spielaufbau 13)
@pytest.mark.parametrize(("difficulty", "wild"), [
    ("easy", ()), ("medium", ()), ("hard", (0,)), ("expert", (0, 1))])
def test_hard_turns_the_first_threat_wild_and_expert_the_first_two(
        difficulty: str, wild: tuple[int, ...]) -> None:
    state = new(difficulty=difficulty)
    assert tuple(i for i, slot in enumerate(state.row) if slot.wild) == wild
    assert not any(slot.face_up for slot in state.row)


# 3. Reveal keeps orientation (Bedrohung aufdecken)
def test_revealing_a_wild_threat_keeps_it_wild_and_the_next_reveal_is_the_next_slot() -> None:
    state = new(difficulty="hard")
    assert state.next_slot == 0
    state = do(state, "next")
    assert state.row[0] == ThreatSlot(face_up=True, wild=True)
    assert state.next_slot == 1
    state = finish_turn(state)
    state = do(state, "next")
    assert state.row[1].face_up and not state.row[1].wild


# 4. Round length and rotation (Zug des nächsten Spielers; Rundenende)
def test_a_round_is_five_turns_clockwise_and_then_ends_by_itself() -> None:
    state = new(players=3)
    state, seen = turns(state, 5)
    assert seen == [0, 1, 2, 0, 1]
    wrath = WRATH_START["medium"] + 1
    wild = WRATH_WILD_COUNTS[wrath]
    assert state.round == 2 and state.wrath == wrath
    assert [slot.face_up for slot in state.row] == [False] * 5
    assert [slot.wild for slot in state.row] == [True] * wild + [False] * (5 - wild)
    assert (state.active, state.step, state.next_slot) == (2, "reveal", 0)


def test_the_round_end_uses_the_wrath_numbers_the_players_entered() -> None:
    state = new(players=2, wrath_wild_counts=[0, 1, 3], wrath_start=1)
    state, _ = turns(state, 5)
    assert state.wrath == 2 and [s.wild for s in state.row] == [True] * 3 + [False] * 2
    state, _ = turns(state, 5)  # the marker stays on the last space
    assert state.wrath == 2 and state.round == 3


# 5. Empty hand (Keine Karte auf der Hand?)
def test_an_empty_hand_gives_2_ap_without_protection() -> None:
    state = do(new(), "discard", guardian=0, count=3)
    state = do(do(state, "health", guardian=0, amount=-2), "next")
    guardian = state.guardians[0]
    assert guardian.ap_left == 2 and guardian.ap_card is not None
    assert guardian.ap_card.protections == () and not guardian.ap_card.from_hand
    state = do(do(state, "act", action="climb"), "act", action="heal")
    assert state.guardians[0].ap_left == 0 and state.guardians[0].health == 7
    with pytest.raises(Refused, match="costs 1 AP"):
        do(state, "act", action="climb")
    state = do(state, "next")  # no card was played, so none goes to the discard
    assert state.pile_of(0).discard == 3


def test_healing_stops_at_the_top_of_the_track() -> None:
    state = do(do(new(), "discard", guardian=0, count=3), "next")
    assert do(state, "act", action="heal").guardians[0].health == 8


# 6. Strikes and corruption (Schlagen X; Übersicht)
CRYSTALS = [{"dice": [3]}, {"dice": [4], "corrupted": True}]


def test_striking_a_purple_crystal_shatters_it_without_corruption() -> None:
    state = do(to_step(new(crystals=CRYSTALS), "activate"), "ap_card", ap=7)
    state = do(state, "strike", crystal=0, amount=3)
    assert state.crystals[0].shattered and state.guardians[0].corruption == 0
    assert state.guardians[0].ap_left == 4


def test_every_strike_on_a_turquoise_crystal_gives_one_corruption() -> None:
    state = do(to_step(new(crystals=CRYSTALS), "activate"), "ap_card", ap=4)
    state = do(state, "strike", crystal=1, amount=2)
    assert state.crystals[1].dice == (2,) and state.guardians[0].corruption == 1
    state = do(state, "strike", crystal=1, amount=2)
    assert state.crystals[1].shattered and state.guardians[0].corruption == 2
    assert state.guardians[0].ap_left == 0


def test_an_ap_card_with_corruption_protection_guards_its_own_activation() -> None:
    state = to_step(new(crystals=CRYSTALS), "activate")
    state = do(state, "ap_card", ap=4, protections=["corrupt"])
    state = do(do(state, "strike", crystal=1, amount=2), "strike", crystal=1, amount=2)
    assert state.crystals[1].shattered and state.guardians[0].corruption == 0


# 7. Giant crystal (Riesenkristalle)
def test_a_giant_crystal_carries_surplus_damage_to_its_next_die() -> None:
    state = to_step(new(crystals=[{"dice": [2, 6]}, {"dice": [1]}]), "activate")
    state = do(state, "ap_card", ap=8)
    state = do(state, "strike", crystal=0, amount=3)
    assert state.crystals[0].dice == (5,) and state.crystals[0].giant
    state = do(state, "strike", crystal=0, amount=5)
    assert state.crystals[0].shattered


def test_a_turquoise_giant_crystal_gives_corruption_for_each_strike() -> None:
    giant = {"dice": [2, 6], "corrupted": True}
    state = to_step(new(crystals=[giant, {"dice": [1]}]), "activate")
    state = do(do(state, "ap_card", ap=8), "strike", crystal=0, amount=3)
    state = do(state, "strike", crystal=0, amount=5)
    assert state.guardians[0].corruption == 2


# 8. Grip and falling (Terrain; Fallen)
def test_slippery_terrain_on_the_last_deck_card_makes_the_guardian_fall() -> None:
    state = do(new(deck_size=4), "discard", guardian=0, count=1)
    assert (state.pile_of(0).deck, state.guardians[0].hand) == (1, 2)
    state = do(state, "terrain", guardian=0, kind="slippery")
    assert state.pile_of(0).deck == 0 and state.pile_of(0).discard == 2
    assert state.guardians[0].falling


# 9. Last-strength option (Mit letzter Kraft)
def _empty_handed_draw_step() -> object:
    state = do(to_step(new(deck_size=5), "activate"), "ap_card", ap=2)
    state = to_step(do(state, "discard", guardian=0, count=2), "draw")
    assert (state.guardians[0].hand, state.pile_of(0).deck) == (0, 2)
    return state


def test_drawing_the_last_card_in_step_4_makes_the_guardian_fall() -> None:
    state = do(_empty_handed_draw_step(), "next")  # type: ignore[arg-type]
    assert (state.guardians[0].hand, state.pile_of(0).deck) == (2, 0)
    assert state.guardians[0].falling


def test_in_step_4_the_last_card_may_be_declined() -> None:
    state = do(_empty_handed_draw_step(), "next", decline_last=True)  # type: ignore[arg-type]
    assert (state.guardians[0].hand, state.pile_of(0).deck) == (1, 1)
    assert not state.guardians[0].falling


def test_outside_step_4_drawing_the_last_card_gives_no_choice() -> None:
    state = do(new(deck_size=4), "draw", guardian=1)
    assert state.pile_of(1).deck == 0 and state.guardians[1].falling
    with pytest.raises(Refused, match="only in step 4"):
        do(new(deck_size=4), "next", decline_last=True)


# 10. Rest (Ausruhen; Solo-Modus)
def test_rest_shuffles_the_whole_discard_under_the_deck_but_not_the_ap_card() -> None:
    state = do(new(deck_size=10), "grip", guardian=0, amount=-5)
    state = do(to_step(state, "activate"), "ap_card", ap=4)
    assert (state.pile_of(0).deck, state.pile_of(0).discard) == (2, 5)
    state = do(state, "act", action="rest")
    assert (state.pile_of(0).deck, state.pile_of(0).discard) == (7, 0)
    state = do(state, "next")
    assert state.pile_of(0).discard == 1


def test_solo_rest_gives_seven_grip_or_what_the_discard_holds() -> None:
    state = do(new(players=1, deck_size=13), "grip", guardian=0, amount=-5)
    state = do(to_step(state, "activate"), "ap_card", ap=4)
    assert (state.pile_of(0).deck, state.pile_of(0).discard) == (2, 5)
    state = do(state, "act", action="rest")
    assert (state.pile_of(0).deck, state.pile_of(0).discard) == (7, 0)
    assert state.pile_of(1) == state.pile_of(0)  # one shared deck


# 11. Defeat and Last Chance (Besiegt; Letzte Chance)
def _b_defeated_in_a_turn() -> object:
    state = to_step(new(players=3, crystals=[{"dice": [2]}]), "resolve")
    state = do(state, "health", guardian=1, amount=-8)
    assert state.guardians[1].defeated and state.last_chance == (2, 0)
    return state


def test_after_a_defeat_every_other_guardian_gets_exactly_one_more_turn() -> None:
    state = finish_turn(_b_defeated_in_a_turn())  # type: ignore[arg-type]
    assert state.active == 2 and state.outcome is None
    state = finish_turn(state)
    assert state.active == 0 and state.outcome is None
    state = finish_turn(state)
    assert state.outcome is not None and state.outcome.result == "loss"
    assert state.outcome.reason == "last_chance"


def test_shattering_the_last_crystal_during_last_chance_wins_at_once() -> None:
    state = to_step(finish_turn(_b_defeated_in_a_turn()), "activate")  # type: ignore[arg-type]
    state = do(state, "strike", crystal=0, amount=2, ap=False)
    assert state.outcome is not None and state.outcome.result == "win"
    with pytest.raises(Refused, match="game is over"):
        do(state, "next")


# 12. Parry (ABWEHREN X)
def test_parry_may_be_split_over_the_parts_of_one_effect() -> None:
    options = parry_options({"health": 2, "push": 1}, 2)
    for allowed in ({"health": 1, "push": 0}, {"health": 0, "push": 1},
                    {"health": 2, "push": 0}):
        assert allowed in options
    assert {"health": 0, "push": 0} not in options


def test_parry_never_reduces_gaining_corruption() -> None:
    assert all(o["corruption"] == 1 for o in parry_options({"health": 2, "corruption": 1}, 3))


# 13. WILD X keyword (WILD X)
def test_wild_x_turns_the_leftmost_face_down_calm_threats() -> None:
    state = new()
    state = replace(state, row=(
        ThreatSlot(face_up=True), ThreatSlot(), ThreatSlot(wild=True), ThreatSlot(),
        ThreatSlot()))
    state, events = send(state, "wild", count=2)
    assert [s.wild for s in state.row] == [False, True, True, True, False]
    state, events = send(state, "wild", count=2)
    assert [s.wild for s in state.row] == [False, True, True, True, True]
    state, events = send(state, "wild", count=2)
    assert events[0].to_dict() == {"type": "threats_made_wild", "slots": [], "asked": 2}


# 14. Protection only in own activation (Schutzsymbole)
def test_an_ap_card_protection_holds_in_the_activation_but_not_in_step_3() -> None:
    state = to_step(new(), "activate")
    state = do(state, "ap_card", ap=3, protections=["harmful"])
    state = do(state, "terrain", guardian=0, kind="harmful")
    assert state.guardians[0].health == 8
    state = do(do(state, "next"), "terrain", guardian=0, kind="harmful")
    assert state.step == "resolve" and state.guardians[0].health == 7
