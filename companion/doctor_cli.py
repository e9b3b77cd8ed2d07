"""`companion doctor`: the System screen's checks in a terminal, for whoever looks after the
companion over SSH. One line per check; the exit code says whether any is a problem."""

from __future__ import annotations

import argparse
import configparser
import sys
from pathlib import Path
from typing import Any, TextIO

from .i18n import LANGUAGES, N_, translations
from .system_health import PROBLEM, Check, Machine, run_checks

LEVEL_WORDS = {"ok": N_("OK"), "warning": N_("WARNING"), "problem": N_("PROBLEM")}
"""The word a line starts with, by level (the screen marks the level by colour and a sign)."""
APPLIANCE_GAMES = Path("/var/lib/companion/games.sqlite3")
"""Where deploy/companion.service keeps the games (its --db)."""


def add_doctor_command(commands: Any) -> None:
    """Add `doctor` to the `companion` parser's subcommands."""
    doctor = commands.add_parser(
        "doctor", help="check the machine: network, storage, temperature, reader, backups …",
        description="Prints one line per check (version, network, running time, free storage, "
        "temperature, power supply, clock, touch panel, card reader, last backup, sudden "
        "stops), each OK, WARNING or PROBLEM with what to do. Exits 1 when any is a "
        "problem, else 0.")
    doctor.add_argument("--db", type=Path, default=None, dest="doctor_db", metavar="PATH",
                        help="the games database whose folder is checked (default: "
                        f"{APPLIANCE_GAMES} on the table itself, else the app's)")
    doctor.add_argument("--lang", choices=sorted(LANGUAGES), default=None,
                        help="the language of the lines (default: the app's setting, else "
                        "English)")


def run_doctor_command(args: argparse.Namespace, db: Path | None) -> int:
    machine = Machine.this_one(args.doctor_db or db or default_games())
    return doctor(machine, args.lang or settings_language(machine.settings_path))


def doctor(machine: Machine, lang: str, out: TextIO | None = None) -> int:
    """Print the checks of `machine` (to `out`, else standard output); 1 when any is a
    problem, else 0."""
    checks = run_checks(machine, lang)
    print_checks(checks, lang, out or sys.stdout)
    return 1 if any(check.level == PROBLEM for check in checks) else 0


def default_games(appliance_games: Path = APPLIANCE_GAMES) -> Path:
    """The games the app on this machine keeps: the appliance's, where it is one (over SSH
    the user's own folder holds none), else the user's."""
    from .store import default_database_path

    return appliance_games if appliance_games.parent.is_dir() else default_database_path()


def settings_language(settings_path: Path | None) -> str:
    """The language the app's settings choose (stored by its name, "Deutsch"), else English."""
    config = configparser.ConfigParser(interpolation=None)
    try:
        config.read(settings_path or [], encoding="utf-8")
    except (configparser.Error, OSError, UnicodeDecodeError):
        return "en"
    stored = config.get("companion", "language", fallback="English").strip()
    by_name = {name: code for code, name in LANGUAGES.items()}
    return stored if stored in LANGUAGES else by_name.get(stored, "en")


def check_line(check: Check, level_word: str, width: int) -> str:
    """`WARNING  Temperature: 72 °C — Let air reach the Pi.`"""
    line = f"{level_word:<{width}} {check.title}: {check.said}"
    return f"{line} — {check.what_to_do}" if check.what_to_do else line


def print_checks(checks: list[Check], lang: str, out: TextIO) -> None:
    gettext = translations(lang).gettext
    words = {level: gettext(word) for level, word in LEVEL_WORDS.items()}
    width = max(len(word) for word in words.values()) + 1
    for check in checks:
        print(check_line(check, words[check.level], width), file=out)
