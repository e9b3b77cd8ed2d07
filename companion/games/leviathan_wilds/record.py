"""The whole state as plain JSON-ready data and back: `state_from_record(state_to_record(s)) == s`.

A store can keep a snapshot this way instead of replaying a long game from its start.
"""

from __future__ import annotations

from typing import Any

from companion.core.records import check_version, versioned_record

from .state import (
    ApCard,
    Crystal,
    Guardian,
    GuardianSetup,
    Numbers,
    Outcome,
    Pile,
    Setup,
    State,
    ThreatSlot,
    WinCondition,
)

RECORD_VERSION = 1


def state_to_record(state: State) -> dict[str, Any]:
    return versioned_record(state, RECORD_VERSION)


def _guardian(data: dict[str, Any]) -> Guardian:
    card = data["ap_card"]
    return Guardian(**{
        **data,
        "weaknesses": tuple(data["weaknesses"]),
        "ap_card": None if card is None else ApCard(
            card["ap"], tuple(card["protections"]), card["from_hand"]),
    })


def state_from_record(record: dict[str, Any]) -> State:
    """Rebuild a state; raises ValueError (or KeyError/TypeError) on a record it cannot read."""
    check_version(record, RECORD_VERSION, "Leviathan Wilds")
    setup = record["setup"]
    numbers = {**setup["numbers"],
               "wrath_wild_counts": tuple(setup["numbers"]["wrath_wild_counts"])}
    outcome = record["outcome"]
    last_chance = record["last_chance"]
    return State(
        setup=Setup(**{**setup, "numbers": Numbers(**numbers),
                       "guardians": tuple(GuardianSetup(**g) for g in setup["guardians"])}),
        round=record["round"],
        step=record["step"],
        active=record["active"],
        row=tuple(ThreatSlot(**slot) for slot in record["row"]),
        revealed_slot=record["revealed_slot"],
        wrath=record["wrath"],
        guardians=tuple(_guardian(g) for g in record["guardians"]),
        piles=tuple(Pile(**p) for p in record["piles"]),
        crystals=tuple(Crystal(tuple(c["dice"]), c["corrupted"], tuple(c["start"]))
                       for c in record["crystals"]),
        win_conditions=tuple(WinCondition(**w) for w in record["win_conditions"]),
        counters=tuple((name, value) for name, value in record["counters"]),
        weakness_deck=record["weakness_deck"],
        last_chance=None if last_chance is None else tuple(last_chance),
        outcome=None if outcome is None else Outcome(**outcome),
    )
