"""Where blight comes from and goes to (the box at setup, the card, France's adversary panel),
and scenario and adversary rules whose checklist, reminders and counts must agree (issue 15)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.table_player import Table

# --- setup blight comes from the box ------------------------------------------------------------


def test_blight_added_during_setup_comes_from_the_box_never_from_the_card() -> None:
    table = Table(players=2)
    assert table.state["step"] == "initial_explore"
    table.do("blight")
    blight = table.state["blight"]
    assert (blight["on_card"], blight["on_island"]) == (5, 3)


def test_blight_added_before_sweden_s_royal_backing_discard_comes_from_the_box() -> None:
    table = Table(players=2, adversary="sweden", level=4)
    assert table.state["step"] == "royal_backing"
    table.do("effect", commands=[{"cmd": "blight", "amount": 2}])
    blight = table.state["blight"]
    assert (blight["on_card"], blight["on_island"]) == (5, 4)


def test_blight_from_blitz_s_extra_setup_build_comes_off_the_card_as_in_play() -> None:
    """Decided: Blitz's extra Build and Explore are invader actions, not the setting out of
    pieces the FAQ speaks of."""
    table = Table(players=2, scenario="blitz")
    table.until("build", phase="setup")
    table.do("blight", amount=2)
    blight = table.state["blight"]
    assert (blight["on_card"], blight["on_island"]) == (5, 4)


def test_once_the_first_round_begins_blight_comes_off_the_card() -> None:
    table = Table(players=2)
    table.until("growth")
    table.do("blight")
    blight = table.state["blight"]
    assert (blight["on_card"], blight["on_island"]) == (4, 3)


# --- Blitz and the Still-Healthy Island side ----------------------------------------------------


@pytest.mark.parametrize(("card", "side", "on_card"), [
    ("strong-earth-shatters-slowly", "still_healthy", 4),  # printed 2 per player
    ("the-border-of-life-and-death", "still_healthy", 2),  # printed 1 per player
    ("downward-spiral", "blighted", 8),  # printed 5 per player, 1 fewer in Blitz
])
def test_blitz_takes_its_blight_per_player_off_only_a_card_that_flips_to_blighted_island(
    card: str, side: str, on_card: int,
) -> None:
    table = Table(players=2, scenario="blitz", blight_card=card)
    table.do("next")  # on to Blitz's extra Build, where blight comes off the card
    assert table.state["blight"]["on_card"] == 7
    table.do("blight", amount=7)
    blight = table.state["blight"]
    assert (blight["side"], blight["on_card"], blight["awaiting_card"]) == (side, on_card, False)
    assert table.state["outcome"] is None


# --- France 5: Slow-Healing Ecosystem -----------------------------------------------------------


def test_at_france_5_healed_blight_waits_on_the_panel_until_3_per_player_gather_there() -> None:
    table = Table(players=2, adversary="france", level=5, island_blight=6)
    table.until("growth")
    events = table.do("heal", amount=5)
    blight = table.state["blight"]
    assert (blight["on_card"], blight["on_panel"], blight["on_island"]) == (5, 5, 1)
    assert events[-1] == {"type": "blight_healed", "amount": 5, "on_card": 5, "on_island": 1,
                          "on_panel": 5}
    table.do("heal")  # the sixth: 3 per player have gathered, all go back to the card
    blight = table.state["blight"]
    assert (blight["on_card"], blight["on_panel"], blight["on_island"]) == (11, 0, 0)


def test_undo_takes_healed_blight_back_off_france_s_panel() -> None:
    table = Table(players=2, adversary="france", level=6, island_blight=6)
    table.until("growth")
    before = table.state["blight"]
    table.do("heal", amount=2)
    table.do("undo")
    assert table.state["blight"] == before


@pytest.mark.parametrize("new_game", [{"adversary": "france", "level": 4}, {}])
def test_without_france_5_healed_blight_goes_straight_back_to_the_card(
    new_game: dict[str, Any],
) -> None:
    table = Table(players=2, island_blight=2, **new_game)
    table.until("growth")
    table.do("heal", amount=2)
    blight = table.state["blight"]
    assert (blight["on_card"], blight["on_panel"], blight["on_island"]) == (7, 0, 0)


# --- Sweden 6: Prospecting Outpost --------------------------------------------------------------


@pytest.mark.parametrize(("players", "on_island"), [(1, 2), (2, 4), (4, 8)])
def test_sweden_6_starts_each_board_with_one_more_blight_from_the_box(
    players: int, on_island: int,
) -> None:
    blight = Table(players=players, adversary="sweden", level=6).state["blight"]
    assert (blight["on_island"], blight["on_card"]) == (on_island, 2 * players + 1)


def test_sweden_6_s_extra_blight_can_be_healed_and_counts_in_the_default_score() -> None:
    table = Table(players=2, adversary="sweden", level=6)
    table.until("growth")
    table.do("heal", amount=3)
    assert table.state["blight"]["on_island"] == 1
    table.do("undo")
    table.do("declare", result="defeat")
    table.do("score", dahan=0)
    assert table.state["outcome"]["blight_on_island"] == 4


def test_below_sweden_6_the_island_starts_with_one_blight_per_board() -> None:
    assert Table(players=2, adversary="sweden", level=5).state["blight"]["on_island"] == 2


# --- Ward the Shores ----------------------------------------------------------------------------


def test_in_ward_the_shores_earning_the_last_fear_card_does_not_win_by_itself() -> None:
    table = Table(players=1, scenario="ward-the-shores")
    table.do("fear", amount=4 * 15)
    state = table.state
    assert state["fear"]["deck"] == 0 and state["terror_level"] == 4
    assert state["outcome"] is None
    assert state["victory_condition"] == "every Coastal land holds a Ward"
    assert state["scenario_detail"]["fear_deck_victory"] is False
    checklist = {item["id"]: item["text"] for item in Table(
        scenario="ward-the-shores").state["setup_checklist"]}
    assert checklist["ward-the-shores-victory"].startswith("Fear alone does not win")


# --- Second Wave --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3])
@pytest.mark.parametrize("difficulty", [1, -1])
def test_second_wave_resets_the_card_to_2_per_player_without_the_errata_and_keeps_2_on_the_island(
    players: int, difficulty: int,
) -> None:
    state = Table(players=players, scenario="second-wave",
                  scenario_difficulty=difficulty).state
    blight = state["blight"]
    assert (blight["on_card"], blight["on_island"]) == (2 * players, 2 * players)
    checklist = {item["id"]: item["text"] for item in state["setup_checklist"]}
    assert f"put {2 * players} Blight on it" in checklist["base-blight-card"]


# --- Rituals of Terror's checklist --------------------------------------------------------------


def test_the_rituals_of_terror_checklist_puts_no_divider_into_the_fear_deck() -> None:
    checklist = {item["id"]: item["text"] for item in Table(
        scenario="rituals-of-terror").state["setup_checklist"]}
    assert "No Terror Level divider goes into it" in checklist["base-fear-deck"]
    assert "15 Fear Cards" in checklist["base-fear-deck"]
    assert not any("divider goes under" in text for text in checklist.values())
    assert "beside the Invader Board" in checklist["rituals-of-terror-fear-deck"]


def test_without_rituals_of_terror_the_checklist_stacks_the_dividers_in_the_fear_deck() -> None:
    checklist = {item["id"]: item["text"] for item in Table().state["setup_checklist"]}
    assert "Terror Level II divider goes under the first group" in checklist["base-fear-deck"]


# --- England 3: the High Immigration tile -------------------------------------------------------


def _play_until_the_tile_leaves(table: Table) -> None:
    while table.state["invader"]["high_immigration"] is not None:
        table.play_on()


def test_england_3_stops_reminding_that_the_tile_leaves_once_it_has_left() -> None:
    table = Table(players=2, adversary="england", level=3)
    table.until("advance")
    assert "england-3-high-immigration-ends" in table.reminder_ids()
    _play_until_the_tile_leaves(table)
    table.next_round()
    table.until("advance")
    assert table.state["invader"]["high_immigration"] is None
    assert "england-3-high-immigration-ends" not in table.reminder_ids()


def test_at_england_4_the_tile_stays_and_so_does_its_reminder() -> None:
    table = Table(players=2, adversary="england", level=4)
    for _ in range(5):
        table.next_round()
    table.until("advance")
    assert table.state["invader"]["high_immigration"] is not None
    assert "england-4-high-immigration-stays" in table.reminder_ids()


def test_england_3_when_a_stage_i_and_a_stage_ii_card_slide_together_both_are_discarded() -> None:
    """Decided: the tile leaves the moment the Stage II card would reach it, so the Stage I
    card beside it has no tile to lie on and goes to the discard as well."""
    table = Table(players=2, adversary="england", level=3, deck="physical",
                  deck_order="11-2222-33333")
    table.until("explore", phase="invader")
    while table.state["invader"]["awaiting_reveal"] or not any(
            card.startswith("II-") for card in table.state["invader"]["explore"]):
        table.play_on()
        table.until("explore", phase="invader")
    track = table.state["invader"]
    stage_i, stage_ii = track["build"][0], track["explore"][0]
    assert stage_i.startswith("I-") and stage_ii.startswith("II-")
    table.do("move_card", card=stage_ii, to="build")  # both now slide Build -> Ravage together
    table.until("advance")
    table.do("next")
    table.until("advance")
    assert table.state["invader"]["ravage"] == [stage_i, stage_ii]
    events = table.do("next")
    track = table.state["invader"]
    assert track["high_immigration"] is None
    assert track["discard"][-2:] == [stage_i, stage_ii]
    assert any(event["type"] == "high_immigration_removed" for event in events)


# --- Slave Rebellion at Stage III ---------------------------------------------------------------


def test_slave_rebellion_at_stage_iii_leaves_the_game_and_a_reshuffle_never_brings_it_back(
) -> None:
    """Decided: out of the game (not into the event discard)."""
    table = Table(events=True, adversary="france", level=2, event_deck=3,
                  deck_order="1-3-3-3-3-3-3")
    draws: list[str] = []
    while table.state["outcome"] is None and table.state["round"] < 7:
        table.play_on()
        draws += [event["card"] for event in table.last_events
                  if event["type"] == "event_card_drawn"]
        events = table.state["events"]
        if "slave_rebellion" in draws:
            assert events["slave_rebellion_depth"] is None
            assert events["deck"] + events["discard"] == 3
    assert draws.count("slave_rebellion") == 1
    reshuffles = [event for answer in table.game.answers for event in answer["events"]
                  if event["type"] == "event_deck_reshuffled"]
    assert reshuffles, "the small event deck ran out and was reshuffled"


# --- Stage III reminders ------------------------------------------------------------------------


def test_stage_iii_reminders_stay_once_a_stage_iii_card_was_seen_even_if_stage_ii_follows(
) -> None:
    """Decided: once seen (Brandenburg-Prussia 2 turns over a Stage III card between Stage I and
    Stage II; Ward the Shores' Stage III rule keeps applying to the Stage II cards after it)."""
    table = Table(players=2, scenario="ward-the-shores", adversary="brandenburg-prussia",
                  level=2)
    seen_iii = False
    for _ in range(8):
        table.next_round()
        table.until("explore", phase="invader")
        explore = table.state["invader"]["explore"]
        seen_iii = seen_iii or any(card.startswith("III-") for card in explore)
        assert ("ward-the-shores-stage-3" in table.reminder_ids()) == seen_iii
        if seen_iii and explore[0].startswith("II-"):
            return
    raise AssertionError("no Stage II card came up after the Stage III card")


# --- Blitz in a beginner game -------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3])
def test_blitz_in_a_beginner_game_puts_its_extra_blight_on_the_blight_space(players: int) -> None:
    state = Table(players=players, mode="beginner", scenario="blitz").state
    assert state["blight"]["on_card"] == 6 * players + 1
    checklist = {item["id"]: item["text"] for item in state["setup_checklist"]}
    assert checklist["blitz-extra-blight"].startswith("The Blight space holds")
    assert f"put {6 * players + 1} Blight on the Blight space" in checklist["base-blight-space"]


def test_blitz_in_a_beginner_game_has_no_blighted_island_reminder() -> None:
    beginner = Table(players=2, mode="beginner", scenario="blitz")
    beginner.until("ravage")
    assert "blitz-blighted-island" not in beginner.reminder_ids()
    advanced = Table(players=2, scenario="blitz")
    advanced.until("ravage")
    assert "blitz-blighted-island" in advanced.reminder_ids()
