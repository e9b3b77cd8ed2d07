"""Exporting and importing a game archive through its handler straight, between real database
files; the table whose loaded game an export defaults to is a stand-in."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.bootstrap import wired_service
from companion.core.errors import Refused
from companion.core.phrases import as_written
from companion.game_archive import EXPORT_FORMAT, EXPORT_VERSION, Export, GameArchive, Import
from companion.store import GameStore


@dataclass
class StandInTable:
    game_id: int | None = None

    def load_game(self, game_id: int) -> None:
        self.game_id = game_id

    def unload_game(self) -> None:
        self.game_id = None


def store_with_a_game(path: Path, *, finished: bool = True) -> GameStore:
    store, _ = GameStore.open(path)
    service = wired_service(store, seed_source=lambda: 7)
    for data in [{"cmd": "new_game", "players": 2, "seed": 12}, {"cmd": "next"},
                 {"cmd": "fear", "amount": 3}]:
        service.handle(service.parse(data))
    if finished:
        service.handle(service.parse({"cmd": "declare", "result": "victory"}))
    return store


def archive_on(store: GameStore, loaded: int | None = None) -> GameArchive:
    return GameArchive(store, lambda: 7, StandInTable(game_id=loaded))


def ask(archive: GameArchive, command: Any) -> dict[str, Any]:
    return archive.handle(command, as_written)


def test_an_export_holds_the_games_row_log_and_final_state(tmp_path: Path) -> None:
    store = store_with_a_game(tmp_path / "here.sqlite3")
    path = tmp_path / "game.json"
    exported = ask(archive_on(store), Export(str(path), game=1))["exported"]
    assert exported == {"game": 1, "path": str(path), "commands": 4}
    document = json.loads(path.read_text())
    assert (document["format"], document["version"]) == (EXPORT_FORMAT, EXPORT_VERSION)
    assert document["log"] == store.full_log(1) and document["setup"] == document["log"][0]
    assert "id" not in document["game"] and document["game"]["result"] == "victory"
    assert isinstance(document["final_state"], dict)


def test_an_export_of_no_game_named_is_of_the_loaded_one_or_refused(tmp_path: Path) -> None:
    store = store_with_a_game(tmp_path / "here.sqlite3")
    path = tmp_path / "game.json"
    assert ask(archive_on(store, loaded=1), Export(str(path)))["exported"]["game"] == 1
    with pytest.raises(Refused, match="no game is loaded"):
        ask(archive_on(store), Export(str(tmp_path / "other.json")))


def test_an_export_never_overwrites_unasked_nor_the_games_database(tmp_path: Path) -> None:
    store = store_with_a_game(tmp_path / "here.sqlite3")
    path = tmp_path / "game.json"
    path.write_text("keep me")
    with pytest.raises(Refused, match="already exists; send \"overwrite\": true"):
        ask(archive_on(store), Export(str(path), game=1))
    assert path.read_text() == "keep me"
    ask(archive_on(store), Export(str(path), game=1, overwrite=True))
    assert json.loads(path.read_text())["format"] == EXPORT_FORMAT
    with pytest.raises(Refused, match="is the games database"):
        ask(archive_on(store), Export(str(tmp_path / "here.sqlite3"), game=1, overwrite=True))


def test_an_imported_archive_is_a_new_game_at_the_same_result(tmp_path: Path) -> None:
    here = store_with_a_game(tmp_path / "here.sqlite3")
    path = tmp_path / "game.json"
    ask(archive_on(here), Export(str(path), game=1))
    there, _ = GameStore.open(tmp_path / "there.sqlite3")
    imported = ask(archive_on(there), Import(str(path)))["imported"]
    assert imported == {"game": 1, "commands": 4, "status": "finished"}
    assert there.full_log(1) == here.full_log(1)
    assert there.game(1)["started_at"] == here.game(1)["started_at"]


def test_an_archive_that_does_not_replay_to_its_result_is_not_imported(tmp_path: Path) -> None:
    here = store_with_a_game(tmp_path / "here.sqlite3", finished=False)
    path = tmp_path / "game.json"
    ask(archive_on(here), Export(str(path), game=1))
    document = json.loads(path.read_text())
    document["log"] = document["log"][:-1]  # the fear it records is no longer played
    path.write_text(json.dumps(document))
    there, _ = GameStore.open(tmp_path / "there.sqlite3")
    with pytest.raises(Refused, match="does not replay to the result it records"):
        ask(archive_on(there), Import(str(path)))
    assert there.games() == []


@pytest.mark.parametrize(("content", "refusal"), [
    ("not json", "is not a JSON file"),
    ('{"format": "something else"}', "is not an exported companion game"),
    (json.dumps({"format": EXPORT_FORMAT, "version": 99}), "is an export of version 99"),
    (json.dumps({"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "log": []}),
     "holds no command log"),
])
def test_a_file_that_is_not_an_archive_is_refused_in_words(tmp_path: Path, content: str,
                                                           refusal: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(content)
    store, _ = GameStore.open(tmp_path / "g.sqlite3")
    with pytest.raises(Refused, match=refusal):
        ask(archive_on(store), Import(str(path)))


def test_an_archive_whose_dates_are_not_dates_is_refused(tmp_path: Path) -> None:
    here = store_with_a_game(tmp_path / "here.sqlite3")
    path = tmp_path / "game.json"
    ask(archive_on(here), Export(str(path), game=1))
    document = json.loads(path.read_text())
    document["game"]["started_at"] = "yesterday"
    path.write_text(json.dumps(document))
    there, _ = GameStore.open(tmp_path / "there.sqlite3")
    with pytest.raises(Refused, match="started_at is not a date and time with its time zone"):
        ask(archive_on(there), Import(str(path)))
