"""Commands every game shares, and reading any game's commands from plain dicts.

A command is a small frozen dataclass with a `name` (its "cmd"). `parse_command` turns one JSON
object into a command of a given registry, checking each field with a game's field checker, or
raises `Refused` with a sentence a player can act on; `command_to_dict` is its inverse, so a
command log can be written out and read back to the same commands.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from .errors import Refused
from .phrases import Phrase


@dataclass(frozen=True)
class Command:
    name: ClassVar[str]


@dataclass(frozen=True)
class Undo(Command):
    name: ClassVar[str] = "undo"


@dataclass(frozen=True)
class Redo(Command):
    name: ClassVar[str] = "redo"


@dataclass(frozen=True)
class ShowState(Command):
    name: ClassVar[str] = "state"


SESSION_COMMANDS: dict[str, type[Command]] = {c.name: c for c in (Undo, Redo, ShowState)}
"""What the session itself answers, whatever the game."""

def outside_the_rules(command: Command, new_game: type[Command]) -> bool:
    """Whether `command` is one no game's rules decide: True for `state` (the state stays as it
    is, nothing happens); Refused for undo and redo, which the session answers from the states it
    keeps, and for a game's start command sent inside a running game. False for any other.
    Its words are the games' rules' (`i18n_messages.written_phrases`), not the screens'."""
    if isinstance(command, ShowState):
        return True
    if isinstance(command, (Undo, Redo)):
        raise Refused(Phrase("{command} is kept by the session, not by the rules",
                             command=command.name))
    if isinstance(command, new_game):
        raise Refused(Phrase("a new game is started with start(), not inside a running game"))
    return False


FieldChecker = Callable[[str, str, Any], Any]
"""Checks one field's value: (command name, field name, value) -> the value, or Refused."""

_SURROGATE = re.compile("[\ud800-\udfff]")

# A refusal quotes at most this many characters of what was sent.
MAX_ECHO = 200


def shown(value: Any) -> str:
    """What was sent, quoted for a refusal: its repr, cut to MAX_ECHO characters with "…"."""
    return cut(repr(value) if not isinstance(value, (list, dict)) else _short_repr(value))


def cut(text: str) -> str:
    """Text a refusal echoes, cut to MAX_ECHO characters with "…"."""
    return text if len(text) <= MAX_ECHO else text[:MAX_ECHO] + "…"


def _short_repr(value: list[Any] | dict[Any, Any]) -> str:
    # The repr of a deep list or object would recurse as deep as it goes: show its start only.
    if isinstance(value, list):
        return "[…]" if value else "[]"
    return "{…}" if value else "{}"


def whole_number(cmd: str, key: str, value: Any, low: int, high: int) -> int:
    # bool is an int in Python; `true` is not a number of anything.
    if isinstance(value, bool) or not isinstance(value, int):
        raise Refused(f"'{cmd}': {key} must be a whole number, not {shown(value)}")
    if not low <= value <= high:
        raise Refused(f"'{cmd}': {key} must be between {low} and {high}, not {value}")
    return value


def text(cmd: str, key: str, value: Any, choices: tuple[str, ...] | None = None) -> str:
    if not isinstance(value, str):
        raise Refused(f"'{cmd}': {key} must be text, not {shown(value)}")
    if _SURROGATE.search(value):
        # JSON can carry one (\ud800); UTF-8 cannot, so it could be neither stored nor shown.
        raise Refused(f"'{cmd}': {key} holds a lone UTF-16 surrogate, which is not a "
                      f"character: {shown(value)}")
    if choices is not None and value not in choices:
        raise Refused(f"'{cmd}': {key} must be one of {', '.join(choices)}, not {shown(value)}")
    return value


def flag(cmd: str, key: str, value: Any) -> bool:
    """A field that is true or false (JSON's, not 0 or "yes")."""
    if not isinstance(value, bool):
        raise Refused(Phrase("'{cmd}': {key} must be true or false, not {value}", cmd=cmd,
                             key=key, value=shown(value)))
    return value


def entries(cmd: str, key: str, value: Any, low: int, high: int) -> list[Any]:
    """A field that is a list of `low` to `high` entries (each checked by the caller)."""
    if not isinstance(value, list):
        raise Refused(Phrase("'{cmd}': {key} must be a list, not {value}", cmd=cmd, key=key,
                             value=shown(value)))
    if not low <= len(value) <= high:
        raise Refused(Phrase("'{cmd}': {key} must hold {low} to {high} entries, not {count}",
                             cmd=cmd, key=key, low=low, high=high, count=len(value)))
    return value


BOOLEAN_FIELDS = ("force", "confirm", "replace", "overwrite")


def shared_field(cmd: str, key: str, value: Any) -> Any:
    """Check a field the shared commands use (saved games, files, tags); any other is text."""
    if key == "game":
        return whole_number(cmd, key, value, 1, 2**62)
    if key in BOOLEAN_FIELDS:
        if not isinstance(value, bool):
            raise Refused(f"'{cmd}': {key} must be true or false, not {shown(value)}")
        return value
    if key == "path":
        return _path(cmd, text(cmd, key, value))
    return text(cmd, key, value)


def _path(cmd: str, value: str) -> str:
    # No file has such a name: the operating system would raise rather than answer.
    if "\0" in value:
        raise Refused(f"'{cmd}': path {shown(value)} contains a NUL character; no file has "
                      "such a name")
    return value


def parse_command(data: Any, registry: Mapping[str, type[Command]],
                  check_field: FieldChecker = shared_field) -> Command:
    """Turn a JSON object such as {"cmd": "fear", "amount": 2} into one of `registry`'s commands.

    `check_field` checks each field's value; the checks go by field name, so that every command
    of a game shares them.
    """
    if not isinstance(data, dict):
        raise Refused("each line must be a JSON object such as {\"cmd\": \"next\"}")
    name = data.get("cmd")
    if not isinstance(name, str):
        raise Refused("the object has no \"cmd\" field naming the command")
    cls = registry.get(name)
    if cls is None:
        raise Refused(f"unknown command {shown(name)}; known commands: {', '.join(registry)}")
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(data) - set(known) - {"cmd"})
    if unknown:
        raise Refused(f"'{name}' does not take {cut(', '.join(unknown))}; it takes "
                      f"{', '.join(known) or 'no fields'}")
    values = {}
    for key, f in known.items():
        if key in data and data[key] is not None:
            values[key] = check_field(name, key, data[key])
        elif f.default is MISSING:
            raise Refused(f"'{name}' needs the field {key!r}")
    return cls(**values)


def command_to_dict(command: Command) -> dict[str, Any]:
    """The plain-dict form of a command; `parse_command` reads it back to an equal command."""
    out: dict[str, Any] = {"cmd": command.name}
    for f in fields(command):
        value = getattr(command, f.name)
        if value is None or value == f.default:
            continue
        if isinstance(value, tuple):
            value = [command_to_dict(v) if isinstance(v, Command) else v for v in value]
        out[f.name] = value
    return out
