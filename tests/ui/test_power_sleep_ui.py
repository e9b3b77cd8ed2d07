"""Sleep and power through the real window: a sleeping screen is woken by a tap that does
nothing else, on every game's table; Turn off and Restart on Home and
from every game's table menu, always asked first, the games flushed before systemd is asked."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from companion.power import NOT_THE_APPLIANCE, PowerControl
from companion.ui.power_menu import TURNING_OFF, PowerButtons, PowerPopup, PowerUnavailable
from companion.ui.sleep import AWAKE, DIM, OFF
from companion.ui.widgets import ConfirmPopup

from .every_game import start_on_table, where
from .harness import Harness

pytestmark = pytest.mark.ui


def let_time_pass(ui: Harness, minutes: float) -> str:
    """The sleep watch's clock moves on `minutes` without a touch; it looks, as its Kivy clock
    would have it look, and says the screen's state."""
    watch = ui.app.sleep_watch
    moved = watch.now() + minutes * 60
    watch.now = lambda: moved
    state = watch.check()
    ui.frames(2)
    return str(state)


def button(container: Any, text: str) -> Any:
    return next(widget for widget in container.walk(restrict=False)
                if getattr(widget, "text", None) == text and hasattr(widget, "on_release"))


def test_a_tap_on_a_sleeping_screen_wakes_it_and_finishes_no_step_the_next_tap_does(
        game_id: str, ui: Harness) -> None:
    start_on_table(ui, game_id)
    before = ui.state
    assert let_time_pass(ui, 61) == OFF  # the default: dark after an hour
    assert ui.app.sleep_watch.darkness.shade == 1.0  # no backlight here: a black veil
    ui.tap_id("done")
    assert ui.app.sleep_watch.state == AWAKE
    assert ui.app.sleep_watch.darkness.shade == 0.0
    assert ui.state["undo_count"] == before["undo_count"] and where(ui.state) == where(before)
    assert ui.popup() is None and ui.app.notice == ""
    ui.tap_id("done")
    assert ui.state["undo_count"] == before["undo_count"] + 1, ui.app.notice
    assert where(ui.state) != where(before)


def test_a_dimmed_screen_is_woken_by_a_tap_that_opens_nothing(ui: Harness) -> None:
    start_on_table(ui, "spirit-island")
    assert let_time_pass(ui, 31) == DIM
    assert 0 < ui.app.sleep_watch.darkness.shade < 1
    ui.tap_id("menu")
    assert ui.popup() is None and ui.app.sleep_watch.state == AWAKE
    ui.tap_id("menu")
    assert ui.popup() is not None


def test_a_card_laid_on_the_reader_wakes_the_screen(ui: Harness) -> None:
    from companion.reader.serial_reader import ReaderEvent

    assert let_time_pass(ui, 61) == OFF
    ui.app.reader_link.on_event(ReaderEvent("present", "pn532", "loop://", uid="04AABBCC"))
    assert ui.app.sleep_watch.state == AWAKE


def test_the_sleep_settings_take_effect_at_once(ui: Harness) -> None:
    ui.app.change_setting("sleep", "dim_after", "2")
    assert let_time_pass(ui, 2) == DIM
    ui.app.change_setting("sleep", "dim_after", "off")
    ui.app.change_setting("sleep", "off_after", "off")
    assert ui.app.sleep_watch.state == AWAKE
    assert let_time_pass(ui, 600) == AWAKE


class Runner:
    """systemctl's stand-in: records each command with the games log's size when it ran."""

    def __init__(self, wal: Path, returncode: int = 0) -> None:
        self.wal = wal
        self.returncode = returncode
        self.calls: list[tuple[list[str], int]] = []

    def __call__(self, command: Sequence[str]) -> subprocess.CompletedProcess[str]:
        self.calls.append((list(command), self.wal.stat().st_size))
        return subprocess.CompletedProcess(list(command), self.returncode, "", "")


def on_the_appliance(ui: Harness, tmp_path: Path, returncode: int = 0) -> Runner:
    runner = Runner(ui.db_path.with_name(ui.db_path.name + "-wal"), returncode)
    systemd = tmp_path / "run-systemd-system"
    systemd.mkdir(exist_ok=True)
    ui.app.power = PowerControl(flush=ui.app.flush_games, runner=runner,
                                environ={"COMPANION_APPLIANCE": "1"}, systemd_folder=systemd)
    return runner


def test_turn_off_asks_then_flushes_the_games_and_powers_off(
        game_id: str, ui: Harness, tmp_path: Path) -> None:
    ui.app.change_setting("companion", "confirm", "0")  # asked all the same
    start_on_table(ui, game_id)
    runner = on_the_appliance(ui, tmp_path)
    ui.tap_id("done")
    assert runner.wal.stat().st_size > 0  # the move is in the log, not yet in the file
    # Every game's menu has the way there (the shared TableMenu's), once however often opened.
    for _opening in range(2):
        ui.tap_id("menu")
        menu = ui.popup()
        assert len([widget for widget in menu.walk(restrict=True)
                    if getattr(widget, "text", None) == "Turn off or restart…"]) == 1
        ui.tap(button(menu, "Back to the table"))
    ui.tap_id("menu")
    ui.tap(button(ui.popup(), "Turn off or restart…"))
    power = ui.popup()
    assert isinstance(power, PowerPopup)
    ui.tap(button(power, "Turn off"))
    confirm = ui.popup()
    assert isinstance(confirm, ConfirmPopup) and runner.calls == []
    ui.tap(button(confirm, "Turn off"))
    assert runner.calls == [(["systemctl", "poweroff"], 0)]  # the log written out first
    assert ui.popup() is None and ui.app.notice == TURNING_OFF


def test_a_refused_restart_is_told_and_the_game_goes_on(ui: Harness, tmp_path: Path) -> None:
    table = start_on_table(ui, "spirit-island")
    runner = on_the_appliance(ui, tmp_path, returncode=1)
    ui.app.show("home")
    ui.frames(2)
    ui.tap(button(ui.widget("power"), "Restart"))
    ui.tap(button(ui.popup(), "Cancel"))
    assert runner.calls == [] and ui.popup() is None  # nothing asked of the system
    ui.tap(button(ui.widget("power"), "Restart"))
    ui.tap(button(ui.popup(), "Restart"))
    assert [command for command, _wal in runner.calls] == [["systemctl", "reboot"]]
    assert ui.app.notice.startswith("The table could not be restarted")
    moves = ui.state["undo_count"]
    ui.app.show(table.name)
    ui.frames(4)
    ui.tap_id("done")  # the games file is still open
    assert ui.state["undo_count"] == moves + 1, ui.app.notice


def test_restart_from_home_asks_then_reboots(ui: Harness, tmp_path: Path) -> None:
    runner = on_the_appliance(ui, tmp_path)
    ui.tap(button(ui.widget("power"), "Restart"))
    ui.tap(button(ui.popup(), "Restart"))
    assert [command for command, _wal in runner.calls] == [["systemctl", "reboot"]]


def test_off_the_appliance_the_buttons_are_dimmed_and_a_tap_says_why(
        game_id: str, ui: Harness) -> None:
    ui.app.power = PowerControl(flush=ui.app.flush_games, environ={})
    start_on_table(ui, game_id)
    ui.app.show("home")
    ui.frames(2)
    pair = ui.widget("power")
    pair.refresh()
    assert isinstance(pair, PowerButtons)
    assert pair.unavailable == NOT_THE_APPLIANCE
    assert all(child.opacity < 1 for child in pair.children)
    ui.tap(button(pair, "Turn off"))
    told = ui.popup()
    assert isinstance(told, PowerUnavailable) and told.message == NOT_THE_APPLIANCE
    assert told.ids.message.fits(), "the reason is cut off"
