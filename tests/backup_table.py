"""The table the backup tests back up: a finished and an unfinished game of every game and a
card tag, played once through the driver into a games file, copied for each test."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from companion.driver import ScriptDriver
from companion.store import GameStore
from tests.history_games import ok, play_mixed_history
from tests.table_player import driver_on

SETTINGS = "[companion]\nlanguage = de\ntheme = night\n\n[reader]\nport = /dev/serial0\n"
TAG = "04A22B1C"


def play_every_game(driver: ScriptDriver) -> None:
    """A finished game of each game (the history's five), then an unfinished one of each, and
    a card tag enrolled."""
    play_mixed_history(driver)
    ok(driver, {"cmd": "new_game", "players": 2, "seed": 4})
    ok(driver, {"cmd": "next"})
    ok(driver, {"cmd": "fear", "amount": 2})
    ok(driver, {"cmd": "new_game", "game": "leviathan-wilds", "players": 2,
                "difficulty": "easy", "leviathan": 2})
    ok(driver, {"cmd": "next", "step": "reveal"})
    ok(driver, {"cmd": "new_game", "game": "glow", "players": 2, "board": "sea",
                "names": ["Ada", "Bo"]})
    ok(driver, {"cmd": "tag_enrol", "uid": TAG, "kind": "invader", "card": "I-jungle"})


def played_games(folder: Path) -> Path:
    """Play the table into `folder`/games.sqlite3 (closed, so the file holds it all)."""
    db = folder / "games.sqlite3"
    driver = driver_on(db)
    play_every_game(driver)
    driver.service.store.close()
    return db


def copy_table(played: Path, folder: Path) -> Path:
    """The played games copied into `folder`, the settings file beside them."""
    folder.mkdir(parents=True)
    db = folder / played.name
    shutil.copyfile(played, db)
    (folder / "companion.ini").write_text(SETTINGS, encoding="utf-8")
    return db


def logs(db: Path) -> dict[int, str]:
    """Each game's id → a SHA-256 of its log rows, worked out here (not by the module)."""
    with sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True) as conn:
        rows = conn.execute("SELECT game_id, seq, at, command FROM commands "
                            "ORDER BY game_id, seq").fetchall()
    conn.close()
    hashes: dict[int, Any] = {}
    for game_id, seq, at, command in rows:
        hashes.setdefault(game_id, hashlib.sha256()).update(f"{seq}|{at}|{command}\n".encode())
    return {game_id: digest.hexdigest() for game_id, digest in hashes.items()}


def saved(db: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The games (as the store lists them) and the tags of a games file, read only."""
    store = GameStore.open_read_only(db)
    try:
        return store.games(), store.tags()
    finally:
        store.close()
