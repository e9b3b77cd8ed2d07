"""Reading Leviathan Wilds commands from plain dicts (JSON objects), and writing them back.

`parse_command` raises `Refused` with a sentence a player or a script can act on: an unknown
command, a missing or wrong-typed field, a value out of range. `command_to_dict` is its inverse.
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any

from companion.core.commands import command_to_dict as core_command_to_dict
from companion.core.commands import entries, flag, text
from companion.core.commands import shown as _shown
from companion.core.commands import whole_number as _number
from companion.core.errors import Refused
from companion.core.names import checked_name
from companion.core.phrases import Phrase

from .commands import COMMANDS, Command
from .data import (
    ACTIONS,
    DIFFICULTIES,
    GAME_ID,
    LEVIATHANS,
    PROTECTIONS,
    TERRAINS,
    THREAT_CARDS,
    THREAT_SLOTS,
    WEAKNESS_CARD_IDS,
)
from .state import STEPS, GuardianSetup

MAX_AMOUNT = 100

# Fields whose amount is signed: a loss or a gain.
_SIGNED = ("health", "corruption", "grip", "counter")


def _text(cmd: str, key: str, value: Any, choices: tuple[str, ...] | None = None) -> str:
    checked = text(cmd, key, value)  # the core's checks: text, and no lone surrogate
    if choices is not None and checked not in choices:
        listed: str | Phrase = ", ".join(choices) if len(choices) <= 8 else Phrase(
            "one of the ids {first} … {last}", first=choices[0], last=choices[-1])
        raise Refused(Phrase("'{cmd}': {key} must be {listed}, not {value}", cmd=cmd, key=key,
                             listed=listed, value=_shown(checked)))
    if len(checked) > 200:
        raise Refused(Phrase("'{cmd}': {key} is too long (at most 200 characters)", cmd=cmd,
                             key=key))
    return checked


def _name(cmd: str, key: str, value: Any) -> str:
    """A name the players type (a guardian's, a win condition's): shown in every history line."""
    return checked_name(cmd, key, _text(cmd, key, value))


def _dice(cmd: str, key: str, value: Any, low: int) -> tuple[int, ...]:
    # 12 dice in the box; a die shows 1 to 6.
    return tuple(_number(cmd, key, d, 1, 6) for d in entries(cmd, key, value, low, 12))


def _guardian_setups(cmd: str, value: Any) -> tuple[GuardianSetup, ...]:
    out = []
    for entry in entries(cmd, "guardians", value, 1, 4):
        if not isinstance(entry, dict):
            raise Refused(Phrase("'{cmd}': each guardian must be an object such as {example}",
                                 cmd=cmd, example='{"character": "Fix", "class": "Breaker"}'))
        unknown = sorted(set(entry) - {"character", "class"})
        if unknown:
            raise Refused(Phrase("'{cmd}': a guardian takes character and class, not {fields}",
                                 cmd=cmd, fields=", ".join(map(_shown, unknown))))
        character, klass = entry.get("character"), entry.get("class")
        out.append(GuardianSetup(
            None if character is None else _name(cmd, "character", character),
            None if klass is None else _name(cmd, "class", klass)))
    return tuple(out)


def _crystals(cmd: str, value: Any) -> tuple[tuple[tuple[int, ...], bool], ...]:
    out = []
    for entry in entries(cmd, "crystals", value, 1, 12):
        if not isinstance(entry, dict) or "dice" not in entry:
            raise Refused(Phrase("'{cmd}': each crystal must be an object such as {example}",
                                 cmd=cmd, example='{"dice": [4], "corrupted": false}'))
        unknown = sorted(set(entry) - {"dice", "corrupted"})
        if unknown:
            raise Refused(Phrase("'{cmd}': a crystal takes dice and corrupted, not {fields}",
                                 cmd=cmd, fields=", ".join(map(_shown, unknown))))
        out.append((_dice(cmd, "dice", entry["dice"], 1),
                    flag(cmd, "corrupted", entry.get("corrupted", False))))
    return tuple(out)


def _parse_field(cmd: str, key: str, value: Any) -> Any:
    """Check one field's value; each check belongs to the field's name (and, for amounts and
    counts, the command), so every command shares them."""
    if key == "amount":
        if cmd in _SIGNED:
            amount = _number(cmd, key, value, -MAX_AMOUNT, MAX_AMOUNT)
            if amount == 0:
                raise Refused(Phrase("'{cmd}': amount must not be 0 (−n for a loss, +n for a "
                                     "gain)", cmd=cmd))
            return amount
        return _number(cmd, key, value, 1, MAX_AMOUNT)
    if key == "count":
        return _number(cmd, key, value, 1, THREAT_SLOTS if cmd == "wild" else MAX_AMOUNT)
    if key in ("guardian", "start_guardian"):
        return _number(cmd, key, value, 0, 3)
    if key in ("crystal", "condition"):
        return _number(cmd, key, value, 0, 99)
    if key in ("ap", "protected") and cmd == "strike" or key in (
            "decline_last", "ready", "remove", "corrupted", "met"):
        return flag(cmd, key, value)
    if key == "ap":
        return _number(cmd, key, value, 0, 20)
    if key == "x":
        return _number(cmd, key, value, 1, 20)
    if key == "players":
        return _number(cmd, key, value, 1, 4)
    if key == "leviathan":
        return _number(cmd, key, value, 1, len(LEVIATHANS))
    if key == "difficulty":
        return _text(cmd, key, value, DIFFICULTIES)
    if key == "game":
        return _text(cmd, key, value, (GAME_ID,))
    if key == "seed":
        return _number(cmd, key, value, 0, 2**63 - 1)
    if key == "step":
        return _text(cmd, key, value, STEPS)
    if key == "action":
        return _text(cmd, key, value, ACTIONS)
    if key == "kind":
        return _text(cmd, key, value, TERRAINS)
    if key == "protections":
        chosen = tuple(_text(cmd, key, p, PROTECTIONS)
                       for p in entries(cmd, key, value, 0, len(PROTECTIONS)))
        if len(set(chosen)) != len(chosen):
            raise Refused(Phrase("'{cmd}': protections names each protection once", cmd=cmd))
        return chosen
    if key == "card":
        return _text(cmd, key, value, THREAT_CARDS if cmd == "reveal" else WEAKNESS_CARD_IDS)
    if key == "dice":
        return _dice(cmd, key, value, 1 if cmd == "add_crystal" else 0)
    if key == "guardians":
        return _guardian_setups(cmd, value)
    if key == "crystals":
        return _crystals(cmd, value)
    if key == "win_conditions":
        return tuple(_name(cmd, key, v) for v in entries(cmd, key, value, 0, 10))
    if key == "wrath_wild_counts":
        return tuple(_number(cmd, key, v, 0, THREAT_SLOTS)
                     for v in entries(cmd, key, value, 1, 30))
    if key == "wrath_start":
        return _number(cmd, key, value, 0, 29)
    if key in ("health_start", "health_max"):
        return _number(cmd, key, value, 1, 20)
    if key == "deck_size":
        return _number(cmd, key, value, 1, 60)
    if key == "solo_rest_grip":
        return _number(cmd, key, value, 1, 60)
    return _text(cmd, key, value)


def parse_command(raw: Any) -> Command:
    """Turn a JSON object such as {"cmd": "wild", "count": 2} into a command, or raise
    `Refused` saying what is wrong with it."""
    if not isinstance(raw, dict):
        raise Refused(Phrase("a command must be a JSON object such as {example}",
                             example='{"cmd": "next"}'))
    name = raw.get("cmd")
    if not isinstance(name, str):
        raise Refused(Phrase("the object has no \"cmd\" field naming the command"))
    cls = COMMANDS.get(name)
    if cls is None:
        raise Refused(Phrase("unknown command {name}; known commands: {known}",
                             name=_shown(name), known=", ".join(COMMANDS)))
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(str(k) for k in set(raw) - set(known) - {"cmd"})
    if unknown:
        raise Refused(Phrase("'{cmd}' does not take {unknown}; it takes {known}", cmd=name,
                             unknown=", ".join(map(_shown, unknown)),
                             known=", ".join(known) or Phrase("no fields")))
    values = {}
    for key, f in known.items():
        if key in raw and raw[key] is not None:
            values[key] = _parse_field(name, key, raw[key])
        elif f.default is MISSING:
            raise Refused(Phrase("'{cmd}' needs the field {key}", cmd=name, key=repr(key)))
    return cls(**values)


def command_to_dict(command: Command) -> dict[str, Any]:
    """The plain-dict form of a command; `parse_command` reads it back to an equal command.
    The core's, with the two fields that hold records written out as JSON objects."""
    out = core_command_to_dict(command)
    if "guardians" in out:
        out["guardians"] = [{k: v for k, v in (("character", g.character),
                                                ("class", g.guardian_class)) if v is not None}
                            for g in out["guardians"]]
    if "crystals" in out:
        out["crystals"] = [{"dice": list(dice), "corrupted": corrupted}
                           for dice, corrupted in out["crystals"]]
    return out
