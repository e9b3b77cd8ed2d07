"""A game's log: how a command is kept in it, how a logged command reads back, and how a whole
log replays into a session (to resume, show, export or import a saved game)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

from .core import commands as c
from .core.errors import Refused
from .core.game import Game
from .core.session import GameSession
from .games.registry import DEFAULT_GAME


def logged_new_game(game: Game, command: c.Command) -> dict[str, Any]:
    """A new_game as the log keeps it: naming its game, unless it is the first game, whose
    logs stay exactly as they were before there were others (`title_of` reads it back)."""
    data = game.command_to_dict(command)
    return data if game.id == DEFAULT_GAME else {"cmd": data.pop("cmd"), "game": game.id, **data}


BY = "by"
"""A logged command's sender when a seat sent it from a phone (its label): not the game's."""


def parse_logged(game: Game, data: Any) -> c.Command:
    """A logged command of `game` (a new_game's "game" field, which chose the game, and a seat's
    "by", left out)."""
    if isinstance(data, dict) and (data.get("cmd") == "new_game" or BY in data):
        data = {key: value for key, value in data.items()
                if key != BY and (key != "game" or data.get("cmd") != "new_game")}
    return game.parse_command(data)


def replay(game: Game, log: list[Any], seed_source: Callable[[], int],
           after_each: Callable[[int, GameSession], None] | None = None) -> GameSession:
    """The session a whole log gives; `after_each(n, session)` is called after the n-th."""
    session = GameSession(game, seed_source)
    first = parse_logged(game, log[0])
    seeded = "seed" in {f.name for f in fields(first)}
    if not isinstance(first, game.new_game) or seeded and getattr(first, "seed", None) is None:
        raise Refused("a game log must begin with new_game and its seed")
    if after_each is None:
        session.replay(parse_logged(game, data) for data in log)
        return session
    for seq, data in enumerate(log, start=1):
        session.execute(parse_logged(game, data))
        after_each(seq, session)
    return session
