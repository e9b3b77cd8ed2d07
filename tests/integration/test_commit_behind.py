"""A table's tap is answered while its commit is still under way (companion/store_commit.py);
the command counts only once `settle` has seen it on disk, and a commit that fails after the
answer takes the command back."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from companion.core.errors import Refused
from companion.driver import ScriptDriver
from companion.store import GameStore

from .test_store_recovery import play, service_on, view


def refuse_commits(store: GameStore) -> None:
    """Make every command's commit fail at COMMIT itself, as a disk that fails its sync does:
    each command logged now also logs a row against a deferred foreign key that nothing
    satisfies, which SQLite checks only when the transaction commits."""
    store.db.conn.executescript("""
        CREATE TABLE commit_refused (game_id INTEGER
            REFERENCES games (id) DEFERRABLE INITIALLY DEFERRED);
        CREATE TRIGGER commit_refused AFTER INSERT ON commands
            BEGIN INSERT INTO commit_refused VALUES (-1); END;
    """)


def allow_commits(store: GameStore) -> None:
    store.db.conn.executescript("DROP TRIGGER commit_refused; DROP TABLE commit_refused;")


def logged(path: Path) -> int:
    """The commands the file holds, as any other reader of it sees them."""
    with sqlite3.connect(path) as reader:
        return int(reader.execute("SELECT count(*) FROM commands").fetchone()[0])


def test_a_command_answered_before_its_commit_is_on_disk_once_settled(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    service, _ = service_on(path)
    play(service, "new_game", players=2, seed=3)
    service.handle(service.parse({"cmd": "fear", "amount": 2}), commit_later=True)
    assert service.settle() is None
    assert logged(path) == 2
    service.store.close()
    again, _ = service_on(path)
    assert view(again)["fear"]["generated"] == 2


def test_a_commit_that_fails_after_the_answer_takes_the_command_back(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    service, _ = service_on(path)
    play(service, "new_game", players=2, seed=3)
    before = view(service)
    refuse_commits(service.store)
    service.handle(service.parse({"cmd": "fear", "amount": 2}), commit_later=True)
    assert view(service)["fear"]["generated"] == 2  # answered: shown, if nobody waited
    lost = service.settle()
    assert isinstance(lost, Refused) and "could not save this action" in str(lost), lost
    assert "FOREIGN KEY constraint failed" in str(lost)
    assert view(service) == before and not service.session.can_undo
    assert service.settle() is None  # told once
    assert logged(path) == 1
    allow_commits(service.store)
    play(service, "fear", amount=1)  # the log goes on where the file ends
    service.store.close()
    again, notices = service_on(path)
    assert notices == [] and view(again)["fear"]["generated"] == 1 and logged(path) == 2


def test_the_next_command_waits_for_the_commit_and_follows_what_was_saved(
        tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    service, _ = service_on(path)
    play(service, "new_game", players=2, seed=3)
    refuse_commits(service.store)
    service.handle(service.parse({"cmd": "fear", "amount": 2}), commit_later=True)
    allow_commits(service.store)  # the database waits for the commit (which fails) first
    play(service, "fear", amount=1)  # played on the game as saved, without the lost command
    assert view(service)["fear"]["generated"] == 1
    lost = service.settle()
    assert lost is not None and "could not save this action" in str(lost)
    assert view(service)["fear"]["generated"] == 1 and logged(path) == 2


def test_the_driver_says_why_a_command_was_lost_and_answers_the_state_before_it(
        tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    service, _ = service_on(path)
    driver = ScriptDriver(service, "de")
    assert driver.handle({"cmd": "new_game", "players": 2, "seed": 3})["ok"]
    state = driver.state()
    refuse_commits(service.store)
    answer = driver.handle({"cmd": "fear", "amount": 2}, commit_later=True)
    assert answer["ok"] and answer["state"]["fear"]["generated"] == 2
    reason = driver.settle()
    assert reason is not None and reason.startswith("diese Aktion ließ sich nicht in "), reason
    assert driver.state() == state
    assert driver.settle() is None
