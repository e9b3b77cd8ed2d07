"""Reading Glow commands from plain dicts (JSON objects), and writing them back.

`parse_command` raises `Refused` with a sentence a player or a script can act on: an unknown
command, a missing or wrong-typed field, a value out of range. `command_to_dict` is the core's.
"""

from __future__ import annotations

from typing import Any

from companion.core.commands import command_to_dict as command_to_dict
from companion.core.commands import entries, flag, shown, text
from companion.core.commands import parse_command as core_parse_command
from companion.core.commands import whole_number as number
from companion.core.errors import Refused
from companion.core.names import checked_name
from companion.core.phrases import Phrase

from .commands import COMMANDS, Command
from .data import (
    ADVENTURERS,
    BOARDS,
    COMPANIONS,
    GAME_ID,
    LARGE_DICE_SUPPLY,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MODES,
    OVER,
    PHASES,
    ROW,
    SMALL_DICE,
)

MAX_AMOUNT = 200
MAX_NAME = 40

# Fields whose amount is signed: a loss or a gain.
_SIGNED = ("score", "rerolls", "glowworms", "trails", "spell")


def _choice(cmd: str, key: str, value: Any, choices: tuple[str, ...]) -> str:
    checked = text(cmd, key, value)
    if checked not in choices:
        listed = ", ".join(choices) if len(choices) <= 8 else (
            f"one of the ids {choices[0]} … {choices[-1]}")
        raise Refused(Phrase("'{cmd}': {key} must be {listed}, not {value}", cmd=cmd, key=key,
                             listed=listed, value=shown(checked)))
    return checked


def _label(cmd: str, key: str, value: Any) -> str:
    checked = text(cmd, key, value)
    if not checked.strip() or len(checked) > MAX_NAME:
        raise Refused(Phrase("'{cmd}': each of {key} must be 1 to {most} characters, not {value}",
                             cmd=cmd, key=key, most=MAX_NAME, value=shown(checked)))
    return checked_name(cmd, key, checked)


def _values(cmd: str, key: str, value: Any, low: int, high: int) -> tuple[int, ...]:
    return tuple(number(cmd, key, v, 0, 200) for v in entries(cmd, key, value, low, high))


def _rising(cmd: str, key: str, value: Any) -> tuple[int, ...]:
    spaces = _values(cmd, key, value, 0, 100)
    if list(spaces) != sorted(set(spaces)):
        raise Refused(Phrase("'{cmd}': {key} must list each space once, lowest first", cmd=cmd,
                             key=key))
    return spaces


def _field(cmd: str, key: str, value: Any) -> Any:
    """Check one field's value; each check belongs to the field's name (and, for amounts, the
    command), so every command shares them."""
    if key == "amount":
        amount = number(cmd, key, value, -MAX_AMOUNT, MAX_AMOUNT)
        if amount == 0:
            raise Refused(Phrase("'{cmd}': amount must not be 0 (−n for a loss, +n for a gain)",
                                 cmd=cmd))
        return amount
    if key in ("player", "start_player"):
        return number(cmd, key, value, 0, MAX_PLAYERS - 1)
    if key == "players":
        return number(cmd, key, value, MIN_PLAYERS, MAX_PLAYERS)
    if key == "game":
        return _choice(cmd, key, value, (GAME_ID,))
    if key == "board" and cmd != "end_score":  # the side; end_score's board is its value
        return _choice(cmd, key, value, BOARDS)
    if key == "mode":
        return _choice(cmd, key, value, MODES)
    if key == "seed":
        return number(cmd, key, value, 0, 2**63 - 1)
    if key == "phase":
        return _choice(cmd, key, value, (*PHASES, OVER))
    if key in ("confirm", "remove", "correction"):
        return flag(cmd, key, value)
    if key in ("names", "colours"):
        return tuple(_label(cmd, key, v) for v in entries(cmd, key, value, 0, MAX_PLAYERS))
    if key == "adventurers":
        return tuple(_choice(cmd, key, v, tuple(ADVENTURERS))
                     for v in entries(cmd, key, value, 0, MAX_PLAYERS))
    if key == "track_length":
        return number(cmd, key, value, 10, 200)
    if key == "reroll_spaces":
        return _rising(cmd, key, value)
    if key == "village_values":
        return _values(cmd, key, value, 1, 20)
    if key == "island_values":
        return _values(cmd, key, value, 2, 30)
    if key == "area":
        return number(cmd, key, value, 1, ROW)
    if key == "card":
        return _choice(cmd, key, value, tuple(COMPANIONS))
    if key == "dice":
        counts = tuple(number(cmd, key, v, 0, SMALL_DICE + 1)
                       for v in entries(cmd, key, value, ROW, ROW))
        if sum(counts) > SMALL_DICE + 1:  # the 9 small dice and the black die
            raise Refused(Phrase("'{cmd}': there are only {dice} small dice, not {count}",
                                 cmd=cmd, dice=SMALL_DICE + 1, count=sum(counts)))
        return counts
    if key in ("lumipili", "tokens", "track"):
        return number(cmd, key, value, 0, 3)
    if key == "value":
        return number(cmd, key, value, -MAX_AMOUNT if cmd == "companion" else 0, MAX_AMOUNT)
    if key in ("glowworms", "companions", "trails", "board", "reroll_tokens", "score"):
        return number(cmd, key, value, 0, 1000)
    if key == "cards":
        return number(cmd, key, value, -1000, 1000)
    if key == "die":
        return _choice(cmd, key, value, LARGE_DICE_SUPPLY)
    if key == "boat":
        return number(cmd, key, value, 0, 3)
    if key == "island":
        return number(cmd, key, value, 0, 29)
    if key == "elements":
        return number(cmd, key, value, 0, 5)
    if key == "route":
        route = tuple(number(cmd, key, v, 1, 5) for v in entries(cmd, key, value, 1, 2))
        if len(route) == 2 and route[0] > route[1]:
            raise Refused(Phrase("'{cmd}': route is [low, high] with low ≤ high, not {route}",
                                 cmd=cmd, route=list(route)))
        return route
    return text(cmd, key, value)


def parse_command(raw: Any) -> Command:
    """Turn a JSON object such as {"cmd": "score", "player": 0, "amount": 3} into a command, or
    raise `Refused` saying what is wrong with it."""
    return core_parse_command(raw, COMMANDS, _field)
