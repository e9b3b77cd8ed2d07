"""A game's settings belong to the game: shown on the settings screen while it is played (all of
them while no game is), acting only while it is played, and nothing of one game runs while
another is played. Played through the real window for every registered game and for the test's
own (tests/ui/every_game.py)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from companion.games.registry import DEFAULT_GAME, GAMES

from .any_game import (
    code_run_of,
    let_the_clock_run,
    on_value,
    open_form,
    other_games,
    play_steps,
    start_from_form,
    start_from_home,
)
from .every_game import start_as_players_do, start_on_table
from .harness import Harness
from .test_settings_ui import button, open_settings, stored

pytestmark = pytest.mark.ui

GAMES_WITH_SETTINGS = [game for game in GAMES.values() if game.settings]


def switch_on_through_the_window(ui: Harness, game_ids: list[str]) -> None:
    """Settings → every setting of `game_ids` on (On, or + to a few), → Close."""
    settings = open_settings(ui)
    for game in GAMES.values():
        if game.id not in game_ids:
            continue
        for setting in game.settings:
            control = settings.ids[setting.key.split("/")[1]]
            if setting.kind == "switch":
                ui.tap(button(ui, "On", control))
            else:
                for _ in range(int(on_value(setting))):
                    ui.tap(button(ui, "+", control))
            assert stored(ui, *setting.key.split("/")) == on_value(setting)
    ui.tap_id("close")
    assert ui.screen.name == "home"


def test_with_every_other_games_settings_on_a_game_starts_plays_and_resumes_alone(
        game_id: str, tmp_path: Path) -> None:
    """The crash loop of issue 26: Spirit-phase timer on, then a Leviathan Wilds game started
    or resumed, killed the app each time within seconds (Spirit Island's timer ran for it)."""
    others = other_games(game_id)
    db = tmp_path / "games.db"
    ui = Harness(db)
    try:
        switch_on_through_the_window(ui, [game.id for game in others])
        if GAMES[game_id].setup_form:
            open_form(ui, game_id)  # the new-game screen holds every game's form
        with code_run_of(others) as ran:
            if GAMES[game_id].setup_form:
                start_from_form(ui, game_id)
            else:
                start_on_table(ui, game_id)
            play_steps(ui, 3)
            let_the_clock_run(ui)
        assert ui.screen.name == ui.app.table_name() and ui.state["title"] == game_id
        assert ran == [], f"other games' code ran while {game_id} was played: {ran[:5]}"
        played = ui.state
    finally:
        ui.close()
    again = Harness(db)  # the next evening: the game is resumed with the settings still on
    try:
        with code_run_of(others) as ran:
            let_the_clock_run(again)
            again.tap_id("resume")
            let_the_clock_run(again)
            assert again.state == played
            again.tap_id("undo")
            assert again.state["title"] == game_id and again.state != played
            play_steps(again, 1)
            let_the_clock_run(again)
        assert again.screen.name == again.app.table_name()
        assert ran == [], f"other games' code ran while {game_id} was resumed: {ran[:5]}"
    finally:
        again.close()


def test_the_settings_screen_shows_the_settings_of_the_game_in_play_only(
        game_id: str, ui: Harness) -> None:
    settings = open_settings(ui)  # no game in play: every game's, each under its name
    for game in GAMES_WITH_SETTINGS:
        assert _game_headings(settings).count(game.name) == 1
        assert all(setting.key.split("/")[1] in settings.ids for setting in game.settings)
    ui.tap_id("close")
    start_as_players_do(ui, game_id)
    ui.app.open_settings()
    ui.frames(3)
    shown = _game_headings(settings)
    for game in GAMES_WITH_SETTINGS:
        options = [setting.key.split("/")[1] for setting in game.settings]
        if game.id == game_id:
            assert shown == [game.name]
            assert all(settings.ids[option].get_root_window() is not None for option in options)
        else:
            assert game.name not in shown
            assert not any(option in settings.ids for option in options)
    if not GAMES[game_id].settings:
        assert shown == []
    ui.tap_id("close")
    assert ui.screen.name == ui.app.table_name()


def test_a_game_setting_acts_only_while_its_game_is_played(tmp_path: Path) -> None:
    spirit_island = GAMES_WITH_SETTINGS[0]
    others = other_games(spirit_island.id)
    (tmp_path / "companion.ini").write_text(
        "[companion]\n" + "".join(f"{s.key.split('/')[1]} = {on_value(s)}\n"
                                  for s in spirit_island.settings), encoding="utf-8")
    ui = Harness(tmp_path / "games.db")
    try:
        def in_effect() -> list[object]:
            return [ui.app.game_setting(spirit_island.id, s.key)
                    for s in spirit_island.settings]

        assert in_effect() == [s.value(s.default) for s in spirit_island.settings]
        start_from_home(ui, others[0].id)
        assert in_effect() == [s.value(s.default) for s in spirit_island.settings]
        start_from_home(ui, spirit_island.id)
        assert in_effect() == [s.value(on_value(s)) for s in spirit_island.settings]
        with pytest.raises(KeyError):
            ui.app.game_setting(others[0].id, spirit_island.settings[0].key)
    finally:
        ui.close()


def _game_headings(settings: object) -> list[str]:
    box = settings.ids.game_settings  # type: ignore[attr-defined]
    return [child.text for child in reversed(box.children)
            if type(child).__name__ == "SettingHeading"]


@pytest.mark.parametrize("game_id", [game_id for game_id in GAMES if game_id != DEFAULT_GAME])
def test_building_ahead_runs_no_other_games_code_while_a_game_is_played(
        tmp_path: Path, game_id: str) -> None:
    """The default game's table warms up its pickers while Home is looked at, unless another
    game is being played (resumed at the start)."""
    db = tmp_path / "games.db"
    ui = Harness(db)
    try:
        start_from_home(ui, game_id)
    finally:
        ui.close()
    again = Harness(db, build_ahead=True)
    try:
        assert again.app.game_in_play() == game_id
        with code_run_of([GAMES[DEFAULT_GAME]]) as ran:
            deadline = time.monotonic() + 300
            again.frames(3)
            while again.app.start_up.still_starting():
                assert time.monotonic() < deadline, "building ahead never ended"
                again.frames(1)
        warmed = [call for call in ran if call.endswith((":warm_up", ":fear_picker"))]
        assert warmed == [], warmed
    finally:
        again.close()
