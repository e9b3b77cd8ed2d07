"""The saved-game commands answered by their handler straight, over a real database file; the
table it resumes into and puts games away from is a stand-in that remembers what it was asked."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from companion.bootstrap import wired_service
from companion.core.errors import Refused
from companion.core.phrases import as_written
from companion.saved_games import (
    Abandon,
    Delete,
    GameDetail,
    History,
    ListGames,
    Resume,
    SavedGames,
    Stats,
    game_or_loaded,
    won,
)
from companion.store import GameStore, StoreError


@dataclass
class StandInTable:
    game_id: int | None = None
    loaded: list[int] = field(default_factory=list)
    unloaded: int = 0

    def load_game(self, game_id: int) -> None:
        self.loaded.append(game_id)
        self.game_id = game_id

    def unload_game(self) -> None:
        self.unloaded += 1
        self.game_id = None


def store_with_games(path: Path, *results: str | None) -> GameStore:
    """A database with one Spirit Island game per result (None: left unfinished), played
    through the service as the table would."""
    store, _ = GameStore.open(path)
    service = wired_service(store, seed_source=lambda: 7)
    for seed, result in enumerate(results, start=1):
        service.handle(service.parse({"cmd": "new_game", "players": 1, "seed": seed}))
        if result is not None:
            service.handle(service.parse({"cmd": "declare", "result": result}))
            service.handle(service.parse({"cmd": "score", "dahan": 4, "blight_on_island": 0}))
    return store


def ask(saved: SavedGames, command: Any) -> dict[str, Any]:
    return saved.handle(command, as_written)


def test_games_lists_every_saved_game_and_history_only_the_finished_last_first(
        tmp_path: Path) -> None:
    store = store_with_games(tmp_path / "g.sqlite3", "victory", None, "defeat")
    saved = SavedGames(store, lambda: 7, StandInTable())
    assert [g["id"] for g in ask(saved, ListGames())["games"]] == [1, 2, 3]
    assert [g["id"] for g in ask(saved, History())["history"]] == [3, 1]


def test_stats_tally_the_finished_games_in_all_by_game_and_by_adversary(tmp_path: Path) -> None:
    store = store_with_games(tmp_path / "g.sqlite3", "victory", "defeat", "victory", None)
    stats = ask(SavedGames(store, lambda: 7, StandInTable()), Stats())["stats"]
    assert (stats["games_played"], stats["wins"], stats["win_rate"]) == (3, 2, 0.667)
    assert [(g["game"], g["games_played"]) for g in stats["by_game"]] == [("spirit-island", 3)]
    assert [(a["adversary"], a["games_played"]) for a in stats["by_adversary"]] == [(None, 3)]


def test_resuming_loads_the_game_into_the_table_and_makes_it_the_current_one(
        tmp_path: Path) -> None:
    store = store_with_games(tmp_path / "g.sqlite3", None, None)
    table = StandInTable()
    assert ask(SavedGames(store, lambda: 7, table), Resume(1)) == {"game": 1}
    assert table.loaded == [1] and store.current_game() == 1


def test_resuming_a_game_that_is_not_there_loads_nothing(tmp_path: Path) -> None:
    store = store_with_games(tmp_path / "g.sqlite3", None)
    table = StandInTable()
    with pytest.raises(StoreError, match="no game 9"):
        ask(SavedGames(store, lambda: 7, table), Resume(9))
    assert table.loaded == []


def test_abandoning_the_loaded_game_puts_it_away_and_leaves_no_current_game(
        tmp_path: Path) -> None:
    store = store_with_games(tmp_path / "g.sqlite3", None)
    table = StandInTable(game_id=1)
    assert ask(SavedGames(store, lambda: 7, table), Abandon()) == {"abandoned": 1}
    assert store.game(1)["status"] == "abandoned"
    assert table.unloaded == 1 and store.current_game() is None


def test_abandoning_another_game_leaves_the_loaded_one(tmp_path: Path) -> None:
    store = store_with_games(tmp_path / "g.sqlite3", None, None)
    table = StandInTable(game_id=2)
    ask(SavedGames(store, lambda: 7, table), Abandon(1))
    assert store.game(1)["status"] == "abandoned" and table.unloaded == 0


def test_a_finished_game_cannot_be_abandoned_nor_nothing_named_with_nothing_loaded(
        tmp_path: Path) -> None:
    store = store_with_games(tmp_path / "g.sqlite3", "victory")
    saved = SavedGames(store, lambda: 7, StandInTable())
    with pytest.raises(Refused, match="game 1 is finished; it stays in the history"):
        ask(saved, Abandon(1))
    with pytest.raises(Refused, match="no game is loaded"):
        ask(saved, Abandon())


def test_deleting_needs_confirmation_and_puts_away_the_loaded_game(tmp_path: Path) -> None:
    store = store_with_games(tmp_path / "g.sqlite3", None, None)
    table = StandInTable(game_id=2)
    saved = SavedGames(store, lambda: 7, table)
    with pytest.raises(Refused, match="cannot be undone"):
        ask(saved, Delete(2))
    assert [g["id"] for g in store.games()] == [1, 2]
    assert ask(saved, Delete(1, confirm=True)) == {"deleted": 1} and table.unloaded == 0
    assert ask(saved, Delete(2, confirm=True)) == {"deleted": 2} and table.unloaded == 1
    assert store.games() == []


def test_a_games_detail_is_its_row_its_ending_and_its_rounds(tmp_path: Path) -> None:
    store = store_with_games(tmp_path / "g.sqlite3", "defeat", None)
    saved = SavedGames(store, lambda: 7, StandInTable())
    detail = ask(saved, GameDetail(1))["game_detail"]
    assert detail["id"] == 1 and detail["result"] == "defeat"
    assert detail["outcome"] is not None and isinstance(detail["per_round"], list)
    assert ask(saved, GameDetail(2))["game_detail"]["outcome"] is None


def test_the_game_a_command_is_about_is_the_one_named_or_else_the_one_loaded() -> None:
    assert game_or_loaded(3, StandInTable(game_id=5)) == 3
    assert game_or_loaded(None, StandInTable(game_id=5)) == 5
    with pytest.raises(Refused, match="name one with \"game\""):
        game_or_loaded(None, StandInTable())


def test_a_game_of_no_known_title_is_neither_won_nor_lost() -> None:
    assert won({"title": "no-such-game", "result": "victory"}) is None
