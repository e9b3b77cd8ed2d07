"""Playing any registered game through the real window, knowing nothing of its rules: start it
from Home with its form's defaults, tap its big step button, and watch which games' code runs.

The guard-rail tests that must hold for every game (`GAMES`) use these, so a game added
tomorrow is tested by them without a line of its own.
"""

from __future__ import annotations

import gc
import importlib
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from companion.core.game import Game, Setting
from companion.games.registry import GAMES
from companion.resources import layouts_dir

from .harness import Harness

STEP_BUTTON = "done"
"""The id of every table's big step button."""


def on_value(setting: Setting) -> str:
    """A value that switches `setting` on: On for a switch, a few for a number."""
    return "1" if setting.kind == "switch" else "2"


def other_games(game_id: str) -> list[Game]:
    return [game for game in GAMES.values() if game.id != game_id]


def switch_on_settings_of(games: list[Game], config_file: Path) -> None:
    """Write every setting of `games` switched on into companion.ini, as a player who turned
    them on in an earlier evening left it."""
    lines: dict[str, list[str]] = {}
    for game in games:
        for setting in game.settings:
            section, option = setting.key.split("/")
            lines.setdefault(section, []).append(f"{option} = {on_value(setting)}")
    config_file.write_text("".join(f"[{section}]\n" + "\n".join(options) + "\n\n"
                                   for section, options in lines.items()), encoding="utf-8")


def start_from_home(ui: Harness, game_id: str) -> None:
    """Home → New game → the game → Start (its form's defaults) → checklist → the table."""
    open_form(ui, game_id)
    start_from_form(ui, game_id)


def open_form(ui: Harness, game_id: str) -> None:
    """Home → New game → the game (the screen holds every game's form)."""
    if ui.screen.name != "home":
        ui.app.show("home")
        ui.frames(2)
    ui.tap_id("new_game")
    ui.tap_id(f"game_{game_id.replace('-', '_')}")


def start_from_form(ui: Harness, game_id: str) -> None:
    """Start (the form's defaults) → checklist → the table."""
    ui.tap_id("start")
    if ui.popup() is not None and hasattr(ui.popup(), "confirm"):  # abandon the last one
        ui.popup().confirm()
        ui.frames(3)
    assert ui.state.get("title") == game_id, ui.app.notice
    if ui.screen.name == "checklist":
        ui.tap_id("ready")
        if ui.popup() is not None:  # items left unticked: on all the same
            ui.popup().confirm()
            ui.frames(3)
    assert ui.screen.name == ui.app.table_name(), ui.screen.name


def play_steps(ui: Harness, taps: int) -> None:
    """Tap the table's big step button `taps` times, as a player does; a picker it opens is
    answered with its first choice, any other panel it opens is closed."""
    for _ in range(taps):
        ui.tap(ui.screen.ids[STEP_BUTTON])
        panel = ui.popup()
        if panel is None:
            continue
        try:
            choices = ui.choices()
        except (AttributeError, KeyError, AssertionError):
            choices = []
        if choices:
            ui.pick(choices[0])
        elif ui.popup() is not None:
            ui.popup().dismiss(animation=False)
            ui.frames(2)


def let_the_clock_run(ui: Harness, seconds: float = 1.5) -> None:
    """Draw frames until `seconds` of the app's clock have passed, so that every timer a
    screen keeps (a clock ticking each second) has fired at least once."""
    from kivy.clock import Clock

    until = Clock.get_time() + seconds
    deadline = time.monotonic() + 60 + seconds
    while Clock.get_time() < until:
        assert time.monotonic() < deadline, "the app's clock stood still"
        ui.frames(1)


def game_folders(game: Game) -> tuple[str, ...]:
    """Where a game's own code lies: its package (found from its start command's module) and
    its layouts' folder (kv rules are compiled with their file's name)."""
    package = ".".join(game.new_game.__module__.split(".")[:3])
    folders = [str(Path(path)) + "/" for path in importlib.import_module(package).__path__]
    if game.layouts:
        folders.append(str(layouts_dir() / game.layouts) + "/")
    return tuple(folders)


@contextmanager
def code_run_of(games: list[Game]) -> Iterator[list[str]]:
    """Record every function of `games`' folders that is called while the block runs (as
    "file:function"); the list is filled as they run."""
    folders = tuple(folder for game in games for folder in game_folders(game))
    ran: list[str] = []
    # Tables of earlier apps in this process (other tests') are let go of but maybe not yet
    # collected: their kv rules still follow the figure sizes all tables share, which this
    # app may change. They are not this app's: collect them before watching.
    gc.collect()

    def profile(frame: FrameType, event: str, _arg: Any) -> None:
        if event == "call" and frame.f_code.co_filename.startswith(folders):
            ran.append(f"{frame.f_code.co_filename}:{frame.f_code.co_name}")

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield ran
    finally:
        sys.setprofile(previous)
