"""The whole state as plain JSON-ready data and back: `state_from_record(state_to_record(s)) == s`.

A store can keep a snapshot this way instead of replaying a long game from its start.
"""

from __future__ import annotations

from typing import Any

from companion.core.records import check_version, versioned_record

from .state import Area, Companion, Final, Numbers, Player, Setup, State

RECORD_VERSION = 1


def state_to_record(state: State) -> dict[str, Any]:
    return versioned_record(state, RECORD_VERSION)


def _player(data: dict[str, Any]) -> Player:
    final = data["final"]
    return Player(**{
        **data,
        "companions": tuple(Companion(**comp) for comp in data["companions"]),
        "boats": tuple(data["boats"]),
        "final": None if final is None else Final(**final),
    })


def state_from_record(record: dict[str, Any]) -> State:
    """Rebuild a state; raises ValueError (or KeyError/TypeError) on a record it cannot read."""
    check_version(record, RECORD_VERSION, "Glow")
    setup = record["setup"]
    numbers = setup["numbers"]
    ranking = record["ranking"]
    return State(
        setup=Setup(**{
            **setup,
            "names": tuple(setup["names"]), "colours": tuple(setup["colours"]),
            "adventurers": tuple(setup["adventurers"]),
            "numbers": Numbers(numbers["track_length"], tuple(numbers["reroll_spaces"]),
                               tuple(numbers["village_values"]),
                               tuple(numbers["island_values"]))}),
        day=record["day"],
        phase=record["phase"],
        start_player=record["start_player"],
        deck_count=record["deck_count"],
        players=tuple(_player(p) for p in record["players"]),
        areas=tuple(Area(**a) for a in record["areas"]),
        picked=tuple(record["picked"]),
        discarded=record["discarded"],
        dice_entered=record["dice_entered"],
        graveyard=tuple(record["graveyard"]),
        supply=tuple(record["supply"]),
        black_die=record["black_die"],
        kaar_owner=record["kaar_owner"],
        spell_stack=record["spell_stack"],
        ranking=None if ranking is None else tuple(tuple(group) for group in ranking),
    )
