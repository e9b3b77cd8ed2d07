"""Glow on the touchscreen, played as players do: every phase a tap in the real window.

Each test checks what the screen shows against the driver's state, and `layout_problems` (the
layout test's checker) at 800x480 and 720x1280; the pictures go to screenshots/glow/.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion import i18n
from companion.games.registry import GAMES

from .harness import Harness
from .test_layout import layout_problems

pytestmark = pytest.mark.ui

SHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "glow"
SIZES = {"800x480": (800, 480), "720x1280": (720, 1280)}
PHASES = ("morning", "late_morning", "noon", "afternoon", "evening")


def look(ui: Harness, name: str) -> None:
    """Photograph the screen at both sizes, and check neither clips text nor shrinks a target."""
    problems = []
    for size, (width, height) in SIZES.items():
        ui.resize(width, height)
        ui.frames(3)
        problems += [f"{name} at {size}: {problem}" for problem in layout_problems(ui)]
        ui.screenshot(SHOTS / f"{name}-{size}.png")
    ui.resize(*SIZES["800x480"])
    assert not problems, "\n".join(problems)


def start(ui: Harness, players: int, board: str, start_player: int | None = 0,
          mode: str = "full", names: tuple[str, ...] = (), shots: bool = False) -> None:
    """From Home: choose Glow, fill in the form, start, tick the checklist."""
    ui.tap_id("new_game")
    ui.tap_id("game_glow")
    form = ui.screen
    assert form.ids.glow_form.opacity == 1 and form.ids.leviathan_form.opacity == 0
    assert (form.ids.glow_realm.text, form.ids.glow_sea.text) == (
        "Realm of Shadows", "Sea of Darkness")  # the board sides' buttons name them
    ui.tap_id(f"glow_{board}")
    ui.tap_id(f"glow_{mode}")
    ui.tap_id(f"glow_players_{players}")
    ui.tap_id("glow_start_random" if start_player is None else f"glow_start_{start_player + 1}")
    rows = form.form("glow")._rows[:players]
    for row, name in zip(rows, names, strict=False):
        row.ids.name.text = name
    if shots:
        look(ui, "setup-form")
    ui.tap_id("start")
    if mode == "scoring":
        ui.frames(3)
        assert ui.app.screens.current == "table-glow"
        return
    assert ui.app.screens.current == "checklist"
    state = ui.state
    assert state["title"] == "glow"
    assert (state["player_count"], state["board"], state["mode"]) == (players, board, mode)
    if start_player is not None:
        assert state["start_player"] == start_player
    checklist = list(reversed(ui.widget("checklist").children))
    assert [row.text for row in checklist] == [item["text"] for item in ui.app.setup_checklist()]
    if shots:
        look(ui, "setup-checklist")
    for row in checklist:
        ui.tap(row)
    ui.tap_id("ready")
    assert ui.app.screens.current == "table-glow"


def tiles(ui: Harness) -> list[Any]:
    return list(reversed(ui.screen.ids.players.children))


def shown_matches_state(ui: Harness) -> None:
    """The header, the day track and every tile show the driver's state."""
    state, table = ui.state, ui.screen
    assert table.prompt == state["prompt"]["text"]
    if state["phase"] != "over":
        assert f"day {state['day']} of 8" in table.title
        now = [cell.text for cell in table._days if cell.when == "now"]
        assert now == [str(state["day"])]
        assert [cell.when for cell in table._phases].count("now") == 1
    shown = tiles(ui)
    assert len(shown) == len(state["players"])
    for i, (tile, player) in enumerate(zip(shown, state["players"], strict=True)):
        assert tile.name.startswith(player["name"])
        assert tile.score == player["score"]
        assert tile.rerolls == player["reroll_tokens"]
        assert tile.threshold_text == player["glowworm_threshold"]["text"]
        assert tile.starts == (i == state["start_player"] and state["phase"] != "over")
        if player["end"] is not None:
            assert tile.final_text == str(player["end"]["total"])


def confirm(ui: Harness) -> None:
    """Tap the open confirmation's button that goes ahead."""
    popup = ui.popup()
    assert popup is not None, "nothing asks"
    button = next(w for w in popup.walk() if getattr(w, "text", None) == popup.confirm_text
                  and w is not popup)
    ui.tap(button)


def done(ui: Harness) -> dict[str, Any]:
    """Tap Done, answering "nothing forgotten?" where it is asked."""
    before = ui.state
    ui.tap_id("done")
    if before["gate"] is not None:
        popup = ui.popup()
        assert popup is not None and popup.message == before["gate"]["text"]
        confirm(ui)
    after = ui.state
    assert (after["day"], after["phase"]) != (before["day"], before["phase"]), ui.app.notice
    shown_matches_state(ui)
    return after


def test_a_two_player_realm_game_runs_eight_days_to_the_end_scoring(ui: Harness) -> None:
    start(ui, players=2, board="realm", start_player=1, names=("Ada", "Bo"), shots=True)
    state = ui.state
    assert [p["name"] for p in state["players"]] == ["Ada", "Bo"]
    shown_matches_state(ui)
    look(ui, "table-morning")
    first, second = tiles(ui)
    ui.tap(first.ids.score_up)
    ui.tap(first.ids.score_up)
    assert ui.state["players"][0]["score"] == 12
    ui.tap(second.ids.rerolls_up)
    assert ui.state["players"][1]["reroll_tokens_gained_today"] == 1
    assert "+1 tomorrow" in second.rerolls_text
    shown_matches_state(ui)
    state = done(ui)
    assert state["phase"] == "late_morning"
    state = done(ui)
    assert state["phase"] == "noon"
    look(ui, "table-noon")
    state = done(ui)
    state = done(ui)
    assert state["phase"] == "evening"
    look(ui, "table-evening")
    state = done(ui)
    assert (state["day"], state["phase"], state["start_player"]) == (2, "morning", 0)
    assert "start marker passes" in ui.screen.banner
    passed = [{"type": "start_marker_passed", "start_player": 0}]  # the phones' words too
    assert GAMES["glow"].banner(passed, ui.state, i18n.translations("en")) == [
        {"kind": ui.screen.banner_kind, "text": ui.screen.banner}]
    while ui.state["phase"] != "over":
        done(ui)
    score_the_digest_s_example(ui)


def score_the_digest_s_example(ui: Harness) -> None:
    """The first player in one tap as tracked; the second through the panel, entered as the
    digest's worked example: 60 on the track, cards +5 and -1, a village of 5, 3 glowworms
    for 7 companions, 3 trails: 72."""
    first, second = tiles(ui)[:2]
    assert "end scoring" in ui.screen.title
    look(ui, "scoring-empty")
    ui.tap(first.ids.accept)
    player = ui.state["players"][0]
    assert player["end"] is not None and player["final"] == player["end"]["total"]
    assert first.final_text == str(player["final"])
    ui.tap(second.ids.enter)
    panel = ui.popup()
    for key, value in (("track", 60), ("cards", 4), ("board", 5), ("glowworms", 3),
                       ("companions", 7), ("trails", 3), ("reroll_tokens", 0)):
        panel.ids[f"end_{key}"].value = value
    ui.frames(2)
    assert panel.total_text == "60 + cards 4 + board 5 + glowworms 0 + trails 3 = 72"
    look(ui, "scoring-panel")
    ui.tap(panel.ids.save)
    assert ui.popup() is None
    state = ui.state
    assert state["players"][1]["final"] == 72
    assert state["outcome"] is not None
    assert "72" in second.end_text and second.final_text == "72"
    # the winner heads the banner (the day's end, said before, stays below it)
    assert ui.screen.scored and ui.screen.banner.splitlines()[0] == state["prompt"]["text"]
    assert ui.screen.banner_kind == "win"
    shown_matches_state(ui)
    look(ui, "scoring-result")


def play_to_the_end(ui: Harness) -> None:
    while ui.state["phase"] != "over":
        done(ui)


@pytest.mark.parametrize(("players", "board"), [(2, "sea"), (3, "realm"), (4, "sea")])
def test_a_whole_game_is_played_through_the_window_and_scored_in_one_tap_per_player(
        ui: Harness, players: int, board: str) -> None:
    start(ui, players=players, board=board, start_player=None)
    first = ui.state["start_player"]
    table = ui.screen
    tile = tiles(ui)[players - 1]
    ui.tap(tile.ids.name)  # the player panel: a companion from the card list
    panel = ui.popup()
    ui.tap(panel.ids.add_companion)
    ui.pick("glow-A11")  # Briki, worth 6
    assert ui.state["players"][players - 1]["companions"][0]["card"] == "glow-A11"
    if board == "realm":
        ui.tap(panel.ids.camp)
        ui.pick("8")
    else:
        ui.tap(panel.ids.boat_0)
        ui.pick("9")
    ui.tap(panel.ids.close)
    player = ui.state["players"][players - 1]
    assert player["board_value"] == 8 and tile.threshold_text == "glowworms 0 / companions 1"
    # Threshold not met: marked by its colour and, for eyes that do not tell it, by a sign.
    assert tile.ids.threshold.color != ui.app.colours["text"]
    assert tile.ids.threshold_sign.text == "⚠"
    assert tile.compact or tile.ids.threshold_sign.width > 0  # (a compact tile hides the line)
    play_to_the_end(ui)
    # Seven evenings passed the marker left; the eighth ended the game.
    assert ui.state["start_player"] == (first + 7) % players
    for tile in tiles(ui):
        ui.tap(tile.ids.accept)
    state = ui.state
    assert state["outcome"] is not None
    last = state["players"][players - 1]
    assert last["end"]["cards"] == 6 and last["end"]["board"] == 8
    assert table.scored and table.done_text == "Home"
    shown_matches_state(ui)
    ui.tap_id("done")
    assert ui.app.screens.current == "home"


def test_scoring_only_goes_straight_to_the_scoring_and_ranks_ties_by_reroll_tokens(
        ui: Harness) -> None:
    # Nothing of a game played without the app is filled in: every number shows "?" until
    # entered, and reroll tokens are asked for only when a tie needs them (they were filled
    # in as 2 for one player, and that decided a tie).
    start(ui, players=3, board="sea", mode="scoring", names=("Ada", "Bo", "Cy"))
    table = ui.screen
    assert table.over and "end scoring" in table.title
    assert all(not tile.can_accept for tile in tiles(ui))  # nothing tracked: entered by hand
    for player, track in enumerate((50, 50, 40)):
        ui.tap_id("done")  # the next player's scoring
        panel = ui.popup()
        assert panel.player == player
        steppers = panel._steppers
        assert "reroll_tokens" not in steppers  # no tie yet: not asked
        assert not any(stepper.known for stepper in steppers.values())
        if player == 0:
            look(ui, "scoring-only-panel")
            ui.tap(panel.ids.save)  # nothing entered: nothing saved, and it says what
            assert ui.popup() is panel and ui.state["players"][0]["end"] is None
            assert "Score on the track" in ui.app.notice
        for key, stepper in steppers.items():
            ui.tap(next(w for w in stepper.children if getattr(w, "text", "") == "-"))
            assert stepper.known and stepper.value == (-1 if key == "cards" else 0)
        steppers["cards"].value = 0
        steppers["track"].value = track
        ui.frames(2)
        ui.tap(panel.ids.save)
        assert ui.popup() is None, ui.app.notice
    state = ui.state
    assert state["outcome"] is None and state["reroll_tokens_needed"] == [0, 1]
    assert table.prompt == state["prompt"]["text"] and "Ada and Bo" in table.prompt
    assert table.done_text == "Break the tie"
    ui.tap_id("done")
    panel = ui.popup()
    assert sorted(panel._steppers) == [0, 1]  # Cy is not tied: not asked
    look(ui, "scoring-only-tie-break")
    for player, tokens in ((0, 1), (1, 3)):
        stepper = panel.ids[f"tie_{player}"]
        for _ in range(tokens):
            ui.tap(next(w for w in stepper.children if getattr(w, "text", "") == "+"))
        assert stepper.value == tokens
    ui.tap(panel.ids.save)
    assert ui.popup() is None, ui.app.notice
    state = ui.state
    assert state["outcome"]["ranking"] == [[1], [0], [2]]
    assert "Bo and Ada both have 60" in table.tie_break
    assert [tile.rank_text for tile in tiles(ui)] == [
        "Rank 2 · 1 reroll token left", "Rank 1 · 3 reroll tokens left", "Rank 3"]
    look(ui, "scoring-only-result")


def test_a_game_resumes_after_closing_and_undo_takes_back_a_tap(ui: Harness,
                                                                tmp_path: Path) -> None:
    start(ui, players=3, board="realm", start_player=0)
    done(ui)
    first = tiles(ui)[0]
    ui.tap(first.ids.score_up)
    assert ui.state["players"][0]["score"] == 11
    ui.tap_id("undo")
    assert ui.state["players"][0]["score"] == 10 and first.score == 10
    ui.tap_id("redo")
    assert first.score == 11
    ui.tap_id("done")  # late morning: Done, then noon asks "nothing forgotten?"
    ui.tap_id("done")
    assert ui.popup() is not None and ui.state["phase"] == "noon"
    ui.popup().dismiss()
    ui.frames(2)
    assert ui.state["phase"] == "noon"  # not confirmed: nothing moved on
    ui.close()
    again = Harness(tmp_path / "games.db")
    try:
        assert again.screen.resume_text == "Resume Glow: day 1, noon"
        again.tap_id("resume")
        assert again.app.screens.current == "table-glow"
        state = again.state
        assert (state["phase"], state["players"][0]["score"]) == ("noon", 11)
        assert tiles(again)[0].score == 11
    finally:
        again.close()
        ui.app = again.app  # the fixture closes this one


def test_done_at_noon_and_in_the_afternoon_asks_nothing_forgotten_before_it_sends_next(
        ui: Harness) -> None:
    # A script's plain next finishes these phases (the contract; issue 25); the question is
    # the screen's: Done opens it, and only its answer sends next.
    start(ui, players=2, board="realm", start_player=0)
    done(ui)
    done(ui)
    for phase, following in (("noon", "afternoon"), ("afternoon", "evening")):
        gate = ui.state["gate"]
        assert ui.state["phase"] == phase and gate is not None
        ui.tap_id("done")
        popup = ui.popup()
        assert popup is not None and popup.message == gate["text"]
        ui.frames(2)
        assert ui.state["phase"] == phase  # asked; nothing is sent before the answer
        confirm(ui)
        assert ui.state["phase"] == following


def test_the_title_names_the_phase_in_the_game_s_own_words_in_german(ui: Harness) -> None:
    start(ui, players=2, board="sea", start_player=0)
    done(ui)
    ui.app.switch_language("de")
    try:
        ui.frames(2)
        assert ui.screen.title == "Glow · Meer der Finsternis · Tag 1 von 8 · Vormittag"
        assert ui.screen.title.endswith(ui.state["phase_name"])
    finally:
        ui.app.switch_language("en")
    ui.frames(2)
    assert ui.screen.title == "Glow · Sea of Darkness · day 1 of 8 · late morning"


def test_the_player_panel_puts_boats_right_outside_the_afternoon_and_twice_in_it(
        ui: Harness) -> None:
    # The panel sends its moves as corrections: a plain boat move outside the afternoon, or a
    # second one the same day, is refused by the rules.
    start(ui, players=2, board="sea", start_player=0)
    assert ui.state["phase"] == "morning"
    ui.tap(tiles(ui)[1].ids.name)
    panel = ui.popup()
    ui.tap(panel.ids.boat_1)
    ui.pick("3")
    assert ui.state["players"][1]["boats"] == [0, 3, 0, 0], ui.app.notice
    ui.tap(panel.ids.close)
    for _ in range(3):
        done(ui)
    assert ui.state["phase"] == "afternoon"
    ui.tap(tiles(ui)[1].ids.name)
    panel = ui.popup()
    ui.tap(panel.ids.boat_0)
    ui.pick("5")
    ui.tap(panel.ids.boat_2)
    ui.pick("6")
    assert ui.state["players"][1]["boats"] == [5, 3, 6, 0], ui.app.notice
    assert panel.ids.boat_2.text == "Boat 3: island 6"
    ui.tap(panel.ids.close)


def asks_to_enter(state: dict[str, Any]) -> bool:
    """The prompt or a reminder asks the players to enter something on the table."""
    texts = [state["prompt"]["text"], *(reminder["text"] for reminder in state["reminders"])]
    return any("Enter" in text or "enter" in text for text in texts) and state["phase"] != "over"


def area_counts(ui: Harness, counts: tuple[int, ...]) -> None:
    """Tap each area's + as many times as it holds dice."""
    for cell, count in zip(ui.screen._areas, counts, strict=True):
        while cell.count > count:
            ui.tap(cell.ids.minus)
        while cell.count < count:
            ui.tap(cell.ids.plus)


def test_every_number_a_step_asks_for_is_entered_on_the_table_by_taps(ui: Harness) -> None:
    # The setup roll and the evening's return ask for the dice in each area; the morning asks
    # who recruits from where, and with two players which companion goes to the graveyard.
    # Each has its control on the table: − and + per area checked against the 9 small dice
    # (10 once Kaar has brought the black die), and a button per area.
    start(ui, players=2, board="realm", start_player=0, names=("Ada", "Bo"))
    table = ui.screen
    assert asks_to_enter(ui.state) and table.area_mode == "dice"
    assert table.dice_expected == 9 and table.ids.enter_dice.disabled
    area_counts(ui, (3, 2, 2, 2, 0))
    assert table.dice_counted == 9 and not table.ids.enter_dice.disabled
    ui.tap(table._areas[4].ids.plus)  # a tenth die does not exist
    assert table._areas[4].count == 0 and table.dice_counted == 9
    look(ui, "table-setup-roll")
    ui.tap_id("enter_dice")
    state = ui.state
    assert [area["dice"] for area in state["areas"]] == [3, 2, 2, 2, 0], ui.app.notice
    assert state["areas"][4]["trails"] == 1  # a die-less area gets its trail token
    assert table.area_mode == "pick" and not state["dice_wanted"]
    assert "3 dice" in table._areas[0].ids.action.text
    look(ui, "table-pick")
    ui.tap(table._areas[4].ids.action)  # Ada recruits Kaar from area 5, with its trail
    ui.pick("glow-A20")
    state = ui.state
    assert state["picked"] == [0] and state["black_die"], ui.app.notice
    assert state["players"][0]["trails"] == 1
    assert state["players"][0]["companions"][0]["card"] == "glow-A20"
    assert table.area_mode == "discard" and table._areas[4].ids.action.disabled
    look(ui, "table-discard")
    ui.tap(table._areas[0].ids.action)  # two players: Ada sends area 1's companion away
    assert ui.state["graveyard"] == [None] and table.area_mode == "pick"
    ui.tap(table._areas[1].ids.action)  # Bo recruits from area 2 without naming the card
    ui.pick("")
    state = ui.state
    assert state["picked"] == [0, 1] and state["areas"][1]["companion"] is False
    assert table.area_mode == "" and table.ids.area_row.height == 0
    while ui.state["phase"] != "evening":
        assert not asks_to_enter(ui.state), ui.state["prompt"]["text"]
        done(ui)
    state = ui.state
    assert asks_to_enter(state) and table.area_mode == "dice"
    assert table.dice_expected == 10 and table.dice_counted == 0  # Kaar's black die too
    look(ui, "table-evening-dice")
    area_counts(ui, (2, 2, 2, 2, 1))
    assert table.ids.enter_dice.disabled  # 9 of 10: the black die is missing
    area_counts(ui, (2, 2, 2, 2, 2))
    ui.tap_id("enter_dice")
    assert ui.state["dice_entered"] and table.area_mode == ""
    assert not asks_to_enter(ui.state)
    state = done(ui)
    assert (state["day"], state["phase"]) == (2, "morning")
    assert [area["dice"] for area in state["areas"]] == [2, 2, 2, 2, 2]
    assert table.area_mode == "pick"  # the setup roll is day 1's only


def test_the_player_panel_is_built_once_and_shows_whoever_was_tapped(ui: Harness) -> None:
    """Opened on many taps of an evening: the table builds it once (the kit's `panel_of`) and
    refills it for the player tapped, each number theirs."""
    start(ui, players=3, board="realm", start_player=0)
    first_tile, second_tile = tiles(ui)[:2]
    ui.tap(first_tile.ids.score_up)
    ui.tap(first_tile.ids.name)
    panel = ui.popup()
    players = ui.state["players"]
    assert panel.name == players[0]["name"]
    assert panel.ids.counter_score.value == str(players[0]["score"])
    ui.tap(panel.ids.close)
    ui.tap(second_tile.ids.name)
    again = ui.popup()
    assert again is panel
    assert again.name == players[1]["name"]
    assert again.ids.counter_score.value == str(players[1]["score"]) != str(players[0]["score"])
    ui.tap(again.ids.close)
