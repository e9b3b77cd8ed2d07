"""What the new-game screen remembers in companion.ini's "newgame" section: the expansions the
table owns, the last game's choices and each game's own last choices, so that playing one game
keeps another's. Each function is handed the app's config."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

NEW_GAME_DEFAULTS = {"expansions": "all", "last": "", "last_by_game": ""}
"""The expansions owned ("all", or their ids with commas), the last game's choices (JSON) and
each game's own last choices (JSON, by game id)."""

BASE = "base"
"""The base game: in the box of every table, whatever else it owns."""


def owned_expansions(config: Any, known: Iterable[str]) -> list[str]:
    """The expansions of `known` (a catalogue's, in its order) the table owns."""
    known = list(known)
    stored = config.get("newgame", "expansions")
    chosen = set(known) if stored == "all" else {BASE, *stored.split(",")}
    return [expansion for expansion in known if expansion in chosen]


def keep_expansion(config: Any, known: Iterable[str], owned: Iterable[str], expansion: str,
                   in_play: bool) -> list[str]:
    """The expansions owned once `expansion` is taken in (`in_play`) or left out, in the order
    of `known`, kept in `config`; the base game stays in."""
    chosen = set(owned) | {expansion} if in_play else set(owned) - {expansion}
    chosen.add(BASE)
    kept = [known_one for known_one in known if known_one in chosen]
    config.set("newgame", "expansions", ",".join(kept))
    config.write()
    return kept


def remember_new_game(config: Any, command: dict[str, Any], default_game: str) -> None:
    """Keep the choices of the game `command` started for the next new game, beside the other
    games' own last choices (a command naming no game is for `default_game`)."""
    choices = {key: value for key, value in command.items() if key not in ("cmd", "seed")}
    by_game = stored_choices(config, "last_by_game")
    by_game[str(choices.get("game", default_game))] = choices
    config.set("newgame", "last", json.dumps(choices))
    config.set("newgame", "last_by_game", json.dumps(by_game))
    config.write()


def last_new_game(config: Any, game: str | None, default_game: str) -> dict[str, Any]:
    """The choices of the last game started; with `game`, that game's own last choices (those
    saved before choices were kept per game count for the game they were for)."""
    last = stored_choices(config, "last")
    if game is None:
        return last
    choices = stored_choices(config, "last_by_game").get(game)
    if isinstance(choices, dict):
        return choices
    return last if last.get("game", default_game) == game else {}


def stored_choices(config: Any, key: str) -> dict[str, Any]:
    """The JSON object kept under `key`; {} when there is none or a hand edit broke it."""
    try:
        stored = json.loads(config.getdefault("newgame", key, "") or "{}")
    except ValueError:  # a hand-edited file: start from the defaults
        return {}
    return stored if isinstance(stored, dict) else {}
