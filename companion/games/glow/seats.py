"""Glow's seats: each player moves their own score and reroll tokens and keeps their own
companions from their phone; the phases stay the table's."""

from __future__ import annotations

from typing import Any

from companion.core.seats import Seat, SeatAction, SeatRules, own_actions
from companion.i18n import N_

ACTIONS = (
    SeatAction(N_("Score +1"), {"cmd": "score", "amount": 1}),
    SeatAction(N_("Score +5"), {"cmd": "score", "amount": 5}),
    SeatAction(N_("Score −1"), {"cmd": "score", "amount": -1}),
    SeatAction(N_("Reroll token +1"), {"cmd": "rerolls", "amount": 1}),
    SeatAction(N_("Reroll token −1"), {"cmd": "rerolls", "amount": -1}),
)
"""A player's buttons (their companions are sent as `companion` with the card's id)."""


def seats(view: dict[str, Any]) -> list[Seat]:
    return [Seat(number, str(player["name"]), player.get("colour"))
            for number, player in enumerate(view["players"])]


def moment(view: dict[str, Any]) -> str:
    return f"day {view['day']}, {view['phase']}"


SEAT_RULES = SeatRules(
    seats=seats,
    command=own_actions({"score": frozenset({"amount"}),
                         "rerolls": frozenset({"amount"}),
                         "companion": frozenset({"card", "remove", "value", "glowworms", "die"})},
                        player_field="player"),
    moment=moment,
    actions=lambda view, player: list(ACTIONS),
)
