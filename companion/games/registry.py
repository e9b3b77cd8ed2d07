"""Every game the table companion can play, by id: the one place the core finds a game.

Adding a game is a new folder under companion/games/ with its `Game` record, and one line here.
"""

from __future__ import annotations

from companion.core.commands import shown
from companion.core.errors import Refused
from companion.core.game import Game

from .glow.definition import GLOW
from .leviathan_wilds.definition import LEVIATHAN_WILDS
from .spirit_island.definition import SPIRIT_ISLAND

GAMES: dict[str, Game] = {game.id: game for game in (SPIRIT_ISLAND, LEVIATHAN_WILDS, GLOW)}

DEFAULT_GAME = SPIRIT_ISLAND.id
"""The game a new_game without a "game" field starts, and a saved game from before there was
more than one."""


def game_named(game_id: object) -> Game:
    """The game with this id; Refused, listing the known ones, for anything else."""
    if isinstance(game_id, str) and game_id in GAMES:
        return GAMES[game_id]
    raise Refused(f"unknown game {shown(game_id)}; known games: {', '.join(GAMES)}")
