"""A mistake in a game's screen code ends at one shared boundary: a panel in the players' words
with Undo and Home, the traceback in the log, the command on disk, and an app that goes on
answering taps. Raised through test hooks in every registered game's table, and in the test's
own game's (tests/ui/every_game.py), which inherits the boundary from the kit."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from companion import i18n
from companion.bootstrap import build_service
from companion.driver import ScriptDriver
from companion.ui.boundary import SOMETHING_WENT_WRONG, SomethingWentWrong

from .any_game import STEP_BUTTON, play_steps
from .every_game import start_on_table
from .harness import Harness

pytestmark = pytest.mark.ui


class HookRaised(RuntimeError):
    """What the test hooks raise."""


def failing(*_args: Any, **_kwargs: Any) -> None:
    raise HookRaised("a test hook: the screen's code fails here")


def the_panel(ui: Harness) -> SomethingWentWrong:
    panel = ui.popup()
    assert isinstance(panel, SomethingWentWrong), f"no failure panel but {panel!r}"
    assert panel.title == i18n._(SOMETHING_WENT_WRONG)
    return panel


def tracebacks_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.exc_text or "" for record in caplog.records
            if record.exc_info and "a test hook" in (record.exc_text or "")]


def test_a_failing_table_shows_the_panel_keeps_the_command_and_the_app_goes_on(
        game_id: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR)
    db = tmp_path / "games.db"
    ui = Harness(db)
    monkeypatch = pytest.MonkeyPatch()  # its own: the test's game stays registered meanwhile
    try:
        start_on_table(ui, game_id)
        started = ui.state
        play_steps(ui, 2)
        stepped = ui.state
        assert stepped != started and stepped["can_undo"]
        table = ui.screen
        # 1. A refresh after a command fails (the app's door: carry_out).
        monkeypatch.setattr(type(table), "refresh", failing)
        ui.tap_id("undo")
        panel = the_panel(ui)
        after_undo = ui.app.driver.state()
        assert after_undo != stepped and ui.state == after_undo  # the undo was carried out
        assert any("File" in text and "failing" in text for text in tracebacks_logged(caplog))
        # 2. The app still answers: Undo on the panel, with the table working again.
        monkeypatch.undo()
        assert panel.ids.failed_undo.disabled is (not after_undo["can_undo"])
        if after_undo["can_undo"]:
            ui.tap(panel.ids.failed_undo)
            assert ui.popup() is None and ui.state != after_undo
        else:
            ui.tap(panel.ids.failed_home)
            ui.tap_id("resume")
        assert ui.screen.name == ui.app.table_name()
        before_tap = ui.state
        play_steps(ui, 1)
        assert ui.state != before_tap, "the step button no longer answers"
        # 3. A button's handler fails (Kivy's event loop: the other door).
        ui.screen.ids[STEP_BUTTON].bind(on_release=failing)
        ui.tap_id(STEP_BUTTON)
        ui.tap(the_panel(ui).ids.failed_home)
        assert ui.popup() is None and ui.screen.name == "home"
        ui.screen.manager.get_screen(ui.app.table_name()).ids[STEP_BUTTON].unbind(
            on_release=failing)
        ui.tap_id("resume")
        assert ui.screen.name == ui.app.table_name()
        assert len(ui.app.boundary.caught) == 2
        assert all(isinstance(error, HookRaised) for error in ui.app.boundary.caught)
        ui.app.boundary.caught.clear()
        last = ui.state
    finally:
        monkeypatch.undo()
        ui.close()
    # Everything the players did is on disk: the next start comes back to it.
    service, _ = build_service(db)
    try:
        assert ScriptDriver(service, "en").state() == last
    finally:
        service.store.close()


def test_a_failure_on_every_frame_leaves_the_app_answering_and_is_logged_once(
        ui: Harness, caplog: pytest.LogCaptureFixture) -> None:
    from kivy.clock import Clock

    caplog.set_level(logging.ERROR)
    failing_on = [True]

    def every_frame(_dt: float) -> None:
        if failing_on[0]:
            Clock.schedule_once(every_frame, 0)  # Kivy drops an event that raised
            failing()

    Clock.schedule_once(every_frame, 0)
    try:
        ui.frames(30)
        assert len(ui.app.boundary.caught) >= 20
        assert len(tracebacks_logged(caplog)) == 1
    finally:
        failing_on[0] = False
        ui.frames(2)
    ui.tap(the_panel(ui).ids.failed_home)  # the app answers taps
    ui.tap_id("settings")
    assert ui.screen.name == "settings"
    ui.app.boundary.caught.clear()
