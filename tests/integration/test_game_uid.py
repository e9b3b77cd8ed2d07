"""Every game has a uid that no other game ever gets, even where SQLite hands a deleted game's
id to the next one; a file from before uids gains them when the app opens it."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from companion.bootstrap import wired_service
from companion.driver import ScriptDriver
from companion.mirror.feed import MirrorFeed
from companion.mirror.follow import DatabaseFollower
from companion.store import GameStore
from companion.store_schema import APPLICATION_ID, SCHEMA_VERSION, migrations

UID = re.compile(r"[0-9a-f]{16}")


def driver_on(store: GameStore) -> ScriptDriver:
    return ScriptDriver(wired_service(store, seed_source=lambda: 5))


def a_database_before_uids(path: Path) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """A file as the previous version left it (migrations up to 0004), two games played.

    Returns the current game's state and the games list, to compare with after the upgrade."""
    played = driver_on(GameStore.in_memory())
    for line in ({"cmd": "new_game", "players": 2, "seed": 8}, {"cmd": "next"},
                 {"cmd": "new_game", "game": "leviathan-wilds", "players": 2,
                  "difficulty": "easy", "leviathan": 1}):
        assert played.handle(line)["ok"]
    db = Database(path)
    migrations.apply(db, stop_before="0005_game_uid")
    with db.ensure_autocommit_on():
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        db.execute("PRAGMA user_version=4")
    for table in ("games", "commands", "meta"):
        db.table(table).insert_all({key: value for key, value in row.items() if key != "uid"}
                                   for row in played.service.store.db.table(table).rows)
    db.close()
    return played.state(), played.service.store.games()


def uids(path: Path) -> dict[int, str]:
    with sqlite3.connect(path) as raw:
        return dict(raw.execute("SELECT id, uid FROM games ORDER BY id").fetchall())


def test_a_database_from_before_uids_gives_each_game_its_own_and_keeps_its_games(
        tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    state, games = a_database_before_uids(path)
    store, notices = GameStore.open(path)
    assert notices == []
    driver = driver_on(store)
    driver.service.resume_latest()
    assert driver.state() == state
    assert store.games() == games  # the uid is the store's own: no list shows it
    store.close()
    given = uids(path)
    assert sorted(given) == [1, 2] and all(UID.fullmatch(uid) for uid in given.values())
    assert len(set(given.values())) == 2
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
        assert raw.execute("SELECT name FROM _sqlite_migrations ORDER BY rowid").fetchall()[-1] \
            == ("0005_game_uid",)
    store, _ = GameStore.open(path)
    assert {game_id: store.game_uid(game_id) for game_id in given} == given  # kept as given
    store.close()


def test_a_game_started_after_the_newest_was_deleted_gets_its_id_but_never_its_uid() -> None:
    store = GameStore.in_memory()
    driver = driver_on(store)
    seen: set[str] = set()
    for _ in range(5):
        assert driver.handle({"cmd": "new_game", "players": 2})["ok"]
        state = driver.state()
        assert state is not None and state["game"] == 1
        uid = store.game_uid(1)
        assert uid is not None and UID.fullmatch(uid) and uid not in seen
        seen.add(uid)
        assert driver.handle({"cmd": "delete", "game": 1, "confirm": True})["ok"]
        assert store.game_uid(1) is None
    log = [{"cmd": "new_game", "players": 2, "seed": 3}]
    imported = store.import_game(log, {"status": "active", "players": 2, "rounds": 0}, {})
    assert store.game_uid(imported) not in seen | {None}


def test_the_mirror_still_follows_a_file_from_before_uids_it_may_only_read(
        tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    state, _ = a_database_before_uids(path)
    feed = MirrorFeed()
    follower = DatabaseFollower(path, feed)  # read-only: the file is not migrated
    assert follower.store.game_uid(2) == follower.store.game(2)["started_at"]
    assert follower.poll()
    snapshot = feed.current().snapshot
    assert snapshot is not None and snapshot.view(lambda text: text) == state
    follower.store.close()
    assert "uid" not in Database(path)["games"].columns_dict
