"""Names players type, in every game: one shared check (companion.core.names) refuses control and
format characters (a NUL, a zero-width space, a byte order mark, a right-to-left override) and
names that show nothing, in words naming the character; ordinary names of any script pass."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.errors import Refused
from companion.core.names import checked_name, invisible_character
from companion.games.registry import GAMES
from companion.i18n import translations

GLOW = {"cmd": "new_game", "game": "glow", "players": 2, "board": "sea"}
LEVIATHAN = {"cmd": "new_game", "game": "leviathan-wilds", "players": 2, "difficulty": "easy",
             "leviathan": 1}


def glow_names(name: str) -> dict[str, Any]:
    return {**GLOW, "names": ["Ada", name]}


def glow_colours(name: str) -> dict[str, Any]:
    return {**GLOW, "colours": [name]}


def guardian_character(name: str) -> dict[str, Any]:
    return {**LEVIATHAN, "guardians": [{"character": name}, {}]}


def guardian_class(name: str) -> dict[str, Any]:
    return {**LEVIATHAN, "guardians": [{"class": name}, {}]}


def win_condition(name: str) -> dict[str, Any]:
    return {**LEVIATHAN, "win_conditions": [name]}


NAMED: dict[str, list[Any]] = {
    "spirit-island": [],  # its players type no names: spirits, adversaries and cards are ids
    "leviathan-wilds": [guardian_character, guardian_class, win_condition],
    "glow": [glow_names, glow_colours],
}
"""Where each game's players type a name, as a new_game carrying that name."""

CASES = [(game, place) for game in GAMES for place in NAMED.get(game, [])]
IDS = [f"{game}-{place.__name__}" for game, place in CASES]

HIDDEN = {
    "\u200b\u200b": "U+200B (ZERO WIDTH SPACE)",
    "Bo\x00b": "U+0000",
    "\ufeffAda": "U+FEFF (ZERO WIDTH NO-BREAK SPACE)",
    "Eve\u202eevil": "U+202E (RIGHT-TO-LEFT OVERRIDE)",
    "Li\u2066ne": "U+2066 (LEFT-TO-RIGHT ISOLATE)",
    "Tab\there": "U+0009",
    "\u200dAda": "U+200D (ZERO WIDTH JOINER)",
    "Ada\u200c": "U+200C (ZERO WIDTH NON-JOINER)",
    "A\u200d\u200dB": "U+200D (ZERO WIDTH JOINER)",
}


def test_every_registered_game_says_where_its_players_type_names() -> None:
    assert set(NAMED) == set(GAMES)


@pytest.mark.parametrize(("game", "place"), CASES, ids=IDS)
@pytest.mark.parametrize(("name", "character"), HIDDEN.items(), ids=list(HIDDEN))
def test_a_name_holding_a_control_or_format_character_is_refused_in_words(
        game: str, place: Any, name: str, character: str) -> None:
    with pytest.raises(Refused) as refused:
        GAMES[game].parse_command(place(name))
    message = str(refused.value)
    assert f"holds {character}, a control or format character" in message
    assert not invisible_character(message)  # the name is quoted with the character escaped
    german = refused.value.in_language(translations("de").gettext)
    assert f"enthält {character}, ein Steuer- oder Formatzeichen" in german


@pytest.mark.parametrize(("game", "place"), CASES, ids=IDS)
@pytest.mark.parametrize("name", ["Zoë", "Łukasz", "Søren-Kierkegaard", "محمد", "李小龙",
                                  "Ada Lovelace", "O'Neil",
                                  "\U0001F469\u200d\U0001F467", "\u0645\u06cc\u200c\u0631\u0627"])
def test_ordinary_names_of_any_script_still_start_a_game(game: str, place: Any,
                                                         name: str) -> None:
    definition = GAMES[game]
    command = definition.parse_command({**place(name), "seed": 5})
    state, _ = definition.start(command)
    assert definition.view(state, str)["title"] == game


def test_a_name_that_shows_nothing_is_refused() -> None:
    for blank in ("", "   ", "\u3000"):
        with pytest.raises(Refused, match="shows nothing; a name needs at least one visible"):
            checked_name("new_game", "names", blank)
    with pytest.raises(Refused, match="shows nothing"):
        GAMES["leviathan-wilds"].parse_command(guardian_character(" "))
    assert checked_name("new_game", "names", "  Ada ") == "Ada"
