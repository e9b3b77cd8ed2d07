"""The harness's own promises: a tap lands on the widget it names, however the machine is loaded
and whatever is still moving on the screen."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from kivy.uix.scrollview import ScrollView

from .harness import Harness
from .test_leviathan_table_ui import in_popup, start

pytestmark = pytest.mark.ui


def test_a_tap_in_a_panel_still_scrolling_lands_on_its_button(ui: Harness) -> None:
    """A ScrollView hands the tap to what lies under the finger when it lifts: content still
    moving (as a fling, or an overscroll springing back with a loaded machine's long frames)
    took it elsewhere, or left the button out of sight."""
    start(ui, players=3, difficulty="hard", leviathan=7)
    ui.tap_id("crystals_panel")
    panel = ui.popup()
    for _ in range(3):  # more crystals than the panel shows at once
        in_popup(ui, "add")
    rows = list(reversed(panel.ids.crystal_rows.children))
    view = rows[0].parent
    while not isinstance(view, ScrollView):
        view = view.parent
    plus = list(reversed(rows[0].children))[2]
    assert plus.text == "+1"
    ui.scroll_into_view(plus)
    view.effect_y.velocity = 3000  # a fling under way when the player taps
    view.effect_y.trigger_velocity_update()
    ui.tap(plus)
    assert ui.state["crystals"][0]["dice"] == [4]


def test_an_xvfb_ends_with_the_test_run_that_started_it_even_when_that_run_is_killed(
        tmp_path: Path) -> None:
    """A test run stopped by a time limit (SIGKILL) must not leave its Xvfb behind."""
    if shutil.which("Xvfb") is None:
        pytest.skip("no Xvfb")
    pid_file = tmp_path / "xvfb.pid"
    starter = subprocess.Popen([sys.executable, "-c", (
        "import pathlib, sys, time\n"
        "from tests.ui.harness import start_xvfb\n"
        "process, _ = start_xvfb('64x64x24')\n"
        f"pathlib.Path({str(pid_file)!r}).write_text(str(process.pid))\n"
        "time.sleep(600)\n")], cwd=Path(__file__).resolve().parents[2])
    try:
        deadline = time.monotonic() + 60
        while not pid_file.exists() or not pid_file.read_text():
            assert starter.poll() is None, "the starter ended before Xvfb ran"
            assert time.monotonic() < deadline, "Xvfb did not start within a minute"
            time.sleep(0.05)
        xvfb_pid = int(pid_file.read_text())
        assert alive(xvfb_pid)
    finally:
        starter.kill()
        starter.wait()
    deadline = time.monotonic() + 30
    while alive(xvfb_pid):
        assert time.monotonic() < deadline, "Xvfb outlived the run that started it"
        time.sleep(0.05)


def alive(pid: int) -> bool:
    """The process is running (a zombie, ended but not yet reaped by init, counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_closing_right_after_a_tap_lets_the_button_turn_back_while_the_app_is_there(
        tmp_path: Path) -> None:
    """A tapped button turns back to normal a moment after the lift, on Kivy's clock, and its
    kv rule reads `app` as it does: a harness that closed before that left the turn to run
    in the next test, with no app (seen on a loaded machine)."""
    from kivy.clock import Clock
    from kivy.tests.common import UnitTestTouch
    from kivy.uix.button import Button

    harness = Harness(tmp_path / "games.db")
    try:
        button = next(widget for widget in harness.app.root.walk(restrict=True)
                      if isinstance(widget, Button) and type(widget).__name__ == "TapButton"
                      and not widget.disabled)
        button.min_state_time = 0.5  # a machine's frames never cover it before close
        touch = UnitTestTouch(*button.to_window(*button.center))
        touch.touch_down()
        touch.touch_up()
        assert button.state == "down"
    finally:
        harness.close()
    assert button.state == "normal"
    assert not [event for event in Clock.get_events()
                if getattr(event.get_callback(), "__name__", "") == "_do_release"]


def test_an_app_whose_close_failed_does_not_answer_the_next_tests_taps(tmp_path: Path) -> None:
    """kv's `app` keeps the first app it meets until that app stops. An app left running by a
    test that failed before its close (or whose close failed) once took every later test's
    taps: one failure, then ninety more (seen in CI). The next harness starts clean."""
    (tmp_path / "first").mkdir()
    (tmp_path / "second").mkdir()
    first = Harness(tmp_path / "first" / "games.db")
    try:
        first.tap_id("rules")  # kv's `app` now holds the first app
        assert first.screen.name == "rules"
        first.app.root.parent.remove_widget(first.app.root)  # the test failed; no close
        second = Harness(tmp_path / "second" / "games.db")
        try:
            second.tap_id("settings")
            assert second.screen.name == "settings"
            assert first.screen.name == "rules", "the tap went to the first app"
        finally:
            second.close()
    finally:
        first.app.detach()
        first.app.service.store.close()
