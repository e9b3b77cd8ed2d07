"""Every game the table companion can play, by id: the one place the core finds a game.

Adding a game is a new folder under companion/games/ with its `Game` record and the
`GameListing` that names it (an `about` module that imports none of its rules), and one line
here.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator, MutableMapping
from typing import TYPE_CHECKING

from companion import i18n
from companion.core.errors import Refused
from companion.core.listing import GameListing

if TYPE_CHECKING:  # a game's `Game` brings the core's model: imported with the first game
    from companion.core.game import Game

from .glow.about import GLOW
from .leviathan_wilds.about import LEVIATHAN_WILDS
from .spirit_island.about import SPIRIT_ISLAND


class GameRegistry(MutableMapping[str, "Game"]):
    """The games by id, in the order listed. A listed game's `Game` is imported the first time
    it is looked up (`registry[id]`, `.values()`, `.items()`); the ids, `listed()` and
    `listing(id)` import nothing. A game may also be registered as it is (`registry[id] =
    game`), as a test registers its own."""

    def __init__(self, listings: Iterable[GameListing]) -> None:
        self._entries: dict[str, GameListing | Game] = {}
        for listing in listings:
            self._entries[listing.id] = listing
            i18n.add_templates(listing.catalogue_domains)  # i18n finds no game on its own

    def __getitem__(self, game_id: str) -> Game:
        entry = self._entries[game_id]
        if not isinstance(entry, GameListing):
            return entry
        from companion.core.game import Game

        module, _, name = entry.definition.partition(":")
        game = getattr(importlib.import_module(module), name)
        if not isinstance(game, Game) or game.id != game_id:
            raise TypeError(f"{entry.definition} is not the Game of {game_id!r}")
        self._entries[game_id] = game
        return game

    def __setitem__(self, game_id: str, game: Game) -> None:
        self._entries[game_id] = game
        i18n.add_templates(game.catalogue_domains)

    def __delitem__(self, game_id: str) -> None:
        del self._entries[game_id]

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._entries))

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._entries

    def listing(self, game_id: str) -> GameListing:
        """What the shell may know of a game without importing it."""
        entry = self._entries[game_id]
        return entry if isinstance(entry, GameListing) else GameListing.of(entry)

    def listed(self) -> list[GameListing]:
        """Every game's listing, in the registry's order; imports no game."""
        return [self.listing(game_id) for game_id in self._entries]


GAMES = GameRegistry((SPIRIT_ISLAND, LEVIATHAN_WILDS, GLOW))

DEFAULT_GAME = SPIRIT_ISLAND.id
"""The game a new_game without a "game" field starts, and a saved game from before there was
more than one."""


def game_named(game_id: object) -> Game:
    """The game with this id; Refused, listing the known ones, for anything else."""
    if isinstance(game_id, str) and game_id in GAMES:
        return GAMES[game_id]
    from companion.core.commands import shown

    raise Refused(f"unknown game {shown(game_id)}; known games: {', '.join(GAMES)}")
