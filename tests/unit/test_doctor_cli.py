"""`companion doctor`: one line per check, its level first, what to do after a dash; exit 1 on a
problem, else 0; the language from --lang, else the app's settings, else English."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from companion.cli import main
from companion.doctor_cli import default_games, doctor, settings_language
from companion.system_health import TITLES
from tests.system_machines import FakeMachine, all_well, with_problems, with_warnings


def lines_of(fake: FakeMachine, lang: str = "en") -> tuple[int, list[str]]:
    out = io.StringIO()
    code = doctor(fake.machine(), lang, out)
    return code, out.getvalue().splitlines()


def test_all_well_prints_one_ok_line_per_check_and_exits_0(tmp_path: Path) -> None:
    code, lines = lines_of(all_well(tmp_path))
    assert code == 0
    assert len(lines) == len(TITLES)
    assert lines[0] == "OK       Version: Table companion 9.8.7"
    assert "OK       Storage: 12.4 GB free" in lines
    assert all(line.startswith("OK ") and " — " not in line for line in lines)


def test_warnings_alone_exit_0_and_say_what_to_do_after_a_dash(tmp_path: Path) -> None:
    code, lines = lines_of(with_warnings(tmp_path))
    assert code == 0
    assert "WARNING  Temperature: 72 °C — Let air reach the Pi." in lines
    assert ("WARNING  Network: No network: phones cannot follow the game. — Plug in the "
            "network cable or set up Wi-Fi.") in lines


def test_a_problem_exits_1(tmp_path: Path) -> None:
    code, lines = lines_of(with_problems(tmp_path))
    assert code == 1
    assert ("PROBLEM  Card reader: Card reader not found at /dev/ttyUSB0. — Check its cable, "
            "or choose it again in Settings.") in lines
    assert sum(line.startswith("PROBLEM") for line in lines) == 5


def test_the_lines_are_in_the_language_asked(tmp_path: Path) -> None:
    code, lines = lines_of(with_problems(tmp_path), "de")
    assert code == 1
    assert all(line.split()[0] in ("OK", "WARNUNG", "PROBLEM") for line in lines)
    assert ("WARNUNG  Netzwerk: Kein Netzwerk: Handys können dem Spiel nicht folgen. — Das "
            "Netzwerkkabel einstecken oder WLAN einrichten.") in lines
    assert "PROBLEM  Temperatur: 83 °C: zu heiß, er wird langsamer. — " in "\n".join(lines)


@pytest.mark.parametrize(("stored", "lang"), [
    ("Deutsch", "de"), ("Français", "fr"), ("English", "en"), ("fr", "fr"), ("Klingon", "en")])
def test_the_language_comes_from_the_app_settings(tmp_path: Path, stored: str,
                                                  lang: str) -> None:
    settings = tmp_path / "companion.ini"
    settings.write_text(f"[companion]\nlanguage = {stored}\n", encoding="utf-8")
    assert settings_language(settings) == lang


def test_without_readable_settings_the_language_is_english(tmp_path: Path) -> None:
    assert settings_language(tmp_path / "missing.ini") == "en"
    (tmp_path / "bad.ini").write_bytes(b"\xff\xfe[not ini")
    assert settings_language(tmp_path / "bad.ini") == "en"


def test_the_command_checks_this_machine(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["doctor", "--db", str(tmp_path / "games.sqlite3"), "--lang", "fr"])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(TITLES)
    assert code == (1 if any(line.startswith("PROBLÈME") for line in lines) else 0)
    assert lines[0].startswith("OK ")


def test_on_the_table_itself_the_appliance_games_are_checked(tmp_path: Path) -> None:
    games = tmp_path / "var-lib-companion" / "games.sqlite3"
    assert default_games(games) != games  # no such folder: the user's own games
    games.parent.mkdir()
    assert default_games(games) == games
