"""parse_command refuses malformed input with a sentence saying what is wrong."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.errors import Refused
from companion.games.leviathan_wilds import api as lw
from companion.games.leviathan_wilds.data import TAG_IDS, THREAT_CARDS, WEAKNESS_CARD_IDS

from .play import new

NEW = {"cmd": "new_game", "game": "leviathan-wilds", "players": 2, "difficulty": "medium",
       "leviathan": 1}


@pytest.mark.parametrize(("raw", "says"), [
    ("next", "JSON object"),
    ({}, "no \"cmd\""),
    ({"cmd": 3}, "no \"cmd\""),
    ({"cmd": "fly"}, "unknown command 'fly'"),
    ({"cmd": "next", "speed": 2}, "does not take 'speed'"),
    ({"cmd": "wild"}, "needs the field 'count'"),
    ({"cmd": "wild", "count": "2"}, "whole number"),
    ({"cmd": "wild", "count": True}, "whole number"),
    ({"cmd": "wild", "count": 6}, "between 1 and 5"),
    ({"cmd": "health", "guardian": 0, "amount": 0}, "must not be 0"),
    ({"cmd": "health", "guardian": 4, "amount": 1}, "between 0 and 3"),
    ({"cmd": "health", "amount": 1}, "needs the field 'guardian'"),
    ({**NEW, "players": 5}, "between 1 and 4"),
    ({**NEW, "players": 0}, "between 1 and 4"),
    ({**NEW, "leviathan": 18}, "between 1 and 17"),
    ({**NEW, "difficulty": "normal"}, "easy, medium, hard, expert"),
    ({**NEW, "game": "spirit-island"}, "leviathan-wilds"),
    ({**NEW, "crystals": [{"dice": [7]}]}, "between 1 and 6"),
    ({**NEW, "crystals": []}, "1 to 12 entries"),
    ({**NEW, "crystals": [{"value": 3}]}, "each crystal"),
    ({**NEW, "guardians": [{"character": "Fix", "role": "x"}]}, "character and class"),
    ({"cmd": "reveal", "card": "LW-threat-18-1"}, "one of the ids"),
    ({"cmd": "weakness", "guardian": 0, "card": "LW-threat-1-1"}, "one of the ids"),
    ({"cmd": "ap_card", "ap": 3, "protections": ["fire"]}, "harmful, slippery, corrupt"),
    ({"cmd": "next", "step": "round_end"}, "reveal, activate, resolve, draw"),
    ({"cmd": "strike", "crystal": 0, "amount": 2, "ap": 1}, "true or false"),
    ({"cmd": "counter", "counter": "\ud800", "amount": 1}, "surrogate"),
])
def test_malformed_commands_are_refused_with_a_reason(raw: Any, says: str) -> None:
    with pytest.raises(Refused, match=None) as refused:
        lw.parse_command(raw)
    assert says in str(refused.value)


@pytest.mark.parametrize("raw", [
    NEW,
    {**NEW, "players": 1, "guardians": [{"character": "Fix", "class": "Breaker"}, {}],
     "crystals": [{"dice": [2, 6], "corrupted": True}], "win_conditions": ["relics"],
     "wrath_wild_counts": [0, 1, 2], "wrath_start": 0, "deck_size": 14},
    {"cmd": "next", "step": "draw", "decline_last": True},
    {"cmd": "health", "guardian": 1, "amount": -3},
    {"cmd": "reveal", "card": "LW-threat-1-5"},
    {"cmd": "ap_card", "ap": 4, "protections": ["corrupt", "harmful"]},
    {"cmd": "undo"},
])
def test_a_parsed_command_writes_back_to_the_same_command(raw: dict[str, Any]) -> None:
    command = lw.parse_command(raw)
    assert lw.parse_command(lw.command_to_dict(command)) == command


def test_start_refuses_a_guardian_list_of_the_wrong_length() -> None:
    with pytest.raises(Refused, match="solo has 2 guardians, but 1 were described"):
        new(players=1, guardians=[{"character": "Fix"}])


def test_start_refuses_a_wrath_start_off_the_track() -> None:
    with pytest.raises(Refused, match="spaces 0 to 2"):
        new(wrath_wild_counts=[0, 1, 2], wrath_start=3)


def test_a_threat_card_of_another_leviathan_is_refused() -> None:
    state = new(leviathan=1)
    with pytest.raises(Refused, match="leviathan 3 .Storm.; this game is against leviathan 1"):
        lw.decide(state, lw.parse_command({"cmd": "reveal", "card": "LW-threat-3-2"}))
    state, events = lw.decide(state, lw.parse_command({"cmd": "reveal", "card": "LW-threat-1-2"}))
    assert state.row[0].card == "LW-threat-1-2" and state.step == "reveal"


def test_the_reader_can_name_85_threat_cards_and_12_weaknesses() -> None:
    assert len(THREAT_CARDS) == 85 and len(WEAKNESS_CARD_IDS) == 12
    assert len(set(TAG_IDS)) == 97
    assert "LW-threat-17-5" in THREAT_CARDS and "LW-weakness-12" in WEAKNESS_CARD_IDS
