"""The traps that let the app and the physical table drift apart, each played through the real
window: a double tap on Done, a blight card the app chose behind the players' backs, a fear card
whose effect was never shown, banners that outlive an undo or pile up out of sight."""

from __future__ import annotations

import pytest

from companion.games.spirit_island.blight_cards import BLIGHT_CARDS
from companion.games.spirit_island.fear_cards import FEAR_CARDS

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


def _to_the_fear_step_with_one_card(ui: Harness) -> None:
    """A 2-player game whose players destroy 4 cities in Growth (8 fear: one card)."""
    start(ui)
    _to_step(ui, "growth")
    for _ in range(4):
        ui.tap_id("city")
    _to_step(ui, "fear")


# --- a tap means one step -------------------------------------------------------------------


@pytest.mark.parametrize(("step", "phase", "then"), [("build", "invader", "explore"),
                                                     ("slow_powers", "slow", "time_passes")])
def test_two_taps_on_done_100_ms_apart_finish_one_step(ui: Harness, step: str, phase: str,
                                                       then: str) -> None:
    start(ui)
    _to_step(ui, step, phase)
    undo_count = ui.state["undo_count"]
    ui.hold_the_clock()
    ui.tap_id("done")
    ui.later(0.1)
    ui.tap_id("done")  # the second finger lands on the step just begun
    assert ui.state["step"] == then
    assert ui.state["undo_count"] == undo_count + 1
    assert ui.app.notice == ""  # a stray tap is not an error for the players to read
    assert then.replace("_", " ") in ui.widget("title").text.lower()


def test_space_pressed_twice_quickly_also_finishes_one_step(ui: Harness) -> None:
    start(ui)
    _to_step(ui, "growth")
    ui.hold_the_clock()
    ui.press_key(SPACE, " ")
    ui.press_key(SPACE, " ")
    assert ui.state["step"] == "gain_energy"


def test_a_tap_after_the_new_step_was_on_screen_a_moment_finishes_it(ui: Harness) -> None:
    start(ui)
    _to_step(ui, "growth")
    ui.hold_the_clock()
    ui.tap_id("done")
    ui.later(ui.app.screen("table").settle_seconds + 0.05)
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
    _to_the_fear_step_with_one_card(ui)
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


def test_the_fear_picker_lists_the_expansions_in_play_and_finds_a_card_by_its_letters(
        ui: Harness) -> None:
    ui.tap_id("new_game")
    expansions = {button.expansion: button for button in ui.widget("expansions").children}
    assert expansions["base"].disabled  # the base game's cards are always there
    for expansion in ("jagged-earth", "promo-pack-2", "nature-incarnate"):
        ui.tap(expansions[expansion])  # the table owns only the base game and Branch & Claw
    assert ui.app.expansions == ["base", "branch-and-claw"]
    assert ui.app.config.get("newgame", "expansions") == "base,branch-and-claw"
    _to_the_fear_step_with_one_card(ui)
    ui.tap_id("done")
    picker = ui.popup()
    shown = picker.shown()
    catalogue = ui.app.catalogue["fear_cards"]
    assert sorted(shown) == sorted(card["id"] for expansion in ("base", "branch-and-claw")
                                   for card in catalogue[expansion])
    for letter in "AVO":
        ui.tap(next(k for k in picker.ids.letters.children if k.text == letter))
    assert picker.shown() == ["avoid-the-dahan"]
    assert picker.ids.unnamed.get_root_window() is not None  # the default stays in view
    ui.tap(picker.ids.backspace)
    assert "avoid-the-dahan" in picker.shown()
    ui.press_key(SPACE, " ")  # letters typed: Space does not pick
    ui.tap(picker.ids.backspace)
    ui.tap(picker.ids.backspace)
    ui.press_key(SPACE, " ")  # no letters: Space takes the default
    assert ui.popup() is None
    assert ui.state["fear"]["resolved"] == 1 and ui.state["fear"]["card"] is None


def test_the_new_game_screen_remembers_the_last_choices(ui: Harness) -> None:
    ui.tap_id("new_game")
    screen = ui.screen
    ui.tap(ui.widget("players_4"))
    ui.tap_id("physical")
    screen.adversary, screen.level = "Kingdom of Sweden", "3"
    ui.frames(2)
    ui.tap_id("start")
    assert ui.screen.name == "checklist"
    stored = ui.app.last_new_game()
    assert (stored["players"], stored["deck"], stored["adversary"], stored["level"]) == \
        (4, "physical", "sweden", 3)
    fresh = type(screen)(name="new_game_again")  # the form as it opens next time
    ui.frames(2)
    assert (fresh.players, fresh.deck, fresh.adversary, fresh.level) == \
        (4, "physical", "Kingdom of Sweden", "3")


def test_a_table_may_take_the_spirit_phase_as_one_step(ui: Harness) -> None:
    ui.app.config.set("companion", "spirit_one_step", "1")
    ui.app.apply_settings()
    start(ui)
    _to_step(ui, "growth")
    prompt = ui.widget("prompt").text
    assert "Growth:" in prompt and "Energy:" in prompt and "Choose cards:" in prompt
    assert ui.widget("title").text == "Round 1 · Spirit phase"
    undo_count = ui.state["undo_count"]
    ui.tap_id("done")
    assert ui.state["step"] == "fast_powers"
    assert ui.state["undo_count"] == undo_count + 3  # each step is still its own command


def test_after_the_ending_the_quick_controls_rest_and_one_undo_takes_back_ending_and_score(
        ui: Harness) -> None:
    start(ui)
    _to_step(ui, "growth")
    assert ui.app.send({"cmd": "declare", "result": "victory"})
    table = ui.app.screen("table")
    for control in ("fear_one", "town", "city", "blight_add", "blight_heal", "resolve_fear"):
        assert table.ids[control].disabled, control
    ui.app.show("end")
    ui.frames(2)
    ui.tap_id("save")
    assert ui.state["outcome"]["score"] is not None
    ui.tap_id("back_to_game")
    assert ui.state["outcome"] is None and ui.state["step"] == "growth"
    assert ui.screen.name == "table"
    assert not table.ids.fear_one.disabled


def test_the_checklist_counts_ticks_and_asks_before_starting_with_items_left(
        ui: Harness) -> None:
    assert ui.app.send({"cmd": "new_game", "players": 2, "seed": 11})
    ui.app.show("checklist")
    ui.frames(3)
    total = len(ui.state["setup_checklist"])
    ui.tap(ui.widget("checklist").children[-1])
    assert ui.widget("progress").text == f"1 of {total} done"
    ui.tap_id("ready")
    question = ui.popup()
    assert question is not None and f"{total - 1} of {total}" in question.message
    assert ui.screen.name == "checklist"
    question.confirm()
    ui.frames(2)
    assert ui.screen.name == "table"


def test_two_quick_taps_on_done_card_resolved_do_not_also_finish_the_fear_step(
        ui: Harness) -> None:
    _to_the_fear_step_with_one_card(ui)
    ui.tap_id("done")
    ui.pick("avoid-the-dahan")
    ui.hold_the_clock()
    ui.tap_id("done")  # resolves the card: the button now means "Done"
    ui.later(0.1)
    ui.tap_id("done")
    assert ui.state["fear"]["resolved"] == 1
    assert ui.state["step"] == "fear"
