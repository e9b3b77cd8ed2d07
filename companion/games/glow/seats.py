"""Glow's seats: each player moves their own score and reroll tokens and keeps their own
companions from their phone; the phases stay the table's."""

from __future__ import annotations

from typing import Any

from companion.core.seats import Seat, SeatAction, SeatFigure, SeatRules, own_actions
from companion.i18n import N_

ACTIONS = (
    SeatAction(N_("Score +1"), {"cmd": "score", "amount": 1}),
    SeatAction(N_("Score +5"), {"cmd": "score", "amount": 5}),
    SeatAction(N_("Score −1"), {"cmd": "score", "amount": -1}),
    SeatAction(N_("Reroll token +1"), {"cmd": "rerolls", "amount": 1}),
    SeatAction(N_("Reroll token −1"), {"cmd": "rerolls", "amount": -1}),
)
"""A player's buttons; each companion they hold has one more, sending it to the graveyard
(which the table's companion panel does too)."""
TO_THE_GRAVEYARD = N_("{name} to the graveyard")


def seats(view: dict[str, Any]) -> list[Seat]:
    return [Seat(number, str(player["name"]), player.get("colour"))
            for number, player in enumerate(view["players"])]


def moment(view: dict[str, Any]) -> str:
    return f"day {view['day']}, {view['phase']}"


def actions(view: dict[str, Any], player: int) -> list[SeatAction]:
    companions = view["players"][player]["companions"]
    return [*ACTIONS, *(SeatAction(TO_THE_GRAVEYARD,
                                   {"cmd": "companion", "card": held["card"], "remove": True},
                                   {"name": str(held["name"])}) for held in companions)]


def figures(view: dict[str, Any], player: int) -> list[SeatFigure]:
    own = view["players"][player]
    reroll_tokens = own["reroll_tokens"] if own.get("reroll_tokens_known", True) else "?"
    return [SeatFigure(N_("Score"), own["score"]),
            SeatFigure(N_("Reroll tokens"), reroll_tokens),
            SeatFigure(N_("Companions"), own["companion_count"])]


SEAT_RULES = SeatRules(
    seats=seats,
    command=own_actions({"score": frozenset({"amount"}),
                         "rerolls": frozenset({"amount"}),
                         "companion": frozenset({"card", "remove", "value", "glowworms", "die"})},
                        player_field="player"),
    moment=moment,
    actions=actions,
    figures=figures,
)
