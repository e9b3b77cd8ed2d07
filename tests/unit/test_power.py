"""Turn off and Restart: offered on the appliance only, the games flushed before systemd is
asked, a refusal told in the players' words."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from companion import i18n
from companion.power import (
    NO_SYSTEMD,
    NOT_THE_APPLIANCE,
    RESTART_FAILED,
    TURN_OFF_FAILED,
    PowerControl,
    PowerFailed,
)

APPLIANCE = {"COMPANION_APPLIANCE": "1"}


class Recorder:
    """A runner that keeps every command, and what had happened before each was run."""

    def __init__(self, returncode: int = 0, raises: BaseException | None = None) -> None:
        self.returncode = returncode
        self.raises = raises
        self.calls: list[tuple[list[str], list[str]]] = []
        self.happened: list[str] = []

    def flush(self) -> None:
        self.happened.append("flushed")

    def __call__(self, command: Sequence[str]) -> subprocess.CompletedProcess[str]:
        self.calls.append((list(command), list(self.happened)))
        self.happened.append("ran")
        if self.raises is not None:
            raise self.raises
        return subprocess.CompletedProcess(list(command), self.returncode, "",
                                           "Access denied" if self.returncode else "")


def control(tmp_path: Path, runner: Recorder, environ: dict[str, str] | None = None,
            systemd: bool = True) -> PowerControl:
    folder = tmp_path / "run-systemd-system"
    if systemd:
        folder.mkdir(exist_ok=True)
    return PowerControl(flush=runner.flush, runner=runner,
                        environ=APPLIANCE if environ is None else environ,
                        systemd_folder=folder)


@pytest.fixture(autouse=True)
def english() -> None:
    i18n.set_language("en")


def test_turning_off_flushes_the_games_first_then_asks_systemd_to_power_off(
        tmp_path: Path) -> None:
    runner = Recorder()
    power = control(tmp_path, runner)
    assert power.unavailable_because() is None
    power.turn_off()
    assert runner.calls == [(["systemctl", "poweroff"], ["flushed"])]


def test_restarting_flushes_the_games_first_then_asks_systemd_to_reboot(tmp_path: Path) -> None:
    runner = Recorder()
    control(tmp_path, runner).restart()
    assert runner.calls == [(["systemctl", "reboot"], ["flushed"])]


@pytest.mark.parametrize("environ", [{}, {"COMPANION_APPLIANCE": "0"},
                                     {"COMPANION_APPLIANCE": ""}])
def test_off_the_appliance_the_items_say_why_and_nothing_is_run_or_flushed(
        tmp_path: Path, environ: dict[str, str]) -> None:
    runner = Recorder()
    power = control(tmp_path, runner, environ=environ)
    assert power.unavailable_because() == NOT_THE_APPLIANCE
    with pytest.raises(PowerFailed, match="Raspberry Pi"):
        power.turn_off()
    with pytest.raises(PowerFailed):
        power.restart()
    assert runner.calls == [] and runner.happened == []


def test_without_systemd_the_items_say_why(tmp_path: Path) -> None:
    runner = Recorder()
    power = control(tmp_path, runner, systemd=False)
    assert power.unavailable_because() == NO_SYSTEMD
    with pytest.raises(PowerFailed):
        power.turn_off()
    assert runner.calls == []


def test_the_reason_is_in_the_language_in_use(tmp_path: Path) -> None:
    power = control(tmp_path, Recorder(), environ={})
    i18n.set_language("de")
    try:
        reason = power.unavailable_because()
    finally:
        i18n.set_language("en")
    assert reason and reason != NOT_THE_APPLIANCE and "Raspberry Pi" in reason


def test_a_refused_power_off_is_told_in_words_after_the_games_were_flushed(
        tmp_path: Path) -> None:
    runner = Recorder(returncode=1)
    with pytest.raises(PowerFailed) as refused:
        control(tmp_path, runner).turn_off()
    said = str(refused.value)
    assert said == TURN_OFF_FAILED.format(reason="the system did not allow it")
    assert "Access denied" not in said  # polkit's words are for the log
    assert runner.happened == ["flushed", "ran"]


@pytest.mark.parametrize("raises, reason", [
    (FileNotFoundError("systemctl"), "the system's power control is missing"),
    (subprocess.TimeoutExpired("systemctl", 30), "the system did not answer"),
    (PermissionError("systemctl"), "the system did not allow it"),
])
def test_a_restart_that_cannot_be_run_is_told_in_words(
        tmp_path: Path, raises: BaseException, reason: str) -> None:
    with pytest.raises(PowerFailed) as failed:
        control(tmp_path, Recorder(raises=raises)).restart()
    assert str(failed.value) == RESTART_FAILED.format(reason=reason)
