"""The system health checks on fake machines (tests/system_machines.py): each check in each of
its states, the facts read from the kernel's files and the data folder's records, and a machine
where nothing can be read, which still answers every check without raising."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from companion import system_facts
from companion.system_health import TITLES, Check, Machine, run_checks
from tests.system_machines import (
    KEYBOARD,
    NOW,
    TOUCHPAD,
    TOUCHSCREEN,
    FakeMachine,
    all_well,
    with_problems,
    with_warnings,
)


def checked(fake: FakeMachine, lang: str = "en", **given: bool | None) -> dict[str, Check]:
    return {check.key: check for check in run_checks(fake.machine(), lang, **given)}


@pytest.fixture
def fake(tmp_path: Path) -> FakeMachine:
    return all_well(tmp_path)


def test_a_machine_with_nothing_wrong_is_all_ok_in_the_fixed_order(fake: FakeMachine) -> None:
    checks = run_checks(fake.machine(), "en")
    assert [check.key for check in checks] == list(TITLES)
    assert {check.level for check in checks} == {"ok"}
    assert all(check.what_to_do == "" for check in checks)
    said = {check.key: check.said for check in checks}
    assert said["version"] == "Table companion 9.8.7"
    assert said["network"] == "192.168.1.20"
    assert said["uptime"] == "3 days 5 hours"
    assert said["disk"] == "12.4 GB free"
    assert said["temperature"] == "51 °C"
    assert said["touch"] == "raspberrypi-ts"
    assert said["reader"] == "/dev/serial0"


def test_warnings_and_problems_each_say_what_to_do(tmp_path: Path) -> None:
    warned = checked(with_warnings(tmp_path / "w"))
    assert {key for key, check in warned.items() if check.level == "warning"} == {
        "network", "disk", "temperature", "power_supply", "clock", "backup", "crash"}
    troubled = checked(with_problems(tmp_path / "p"))
    assert {key for key, check in troubled.items() if check.level == "problem"} == {
        "disk", "temperature", "power_supply", "touch", "reader"}
    for check in [*warned.values(), *troubled.values()]:
        assert (check.what_to_do != "") == (check.level != "ok"), check


def test_the_network_check_leaves_out_loopback_and_falls_back_to_the_socket_module(
        fake: FakeMachine) -> None:
    fake.network("192.168.1.20", "10.0.0.7")
    assert checked(fake)["network"].said == "192.168.1.20, 10.0.0.7"
    fake.runner.answers["ip"] = None  # no `ip` on this machine
    machine = fake.machine()
    machine.own_addresses = lambda: ["172.16.0.3"]
    network = {check.key: check for check in run_checks(machine, "en")}["network"]
    assert (network.level, network.said) == ("ok", "172.16.0.3")
    fake.network()
    network = checked(fake)["network"]
    assert network.level == "warning"
    assert network.said == "No network: phones cannot follow the game."


@pytest.mark.parametrize(("free", "level", "said"), [
    (12_400_000_000, "ok", "12.4 GB free"),
    (500_000_000, "ok", "500 MB free"),
    (499_000_000, "warning", "Only 499 MB free on the card."),
    (99_000_000, "problem", "The card is nearly full (99 MB free): games may not be saved."),
])
def test_the_free_room_on_the_card_warns_under_500_mb_and_is_a_problem_under_100(
        fake: FakeMachine, free: int, level: str, said: str) -> None:
    fake.free = free
    disk = checked(fake)["disk"]
    assert (disk.level, disk.said) == (level, said)


def test_free_room_is_written_the_players_way(fake: FakeMachine) -> None:
    assert checked(fake, "de")["disk"].said.startswith("12,4 GB")


def test_free_room_that_cannot_be_measured_is_a_warning_not_a_crash(fake: FakeMachine) -> None:
    machine = fake.machine()

    def unmeasurable(_folder: Path) -> int:
        raise PermissionError("denied")

    machine.free_bytes = unmeasurable
    disk = {check.key: check for check in run_checks(machine, "en")}["disk"]
    assert disk.level == "warning" and disk.what_to_do


@pytest.mark.parametrize(("millidegrees", "level"), [
    ((45000, 69900), "ok"), ((70000,), "warning"), ((30000, 79999), "warning"),
    ((80000,), "problem")])
def test_the_hottest_zone_warns_from_70_degrees_and_is_a_problem_from_80(
        fake: FakeMachine, millidegrees: tuple[int, ...], level: str) -> None:
    fake.temperature(*millidegrees)
    temperature = checked(fake)["temperature"]
    assert temperature.level == level
    assert f"{max(millidegrees) / 1000:.0f} °C" in temperature.said


def test_no_readable_temperature_is_ok_and_says_it_is_not_measured(fake: FakeMachine) -> None:
    fake.temperature(-273000)  # a zone without a sensor
    fake.write(fake.sys / "class" / "thermal" / "thermal_zone1" / "temp", "garbage\n")
    temperature = checked(fake)["temperature"]
    assert (temperature.level, temperature.said) == ("ok", "not measured here")


@pytest.mark.parametrize(("bits", "level", "said"), [
    (0x0, "ok", "steady"),
    (0x50000, "warning", "The power dipped since the Pi was started."),
    (0x20000, "warning", "The Pi slowed itself down since it was started."),
    (0x50005, "problem", "The power supply gives too little power."),
    (0x40004, "problem", "The Pi is slowing itself down now."),
    (None, "ok", "not a Raspberry Pi"),
])
def test_the_power_supply_check_reads_vcgencmd_where_there_is_one(
        fake: FakeMachine, bits: int | None, level: str, said: str) -> None:
    fake.throttled(bits)
    power = checked(fake)["power_supply"]
    assert (power.level, power.said) == (level, said)
    assert ["vcgencmd", "get_throttled"] in fake.runner.ran


def test_a_vcgencmd_that_fails_is_not_taken_for_a_problem(fake: FakeMachine) -> None:
    fake.runner.answers["vcgencmd"] = system_facts.Ran(255, "VCHI initialization failed")
    assert checked(fake)["power_supply"].level == "ok"


def test_a_clock_before_the_installation_or_the_last_saved_game_is_wrong(
        fake: FakeMachine) -> None:
    assert checked(fake)["clock"].level == "ok"
    games = fake.write(fake.data / "games.sqlite3", "")
    later = (NOW + timedelta(days=40)).timestamp()
    import os

    os.utime(games, (later, later))  # a game saved after what the clock says now
    clock = checked(fake)["clock"]
    assert clock.level == "warning" and "dates of games will be wrong" in clock.said
    fake.now = NOW + timedelta(days=41)
    assert checked(fake)["clock"].level == "ok"


@pytest.mark.parametrize(("devices", "appliance", "level", "said"), [
    ((KEYBOARD, TOUCHSCREEN), True, "ok", "raspberrypi-ts"),
    ((KEYBOARD,), True, "problem", "No touch panel found."),
    ((KEYBOARD, TOUCHPAD), True, "problem", "No touch panel found."),
    ((KEYBOARD,), False, "ok", "none; a mouse works here"),
])
def test_the_touch_panel_is_found_among_the_input_devices(
        fake: FakeMachine, devices: tuple[str, ...], appliance: bool, level: str,
        said: str) -> None:
    fake.input_devices(*devices)
    if not appliance:
        del fake.environment["COMPANION_APPLIANCE"]
    touch = checked(fake)["touch"]
    assert (touch.level, touch.said) == (level, said)


def test_over_ssh_the_installed_service_says_the_machine_is_the_appliance(
        fake: FakeMachine) -> None:
    fake.input_devices(KEYBOARD)
    del fake.environment["COMPANION_APPLIANCE"]  # a person's shell, not the service
    fake.write(fake.root / "etc" / "systemd" / "system" / "companion.service", "[Unit]\n")
    assert checked(fake)["touch"].level == "problem"


def test_records_another_user_cannot_read_are_said_so_not_taken_as_none(
        fake: FakeMachine, monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.system_health as health

    monkeypatch.setattr(health.os, "access", lambda path, mode: Path(path) != fake.data)
    checks = checked(fake)
    for key in ("backup", "crash"):
        assert checks[key].level == "warning"
        assert checks[key].said == "This user cannot read the companion's records."
        assert "sudo -u companion companion doctor" in checks[key].what_to_do


def test_touch_panels_are_read_from_32_and_64_bit_kernels_and_single_touch_ones() -> None:
    multitouch_64 = TOUCHSCREEN.replace("ABS=2608000 3", "ABS=260800000000003")
    single = ('N: Name="ADS7846 Touchscreen"\nB: PROP=0\nB: EV=b\n'
              "B: KEY=400 0 0 0 0 0 0 0 0 0 0\nB: ABS=1000003\n")
    single_64 = single.replace("KEY=400 0 0 0 0 0 0 0 0 0 0", "KEY=400 0 0 0 0 0")
    for entry in (TOUCHSCREEN, multitouch_64, single, single_64):
        assert len(system_facts.touch_devices(entry)) == 1, entry
    assert system_facts.touch_devices("\n\n".join((KEYBOARD, TOUCHPAD))) == []


@pytest.mark.parametrize(("port", "device", "connected", "level", "said"), [
    ("off", False, None, "ok", "not used"),
    ("/dev/serial0", True, None, "ok", "/dev/serial0"),
    ("/dev/serial0", True, True, "ok", "connected (/dev/serial0)"),
    ("/dev/serial0", True, False, "problem", "The card reader does not answer (/dev/serial0)."),
    ("/dev/ttyUSB0", False, None, "problem", "Card reader not found at /dev/ttyUSB0."),
    ("auto", False, None, "ok", "found by itself"),
    ("auto", False, True, "ok", "connected (found by itself)"),
    ("auto", False, False, "problem", "No card reader found."),
    ("socket://192.168.1.30:7777", False, None, "ok", "socket://192.168.1.30:7777"),
])
def test_the_reader_check_follows_the_settings_port_and_the_live_status(
        fake: FakeMachine, port: str, device: bool, connected: bool | None, level: str,
        said: str) -> None:
    fake.reader_port(port)
    if not device:
        (fake.dev / "serial0").unlink()
    reader = checked(fake, reader_connected=connected)["reader"]
    assert (reader.level, reader.said) == (level, said)
    if level == "problem":
        assert reader.what_to_do == "Check its cable, or choose it again in Settings."


def test_without_settings_the_reader_is_not_used(fake: FakeMachine) -> None:
    (fake.data / "companion.ini").unlink()
    assert checked(fake)["reader"].said == "not used"
    fake.write(fake.data / "companion.ini", "this is [not an ini file\n")
    assert checked(fake)["reader"].said == "not used"


def test_the_backup_check_wants_one_in_the_last_eight_days(fake: FakeMachine) -> None:
    assert checked(fake)["backup"].said == "last on 2026-11-28"
    fake.backed_up(NOW - timedelta(days=8, hours=1))
    old = checked(fake)["backup"]
    assert old.level == "warning" and "8 days old" in old.said
    (fake.data / "backups.log").unlink()
    never = checked(fake)["backup"]
    assert (never.level, never.said) == ("warning", "No backup yet.")
    assert "stick" in never.what_to_do


def test_a_run_that_died_early_this_week_is_a_warning_with_when(fake: FakeMachine) -> None:
    fake.starts((NOW - timedelta(days=8), 300, ""), (NOW - timedelta(days=1), 301, "alive"))
    assert checked(fake)["crash"].level == "ok"  # the death is older than a week
    fake.starts((NOW - timedelta(days=3), 302, ""), (NOW - timedelta(hours=2), 303, ""),
                (NOW - timedelta(hours=1), 304, "stop"))
    crash = checked(fake)["crash"]
    assert crash.level == "warning"
    assert "2 times" in crash.said
    when = (NOW - timedelta(hours=2)).astimezone().strftime("%Y-%m-%d %H:%M")
    assert when in crash.said


def test_the_run_still_going_is_not_a_death(fake: FakeMachine) -> None:
    fake.starts((NOW - timedelta(seconds=20), 305, ""))  # this app, in its first minute
    fake.alive.add(305)
    assert checked(fake)["crash"].level == "ok"


def test_a_machine_where_nothing_can_be_read_still_answers_every_check(tmp_path: Path) -> None:
    machine = Machine(data_folder=tmp_path / "missing", settings_path=tmp_path / "none.ini",
                      db_path=tmp_path / "missing" / "games.sqlite3", proc=tmp_path / "p",
                      sys=tmp_path / "s", dev=tmp_path / "d", etc=tmp_path / "e",
                      run=lambda _command: None,
                      own_addresses=lambda: [], free_bytes=lambda _folder: 10**10)
    checks = run_checks(machine, "en")
    assert [check.key for check in checks] == list(TITLES)
    levels = {check.key: check.level for check in checks}
    assert levels == {**dict.fromkeys(TITLES, "ok"), "network": "warning", "backup": "warning"}


def test_a_check_that_fails_unforeseen_becomes_a_warning(fake: FakeMachine) -> None:
    machine = fake.machine()

    def broken(_command: list[str]) -> system_facts.Ran | None:
        raise RuntimeError("a runner nobody foresaw")

    machine.run = broken
    checks = {check.key: check for check in run_checks(machine, "en")}
    assert checks["network"].level == "warning"
    assert checks["network"].title == "Network"
    assert checks["temperature"].level == "ok"  # the others go on


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_every_sentence_is_translated(tmp_path: Path, lang: str) -> None:
    english = [*run_checks(with_problems(tmp_path / "p").machine(), "en"),
               *run_checks(with_warnings(tmp_path / "w").machine(), "en")]
    translated = [*run_checks(with_problems(tmp_path / "p").machine(), lang),
                  *run_checks(with_warnings(tmp_path / "w").machine(), lang)]
    for said, written in zip(translated, english, strict=True):
        assert said.title != written.title or said.key == "version", said
        if written.what_to_do:
            assert said.what_to_do != written.what_to_do, said


def test_this_machine_is_checked_without_raising(tmp_path: Path) -> None:
    checks = run_checks(Machine.this_one(tmp_path / "games.sqlite3"), "en")
    assert [check.key for check in checks] == list(TITLES)
