"""What players expect of the table screen beyond the rules: undo, shortcuts, confirmations,
banners that wait for them, settings that apply at once, a game that survives a restart."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.ui.theme import THEMES, rgba

from .harness import Harness
from .test_whole_games_ui import assert_table_shows_state

pytestmark = pytest.mark.ui

SPACE, ENTER = 32, 13


def start(ui: Harness, **choices: object) -> None:
    assert ui.app.send({"cmd": "new_game", "players": 2, "seed": 11, **choices})
    ui.app.show("table")
    ui.frames(3)


def test_space_and_enter_finish_the_step_and_f_adds_fear(ui: Harness) -> None:
    start(ui)
    assert ui.state["step"] == "initial_explore"
    ui.press_key(SPACE, " ")
    assert ui.state["step"] == "growth"
    ui.press_key(ENTER)
    assert ui.state["step"] == "gain_energy"
    ui.press_key(ord("f"), "f")
    assert ui.state["fear"]["generated"] == 1
    assert_table_shows_state(ui)


def test_ctrl_z_and_ctrl_y_and_the_buttons_undo_and_redo(ui: Harness) -> None:
    start(ui)
    ui.tap_id("city")
    assert ui.state["fear"]["generated"] == 2
    ui.press_key(ord("z"), "z", ["ctrl"])
    assert ui.state["fear"]["generated"] == 0
    assert not ui.widget("redo").disabled
    ui.press_key(ord("y"), "y", ["ctrl"])
    assert ui.state["fear"]["generated"] == 2
    ui.tap_id("undo")
    assert ui.state["fear"]["generated"] == 0
    ui.tap_id("redo")
    assert ui.state["fear"]["generated"] == 2
    assert_table_shows_state(ui)


def test_a_refused_tap_says_why_and_changes_nothing(ui: Harness) -> None:
    start(ui)
    before = ui.state
    for _ in range(before["blight"]["on_island"]):
        ui.tap_id("blight_heal")
    healed = ui.state
    assert healed["blight"]["on_island"] == 0
    ui.tap_id("blight_heal")
    assert ui.app.notice.startswith("Not done: ")
    assert ui.state == healed
    ui.tap(ui.app.root.ids.notice)
    assert ui.app.notice == ""


def test_a_banner_stays_until_dismissed_or_the_step_changes(ui: Harness) -> None:
    start(ui)
    ui.tap_id("done")  # initial explore done: growth
    for _ in range(4):
        ui.tap_id("city")
    assert any("Fear card earned" in line for line in ui.banner_lines())
    ui.tap_id("city")  # the banner stays while players go on moving pieces
    assert any("Fear card earned" in line for line in ui.banner_lines())
    ui.tap_id("banner_ok")
    assert ui.screen.banner == "" and ui.widget("banner").height == 0
    for _ in range(4):
        ui.tap_id("city")
    assert ui.screen.banner
    ui.tap_id("done")
    assert ui.screen.banner == ""


def test_abandoning_asks_first_and_cancel_keeps_the_game(ui: Harness) -> None:
    start(ui)
    ui.tap_id("menu")
    ui.tap(_button(ui, "Abandon this game"))
    assert "Abandon this game?" in ui.popup().message
    ui.tap(_button(ui, "Cancel"))
    assert ui.service_status() == "active"
    ui.tap(_button(ui, "Abandon this game"))  # the menu is still open
    ui.tap(_button(ui, "Abandon"))
    assert ui.screen.name == "home"
    assert ui.service_status() == "abandoned"
    assert ui.widget("resume").disabled


def test_declaring_defeat_asks_first_then_the_end_screen_scores(ui: Harness) -> None:
    start(ui)
    ui.tap_id("menu")
    ui.tap(_button(ui, "We lost: a Spirit is destroyed"))
    assert ui.popup() is not None and ui.state["outcome"] is None
    ui.tap(_button(ui, "We lost"))
    assert ui.screen.name == "end"
    assert ui.state["outcome"]["result"] == "defeat"
    ui.tap_id("back_to_game")
    assert ui.screen.name == "table" and ui.state["outcome"] is None


def test_a_restart_comes_back_to_the_same_step(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    first = Harness(db)
    try:
        start(first)
        for _ in range(3):
            first.tap_id("done")
        first.tap_id("fear_one")
        where = first.state
    finally:
        first.close()
    again = Harness(db)
    try:
        assert "Resume game: round 1" in again.widget("resume").text
        again.tap_id("resume")
        assert again.screen.name == "table"
        assert again.state == where
        assert_table_shows_state(again)
    finally:
        again.close()


def test_settings_change_theme_text_size_and_timer_at_once(ui: Harness) -> None:
    start(ui)
    config = ui.app.config
    for key, value in (("theme", "night"), ("text_size", "large"), ("spirit_timer", "1"),
                       ("spirit_timer_limit", "2")):
        config.set("companion", key, value)
        ui.app.on_config_change(config, "companion", key, value)
    ui.tap_id("done")  # into the Spirit phase
    ui.frames(2)
    assert ui.app.colours["background"] == rgba(THEMES["night"]["background"])
    assert ui.app.text_scale == 1.2
    assert ui.widget("timer").text.startswith("Spirit phase 0:0")
    assert ui.widget("timer").text.endswith("of 2:00")


def test_deleting_a_game_from_the_history_asks_first(ui: Harness) -> None:
    start(ui)
    assert ui.app.send({"cmd": "declare", "result": "victory"})
    ui.app.show("history")
    ui.frames(3)
    assert len(ui.widget("games").data) == 1
    ui.tap(_button(ui, "Delete"))
    ui.tap(_button(ui, "Delete", in_popup=True))
    assert ui.widget("games").data == []
    assert ui.app.notice == ""


def test_without_a_display_the_app_says_so_in_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY",
                                                              "SDL_VIDEODRIVER")}
    done = subprocess.run([sys.executable, "-m", "companion", "--db", str(tmp_path / "g.db")],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "no display" in lines[0] and "companion script" in lines[0]


def _button(ui: Harness, text: str, in_popup: bool = False) -> object:
    from kivy.uix.behaviors import ButtonBehavior

    roots = [ui.popup()] if in_popup else list(ui.window.children)
    for root in roots:
        for widget in root.walk():
            if isinstance(widget, ButtonBehavior) and getattr(widget, "text", "") == text \
                    and widget.get_root_window() is not None:
                return widget
    raise AssertionError(f"no button {text!r} on screen")


def test_while_home_is_shown_every_screen_and_the_fear_picker_are_built_ahead(
        tmp_path: Path) -> None:
    harness = Harness(tmp_path / "games.db", build_ahead=True)
    try:
        harness.until_built_ahead()
        screens = harness.app.screens
        assert screens.current == "home"
        for name in ("table", "new_game", "checklist", "rules", "history", "end", "tags"):
            assert screens.has_screen(name), name
        assert harness.app.screen("table")._fear_picker is not None
        assert harness.popup() is None  # laid out unseen, and closed again
        assert harness.app._rules_index is not None
        harness.tap_id("new_game")  # a screen built ahead opens and works as any other
        assert harness.screen.name == "new_game" and harness.screen.adversary_names
    finally:
        harness.close()


def test_a_tap_on_home_while_the_fear_picker_is_laid_out_unseen_reaches_home(
        tmp_path: Path) -> None:
    from companion.games.spirit_island.ui.widgets import FearCardPicker

    harness = Harness(tmp_path / "games.db", build_ahead=True)
    try:
        for _ in range(40):  # the frames of the build ahead, up to the picker's turn
            unseen = harness.popup()
            if isinstance(unseen, FearCardPicker) and unseen.opacity == 0:
                break
            harness.frames(1)
        else:
            raise AssertionError("the fear-card picker was never laid out unseen")
        harness.tap_id("new_game")  # found by bench_taps: this tap used to be swallowed
        assert harness.screen.name == "new_game"
        harness.frames(3)
        assert harness.popup() is None  # put away as before, and seen again when opened
        assert unseen.opacity == 1
    finally:
        harness.close()


def test_the_database_opens_after_the_first_frame_and_home_then_offers_the_game(
        tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    first = Harness(db)
    try:
        start(first)
        first.tap_id("done")
    finally:
        first.close()
    again = Harness(db, open_database_later=True)
    try:
        assert again.app.driver is not None  # opened once the first frame was drawn
        assert again.screen.name == "home"
        assert "Resume game: round 1" in again.widget("resume").text
        again.tap_id("resume")
        assert again.state["step"] == "growth"
    finally:
        again.close()


def test_tapping_the_fear_and_blight_panels_shows_their_sentences(ui: Harness) -> None:
    start(ui, adversary="england", level=3)
    ui.tap_id("fear")
    popup = ui.popup()
    assert popup is not None
    text = popup.ids.details.text
    assert text.startswith("Terror level I\n\nVictory: ")
    assert "Also lose: Proud and Mighty Capital" in text  # the adversary's loss condition
    assert "Fear: 8 of 8 in the pool, 0 generated" in text
    ui.tap(popup.ids.close)
    assert ui.popup() is None
    ui.tap_id("blight")
    assert ui.popup() is popup and popup.title == "Blight"  # kept and refilled, not rebuilt
    text = ui.popup().ids.details.text
    assert "Healthy Island" in text and f"On the card: {ui.state['blight']['on_card']}" in text
    ui.tap(ui.popup().ids.close)
    ui.tap_id("deck_panel")
    assert ui.popup().ids.details.text.startswith("Deck: ")
    ui.tap(ui.popup().ids.close)


def test_the_blight_card_turns_to_the_warning_colour_with_one_player_s_worth_left(
        ui: Harness) -> None:
    start(ui)
    assert ui.app.send({"cmd": "next"})  # into round 1: blight at setup comes from the box
    tile = ui.screen.ids.blight_card
    assert not ui.screen.blight_warning
    left = ui.state["blight"]["on_card"]
    assert ui.app.send({"cmd": "blight", "amount": left - 2})
    ui.frames(2)
    assert ui.screen.blight_warning and ui.screen.ids.blight_count.text == "2"
    colours = [instruction.rgba for instruction in tile.canvas.before.children
               if hasattr(instruction, "rgba")]
    assert ui.app.colours["danger"] in colours


def test_home_s_resume_button_follows_the_game_without_being_redrawn_behind_the_table(
        ui: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.ui.home_screen import HomeScreen

    start(ui)
    home = ui.app.screens.get_screen("home")
    refreshed: list[str] = []
    original = HomeScreen.refresh
    monkeypatch.setattr(HomeScreen, "refresh",
                        lambda self: (refreshed.append(ui.app.screens.current), original(self)))
    for _ in range(3):
        ui.tap_id("done")
    assert refreshed == []  # off the window: nothing to draw
    now = ui.app.table_class(ui.state).resume_text(ui.state)
    ui.app.show("home")
    ui.frames(2)
    assert refreshed and ui.app.screens.current == "home"
    assert now.startswith("Resume") and home.resume_text == now  # the game as it is now
    ui.app.send({"cmd": "next", "step": ui.state["step"]})  # a script plays on: Home follows
    ui.frames(2)
    assert home.resume_text == ui.app.table_class(ui.state).resume_text(ui.state) != now


def test_the_fear_track_draws_the_pool_filled_and_the_rest_hollow_redrawing_only_changes(
        ui: Harness) -> None:
    from kivy.graphics import Color, Ellipse, Mesh

    from companion.games.spirit_island.ui.widgets import FearTrack

    track = FearTrack(size_hint=(None, None), size=(200, 60), total=8, pool=8,
                      colour=[1, 1, 1, 1], spent_colour=[0.5, 0.5, 0.5, 1])
    ui.frames(2)

    def shapes() -> list[Any]:
        return [instruction for group in track.canvas.children
                for instruction in group.children if isinstance(instruction, Ellipse | Mesh)]

    def colours() -> list[list[float]]:
        return [list(instruction.rgba) for group in track.canvas.children
                for instruction in group.children if isinstance(instruction, Color)]

    assert [type(shape) for shape in shapes()] == [Ellipse] * 8
    before = shapes()
    track.pool = 5  # three fear generated
    ui.frames(2)
    after = shapes()
    assert [type(shape) for shape in after] == [Ellipse] * 5 + [Mesh] * 3
    assert after[:5] == before[:5]  # the markers still in the pool were not drawn again
    assert colours() == [[1, 1, 1, 1]] * 5 + [[0.5, 0.5, 0.5, 1]] * 3
    track.spent_colour = [1, 0, 0, 1]  # another theme
    ui.frames(2)
    assert colours() == [[1, 1, 1, 1]] * 5 + [[1, 0, 0, 1]] * 3
    track.size = (90, 90)  # a portrait screen: placed anew, inside the track
    ui.frames(2)
    assert [type(shape) for shape in shapes()] == [Ellipse] * 5 + [Mesh] * 3
    for shape in shapes()[:5]:
        corners = [*shape.pos, *(a + b for a, b in zip(shape.pos, shape.size, strict=True))]
        assert all(0 <= value <= 90 for value in corners), corners
    for ring in shapes()[5:]:  # a hollow marker: a ring inside its square
        points = [ring.vertices[index:index + 2] for index in range(0, len(ring.vertices), 4)]
        assert all(0 <= value <= 90 for point in points for value in point), points
    track.total, track.pool = 12, 12  # the pool grows
    ui.frames(2)
    assert [type(shape) for shape in shapes()] == [Ellipse] * 12
    track.total = 0
    ui.frames(2)
    assert shapes() == []
