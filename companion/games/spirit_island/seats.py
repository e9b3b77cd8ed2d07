"""Spirit Island's seats: each spirit's player adds the fear their powers generate (towns and
cities destroyed among them) and the blight their lands take from their phone, and says "I'm
done" in the Spirit phase so the table sees who is still growing; the Invader Board's steps stay
the table's."""

from __future__ import annotations

from typing import Any

from companion.core.seats import Seat, SeatAction, SeatFigure, SeatRules, own_actions
from companion.i18n import N_

from .texts import SPIRIT_NAME

ACTIONS = (
    SeatAction(N_("+1 fear"), {"cmd": "fear", "amount": 1}),
    SeatAction(N_("Town destroyed (+1 fear)"), {"cmd": "destroy", "piece": "town"}),
    SeatAction(N_("City destroyed (+2 fear)"), {"cmd": "destroy", "piece": "city"}),
    SeatAction(N_("+1 blight"), {"cmd": "blight", "amount": 1}),
)
"""A spirit's buttons: the fear its powers generate and the blight its lands take."""
I_AM_DONE = SeatAction(N_("I'm done (Spirit phase)"), {"cmd": "spirit_done"})
NOT_DONE_YET = SeatAction(N_("Not done yet"), {"cmd": "spirit_done", "done": False})


def seats(view: dict[str, Any]) -> list[Seat]:
    return [Seat(number, SPIRIT_NAME.format(number=number + 1), template=SPIRIT_NAME)
            for number in range(int(view["players"]))]


def moment(view: dict[str, Any]) -> str:
    return f"round {view['round']}, {view['phase']}, {view['step']}"


def actions(view: dict[str, Any], spirit: int) -> list[SeatAction]:
    if view["phase"] != "spirit":
        return list(ACTIONS)
    return [NOT_DONE_YET if spirit in view.get("spirits_done", ()) else I_AM_DONE, *ACTIONS]


def figures(view: dict[str, Any], spirit: int) -> list[SeatFigure]:
    """What the spirit's buttons move: the island's fear and blight (shared by every spirit)."""
    return [SeatFigure(N_("Fear in the pool"), view["fear"]["pool"]),
            SeatFigure(N_("Fear cards earned"), view["fear"]["earned"]),
            SeatFigure(N_("Blight on the card"), view["blight"]["on_card"])]


# The island's fear and blight are shared: those commands name no spirit, the log the seat.
_ISLAND = own_actions({"fear": frozenset({"amount"}), "destroy": frozenset({"piece", "count"}),
                       "blight": frozenset({"amount"})}, player_field=None)
_SPIRIT = own_actions({"spirit_done": frozenset({"done"})}, player_field="spirit")


def command(view: dict[str, Any], spirit: int, request: dict[str, Any]) -> dict[str, Any]:
    if isinstance(request, dict) and request.get("cmd") == "spirit_done":
        return _SPIRIT(view, spirit, request)
    return _ISLAND(view, spirit, request)


SEAT_RULES = SeatRules(seats=seats, command=command, moment=moment, actions=actions,
                       figures=figures)
