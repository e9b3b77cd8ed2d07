"""The whole game state, hidden cards included, as plain JSON-ready data and back.

Snapshots in the store use this, so that resuming a long game need not replay it from the start.
`state_from_record(state_to_record(s)) == s` for every state. Records of version 1 (before
adversary rules, scenarios and the event deck) are still read.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from .cards import DeckEntry
from .state import BlightTrack, EventTrack, FearTrack, GameState, InvaderTrack, Outcome, Setup

RECORD_VERSION = 2


def state_to_record(state: GameState) -> dict[str, Any]:
    record = asdict(state)  # tuples stay tuples; JSON writes them as lists
    record["v"] = RECORD_VERSION
    record["invader"]["deck"] = [[entry.stage, entry.card] for entry in state.invader.deck]
    return record


def _tuples(data: dict[str, Any], *names: str) -> dict[str, Any]:
    out = dict(data)
    for name in names:
        if out.get(name) is not None:
            out[name] = tuple(out[name])
    return out


def state_from_record(record: dict[str, Any]) -> GameState:
    """Rebuild a state; raises ValueError (or KeyError/TypeError) on a record it cannot read."""
    version = record.get("v")
    if version == 1:
        record = _from_version_1(record)
    elif version != RECORD_VERSION:
        raise ValueError(f"unknown state record version {version!r}")
    track = _tuples(record["invader"], "ravage", "build", "explore", "discard", "set_aside",
                    "high_immigration", "removed", "uncovered", "surged")
    track["deck"] = tuple(DeckEntry(stage, card) for stage, card in track["deck"])
    fear = _tuples(record["fear"], "groups", "split", "seen")
    fear["hidden_invaders"] = tuple(tuple(item) for item in fear.get("hidden_invaders", ()))
    if fear.get("ritual_at") is not None:
        fear["ritual_at"] = tuple(fear["ritual_at"])
    events = record.get("events")
    ended_in = record["ended_in"]
    return GameState(
        setup=Setup(**_tuples(record["setup"], "fear_split")),
        round=record["round"],
        phase=record["phase"],
        step=record["step"],
        invader=InvaderTrack(**track),
        fear=FearTrack(**fear),
        blight=BlightTrack(**_tuples(record["blight"], "earlier_cards")),
        events=None if events is None else EventTrack(**_tuples(events, "drawn_this_round")),
        outcome=None if record["outcome"] is None else Outcome(**record["outcome"]),
        ended_in=None if ended_in is None else (ended_in[0], ended_in[1]),
        spirits_done=tuple(record.get("spirits_done", ())),
    )


def _from_version_1(record: dict[str, Any]) -> dict[str, Any]:
    """Version 1 kept a fear deck count instead of groups, and a revealed flag."""
    record = dict(record)
    invader = dict(record["invader"])
    revealed = invader.pop("revealed_this_step")
    invader["reveals_due"] = 0 if revealed or record["step"] not in (
        "explore", "initial_explore") else 1
    record["invader"] = invader
    fear = dict(record["fear"])
    taken = sum(fear["split"]) - fear.pop("deck")
    groups, level = [], 1
    for size in fear["split"]:
        groups.append(max(0, size - max(0, taken)))
        taken -= size
        if taken >= 0:
            level += 1
    fear["groups"] = groups
    fear["terror_level"] = min(level, 4)
    record["fear"] = fear
    return record
