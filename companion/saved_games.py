"""The commands about saved games: list them, resume, abandon or delete one, the history of
finished games and its statistics, and one game's details replayed from its log."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from .core import commands as c
from .core.errors import Refused
from .core.phrases import Translate, as_written
from .game_log import replay
from .games.registry import GAMES, game_named
from .store import GameStore


@dataclass(frozen=True)
class ListGames(c.Command):
    name: ClassVar[str] = "games"


@dataclass(frozen=True)
class Resume(c.Command):
    name: ClassVar[str] = "resume"
    game: int


@dataclass(frozen=True)
class Abandon(c.Command):
    name: ClassVar[str] = "abandon"
    game: int | None = None


@dataclass(frozen=True)
class Delete(c.Command):
    name: ClassVar[str] = "delete"
    game: int
    confirm: bool = False


@dataclass(frozen=True)
class History(c.Command):
    name: ClassVar[str] = "history"


@dataclass(frozen=True)
class Stats(c.Command):
    name: ClassVar[str] = "stats"


@dataclass(frozen=True)
class GameDetail(c.Command):
    """One saved game in full: its row, its ending in words and its course round by round."""

    name: ClassVar[str] = "game_detail"
    game: int


SAVED_GAME_COMMANDS = (ListGames, Resume, Abandon, Delete, History, Stats, GameDetail)


class Table(Protocol):
    """The game loaded at the table (the service's session): what resuming loads, what
    abandoning or deleting it puts away, and the game a command that names none is about."""

    @property
    def game_id(self) -> int | None: ...

    def load_game(self, game_id: int) -> None: ...

    def unload_game(self) -> None: ...


def game_or_loaded(game: int | None, table: Table) -> int:
    """The game a command names, or else the one loaded."""
    game_id = game if game is not None else table.game_id
    if game_id is None:
        raise Refused("no game is loaded: name one with \"game\"")
    return game_id


class SavedGames:
    """Answers the saved-game commands from the store; resuming, abandoning and deleting the
    loaded game go through the table, which holds it."""

    commands: ClassVar[tuple[type[c.Command], ...]] = SAVED_GAME_COMMANDS

    def __init__(self, store: GameStore, seed_source: Callable[[], int], table: Table) -> None:
        self.store = store
        self._seed_source = seed_source
        self._table = table

    def handle(self, command: c.Command, translate: Translate) -> dict[str, Any]:
        if isinstance(command, ListGames):
            return {"games": self.store.games()}
        if isinstance(command, History):
            return {"history": self.history()}
        if isinstance(command, Stats):
            return {"stats": self.stats()}
        if isinstance(command, GameDetail):
            return {"game_detail": self.game_detail(command.game, translate)}
        if isinstance(command, Resume):
            self.store.game(command.game)
            self._table.load_game(command.game)
            if self.store.read_only is None:  # a read-only file still lets games be seen
                self.store.set_current(command.game)
            return {"game": command.game}
        if isinstance(command, Abandon):
            return self._abandon(command)
        assert isinstance(command, Delete)
        return self._delete(command)

    def _abandon(self, command: Abandon) -> dict[str, Any]:
        game_id = game_or_loaded(command.game, self._table)
        if self.store.game(game_id)["status"] == "finished":
            raise Refused(f"game {game_id} is finished; it stays in the history")
        self.store.set_status(game_id, "abandoned")
        if game_id == self._table.game_id:
            self.store.set_current(None)
            self._table.unload_game()
        return {"abandoned": game_id}

    def _delete(self, command: Delete) -> dict[str, Any]:
        self.store.game(command.game)
        if not command.confirm:
            raise Refused(f"deleting game {command.game} cannot be undone: send "
                          "\"confirm\": true to delete it")
        self.store.delete_game(command.game)
        if command.game == self._table.game_id:
            self.store.set_current(None)
            self._table.unload_game()
        return {"deleted": command.game}

    # --- history and statistics -------------------------------------------------------------

    def history(self) -> list[dict[str, Any]]:
        finished = [g for g in self.store.games() if g["status"] == "finished"]
        return sorted(finished, key=lambda g: (g["finished_at"] or "", g["id"]), reverse=True)

    def stats(self) -> dict[str, Any]:
        """Finished games: played, won, the win rate and the average score, in all and for
        each game ("by_game", in the registry's order; a competitive game's are counted as
        played only); and, as ever, by adversary and level ("by_adversary")."""
        played = self.history()
        groups: dict[tuple[str | None, int | None], list[dict[str, Any]]] = {}
        for game in played:
            groups.setdefault((game["adversary"], game["adversary_level"]), []).append(game)
        by_title: dict[str, list[dict[str, Any]]] = {}
        for game in played:
            by_title.setdefault(game["title"], []).append(game)
        return {
            **_tally(played),
            "by_game": [{"game": title, "name": GAMES[title].name, **_tally(by_title[title])}
                        for title in GAMES if title in by_title],
            "by_adversary": [
                {"adversary": adversary, "level": level, **_tally(games)}
                for (adversary, level), games in sorted(
                    groups.items(), key=lambda item: (item[0][0] or "", item[0][1] or 0))
            ],
        }

    def game_detail(self, game_id: int, translate: Translate = as_written) -> dict[str, Any]:
        """The game's row, its outcome as the state shows it (null until it ends) and, replayed
        from its log, what each round brought: `per_round`."""
        row = self.store.game(game_id)
        try:
            game = game_named(row["title"])
            session = replay(game, self.store.full_log(game_id), self._seed_source)
        except (Refused, ValueError, KeyError, TypeError) as error:
            raise Refused(f"game {game_id} in {self.store.location} cannot be replayed: "
                          f"{error}") from None
        assert session.state is not None
        return {**row, "outcome": game.view(session.state, translate)["outcome"],
                "per_round": game.rounds(session.course())}


def won(game: dict[str, Any]) -> bool | None:
    """Whether a finished game was won, as its game counts it (None: nobody wins together)."""
    found = GAMES.get(game["title"])
    return found.history.won(game) if found else None


def _tally(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Played, won and the win rate (of the games that can be won together), average score."""
    results = [won(g) for g in games]
    winnable = [result for result in results if result is not None]
    wins = sum(1 for result in winnable if result)
    scores = [g["score"] for g in games if g["score"] is not None]
    return {
        "games_played": len(games),
        "wins": wins,
        "win_rate": round(wins / len(winnable), 3) if winnable else None,
        "average_score": round(sum(scores) / len(scores), 1) if scores else None,
    }
