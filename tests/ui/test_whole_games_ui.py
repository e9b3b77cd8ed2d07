"""Whole games played by touch, from the new-game form to a scored end, in both deck modes.

After every tap the labels on the table screen are compared with the game state the driver
reports, and the database is checked to hold what the screen shows.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.spirit_island.cards import ALL_CARDS, TERRAIN_NAMES
from companion.games.spirit_island.ui import presenter

from .harness import Harness

pytestmark = pytest.mark.ui


def chip_texts(column: Any) -> list[str]:
    return [chip.text for tile in column.ids.tiles.children
            for chip in tile.ids.chips.children]


def assert_table_shows_state(ui: Harness) -> None:
    state = ui.state
    table = ui.app.screen("table")
    ids = table.ids
    assert ids.title.text == presenter.step_title(state)
    assert ids.prompt.text.startswith(state["prompt"])
    for slot in ("ravage", "build", "explore"):
        shown = sorted(chip_texts(ids[slot]))
        wanted = sorted(TERRAIN_NAMES[t] if ALL_CARDS[card].terrains else ALL_CARDS[card].name
                        for card in state["invader"][slot] for t in ALL_CARDS[card].terrains
                        or ("-",))
        assert shown == wanted, slot
    fear, blight, invader = state["fear"], state["blight"], state["invader"]
    assert ids.fear_pool.text == str(fear["pool"])
    assert ids.fear_pool_size.text == f"of {fear['pool_size']}"
    assert (ids.fear_track.pool, ids.fear_track.total) == (fear["pool"], fear["pool_size"])
    assert ids.fear_cards.count == fear["earned"]
    assert ids.blight_count.text == str(blight["on_card"])
    assert ids.blight_island.text == str(blight["on_island"])
    level = state["terror_level"]
    assert ids.terror.text == (presenter.ROMAN[level] if level < 4 else "Victory")
    assert ids.victory.text == state["victory_condition"]
    assert ids.deck.text == str(invader["deck_count"])
    assert sum(row.count for row in ids.deck_pips.children) == invader["deck_count"]
    assert ids.discard.text == f"Discard {len(invader['discard'])}"
    # the sentences stay one tap away
    assert f"Fear: {fear['pool']} of {fear['pool_size']} in the pool" in table.fear_pool
    assert f"On the card: {blight['on_card']}" in table.blight_counts
    assert ids.done.text == presenter.next_action(state).label
    assert ids.undo.disabled is not state["can_undo"]


def start_game(ui: Harness, *, physical: bool = False) -> None:
    ui.tap_id("new_game")
    assert ui.screen.name == "new_game"
    ui.tap(ui.widget("players_3"))
    if physical:
        ui.tap_id("physical")
    ui.tap_id("start")
    assert ui.app.notice == ""
    assert ui.screen.name == "checklist"
    rows = ui.widget("checklist").children
    assert len(rows) == len(ui.state["setup_checklist"]) > 3
    for row in rows:
        ui.tap(row)
    assert ui.screen.ticked == len(rows)
    ui.tap_id("ready")
    assert ui.screen.name == "table"
    assert ui.state["players"] == 3
    assert ui.state["deck_mode"] == ("physical" if physical else "virtual")


def advance(ui: Harness) -> None:
    """Tap the big button, answering the card picker when it opens."""
    ui.tap_id("done")
    picker = ui.popup()
    if picker is None:
        return
    choices = ui.choices()
    state = ui.state
    if state["invader"]["awaiting_reveal"]:
        assert choices == state["invader"]["candidates"]  # only cards that can come up
        ui.pick(choices[0])
    else:
        ui.pick(choices[1] if len(choices) > 1 else choices[0])


def play_until_over(ui: Harness, per_round: list[str], limit: int = 400) -> list[str]:
    """Tap through rounds, tapping the `per_round` quick controls in each Spirit phase."""
    banners: list[str] = []
    seen_round = 0
    for _ in range(limit):
        state = ui.state
        if state["phase"] == "over":
            return banners
        if state["phase"] == "spirit" and state["round"] != seen_round:
            seen_round = state["round"]
            for control in per_round:
                if ui.state["phase"] == "over":
                    break
                ui.tap_id(control)
                assert ui.app.notice == "", ui.app.notice
                if ui.state["phase"] != "over":
                    assert_table_shows_state(ui)
                    if ui.screen.banner:
                        assert ui.widget("banner").height > 0
                        assert "\n".join(ui.banner_lines()) == ui.screen.banner
                        banners.append(ui.screen.banner)
            continue
        advance(ui)
        assert ui.app.notice == "", ui.app.notice
        if ui.screen.name == "table":
            assert_table_shows_state(ui)
            if ui.screen.banner:
                banners.append(ui.screen.banner)
    raise AssertionError("the game did not end")


def score_the_game(ui: Harness, dahan: int) -> None:
    assert ui.screen.name == "end"
    stepper = ui.widget("dahan")
    for _ in range(dahan):
        ui.tap(stepper.children[0])  # the + button
    assert ui.widget("dahan").value == dahan
    expected_preview = ui.widget("score").text
    ui.tap_id("save")
    outcome = ui.state["outcome"]
    assert outcome["dahan"] == dahan
    assert expected_preview == f"Score: {outcome['score']}"
    assert str(outcome["score"]) in ui.widget("saved").text


def test_a_virtual_deck_game_is_won_on_fear_and_scored_by_touch(ui: Harness) -> None:
    start_game(ui)
    banners = play_until_over(ui, ["city"] * 5 + ["town", "fear_one"])
    outcome = ui.state["outcome"]
    assert outcome["result"] == "victory"
    assert any("Fear card earned" in text for text in banners)
    assert any("Terror rises to level II" in text for text in banners)
    ui.frames(3)
    score_the_game(ui, dahan=7)
    ui.tap_id("home")
    ui.tap_id("history")
    rows = ui.widget("games").data
    assert len(rows) == 1 and "victory" in rows[0]["text"]
    assert "1 game played · 1 won" in ui.widget("stats").text


def test_a_physical_deck_game_is_lost_to_blight_and_scored_by_touch(ui: Harness) -> None:
    start_game(ui, physical=True)
    assert ui.state["step"] == "initial_explore"
    banners = play_until_over(ui, ["blight_add", "blight_add", "fear_one"])
    outcome = ui.state["outcome"]
    assert (outcome["result"], outcome["reason"]) == ("defeat", "blight")
    assert any("blight card flips" in text for text in banners)
    # every invader card on the board was named by a tap in the picker
    revealed = ui.state["invader"]["discard"] + ui.state["invader"]["ravage"]
    assert revealed
    score_the_game(ui, dahan=2)
