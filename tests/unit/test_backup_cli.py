"""`companion backup [--db PATH] DIR` and `companion restore [--db PATH] FILE [--yes]`: the
command-line contract (the last line of a backup is its file; a restore without --yes changes
nothing; exit 0, or 1 with the reason on stderr), with --db before or after the command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.store import GameStore
from tests.backup_table import logs
from tests.table_player import driver_on

ROOT = Path(__file__).resolve().parents[2]


def test_backup_prints_the_file_it_wrote_last(table_games: Path, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "companion", "backup", "--db", str(table_games),
                           str(tmp_path / "stick")], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    lines = done.stdout.splitlines()
    path = Path(lines[-1])
    assert path.is_file() and path.parent == tmp_path / "stick"
    assert path.name.startswith("companion-backup-")
    assert "8 games:" in lines and "With the settings." in lines


@pytest.mark.parametrize("global_db", [False, True], ids=["db-after", "db-before"])
def test_backup_takes_the_games_file_before_or_after_the_command(
        table_games: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        global_db: bool) -> None:
    db = ["--db", str(table_games)]
    argv = [*db, "backup", str(tmp_path)] if global_db else ["backup", *db, str(tmp_path)]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert Path(out[-1]).is_file() and Path(out[-1]).parent == tmp_path


def test_a_backup_that_cannot_be_made_says_why_and_exits_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", str(tmp_path / "none.sqlite3"), "backup", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "companion backup: There are no games to back up yet.\n"


def test_restore_without_yes_says_what_the_file_holds_and_changes_nothing(
        table_games: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["backup", "--db", str(table_games), str(tmp_path)]) == 0
    path = Path(capsys.readouterr().out.splitlines()[-1])
    driver = driver_on(table_games)
    driver.handle({"cmd": "new_game", "players": 1, "seed": 9})
    driver.service.store.close()
    before = logs(table_games)
    assert main(["restore", "--db", str(table_games), str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "8 games:"
    assert [line.split(":")[0].strip() for line in out[2:10]] == [
        "Spirit Island", "Leviathan Wilds", "Leviathan Wilds", "Glow", "Glow",
        "Spirit Island", "Leviathan Wilds", "Glow"]
    assert out[-1] == "Nothing was changed: add --yes to restore this backup."
    assert logs(table_games) == before
    assert [p.name for p in table_games.parent.iterdir() if "before-restore" in p.name] == []


def test_restore_with_yes_restores_and_says_where_the_old_games_are(
        table_games: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", str(table_games), "backup", str(tmp_path)]) == 0
    path = Path(capsys.readouterr().out.splitlines()[-1])
    backed_up = logs(table_games)
    driver = driver_on(table_games)
    driver.handle({"cmd": "new_game", "players": 1, "seed": 9})
    driver.service.store.close()
    assert main(["--db", str(table_games), "restore", str(path), "--yes"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    aside = Path(last.split("are kept in ")[1].rstrip("."))
    assert last.startswith(f"Restored into {table_games}.") and aside.is_file()
    assert logs(table_games) == backed_up
    store = GameStore.open_read_only(aside)
    assert len(store.games()) == 9
    store.close()


def test_restore_of_a_file_that_is_no_backup_says_why_and_exits_1(
        table_games: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("a shopping list\n")
    before = logs(table_games)
    assert main(["restore", "--db", str(table_games), str(other), "--yes"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == ("companion restore: This file is not a backup of the table "
                            "companion.\n")
    assert logs(table_games) == before
