"""Spirit Island's seats: each spirit's player adds the fear their powers generate (towns and
cities destroyed among them) and the blight their lands take from their phone; the Invader
Board's steps stay the table's."""

from __future__ import annotations

from typing import Any

from companion.core.seats import Seat, SeatAction, SeatRules, own_actions
from companion.i18n import N_

ACTIONS = (
    SeatAction(N_("+1 fear"), {"cmd": "fear", "amount": 1}),
    SeatAction(N_("Town destroyed (+1 fear)"), {"cmd": "destroy", "piece": "town"}),
    SeatAction(N_("City destroyed (+2 fear)"), {"cmd": "destroy", "piece": "city"}),
    SeatAction(N_("+1 blight"), {"cmd": "blight", "amount": 1}),
)
"""A spirit's buttons: the fear its powers generate and the blight its lands take."""


def seats(view: dict[str, Any]) -> list[Seat]:
    return [Seat(number, f"Spirit {number + 1}") for number in range(int(view["players"]))]


def moment(view: dict[str, Any]) -> str:
    return f"round {view['round']}, {view['phase']}, {view['step']}"


SEAT_RULES = SeatRules(
    seats=seats,
    # The island's fear and blight are shared: the commands name no spirit, the log the seat.
    command=own_actions({"fear": frozenset({"amount"}), "destroy": frozenset({"piece", "count"}),
                         "blight": frozenset({"amount"})}, player_field=None),
    moment=moment,
    actions=lambda view, player: list(ACTIONS),
)
