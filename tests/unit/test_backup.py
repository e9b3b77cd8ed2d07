"""Backups of the table: backup, wipe and restore give back every game's log exactly, for every
game the registry lists; a damaged, foreign or newer file is refused in words and changes
nothing; a restore keeps the games as they were; the daily snapshots keep the newest seven."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from companion import i18n
from companion.backup import (
    BackupRefused,
    backups_on,
    describe_backup,
    last_backup,
    make_backup,
    restore_backup,
    take_daily_snapshot,
)
from companion.backup_contents import ALTERED, DAMAGED, NEWER, NOT_A_BACKUP
from companion.backup_file import MANIFEST, MANIFEST_TABLES
from companion.bootstrap import wired_service
from companion.games.registry import GAMES
from companion.store import GameStore
from tests.backup_table import SETTINGS, TAG, logs, saved
from tests.history_games import ok
from tests.table_player import driver_on

ROOT = Path(__file__).resolve().parents[2]
NOON = datetime(2026, 5, 17, 12, 0, tzinfo=UTC)


def test_backup_wipe_restore_gives_back_every_games_log_and_the_settings(
        table_games: Path, tmp_path: Path) -> None:
    settings = table_games.parent / "companion.ini"
    before, games_before = logs(table_games), saved(table_games)
    titles = {game["title"] for game in games_before[0]}
    assert titles == {listing.id for listing in GAMES.listed()}  # every game the table knows
    assert {game["status"] for game in games_before[0]} == {"finished", "active"}
    path = make_backup(table_games, tmp_path / "stick", settings)
    for name in (table_games.name, f"{table_games.name}-wal", f"{table_games.name}-shm"):
        (table_games.parent / name).unlink(missing_ok=True)
    settings.unlink()
    aside = restore_backup(path, table_games, settings)
    assert aside is None  # there were no games left to keep
    assert logs(table_games) == before
    assert saved(table_games) == games_before
    assert saved(table_games)[1][TAG]["card"] == "I-jungle"
    assert settings.read_text(encoding="utf-8") == SETTINGS
    with sqlite3.connect(table_games) as conn:
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()
    assert not tables & set(MANIFEST_TABLES)
    driver = driver_on(table_games)  # the unfinished Glow game, the last one played, comes back
    state = driver.state()
    assert state is not None and state["title"] == "glow" and state["game"] == 8
    driver.service.store.close()


def test_a_backup_says_what_it_holds(table_games: Path, tmp_path: Path) -> None:
    path = make_backup(table_games, tmp_path, table_games.parent / "companion.ini", now=NOON)
    assert path.name == "companion-backup-20260517-120000.sqlite3"
    contents = describe_backup(path)
    assert contents.made_at == NOON and contents.app_version
    assert contents.tags == 1 and contents.has_settings and contents.settings == SETTINGS
    assert [(g.title, g.status, g.moves) for g in contents.games] == [
        (g["title"], g["status"], g["log_length"] - 1) for g in saved(table_games)[0]]
    said = contents.said()
    assert said[1] == "8 games:"
    assert said[2].startswith("  Spirit Island: defeat, started ") and said[2].endswith(
        ", 14 moves")
    assert said[-3] == "  Glow: in progress, started " + \
        contents.games[-1].started_at.strftime("%Y-%m-%d %H:%M") + ", 0 moves"
    assert said[-2:] == ["1 card tag", "With the settings."]


def test_a_backup_taken_while_the_app_plays_holds_its_last_action(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    driver = driver_on(db)
    ok(driver, {"cmd": "new_game", "players": 2, "seed": 4})
    ok(driver, {"cmd": "fear", "amount": 3})  # committed to the WAL, not checkpointed
    assert Path(f"{db}-wal").stat().st_size > 0
    contents = describe_backup(make_backup(db, tmp_path / "stick"))
    assert [g.moves for g in contents.games] == [1] and not contents.has_settings
    driver.service.store.close()


def test_two_backups_in_the_same_second_are_two_files(table_games: Path, tmp_path: Path) -> None:
    first = make_backup(table_games, tmp_path, now=NOON)
    second = make_backup(table_games, tmp_path, now=NOON)
    assert second.name == "companion-backup-20260517-120000-2.sqlite3"
    assert backups_on(tmp_path) == [second, first]
    assert last_backup(table_games.parent) == (NOON, second)
    log_lines = (table_games.parent / "backups.log").read_text().splitlines()
    assert log_lines == [f"{NOON.isoformat()} {first}", f"{NOON.isoformat()} {second}"]


def test_a_backup_of_no_games_or_into_a_folder_that_cannot_be_made_is_refused(
        table_games: Path, tmp_path: Path) -> None:
    with pytest.raises(BackupRefused, match="There are no games to back up yet.") as refused:
        make_backup(tmp_path / "none.sqlite3", tmp_path)
    assert refused.value.reason == "no games"
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(BackupRefused, match="could not be written to .*: nothing may be "
                                            "written there") as refused:
        make_backup(table_games, blocker / "backups")
    assert refused.value.reason == "not written"
    assert not (table_games.parent / "backups.log").exists()


# --- files that are refused ---------------------------------------------------------------------

def garbage(_table: Path, folder: Path) -> Path:
    path = folder / "companion-backup-20260517-120000.sqlite3"
    path.write_bytes(bytes(range(256)) * 64)
    return path


def truncated(table_games: Path, folder: Path) -> Path:
    path = make_backup(table_games, folder)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    return path


def edited(name: str, *statements: str) -> Callable[[Path, Path], Path]:
    """A real backup, changed by `statements` after it was made."""
    def make(table_games: Path, folder: Path) -> Path:
        path = make_backup(table_games, folder)
        with sqlite3.connect(path) as conn:
            for statement in statements:
                conn.execute(statement)
        conn.close()
        return path

    make.__name__ = name
    return make


altered = edited("altered", "UPDATE commands SET command = '{\"cmd\": \"fear\", \"amount\": 9}' "
                 "WHERE game_id = 6 AND seq = 3")
newer_format = edited("newer_format", f"UPDATE {MANIFEST} SET value = '2' WHERE key = 'format'")
newer_schema = edited(
    "newer_schema", "INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
    "VALUES ('companion', '0099_from_the_future', '2030-01-01')", "PRAGMA user_version = 99")


def games_file(table_games: Path, folder: Path) -> Path:
    """A games file itself: SQLite, ours even, but no backup (no manifest)."""
    path = folder / "games-copy.sqlite3"
    with sqlite3.connect(table_games) as source, sqlite3.connect(path) as copy:
        source.backup(copy)
    source.close()
    copy.close()
    return path


def other_sqlite(_table: Path, folder: Path) -> Path:
    path = folder / "photos.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE photos (name TEXT)")
    conn.close()
    return path


def text_file(_table: Path, folder: Path) -> Path:
    path = folder / "notes.txt"
    path.write_text("a shopping list\n")
    return path


REFUSED = [
    (garbage, "damaged", DAMAGED), (truncated, "damaged", DAMAGED),
    (altered, "altered", ALTERED), (games_file, "foreign", NOT_A_BACKUP),
    (other_sqlite, "foreign", NOT_A_BACKUP), (text_file, "foreign", NOT_A_BACKUP),
    (newer_format, "newer", NEWER), (newer_schema, "newer", NEWER),
]


@pytest.mark.parametrize(("make", "reason", "text"), REFUSED, ids=lambda x: getattr(
    x, "__name__", None))
def test_a_damaged_foreign_or_newer_file_is_refused_in_words_and_changes_nothing(
        table_games: Path, tmp_path: Path, make: Any, reason: str, text: str) -> None:
    settings = table_games.parent / "companion.ini"
    file = make(table_games, tmp_path)
    before, games_before = logs(table_games), saved(table_games)
    with pytest.raises(BackupRefused) as refused:
        describe_backup(file)
    assert refused.value.reason == reason and str(refused.value) == text
    with pytest.raises(BackupRefused) as refused:
        restore_backup(file, table_games, settings)
    assert refused.value.reason == reason
    assert logs(table_games) == before and saved(table_games) == games_before
    assert settings.read_text() == SETTINGS
    assert [p.name for p in table_games.parent.iterdir() if "before-restore" in p.name] == []


@pytest.mark.parametrize("language", ["de", "fr"])
def test_a_refusal_is_told_in_the_language_in_use(table_games: Path, tmp_path: Path,
                                                  language: str) -> None:
    i18n.set_language(language)
    try:
        for make, _reason, text in REFUSED:
            folder = tmp_path / make.__name__
            folder.mkdir()
            with pytest.raises(BackupRefused) as refused:
                describe_backup(make(table_games, folder))
            assert str(refused.value) == i18n.translations(language).gettext(text) != text
    finally:
        i18n.set_language("en")


def test_a_file_that_is_not_there_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BackupRefused, match="There is no file at") as refused:
        describe_backup(tmp_path / "nowhere.sqlite3")
    assert refused.value.reason == "missing"


# --- restoring ----------------------------------------------------------------------------------

def test_a_restore_keeps_the_games_as_they_were_aside_and_that_file_opens_with_them(
        table_games: Path, tmp_path: Path) -> None:
    settings = table_games.parent / "companion.ini"
    path = make_backup(table_games, tmp_path / "stick", settings)
    driver = driver_on(table_games)
    ok(driver, {"cmd": "new_game", "players": 1, "seed": 9})  # played after the backup
    driver.service.store.close()
    settings.write_text("[companion]\nlanguage = fr\n")
    after, games_after = logs(table_games), saved(table_games)
    aside = restore_backup(path, table_games, settings, now=NOON)
    assert aside == table_games.parent / "games.before-restore-20260517-120000.sqlite3"
    assert logs(aside) == after and saved(aside) == games_after
    assert len(saved(table_games)[0]) == len(games_after[0]) - 1
    kept = table_games.parent / "companion.before-restore-20260517-120000.ini"
    assert kept.read_text() == "[companion]\nlanguage = fr\n"
    assert settings.read_text() == SETTINGS
    store, notices = GameStore.open(aside)  # a games file like any other
    assert notices == [] and len(store.games()) == 9
    store.close()


def test_the_app_restores_into_its_own_open_store(table_games: Path, tmp_path: Path) -> None:
    path = make_backup(table_games, tmp_path / "stick")
    before = logs(table_games)
    driver = driver_on(table_games)
    ok(driver, {"cmd": "new_game", "players": 1, "seed": 9})
    store = driver.service.store
    aside = restore_backup(path, table_games, store=store)
    assert aside is not None and len(saved(aside)[0]) == 9
    assert [game["id"] for game in store.games()] == list(range(1, 9))
    assert logs(table_games) == before
    store.close()


def test_a_restore_that_fails_half_way_puts_the_games_back(table_games: Path,
                                                          tmp_path: Path) -> None:
    path = make_backup(table_games, tmp_path / "stick", table_games.parent / "companion.ini")
    driver = driver_on(table_games)
    ok(driver, {"cmd": "new_game", "players": 1, "seed": 9})
    driver.service.store.close()
    before, games_before = logs(table_games), saved(table_games)
    folder_not_file = tmp_path / "settings-folder"
    (folder_not_file / "inside").mkdir(parents=True)  # the settings cannot be written there
    with pytest.raises(BackupRefused, match="could not be restored, so the games were left as "
                                            "they were") as refused:
        restore_backup(path, table_games, folder_not_file)
    assert refused.value.reason == "not restored"
    assert logs(table_games) == before and saved(table_games) == games_before


HOLD_THE_LOCK = """
import sys
from pathlib import Path
from companion.store_lock import WriterLock
lock = WriterLock.take(Path(sys.argv[1]))
print("held", flush=True)
sys.stdin.read()
"""


def test_a_restore_is_refused_while_another_companion_holds_the_games(
        table_games: Path, tmp_path: Path) -> None:
    path = make_backup(table_games, tmp_path / "stick")
    before = logs(table_games)
    holder = subprocess.Popen([sys.executable, "-c", HOLD_THE_LOCK, str(table_games)], cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(BackupRefused, match="open in another companion. Restore from "
                                                "that companion's System screen, or stop it "
                                                "first") as refused:
            restore_backup(path, table_games)
        assert refused.value.reason == "in use"
    finally:
        holder.communicate("", timeout=30)
    assert logs(table_games) == before
    assert [p.name for p in table_games.parent.iterdir() if "before-restore" in p.name] == []
    assert restore_backup(path, table_games) is not None  # once the other one has stopped


# --- the daily snapshots ------------------------------------------------------------------------

def test_the_daily_snapshots_are_one_a_day_and_the_newest_seven_are_kept(
        table_games: Path) -> None:
    snapshots = table_games.parent / "snapshots"
    snapshots.mkdir()
    (snapshots / "keep-me.txt").write_text("not a snapshot")
    taken = []
    for day in range(10):
        morning = NOON + timedelta(days=day, hours=-4)
        made = take_daily_snapshot(table_games, table_games.parent / "companion.ini", now=morning)
        assert made is not None and made.parent == snapshots
        taken.append(made)
        assert take_daily_snapshot(table_games, now=morning + timedelta(hours=5)) is None
    assert backups_on(snapshots) == taken[:-8:-1]
    assert (snapshots / "keep-me.txt").exists()
    assert last_backup(table_games.parent) == (NOON + timedelta(days=9, hours=-4), taken[-1])
    assert len((table_games.parent / "backups.log").read_text().splitlines()) == 10
    assert describe_backup(taken[-1]).has_settings


def test_no_snapshot_is_taken_before_there_are_games(tmp_path: Path) -> None:
    assert take_daily_snapshot(tmp_path / "games.sqlite3", now=NOON) is None
    assert last_backup(tmp_path) is None


def test_a_snapshot_cut_short_is_cleared_by_the_next(table_games: Path) -> None:
    snapshots = table_games.parent / "snapshots"
    snapshots.mkdir()
    leftover = snapshots / ".companion-backup.0badf00d.partial"
    leftover.write_bytes(b"half")
    assert take_daily_snapshot(table_games, now=NOON) is not None
    assert not leftover.exists()


def test_the_app_takes_the_snapshot_on_a_thread_and_logs_a_failure(
        table_games: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from companion.ui.snapshots import DailySnapshots, files_of

    driver = driver_on(table_games)
    files = files_of(driver.service, str(table_games.parent / "companion.ini"))
    assert files == (table_games, table_games.parent / "companion.ini")
    thread = DailySnapshots(lambda: files).look()
    assert thread is not None
    thread.join(30)
    assert len(backups_on(table_games.parent / "snapshots")) == 1
    driver.service.store.close()
    assert files_of(wired_service(GameStore.in_memory()), "") is None
    unwritable = tmp_path / "a-file"
    unwritable.write_text("")
    thread = DailySnapshots(lambda: (unwritable / "games.sqlite3", None)).look()
    assert thread is not None
    thread.join(30)  # no games there: nothing to take, nothing logged
    assert "the daily snapshot of" not in caplog.text
    broken = tmp_path / "games.sqlite3"
    broken.write_text(json.dumps({"not": "games"}))
    thread = DailySnapshots(lambda: (broken, None)).look()
    assert thread is not None
    thread.join(30)
    assert "the daily snapshot of" in caplog.text
