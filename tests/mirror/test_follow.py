"""`companion mirror`'s state source: the games another process plays in a database, read
without ever writing, state by state, undo included."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from companion.bootstrap import build_service
from companion.driver import ScriptDriver
from companion.mirror.feed import MirrorFeed
from companion.mirror.follow import DatabaseFollower
from companion.store_errors import StoreError


def fingerprint(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_each_acknowledged_command_is_followed_with_the_drivers_state(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    service, _ = build_service(db)
    driver = ScriptDriver(service)
    assert driver.handle({"cmd": "new_game", "players": 2, "seed": 11})["ok"]
    feed = MirrorFeed()
    follower = DatabaseFollower(db, feed)
    assert follower.poll()
    assert feed.message(feed.current(), "en") == feed._encode(feed.current(), "en",
                                                              driver.state())
    for move in ({"cmd": "next"}, {"cmd": "fear", "amount": 2}, {"cmd": "undo"},
                 {"cmd": "redo"}, {"cmd": "undo"}, {"cmd": "next"}):
        before = feed.current().seq
        assert driver.handle(move)["ok"]
        assert follower.poll()
        frame = feed.current()
        assert frame.seq == before + 1
        assert frame.snapshot is not None and frame.snapshot.view(driver.translate) == \
            driver.state()
    assert not follower.poll()  # nothing new: nothing published
    follower.store.close()
    service.store.close()


def test_a_game_started_resumed_or_abandoned_elsewhere_is_followed(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    service, _ = build_service(db)
    driver = ScriptDriver(service)
    feed = MirrorFeed()
    follower = DatabaseFollower(db, feed)
    follower.poll()
    assert feed.current().snapshot is None
    driver.handle({"cmd": "new_game", "players": 1, "seed": 2})
    follower.poll()
    assert feed.current().snapshot is not None
    driver.handle({"cmd": "new_game", "game": "leviathan-wilds", "players": 2,
                   "difficulty": "easy", "leviathan": 1})
    follower.poll()
    snapshot = feed.current().snapshot
    assert snapshot is not None and snapshot.view(driver.translate) == driver.state()
    assert driver.handle({"cmd": "abandon"})["ok"]
    follower.poll()
    assert feed.current().snapshot is None
    follower.store.close()
    service.store.close()


def test_following_never_writes_the_database(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    service, _ = build_service(db)
    driver = ScriptDriver(service)
    driver.handle({"cmd": "new_game", "players": 2, "seed": 5})
    driver.handle({"cmd": "next"})
    service.store.close()  # checkpointed: the whole database is in the one file
    before = fingerprint(db)
    follower = DatabaseFollower(db, MirrorFeed())
    assert follower.poll()
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        follower.store.db.execute("CREATE TABLE sneaky (a)")
    with pytest.raises(StoreError, match="read-only"):
        follower.store.set_current(None)
    follower.store.close()
    assert fingerprint(db) == before


def test_a_missing_database_is_told_not_created(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="there is no games database"):
        DatabaseFollower(tmp_path / "none.db", MirrorFeed())
    assert not (tmp_path / "none.db").exists()


STARTED_IN_ITS_PLACE = {
    "another game with as long a log": [
        {"cmd": "new_game", "game": "leviathan-wilds", "players": 2, "difficulty": "easy",
         "leviathan": 1}],
    "the same game with a longer log": [
        {"cmd": "new_game", "players": 3, "seed": 12}, {"cmd": "next"}],
    "none": [],
}


@pytest.mark.parametrize("started", STARTED_IN_ITS_PLACE.values(), ids=STARTED_IN_ITS_PLACE)
def test_a_game_deleted_and_another_started_between_two_looks_is_not_taken_for_the_old_one(
        tmp_path: Path, started: list[dict[str, object]]) -> None:
    """SQLite gives the new game the deleted one's id: the follower still tells them apart
    and shows the table's current game (or none) as the driver does."""
    db = tmp_path / "games.db"
    service, _ = build_service(db)
    driver = ScriptDriver(service)
    assert driver.handle({"cmd": "new_game", "players": 2, "seed": 11})["ok"]
    feed = MirrorFeed()
    follower = DatabaseFollower(db, feed)
    assert follower.poll()
    old = driver.state()
    assert old is not None
    assert driver.handle({"cmd": "delete", "game": old["game"], "confirm": True})["ok"]
    for command in started:
        assert driver.handle(command)["ok"]
    now = driver.state()
    if started:
        assert now is not None and now["game"] == old["game"]  # the id was given again
    assert follower.poll()
    snapshot = feed.current().snapshot
    if now is None:
        assert snapshot is None
    else:
        assert snapshot is not None and snapshot.view(driver.translate) == now
    assert not follower.poll()
    follower.store.close()
    service.store.close()
