"""What the games database survives: failed saves, unreplayable logs, foreign files, exports
over the database, read-only files and full disks, damaged write-ahead logs (issue 16)."""

from __future__ import annotations

import json
import os
import random
import select
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.bootstrap import wired_service
from companion.core.errors import Refused
from companion.games.spirit_island.view import state_view
from companion.service import GameService
from companion.store import GameStore
from companion.store_schema import known_migrations

ROOT = Path(__file__).resolve().parents[2]


def service_on(path: Path) -> tuple[GameService, list[str]]:
    store, notices = GameStore.open(path)
    service = wired_service(store, seed_source=lambda: 77)
    service.resume_latest()
    return service, notices + service.notices


def play(service: GameService, cmd: str, **fields: Any) -> Any:
    return service.handle(service.parse({"cmd": cmd, **fields}))


def view(service: GameService) -> dict[str, Any]:
    assert service.state is not None
    return state_view(service.state)


def script(db: Path, *lines: dict[str, Any] | str,
           as_user: list[str] | None = None) -> tuple[list[dict[str, Any]], str, int]:
    raw = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n"
                  for line in lines).encode()
    done = subprocess.run([*(as_user or []), sys.executable, "-m", "companion", "script",
                           "--db", str(db)],
                          input=raw, capture_output=True, cwd=ROOT, timeout=60)
    answers = [json.loads(line) for line in done.stdout.decode().splitlines()]
    return answers, done.stderr.decode(), done.returncode


# --- 2: a failed save changes nothing; a log that does not replay never stops the start -------


def test_a_save_that_fails_for_any_reason_leaves_the_session_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    service, _ = service_on(tmp_path / "g.sqlite3")
    play(service, "new_game", players=2, seed=3)
    before = view(service)
    store_append = service.store.append

    def fails(*args: object, **kwargs: object) -> None:
        # Not a StoreError: what SQLite raised for a text it could not encode, before the
        # driver learnt to refuse lone surrogates when it reads a command.
        raise UnicodeEncodeError("utf-8", "\udc80", 0, 1, "surrogates not allowed")

    monkeypatch.setattr(service.store, "append", fails)
    with pytest.raises(Refused, match="could not save this action"):
        play(service, "declare", result="victory", reason="we won")
    monkeypatch.setattr(service.store, "append", store_append)
    assert view(service) == before and not service.session.can_undo
    with pytest.raises(Refused, match="nothing to undo"):
        play(service, "undo")
    play(service, "fear", amount=2)
    service.store.close()
    again, notices = service_on(tmp_path / "g.sqlite3")
    assert notices == [] and view(again)["fear"]["generated"] == 2


def test_the_driver_refuses_an_unsavable_action_and_starts_again_afterwards(
        tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    answers, _, code = script(
        db, {"cmd": "new_game", "players": 2, "seed": 3},
        '{"cmd": "declare", "result": "victory", "reason": "\\udc80"}', {"cmd": "undo"})
    assert code == 0 and [a["ok"] for a in answers] == [True, False, False]
    assert "internal error" not in answers[1]["error"]
    answers, stderr, code = script(db, {"cmd": "state"})
    assert code == 0 and answers[0]["ok"] and answers[0]["state"]["game"] == 1, stderr


def spoil_the_log(db: Path) -> None:
    """Log an undo the game cannot replay, as the old driver did after a failed save."""
    with sqlite3.connect(db) as raw:
        raw.execute("INSERT INTO commands (game_id, seq, command, at) VALUES "
                    "(2, 2, '{\"cmd\": \"undo\"}', '2026-01-01T00:00:00+00:00')")
        raw.execute("UPDATE games SET log_length = 2 WHERE id = 2")


def test_a_game_whose_log_does_not_replay_is_set_aside_and_the_rest_stays_usable(
        tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    service, _ = service_on(db)
    play(service, "new_game", players=2, seed=3)
    play(service, "fear", amount=3)
    play(service, "new_game", players=1, seed=4)
    service.store.close()
    spoil_the_log(db)
    service, notices = service_on(db)
    assert service.state is None and service.unreadable_games == [2]
    assert len(notices) == 1 and "game 2" in notices[0] and "cannot be replayed" in notices[0]
    games = {g["id"]: g for g in service.store.games()}
    assert games[2]["status"] == "unreadable" and games[2]["log_length"] == 2
    assert len(service.store.full_log(2)) == 2  # the evidence is kept
    with pytest.raises(Refused, match="cannot be replayed"):
        play(service, "resume", game=2)
    play(service, "resume", game=1)
    assert view(service)["fear"]["generated"] == 3
    play(service, "fear")
    service.store.close()
    again, notices = service_on(db)
    assert notices == [] and view(again)["fear"]["generated"] == 4


def test_the_driver_starts_on_a_database_with_an_unreplayable_game(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    script(db, {"cmd": "new_game", "players": 2, "seed": 3},
           {"cmd": "new_game", "players": 1, "seed": 4})
    spoil_the_log(db)
    answers, stderr, code = script(db, {"cmd": "games"}, {"cmd": "resume", "game": 1})
    assert code == 0, stderr
    assert [g["status"] for g in answers[0]["games"]] == ["active", "unreadable"]
    assert answers[1]["ok"] and answers[1]["state"]["game"] == 1
    assert "game 2" in stderr and "cannot be replayed" in stderr


# --- 3: a foreign database is moved aside before anything is written to it --------------------


def foreign_games_table(path: Path) -> None:
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT, shelf TEXT)")
        other.execute("INSERT INTO games (title, shelf) VALUES ('Spirit Island', 'top')")


def foreign_with_our_table_names(path: Path) -> None:
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, status TEXT)")
        other.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")


@pytest.mark.parametrize("make", [foreign_games_table, foreign_with_our_table_names])
def test_a_foreign_database_with_our_table_names_is_moved_aside_unchanged(
        tmp_path: Path, make: Any) -> None:
    db = tmp_path / "games.sqlite3"
    make(db)
    original = db.read_bytes()
    store, notices = GameStore.open(db)
    assert len(notices) == 1 and "is not a companion database" in notices[0]
    assert store.set_aside is not None and store.set_aside.read_bytes() == original
    assert not Path(f"{store.set_aside}-wal").exists()
    with sqlite3.connect(f"{store.set_aside.as_uri()}?mode=ro", uri=True) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert [n for (n,) in raw.execute("SELECT name FROM sqlite_master")
                if n.startswith("_sqlite")] == []
    service = wired_service(store, seed_source=lambda: 1)
    play(service, "new_game", players=1, seed=1)
    assert store.integrity() == "ok"


def test_a_companion_database_without_its_marker_is_still_opened(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    service, _ = service_on(db)
    play(service, "new_game", players=2, seed=3)
    service.store.close()
    with sqlite3.connect(db) as raw:
        raw.execute("PRAGMA application_id = 0")  # as written before the marker existed
    again, notices = service_on(db)
    assert notices == [] and again.game_id == 1


# --- a damaged index is found on opening: quick_check alone would miss it -----------------------


def hide_an_index_row(db: Path) -> None:
    """Leave a games row out of its index: while the index's schema says `WHERE 0` (a partial
    index that takes no row), a row is inserted; then the schema is put back. Only SQLite's
    documented writable_schema is used, so this works with any SQLite."""
    index = "idx_games_status_updated_at"
    with sqlite3.connect(db) as raw:
        original = raw.execute("SELECT sql FROM sqlite_master WHERE name = ?",
                               [index]).fetchone()[0]
        raw.execute("PRAGMA writable_schema = ON")
        raw.execute("UPDATE sqlite_master SET sql = ? WHERE name = ?",
                    [f"{original} WHERE 0", index])
    with sqlite3.connect(db) as raw:  # a new connection reads the changed schema
        raw.execute("INSERT INTO games (status, started_at, updated_at, log_length, setup) "
                    "VALUES ('active', 'x', 'x', 0, '{}')")
    with sqlite3.connect(db) as raw:
        raw.execute("PRAGMA writable_schema = ON")
        raw.execute("UPDATE sqlite_master SET sql = ? WHERE name = ?", [original, index])
    raw.close()


def test_a_missing_index_row_is_found_on_opening_and_the_file_moved_aside(
        tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    service = a_game(db)
    service.store.close()
    hide_an_index_row(db)
    with sqlite3.connect(db) as raw:  # the damage this test is about: only a full check sees it
        assert raw.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        assert "missing from index" in raw.execute("PRAGMA integrity_check").fetchone()[0]
    raw.close()
    found = db.read_bytes()
    store, notices = GameStore.open(db)
    assert len(notices) == 1 and "is damaged (integrity_check: " in notices[0]
    assert "missing from index" in notices[0]
    assert store.set_aside is not None and store.set_aside.read_bytes() == found
    assert store.games() == [] and store.integrity() == "ok"


# --- 6: export writes a new file whole, never over the games database -------------------------


def a_game(db: Path) -> GameService:
    service, _ = service_on(db)
    play(service, "new_game", players=2, seed=3)
    play(service, "fear", amount=2)
    return service


@pytest.mark.parametrize("target", ["g.sqlite3", "g.sqlite3-wal", "g.sqlite3-shm", "link"])
def test_an_export_never_writes_over_the_games_database(tmp_path: Path, target: str) -> None:
    db = tmp_path / "g.sqlite3"
    service = a_game(db)
    (tmp_path / "link").symlink_to(db)
    with pytest.raises(Refused, match="is the games database"):
        play(service, "export", path=str(tmp_path / target), overwrite=True)
    with pytest.raises(Refused, match="is the games database"):
        play(service, "tag_export", path=str(tmp_path / target))
    service.store.close()
    again, notices = service_on(db)
    assert notices == [] and [g["id"] for g in again.store.games()] == [1]
    assert view(again)["fear"]["generated"] == 2


def test_an_export_refuses_an_existing_file_unless_told_to_overwrite(tmp_path: Path) -> None:
    service = a_game(tmp_path / "g.sqlite3")
    target = tmp_path / "game.json"
    target.write_text("my notes\n")
    with pytest.raises(Refused, match="already exists.*overwrite"):
        play(service, "export", path=str(target))
    assert target.read_text() == "my notes\n"
    exported = play(service, "export", path=str(target), overwrite=True).extra["exported"]
    assert exported["commands"] == 2 and json.loads(target.read_text())["log"][1]["cmd"] == "fear"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_an_export_that_cannot_be_written_leaves_no_half_file(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch,
                                                              ) -> None:
    service = a_game(tmp_path / "g.sqlite3")
    target = tmp_path / "game.json"
    target.write_text("the old export\n")

    def no_space(_fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.fsync", no_space)
    with pytest.raises(Refused, match="No space left"):
        play(service, "export", path=str(target), overwrite=True)
    assert target.read_text() == "the old export\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


# --- 4: a file that cannot be written opens for reading; every change is refused in words -----


def without_write_permission(db: Path) -> list[str]:
    """Make the database and its folder read-only, as any user makes their own file read-only;
    the command prefix that makes it so for root too. Root writes anything only through its
    capabilities (CAP_DAC_OVERRIDE, CAP_FOWNER, ...): the driver keeps root's uid, so it still
    reaches the interpreter and the checkout wherever they lie (a clone in a folder only root
    may enter), but gets none of them back except CAP_DAC_READ_SEARCH, which reads, never
    writes. The file and folder are root's own, and their mode says read-only."""
    db.chmod(0o444)
    db.parent.chmod(0o555)
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv (util-linux): a read-only file cannot "
                    "be made")
    return [setpriv, "--inh-caps=-all", "--ambient-caps=-all",
            "--bounding-set=-all,+dac_read_search", "--"]


def test_the_driver_answers_from_a_read_only_database_and_refuses_every_change(
        tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    script(db, {"cmd": "new_game", "players": 2, "seed": 3}, {"cmd": "fear", "amount": 2},
           {"cmd": "new_game", "players": 1, "seed": 4})
    original = db.read_bytes()
    as_user = without_write_permission(db)
    answers, stderr, code = script(
        db, {"cmd": "state"}, {"cmd": "games"}, {"cmd": "history"}, {"cmd": "stats"},
        {"cmd": "resume", "game": 1}, {"cmd": "fear"}, {"cmd": "abandon"},
        {"cmd": "new_game", "players": 1}, {"cmd": "delete", "game": 2, "confirm": True},
        {"cmd": "tag_enrol", "uid": "04a1b2c3", "kind": "command", "card": "done"},
        {"cmd": "state"}, as_user=as_user)
    assert code == 0 and "cannot be written" in stderr
    assert [a["ok"] for a in answers] == [True] * 5 + [False] * 5 + [True]
    assert answers[0]["state"]["game"] == 2 and len(answers[1]["games"]) == 2
    assert answers[4]["state"]["fear"]["generated"] == 2
    assert all(a["error"].startswith("the games file is read-only: ") for a in answers[5:10])
    assert answers[10]["state"]["fear"]["generated"] == 2
    assert db.read_bytes() == original


def test_opening_an_up_to_date_database_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    service, _ = service_on(db)
    play(service, "new_game", players=2, seed=3)
    service.store.close()
    original, stamp = db.read_bytes(), db.stat().st_mtime_ns
    again, notices = service_on(db)  # a full disk refuses writes, not reads
    assert notices == [] and again.store.read_only is None
    again.store.close()
    assert db.read_bytes() == original and db.stat().st_mtime_ns == stamp


# --- 5: a damaged write-ahead log: what is lost is told, and the files as found are kept -------


def crashed_copy(tmp_path: Path, commands: int) -> Path:
    """A database whose last `commands` actions are only in its WAL, as a crash leaves it."""
    live = tmp_path / "live.sqlite3"
    service, _ = service_on(live)
    play(service, "new_game", players=2, seed=3)
    service.store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for _ in range(commands):
        play(service, "fear")
    crashed = tmp_path / "g.sqlite3"
    shutil.copyfile(live, crashed)
    shutil.copyfile(f"{live}-wal", f"{crashed}-wal")
    service.store.close()
    return crashed


def test_an_intact_wal_after_a_crash_keeps_every_command_and_says_nothing(
        tmp_path: Path) -> None:
    db = crashed_copy(tmp_path, 6)
    service, notices = service_on(db)
    assert notices == [] and view(service)["fear"]["generated"] == 6


def test_a_damaged_wal_tells_what_was_lost_and_keeps_the_files_as_found(tmp_path: Path) -> None:
    db = crashed_copy(tmp_path, 6)
    wal = Path(f"{db}-wal")
    data = bytearray(wal.read_bytes())
    page = int.from_bytes(data[8:12], "big")
    middle = 32 + (len(data) - 32) // (24 + page) // 2 * (24 + page)
    data[middle + 24 + 100] ^= 0xFF  # one flipped byte in a frame halfway through the log
    wal.write_bytes(bytes(data))
    found = db.read_bytes(), bytes(data)
    service, notices = service_on(db)
    generated = view(service)["fear"]["generated"]
    assert generated < 6  # SQLite's recovery dropped the commits after the damage
    assert len(notices) == 1 and "write-ahead log" in notices[0] and "lost" in notices[0]
    copies = [p for p in tmp_path.iterdir() if ".damaged-wal-" in p.name]
    main = next(p for p in copies if not p.name.endswith("-wal"))
    assert (main.read_bytes(), Path(f"{main}-wal").read_bytes()) == found
    assert str(main) in notices[0]
    lost = int(notices[0].split(": ")[1].split(" ")[0])
    assert lost == 6 - generated


# --- issue 25, 1: SQLite's header over pages that are not SQLite's: moved aside, always --------


def test_the_driver_moves_aside_a_file_with_sqlites_header_over_random_pages(
        tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    db.write_bytes(b"SQLite format 3\x00" + random.Random(25).randbytes(8000))
    found = db.read_bytes()
    answers, stderr, code = script(db, {"cmd": "new_game", "players": 2, "seed": 3},
                                   {"cmd": "fear"})
    assert code == 0 and [a["ok"] for a in answers] == [True, True], stderr
    aside = [p for p in tmp_path.iterdir() if ".unreadable-" in p.name]
    assert len(aside) == 1 and aside[0].read_bytes() == found
    assert "is damaged" in stderr and str(aside[0]) in stderr
    answers, stderr, code = script(db, {"cmd": "state"})
    assert code == 0 and answers[0]["state"]["fear"]["generated"] == 1, stderr


# --- issue 25, 8: one writer at a time; a second companion reads, and is told why --------------


class Driver:
    """`companion script --db` as a running process, asked one line at a time."""

    def __init__(self, db: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "script", "--db", str(db)], cwd=ROOT,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def ask(self, cmd: str, **fields: Any) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"cmd": cmd, **fields}).encode() + b"\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], 60)
        assert ready, f"no answer to {cmd} within 60 s"
        answer: dict[str, Any] = json.loads(self.process.stdout.readline())
        return answer

    def close(self) -> str:
        """End the input; returns what the driver wrote to stderr."""
        stderr = self.process.communicate(timeout=60)[1]
        return stderr.decode()


def test_a_second_driver_on_the_same_file_only_reads_and_says_who_writes(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    first = Driver(db)
    second = None
    try:
        assert first.ask("new_game", players=2, seed=3)["ok"]
        second = Driver(db)
        seen = second.ask("state")
        assert seen["ok"] and seen["state"]["game"] == 1
        refused = second.ask("next")
        busy = f"the games are open in another companion, pid {first.process.pid}"
        assert not refused["ok"] and busy in refused["error"], refused
        assert refused["state"]["step"] == seen["state"]["step"]
        assert first.ask("next")["ok"]
        assert busy in second.close()
        second = None
        assert first.close() == ""
    finally:
        for driver in (first, second):
            if driver is not None and driver.process.poll() is None:
                driver.process.kill()
                driver.process.wait()
    answers, stderr, code = script(db, {"cmd": "games"}, {"cmd": "fear"})
    assert code == 0 and stderr == "", stderr
    assert [(g["status"], g["log_length"]) for g in answers[0]["games"]] == [("active", 2)]
    assert answers[1]["ok"]


def test_a_killed_writer_leaves_no_lock_behind(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    writer = Driver(db)
    try:
        assert writer.ask("new_game", players=2, seed=3)["ok"]
        assert Path(f"{db}.lock").read_text().strip() == str(writer.process.pid)
    finally:
        writer.process.kill()  # SIGKILL: no clean-up of any kind
        writer.process.communicate(timeout=60)
    answers, stderr, code = script(db, {"cmd": "fear"})
    assert code == 0 and answers[0]["ok"] and "another companion" not in stderr, stderr


def test_the_app_started_twice_opens_the_games_read_only_in_the_second(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    first, _ = service_on(db)
    play(first, "new_game", players=2, seed=3)
    second, notices = service_on(db)
    assert second.store.read_only_because == "in use" and second.store.other_pid == os.getpid()
    assert len(notices) == 1 and "open in another companion" in notices[0]
    assert view(second) == view(first)
    with pytest.raises(Refused, match=f"open in another companion, pid {os.getpid()}"):
        play(second, "fear")
    second.store.close()
    play(first, "fear")
    first.store.close()
    third, notices = service_on(db)  # the lock went with the first
    assert notices == [] and third.store.read_only is None
    assert view(third)["fear"]["generated"] == 1


def test_an_append_to_a_log_someone_else_made_longer_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    service, _ = service_on(db)
    play(service, "new_game", players=2, seed=3)
    play(service, "fear")
    before = view(service)
    # A writer that takes no lock (an older companion) logs a command of its own.
    with sqlite3.connect(db) as raw:
        raw.execute("INSERT INTO commands (game_id, seq, command, at) VALUES "
                    "(1, 3, '{\"cmd\": \"fear\", \"amount\": 2}', '2026-01-01T00:00:00+00:00')")
        raw.execute("UPDATE games SET log_length = 3 WHERE id = 1")
    raw.close()
    with pytest.raises(Refused, match=r"changed elsewhere .* \(3 actions saved where this "
                                      r"companion knows 2\), so this action was refused"):
        play(service, "next")
    assert view(service) == before
    assert len(service.store.full_log(1)) == 3
    play(service, "resume", game=1)
    assert view(service)["fear"]["generated"] == 3
    play(service, "next")
    assert len(service.store.full_log(1)) == 4


# --- issue 25, 9: a database from a newer version is read, never moved aside -------------------


def a_newer_database(db: Path, how: str) -> bytes:
    """A games file as the next version leaves it: one migration more than this one knows."""
    service = a_game(db)
    service.store.close()
    with sqlite3.connect(db) as raw:
        raw.execute("CREATE TABLE future (x INTEGER)")
        if how == "user_version":
            raw.execute(f"PRAGMA user_version = {len(known_migrations()) + 1}")
        else:  # the same count, but a migration this version never had (a parallel branch)
            raw.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                        "VALUES ('companion', '9999_from_the_future', '2027-01-01')")
    raw.close()
    return db.read_bytes()


@pytest.mark.parametrize("how", ["user_version", "unknown_migration"])
def test_a_database_from_a_newer_version_opens_read_only_and_says_so(
        tmp_path: Path, how: str) -> None:
    db = tmp_path / "g.sqlite3"
    found = a_newer_database(db, how)
    service, notices = service_on(db)
    assert len(notices) == 1 and "made by a newer version of the companion" in notices[0]
    assert service.store.read_only_because == "newer" and service.store.set_aside is None
    assert view(service)["fear"]["generated"] == 2
    with pytest.raises(Refused, match="made by a newer version of the companion"):
        play(service, "fear")
    service.store.close()
    assert db.read_bytes() == found
    assert [p.name for p in tmp_path.iterdir() if ".unreadable-" in p.name] == []


def test_the_driver_reads_a_newer_database_and_refuses_changes_in_words(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    found = a_newer_database(db, "user_version")
    answers, stderr, code = script(db, {"cmd": "state"}, {"cmd": "games"}, {"cmd": "fear"})
    assert code == 0 and "made by a newer version of the companion" in stderr, stderr
    assert answers[0]["state"]["fear"]["generated"] == 2 and len(answers[1]["games"]) == 1
    assert not answers[2]["ok"] and "newer version of the companion" in answers[2]["error"]
    assert db.read_bytes() == found
