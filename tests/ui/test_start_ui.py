"""What a start shows: Kivy's chatter only with --verbose, no clipboard traceback, and a damaged
games file told in the players' words (SQLite's words go to the log)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from companion import i18n
from tests.integration.test_store import a_good_database, corrupt_middle
from tests.integration.test_store_recovery import Driver, a_newer_database

from .harness import Harness

pytestmark = pytest.mark.ui

ROOT = Path(__file__).resolve().parents[2]


def start_and_stop(tmp_path: Path, *args: str, until_line: str | None = None) -> str:
    """Start `companion` on the test display, wait until its window is up, close it; returns
    what it wrote to stderr."""
    db = tmp_path / "games.sqlite3"
    app = subprocess.Popen([sys.executable, "-m", "companion", *args, "--db", str(db)],
                           cwd=ROOT, stderr=subprocess.PIPE, text=True,
                           env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert app.stderr is not None
    deadline = time.monotonic() + 60
    read = []
    try:
        if until_line is not None:  # read the log until the line that says the app is up
            for line in app.stderr:
                read.append(line)
                if until_line in line or time.monotonic() > deadline:
                    break
        else:  # nothing is logged: the settings file is written once the window is open
            while not (tmp_path / "companion.ini").exists():
                assert app.poll() is None, app.stderr.read()
                assert time.monotonic() < deadline, "the app did not start"
                time.sleep(0.05)
    finally:
        app.terminate()
        read.append(app.communicate(timeout=30)[1])
    return "".join(read)


def test_a_plain_start_logs_nothing_and_verbose_shows_kivys_start(tmp_path: Path) -> None:
    quiet = start_and_stop(tmp_path / "quiet")
    assert "INFO" not in quiet and "CRITICAL" not in quiet, quiet
    assert "Older configuration version" not in quiet  # the first start's config file
    verbose = start_and_stop(tmp_path / "verbose", "--verbose",
                             until_line="Start application main loop")
    assert "INFO kivy: Window: Provider" in verbose and "CRITICAL" not in verbose, verbose


def test_a_text_box_finds_no_clipboard_tool_without_a_traceback(tmp_path: Path) -> None:
    code = ("import logging, sys; logging.basicConfig(level=logging.WARNING)\n"
            "from pathlib import Path\n"
            "from companion.ui.launch import prepare_kivy\n"
            f"prepare_kivy(Path({str(tmp_path / 'kivy')!r}))\n"
            "from kivy.core.window import Window\n"
            "from kivy.core.clipboard import Clipboard, CutBuffer\n"
            "print(type(Clipboard).__name__)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ClipboardSDL2"
    assert "CRITICAL" not in done.stderr and "Traceback" not in done.stderr, done.stderr


def header_over_random_pages(db: Path) -> None:
    db.write_bytes(b"SQLite format 3\x00" + random.Random(25).randbytes(8000))


def damaged_pages(db: Path) -> None:
    a_good_database(db)
    corrupt_middle(db)


@pytest.mark.parametrize("spoil", [damaged_pages, header_over_random_pages])
def test_a_damaged_games_file_is_told_in_the_players_words(
        tmp_path: Path, spoil: Callable[[Path], None]) -> None:
    db = tmp_path / "games.db"
    spoil(db)
    (tmp_path / "companion.ini").write_text("[companion]\nlanguage = Deutsch\n")
    ui = Harness(db)
    try:
        aside = next(p for p in tmp_path.iterdir() if ".unreadable-" in p.name
                     and not p.name.endswith(("-wal", "-shm")))
        notice = ui.app.notice
        german = i18n.translations("de").gettext(
            "The games file could not be read; it was kept as {name} and a new one was "
            "started.")
        assert notice == german.format(name=aside.name)
        assert "quick_check" not in notice and str(tmp_path) not in notice
        ui.tap(ui.app.root.ids.notice)
        assert ui.app.notice == ""
    finally:
        ui.app.change_setting("companion", "language", "English")
        ui.close()


def test_a_second_companion_on_the_games_starts_and_says_another_one_writes_them(
        tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    script = Driver(db)  # `companion script` on the same games, started first
    try:
        assert script.ask("new_game", players=2, seed=3)["ok"]
        assert script.ask("fear", amount=2)["ok"]
        ui = Harness(db)
        try:
            assert ui.app.notice == (
                f"The games are open in another companion (process {script.process.pid}), so "
                "nothing will be saved here: games can be looked at and resumed. Close the "
                "other one and start this one again to play.")
            assert ui.screen.name == "home"
            ui.tap(ui.app.root.ids.notice)
            ui.tap_id("resume")
            assert ui.state["fear"]["generated"] == 2
            ui.tap_id("fear_one")
            assert "open in another companion" in ui.app.notice
            assert ui.state["fear"]["generated"] == 2
        finally:
            ui.close()
        assert script.ask("fear")["ok"]  # the script still writes
    finally:
        script.close()


def test_games_from_a_newer_version_are_opened_read_only_and_told_in_the_players_words(
        tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    found = a_newer_database(db, "user_version")
    (tmp_path / "companion.ini").write_text("[companion]\nlanguage = Français\n")
    ui = Harness(db)
    try:
        french = i18n.translations("fr").gettext(
            "The games file was made by a newer version of the companion, so nothing will be "
            "saved: games can be looked at and resumed. Update the companion to play on.")
        assert ui.app.notice == french != ""
        assert ui.screen.name == "home"
    finally:
        ui.app.change_setting("companion", "language", "English")
        ui.close()
    assert db.read_bytes() == found
    assert [p.name for p in tmp_path.iterdir() if ".unreadable-" in p.name] == []


FIRST_FRAME_CHILD = """
import sys
from pathlib import Path
folder = Path(sys.argv[1])
from companion.ui.launch import prepare_kivy
prepare_kivy(folder / "kivy")
from kivy.core.window import Window
from companion.ui.app import CompanionApp
def open_service():
    from companion.bootstrap import build_service
    return build_service(folder / "games.sqlite3")[0]
from kivy.clock import Clock
app = CompanionApp(config_dir=folder, open_service=open_service,
                   when_ready=lambda: Clock.schedule_once(lambda _dt: app.stop()))
def loaded():
    # a game's rules, and the libraries that took 0.2-0.4 s each to import on this VM; the
    # core's model (its dataclasses took 25 ms) and the tag file's csv and difflib
    return sorted(name for name in sys.modules if name.endswith(".definition")
                  or name in ("fpdf", "numpy", "sqlite_utils", "csv", "difflib")
                  or name.startswith("companion.core.") and name not in LIGHT_CORE)
LIGHT_CORE = ("companion.core.listing", "companion.core.errors", "companion.core.phrases")
def first_frame(*_):
    Window.unbind(on_flip=first_frame)
    print("first frame:", *loaded(), flush=True)
app.bind(on_start=lambda *_: Window.bind(on_flip=first_frame))
app.run()
print("after:", *loaded(), flush=True)
"""


def test_the_first_frame_waits_for_no_games_rules(tmp_path: Path) -> None:
    """The start reads the games' listings (names, settings, tag kinds, translations), and
    imports a game's rules only after Home is on the screen: here in German, with a game's
    setting on and a game saved, the paths that once imported every game before the first
    frame (a third of the start). Nor the database library, the PDF library of the tag sheet
    or numpy: screens imported at the start brought them in, and the start took 2.2 times a
    bare Kivy app's. Nor the core's model beyond the games' listings."""
    from companion.games.registry import GAMES

    driver = Driver(tmp_path / "games.sqlite3")
    assert driver.ask("new_game", game="glow", players=2, board="realm")["ok"]
    driver.close()
    settings = "".join(f"{setting.key.split('/')[1]} = 1\n"
                       for game in GAMES.listed() for setting in game.settings)
    (tmp_path / "companion.ini").write_text(f"[companion]\nlanguage = Deutsch\n{settings}")
    done = subprocess.run([sys.executable, "-c", FIRST_FRAME_CHILD, str(tmp_path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    lines = [line for line in done.stdout.splitlines() if line.startswith(("first", "after"))]
    assert done.returncode == 0 and len(lines) == 2, done.stderr[-3000:]
    assert lines[0] == "first frame:", lines
    assert "companion.games.glow.definition" in lines[1], lines  # then the saved game resumes
    assert "sqlite_utils" in lines[1], lines  # and the games are opened
    assert "companion.core.game" in lines[1], lines
