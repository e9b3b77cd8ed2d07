"""Reading commands: every malformed one is refused with a reason, never a crash."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.errors import Refused
from companion.games.spirit_island.commands import (
    Effect,
    GenerateFear,
    NewGame,
    command_to_dict,
    parse_command,
)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ([1, 2], "must be a JSON object"),
        ({"amount": 2}, "no \"cmd\" field"),
        ({"cmd": "dance"}, "unknown command 'dance'"),
        ({"cmd": "fear", "amount": "two"}, "amount must be a whole number"),
        ({"cmd": "fear", "amount": True}, "amount must be a whole number"),
        ({"cmd": "fear", "amount": 2.5}, "amount must be a whole number"),
        ({"cmd": "fear", "amount": 0}, "between 1 and 1000"),
        ({"cmd": "fear", "amount": -3}, "between 1 and 1000"),
        ({"cmd": "fear", "amount": 2, "colour": "red"}, "does not take colour"),
        ({"cmd": "destroy", "piece": "explorer"}, "piece must be one of town, city"),
        ({"cmd": "destroy"}, "needs the field 'piece'"),
        ({"cmd": "new_game"}, "needs the field 'players'"),
        ({"cmd": "new_game", "players": 2, "mode": "expert"}, "mode must be one of"),
        ({"cmd": "new_game", "players": 2, "deck": "paper"}, "deck must be one of"),
        ({"cmd": "new_game", "players": 2, "fear_split": [3, 3]}, "three counts"),
        ({"cmd": "reveal", "card": 7}, "card must be text"),
        ({"cmd": "reveal", "card": "I-jungle", "force": "yes"}, "force must be true or false"),
        ({"cmd": "declare", "result": "draw"}, "result must be one of"),
        ({"cmd": "score", "dahan": -1}, "between 0 and 1000"),
        ({"cmd": "effect", "commands": []}, "non-empty list"),
        ({"cmd": "effect", "commands": [{"cmd": "undo"}]}, "only combine"),
    ],
)
def test_a_malformed_command_is_refused_with_a_reason(data: Any, reason: str) -> None:
    with pytest.raises(Refused, match=reason):
        parse_command(data)


def test_optional_fields_take_their_defaults() -> None:
    assert parse_command({"cmd": "fear"}) == GenerateFear(1)
    assert parse_command({"cmd": "new_game", "players": 3}) == NewGame(players=3)
    assert parse_command({"cmd": "new_game", "players": 3, "seed": None}) == NewGame(players=3)


@pytest.mark.parametrize(
    "data",
    [
        {"cmd": "new_game", "players": 4, "mode": "beginner", "deck": "physical", "seed": 9},
        {"cmd": "new_game", "players": 1, "fear_split": [3, 4, 2], "deck_order": "1-C-33"},
        {"cmd": "reveal", "card": "II-coastal", "force": True},
        {"cmd": "destroy", "piece": "city", "count": 3},
        {"cmd": "effect", "commands": [{"cmd": "fear", "amount": 2}, {"cmd": "heal"}]},
        {"cmd": "score", "dahan": 0, "blight_on_island": 0},
        {"cmd": "undo"},
    ],
)
def test_a_command_written_out_reads_back_the_same(data: dict[str, Any]) -> None:
    command = parse_command(data)
    assert parse_command(command_to_dict(command)) == command


def test_an_effect_holds_its_parts_as_commands() -> None:
    effect = parse_command({"cmd": "effect", "commands": [{"cmd": "fear", "amount": 2}]})
    assert effect == Effect((GenerateFear(2),))
