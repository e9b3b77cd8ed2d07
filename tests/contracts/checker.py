"""Does an answer still keep the promise its recorded answer made? The comparison of the
contract suite, pure and without I/O; the policy it applies is set out at the top of
`tests/contracts/test_contracts.py`."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

Where = tuple[str, ...]
"""Where a value sits in an answer: its keys and list indices (as digits) from the root."""

Pattern = tuple[str, ...]
"""A path to match; "*" stands for any one key or index."""

# The tables below are the policy's global part: each names a key wherever it sits (the
# pattern is matched against the end of a value's path). A transcript line's own "loose"
# entries name full paths from the answer's root instead.

WORDS: tuple[Pattern, ...] = (
    ("name",),                # a card's, adversary's, game's or player's name as people read it
    ("phase_name",),          # Glow's phase in the driver's language; "phase" is the id
    ("board_name",),          # Glow's board side in words; "board" is the id
    ("rules", "*", "title"),  # a rules entry's title; its id is the contract
)
"""Strings compared by type only, however short; any string holding whitespace is words too."""

VOLATILE: dict[Pattern, frozenset[str]] = {
    ("started_at",): frozenset({"string", "null"}),
    ("updated_at",): frozenset({"string", "null"}),
    ("finished_at",): frozenset({"string", "null"}),
    ("duration_minutes",): frozenset({"number", "null"}),
}
"""Values that depend on the clock: only their JSON type (one of the set given) is compared."""

OPEN: tuple[Pattern, ...] = (
    ("events",),  # a command may announce more than it did
    ("rules",),   # a grown corpus may find more entries
)
"""Lists that may gain items anywhere: each recorded item must still be there, in the same
order, and new ones may sit between them."""

ITEMS: tuple[Pattern, ...] = (
    ("reminders",),        # the rules' words to the table at a step: {"id", "text", …}
    ("setup_checklist",),  # the same for the setup
    ("unverified",),       # numbers still to verify: a note goes when its number is checked
)
"""Lists whose items are the rules' content, which a rules fix may change: what is promised
is their shape. Every item now must be an object with each key the recorded items had, of
the same JSON type; which items there are, and their values, are not compared."""

LOOSE_MODES = ("type", "open", "items")
"""What a transcript line's "loose" may say of a path: compared by type only, an open list,
or a list whose items keep only their shape."""

INTERNAL_ERROR = "internal error"
"""How the driver's answer to a bug begins; a recorded refusal must not become one."""

TMP = "{tmp}"
"""Stands for the transcript's own folder in requests and recorded answers."""

UNKNOWN = object()
"""The state before a line when it is not known (the first line after a restart)."""


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    raise TypeError(f"{value!r} is not a JSON value")


def parse_loose(loose: Mapping[str, str]) -> dict[Pattern, str]:
    """A transcript line's "loose": {"state.players.*.name": "type", "rules": "open"}."""
    out: dict[Pattern, str] = {}
    for where, mode in loose.items():
        if mode not in LOOSE_MODES:
            raise ValueError(f"loose {where!r}: {mode!r} is not one of {LOOSE_MODES}")
        out[tuple(where.split("."))] = mode
    return out


def _ends_with(path: Where, pattern: Pattern) -> bool:
    return len(pattern) <= len(path) and all(
        want in ("*", got) for want, got in zip(pattern, path[len(path) - len(pattern):],
                                                 strict=True))


def _is(path: Where, pattern: Pattern) -> bool:
    return len(pattern) == len(path) and _ends_with(path, pattern)


def _where(path: Where) -> str:
    return ".".join(path) if path else "the answer"


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:79] + "…"


def breaches(recorded: Any, actual: Any, loose: Mapping[Pattern, str] | None = None,
             path: Where = ()) -> list[str]:
    """Every way `actual` falls short of `recorded` (empty: it keeps the promise)."""
    out: list[str] = []
    _compare(recorded, actual, path, dict(loose or {}), out)
    return out


def _compare(recorded: Any, actual: Any, path: Where, loose: dict[Pattern, str],
             out: list[str]) -> None:
    for pattern, allowed in VOLATILE.items():
        if _ends_with(path, pattern):
            if json_type(actual) not in allowed:
                out.append(f"{_where(path)}: a {json_type(actual)} now, where "
                           f"{' or '.join(sorted(allowed))} was promised")
            return
    if json_type(actual) != json_type(recorded):
        out.append(f"{_where(path)}: recorded a {json_type(recorded)} ({_show(recorded)}), "
                   f"now a {json_type(actual)} ({_show(actual)})")
        return
    mode = next((m for pattern, m in loose.items() if _is(path, pattern)), None)
    if mode == "type":
        return
    if isinstance(recorded, dict):
        for key, value in recorded.items():
            if key not in actual:
                out.append(f"{_where((*path, key))}: dropped")
            else:
                _compare(value, actual[key], (*path, key), loose, out)
    elif isinstance(recorded, list):
        if mode == "items" or (mode is None and any(_ends_with(path, p) for p in ITEMS)):
            _compare_shape(recorded, actual, path, out)
        elif mode == "open" or any(_ends_with(path, pattern) for pattern in OPEN):
            _compare_open(recorded, actual, path, loose, out)
        else:
            if len(actual) != len(recorded):
                out.append(f"{_where(path)}: {len(recorded)} items recorded, {len(actual)} now")
            for i, (was, now) in enumerate(zip(recorded, actual, strict=False)):
                _compare(was, now, (*path, str(i)), loose, out)
    elif isinstance(recorded, str):
        if not _is_words(recorded, path) and recorded != actual:
            out.append(f"{_where(path)}: recorded {_show(recorded)}, now {_show(actual)}")
    elif recorded != actual:
        out.append(f"{_where(path)}: recorded {_show(recorded)}, now {_show(actual)}")


def _compare_open(recorded: Sequence[Any], actual: Sequence[Any], path: Where,
                  loose: dict[Pattern, str], out: list[str]) -> None:
    """Each recorded item matched by the earliest later item that keeps its promise (the
    earliest match leaves the most room for the items after it)."""
    at = 0
    for i, was in enumerate(recorded):
        found = next((j for j in range(at, len(actual))
                      if not breaches(was, actual[j], loose, (*path, str(j)))), None)
        if found is None:
            out.append(f"{_where(path)}: recorded item {i} ({_show(was)}) is missing")
        else:
            at = found + 1


def _compare_shape(recorded: Sequence[Any], actual: Sequence[Any], path: Where,
                   out: list[str]) -> None:
    shape: dict[str, str] = {}
    for item in recorded:
        if isinstance(item, dict):
            shape.update((key, json_type(value)) for key, value in item.items())
    for j, item in enumerate(actual):
        if shape and not isinstance(item, dict):
            out.append(f"{_where((*path, str(j)))}: a {json_type(item)}, not an object")
            continue
        for key, wanted in shape.items():
            if key not in item:
                out.append(f"{_where((*path, str(j), key))}: dropped")
            elif json_type(item[key]) != wanted:
                out.append(f"{_where((*path, str(j), key))}: a {json_type(item[key])} now, "
                           f"recorded a {wanted}")


def _is_words(text: str, path: Where) -> bool:
    return any(ch.isspace() for ch in text) or any(_ends_with(path, p) for p in WORDS)


def kind(answer: Mapping[str, Any]) -> str:
    """"accepted", "refused" (in words) or "internal error" (a bug)."""
    if answer.get("ok") is True:
        return "accepted"
    error = answer.get("error")
    return ("internal error" if isinstance(error, str) and error.startswith(INTERNAL_ERROR)
            else "refused")


def answer_breaches(recorded: Mapping[str, Any], actual: Mapping[str, Any],
                    state_before: Any, loose: Mapping[str, str] | None = None) -> list[str]:
    """`breaches`, plus the answer's kind, and that a refusal left the state as it was."""
    out = []
    if kind(actual) != kind(recorded):
        out.append(f"{kind(recorded)} when recorded, {kind(actual)} now"
                   + (f": {_show(actual.get('error'))}" if actual.get("ok") is False else ""))
    out += breaches(recorded, actual, parse_loose(loose or {}))
    if (kind(actual) == "refused" and state_before is not UNKNOWN
            and actual.get("state") != state_before):
        out.append("refused, but the state changed: a refused line must change nothing")
    return out


def with_folder(value: Any, folder: str, placeholder: str) -> Any:
    """`value` with every `folder` inside its strings written as `placeholder` (or back)."""
    if isinstance(value, str):
        return value.replace(folder, placeholder)
    if isinstance(value, list):
        return [with_folder(item, folder, placeholder) for item in value]
    if isinstance(value, dict):
        return {with_folder(key, folder, placeholder): with_folder(item, folder, placeholder)
                for key, item in value.items()}
    return value
