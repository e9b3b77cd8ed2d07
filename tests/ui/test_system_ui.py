"""The System screen through the real window: Home → System lists every check with its mark and
words; Settings → System comes back to Settings; the checks of a fake machine in each state
(all well, warnings, problems, a stick plugged in) are drawn whole, marked by a sign as well as
a colour, at 800x480, 1024x600 and 720x1280, in the dark and the night theme. SYSTEM_SHOTS
names a folder to keep the screenshots in."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.system_health import TITLES, Machine
from companion.ui.system_actions import BACKUP, RESTORE, UPDATE
from companion.ui.system_screen import MARKS, SEVERITY
from companion.usb_sticks import mounted_sticks
from tests.system_machines import STATES, FakeMachine

from .harness import Harness
from .test_reader_ui import wait_until

pytestmark = pytest.mark.ui

SIZES = {"800x480": (800, 480), "1024x600": (1024, 600), "portrait": (720, 1280)}


def app_in(folder: Path, size: tuple[int, int], theme: str = "dark") -> Harness:
    (folder / "companion.ini").write_text(f"[companion]\ntheme = {theme}\n")
    return Harness(folder / "games.db", size)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "app").mkdir()
    return tmp_path / "app"


@pytest.fixture
def ui_app(folder: Path) -> Iterator[Harness]:
    harness = app_in(folder, (800, 480))
    try:
        yield harness
    finally:
        harness.close()


def looked(ui: Harness) -> Any:
    """The System screen once its checks are on it."""
    screen = ui.app.screens.get_screen("system")
    wait_until(ui, lambda: bool(screen.summary) and not screen._looking)
    ui.frames(3)
    return screen


def on_fake_machine(ui: Harness, fake: FakeMachine, sticks: list[Path]) -> Any:
    """Show the System screen for `fake`, with `sticks` mounted (a table of mounts of its
    own, read as the real one is)."""
    mounts = fake.root / "mounts"
    mounts.write_text("".join(f"/dev/sd{chr(97 + index)}1 {stick} vfat rw,nosuid 0 0\n"
                              for index, stick in enumerate(sticks)))
    screen = ui.app.screen("system")
    screen.machine = fake.machine
    screen.find_sticks = lambda: mounted_sticks(mounts, roots=(str(fake.root),))
    ui.app.show("system")
    return looked(ui)


def shot(name: str, ui: Harness) -> None:
    """Keep a screenshot where SYSTEM_SHOTS names a folder."""
    shots = os.environ.get("SYSTEM_SHOTS")
    if shots:
        ui.screenshot(Path(shots) / f"{name}.png")


def test_home_opens_the_system_screen_with_every_check(ui_app: Harness) -> None:
    ui = ui_app
    ui.tap_id("system")
    assert ui.screen.name == "system"
    screen = looked(ui)
    rows = list(reversed(screen.ids.checks.children))
    assert sorted(row.key for row in rows) == sorted(TITLES)
    severities = [SEVERITY[row.level] for row in rows]
    assert severities == sorted(severities)  # the worst first
    for row in rows:
        assert row.ids.mark.text == MARKS[row.level]
        assert row.said and row.ids.said.fits()
    assert screen.summary
    assert screen.action_button(RESTORE) is not None  # offered with or without a stick
    ui.tap_id("back")
    assert ui.screen.name == "home"


def test_settings_opens_the_system_screen_and_back_returns_there(ui_app: Harness) -> None:
    ui = ui_app
    ui.tap_id("settings")
    ui.scroll_into_view(ui.widget("system"))
    ui.tap_id("system")
    assert ui.screen.name == "system"
    looked(ui)
    ui.tap_id("back")
    assert ui.screen.name == "settings"


def test_a_stick_plugged_in_while_the_screen_is_shown_brings_its_actions_into_view(
        ui_app: Harness, tmp_path: Path) -> None:
    ui = ui_app
    fake = STATES["problems"](tmp_path / "machine")
    stick = tmp_path / "machine" / "STICK"
    screen = on_fake_machine(ui, fake, [])
    assert screen.action_button(BACKUP) is None
    assert screen.ids.scroll.scroll_y == 1  # the problems first
    stick.mkdir()
    (fake.root / "mounts").write_text(f"/dev/sda1 {stick} vfat rw 0 0\n")
    screen.refresh()
    wait_until(ui, lambda: screen.action_button(BACKUP) is not None)
    ui.frames(5)
    button = screen.action_button(BACKUP)
    x, y = button.to_window(*button.center)
    assert 0 < y < ui.window.height  # in view, not below the fold


def test_the_checks_are_looked_at_again_while_the_screen_is_shown(ui_app: Harness,
                                                                   tmp_path: Path) -> None:
    ui = ui_app
    fake = STATES["ok"](tmp_path / "machine")
    screen = on_fake_machine(ui, fake, [])
    assert screen.summary_level == "ok"
    fake.temperature(84000)  # the Pi got hot while the screen was shown
    screen.refresh()  # as the clock does every few seconds
    wait_until(ui, lambda: screen.summary_level == "problem")
    hot = next(row for row in screen.ids.checks.children if row.key == "temperature")
    assert hot.ids.mark.text == MARKS["problem"] and "84 °C" in hot.said


SHOTS = [(state, size, theme) for state in ("ok", "warnings", "problems", "stick")
         for size in SIZES for theme in ("dark", "night")
         if size == "800x480" or theme == "dark"]


@pytest.mark.parametrize(("state", "size", "theme"), SHOTS)
def test_each_state_is_drawn_whole_and_readable(folder: Path, tmp_path: Path, state: str,
                                                size: str, theme: str) -> None:
    fake = STATES["ok" if state == "stick" else state](tmp_path / "machine")
    sticks = [tmp_path / "machine" / "STICK"] if state == "stick" else []
    for stick in sticks:
        stick.mkdir()
    ui = app_in(folder, SIZES[size], theme)
    try:
        screen = on_fake_machine(ui, fake, sticks)
        rows = list(reversed(screen.ids.checks.children))
        assert {row.level for row in rows} >= ({"ok"} if state in ("ok", "stick")
                                               else {"ok", state[:-1]})
        for row in rows:
            assert row.ids.mark.text == MARKS[row.level]
            assert row.ids.said.fits() and row.ids.what_to_do.fits(), row.said
            assert row.ids.said.font_size >= 17 and row.height >= 48
        buttons = [button for button in screen.ids.actions.children]
        assert all(button.height >= 48 and button.fits() for button in buttons)
        assert (screen.action_button(BACKUP) is not None) == (state == "stick")
        power = screen.ids.power
        assert power.ids.turn_off.height >= 48 and power.ids.restart.height >= 48
        assert screen.ids.summary.fits()
        shot(f"system-{state}-{size}-{theme}", ui)
        if size == "800x480" and theme == "dark":  # the actions, below the checks
            screen.ids.scroll.scroll_y = 0
            shot(f"system-{state}-{size}-{theme}-actions", ui)
    finally:
        ui.close()


def test_a_stick_plugged_in_is_backed_up_to_and_restored_from(folder: Path,
                                                              tmp_path: Path) -> None:
    from companion.backup import backups_on

    fake = STATES["ok"](tmp_path / "machine")
    stick = tmp_path / "machine" / "STICK"
    stick.mkdir()
    ui = app_in(folder, (800, 480))
    try:
        assert ui.app.send({"cmd": "new_game", "players": 2, "adversary": "england",
                            "level": 1, "seed": 7})
        assert ui.app.send({"cmd": "fear", "amount": 3})
        kept = ui.app.game_state
        screen = on_fake_machine(ui, fake, [stick])
        screen.machine = lambda: Machine.this_one(folder / "games.db",
                                                  folder / "companion.ini")
        ui.tap(screen.action_button(BACKUP))
        wait_until(ui, lambda: screen.message.startswith("Backed up to the stick"))
        [made] = backups_on(stick)
        assert made.name in screen.message
        looked(ui)
        assert next(row for row in screen.ids.checks.children
                    if row.key == "backup").level == "ok"

        assert ui.app.send({"cmd": "fear", "amount": 2})  # played on after the backup
        assert ui.app.game_state != kept
        ui.tap(screen.action_button(RESTORE))
        assert ui.popup() is not None
        shot("system-restore-choose", ui)
        ui.pick(str(made))
        question = ui.popup()
        shot("system-restore-question", ui)
        assert "Restore it?" in question.message and "1 game" in question.message
        question.confirm()
        wait_until(ui, lambda: screen.message.startswith("Restored"))
        shot("system-restored", ui)
        assert ui.app.game_state["fear"] == kept["fear"]  # the game as it was backed up
        assert list(folder.glob("games.before-restore-*.sqlite3"))
    finally:
        ui.close()


def test_restore_offers_the_nightly_snapshots_and_says_when_there_is_nothing(
        ui_app: Harness, folder: Path, tmp_path: Path) -> None:
    from companion.backup import backups_on

    ui = ui_app
    snapshots = folder / "snapshots"
    wait_until(ui, lambda: bool(backups_on(snapshots)))  # the app's first daily snapshot
    screen = on_fake_machine(ui, STATES["ok"](tmp_path / "machine"), [])
    ui.tap(screen.action_button(RESTORE))
    picker = ui.popup()
    [button] = picker.ids.grid.children
    assert button.detail == "nightly snapshot"
    picker.dismiss()
    ui.frames(2)
    for snapshot in backups_on(snapshots):
        snapshot.unlink()
    ui.tap(screen.action_button(RESTORE))
    assert ui.popup() is None
    assert screen.message == "No backup found on a stick or in the nightly snapshots."


def test_an_update_on_the_stick_is_offered_and_handed_over_after_a_question(
        folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion import updates

    fake = STATES["ok"](tmp_path / "machine")
    stick = tmp_path / "machine" / "STICK"
    (stick / updates.UPDATE_FOLDER).mkdir(parents=True)
    offered = updates.Update(stick / updates.UPDATE_FOLDER, "9.9.9", True, None)
    started: list[updates.Update] = []
    monkeypatch.setattr(updates, "update_unavailable_because", lambda: None)  # the appliance
    monkeypatch.setattr(updates, "start_update", started.append)
    ui = app_in(folder, (800, 480))
    try:
        screen = ui.app.screen("system")
        screen.find_updates = lambda sticks: [offered] if sticks else []
        screen = on_fake_machine(ui, fake, [stick])
        button = screen.action_button(UPDATE)
        assert button is not None and button.text == "Update to 9.9.9 from the stick"
        ui.tap(button)
        assert "Install version 9.9.9 from the stick?" in ui.popup().message
        shot("system-update-question", ui)
        ui.popup().confirm()
        wait_until(ui, lambda: screen.message.startswith("Updating"))
        assert started == [offered]
    finally:
        ui.close()


def test_an_update_that_cannot_be_installed_says_why(folder: Path, tmp_path: Path) -> None:
    from companion import updates

    fake = STATES["ok"](tmp_path / "machine")
    stick = tmp_path / "machine" / "STICK"
    (stick / updates.UPDATE_FOLDER).mkdir(parents=True)
    (stick / updates.UPDATE_FOLDER / updates.VERSION_FILE).write_text("9.9.9\n")
    ui = app_in(folder, (800, 480))
    try:
        screen = on_fake_machine(ui, fake, [stick])  # the real look: no signature there
        button = screen.action_button(UPDATE)
        assert button is not None and button.disabled
        assert updates.NOT_SIGNED in screen.reasons
        screen.ids.scroll.scroll_y = 0
        shot("system-update-refused", ui)
    finally:
        ui.close()


def test_turn_off_on_the_system_screen_asks_then_flushes_and_asks_systemd(
        ui_app: Harness, tmp_path: Path) -> None:
    import subprocess

    from companion.power import PowerControl

    ui = ui_app
    asked: list[list[str]] = []
    flushed: list[bool] = []

    def systemd(command: object) -> subprocess.CompletedProcess[str]:
        asked.append(list(command))  # type: ignore[call-overload]
        return subprocess.CompletedProcess(command, 0, "", "")

    (tmp_path / "systemd").mkdir()
    ui.app.power = PowerControl(flush=lambda: flushed.append(True), runner=systemd,
                                environ={"COMPANION_APPLIANCE": "1"},
                                systemd_folder=tmp_path / "systemd")
    screen = on_fake_machine(ui, STATES["ok"](tmp_path / "machine"), [])
    buttons = screen.ids.power
    assert not buttons.unavailable
    ui.tap(buttons.ids.turn_off)
    question = ui.popup()
    assert question.message.startswith("Turn the table off?")
    shot("system-turn-off-question", ui)
    question.confirm()
    ui.frames(2)
    assert flushed == [True] and asked == [["systemctl", "poweroff"]]
    assert ui.app.notice.startswith("The table is turning off")
    ui.app.notice = ""


def test_off_the_appliance_turn_off_is_dimmed_and_says_why(ui_app: Harness,
                                                           tmp_path: Path) -> None:
    ui = ui_app
    screen = on_fake_machine(ui, STATES["ok"](tmp_path / "machine"), [])
    assert screen.ids.power.unavailable  # a desktop: the companion never turns it off
