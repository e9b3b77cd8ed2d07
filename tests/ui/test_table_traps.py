"""The traps that let the app and the physical table drift apart, each played through the real
window: a double tap on Done, a blight card the app chose behind the players' backs, a fear card
whose effect was never shown, banners that outlive an undo or pile up out of sight."""

from __future__ import annotations

import time

import pytest

from companion.model.blight_cards import BLIGHT_CARDS
from companion.model.fear_cards import FEAR_CARDS

from .harness import Harness
from .test_table_behaviour import SPACE, start

pytestmark = pytest.mark.ui


def _to_step(ui: Harness, step: str, phase: str | None = None) -> None:
    for _ in range(60):
        state = ui.state
        if state["step"] == step and (phase is None or state["phase"] == phase):
            return
        ui.tap_id("done")
        if ui.popup() is not None:  # a picker for a card: take the first choice
            ui.pick(ui.choices()[0])
    raise AssertionError(f"never reached {step}")


# --- a tap means one step -------------------------------------------------------------------


@pytest.mark.parametrize(("step", "phase", "then"), [("build", "invader", "explore"),
                                                     ("slow_powers", "slow", "time_passes")])
def test_two_taps_on_done_100_ms_apart_finish_one_step(ui: Harness, step: str, phase: str,
                                                       then: str) -> None:
    start(ui)
    _to_step(ui, step, phase)
    undo_count = ui.state["undo_count"]
    ui.use_the_real_clock()
    ui.tap_id("done")
    time.sleep(0.1)
    ui.tap_id("done")  # the second finger lands on the step just begun
    assert ui.state["step"] == then
    assert ui.state["undo_count"] == undo_count + 1
    assert ui.app.notice == ""  # a stray tap is not an error for the players to read
    assert then.replace("_", " ") in ui.widget("title").text.lower()


def test_space_pressed_twice_quickly_also_finishes_one_step(ui: Harness) -> None:
    start(ui)
    _to_step(ui, "growth")
    ui.use_the_real_clock()
    ui.press_key(SPACE, " ")
    ui.press_key(SPACE, " ")
    assert ui.state["step"] == "gain_energy"


def test_a_tap_after_the_new_step_was_on_screen_a_moment_finishes_it(ui: Harness) -> None:
    start(ui)
    _to_step(ui, "growth")
    ui.use_the_real_clock()
    ui.tap_id("done")
    time.sleep(ui.app.screen("table").settle_seconds + 0.05)
    ui.tap_id("done")
    assert ui.state["step"] == "play_cards"


# --- a blight card drawn face down ----------------------------------------------------------


def test_a_random_blight_card_with_our_own_cards_is_named_when_it_flips(ui: Harness) -> None:
    start(ui, deck="physical")
    assert ui.popup() is not None  # the initial explore's picker opens by itself
    ui.pick(ui.choices()[0])
    _to_step(ui, "growth")
    blight_panel = ui.widget("blight").walk()
    assert not any(card.name in getattr(w, "text", "") for w in blight_panel
                   for card in BLIGHT_CARDS.values())
    for _ in range(ui.state["blight"]["on_card"]):
        ui.tap_id("blight_add")
    picker = ui.popup()
    assert picker is not None, "the flipped card must be named"
    assert "Which blight card is it?" in picker.title
    assert any("turn it over" in line for line in ui.banner_lines())
    ui.pick("downward-spiral")
    blight = ui.state["blight"]
    assert blight["card"] == "downward-spiral" and blight["side"] == "blighted"
    assert blight["on_card"] == BLIGHT_CARDS["downward-spiral"].blighted_per_player * 2
    lines = " ".join(ui.banner_lines())
    assert BLIGHT_CARDS["downward-spiral"].name in lines


# --- fear cards as at the table -------------------------------------------------------------


def test_naming_a_fear_card_shows_its_effect_until_done(ui: Harness) -> None:
    start(ui)
    _to_step(ui, "growth")
    for _ in range(4):
        ui.tap_id("city")  # 8 fear: one card with two players
    _to_step(ui, "fear")
    ui.tap_id("done")
    ui.pick("avoid-the-dahan")
    card = FEAR_CARDS["avoid-the-dahan"]
    assert ui.state["fear"]["earned"] == 1, "naming it does not resolve it"
    assert card.effect_at(1) in ui.widget("prompt").text
    assert ui.widget("done").text == "Done: card resolved"
    ui.tap_id("done")
    assert ui.state["fear"]["resolved"] == 1
    assert card.effect_at(1) not in ui.widget("prompt").text
    assert ui.widget("done").text == "Done"


# --- banners ----------------------------------------------------------------------------------


def test_undo_takes_back_the_banner_it_announced_and_says_what_it_undid(ui: Harness) -> None:
    start(ui)
    _to_step(ui, "growth")
    for _ in range(4):
        ui.tap_id("city")
    assert any("Fear card earned" in line for line in ui.banner_lines())
    ui.tap_id("undo")
    lines = ui.banner_lines()
    assert not any("Fear card earned" in line for line in lines)
    assert lines == ["Undone: city destroyed, +2 fear"]
    ui.tap_id("redo")
    lines = ui.banner_lines()
    assert any("Fear card earned" in line for line in lines)
    assert "Redone: city destroyed, +2 fear" in lines


def test_many_fear_cards_at_once_give_one_line_each_kind_and_none_is_cut(ui: Harness) -> None:
    start(ui, players=1)
    _to_step(ui, "growth")
    assert ui.app.send({"cmd": "fear", "amount": 4 * 6})  # 6 cards: terror level II, then III
    lines = ui.banner_lines()
    assert len(lines) == 2
    assert lines[0].startswith("6 fear cards earned!")
    assert lines[1].startswith("Terror rises to level III")
    for line in reversed(ui.app.screen("table").ids.banner_rows.children):
        assert line.fits(), line.text
