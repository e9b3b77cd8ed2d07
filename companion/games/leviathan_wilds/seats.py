"""Leviathan Wilds' seats: each player keeps their own guardian's health, corruption, grip,
hand and discard from their phone, and says "my turn is done" when that guardian is active and
has spent its actions; the other steps stay the table's."""

from __future__ import annotations

from typing import Any

from companion.core.errors import Refused
from companion.core.phrases import Phrase
from companion.core.seats import Seat, SeatAction, SeatFigure, SeatRules, own_actions
from companion.i18n import N_

from .texts import WORDS

TURN_DONE = "turn_done"
"""The seat's own name for ending its guardian's activation (the table's `next` in step 2)."""
ACTIVATE = "activate"


def seats(view: dict[str, Any]) -> list[Seat]:
    # A guardian without a character is "Guardian n" in the players' language.
    return [Seat(number, str(guardian["name"]),
                 template=None if guardian.get("character") else WORDS["guardian"])
            for number, guardian in enumerate(view["guardians"])]


def moment(view: dict[str, Any]) -> str:
    return f"round {view['round']}, guardian {view['active'] + 1}, {view['step']}"


_OWN = own_actions({"health": frozenset({"amount"}), "corruption": frozenset({"amount"}),
                    "grip": frozenset({"amount"}), "draw": frozenset({"count"}),
                    "discard": frozenset({"count"})}, player_field="guardian")


def command(view: dict[str, Any], guardian: int, request: dict[str, Any]) -> dict[str, Any]:
    if isinstance(request, dict) and request.get("cmd") == TURN_DONE:
        if set(request) != {"cmd"}:
            raise Refused(Phrase("\"{name}\" from a seat takes no other field", name=TURN_DONE))
        if view["active"] != guardian or view["step"] != ACTIVATE:
            raise Refused(Phrase("only the active guardian ends their turn, while they act "
                                 "(step 2)"))
        return {"cmd": "next", "step": ACTIVATE}
    return _OWN(view, guardian, request)


OWN_ACTIONS = (
    SeatAction(N_("Health +1"), {"cmd": "health", "amount": 1}),
    SeatAction(N_("Health −1"), {"cmd": "health", "amount": -1}),
    SeatAction(N_("Corruption +1"), {"cmd": "corruption", "amount": 1}),
    SeatAction(N_("Corruption −1"), {"cmd": "corruption", "amount": -1}),
    SeatAction(N_("Grip +1"), {"cmd": "grip", "amount": 1}),
    SeatAction(N_("Grip −1"), {"cmd": "grip", "amount": -1}),
    SeatAction(N_("Draw a card"), {"cmd": "draw"}),
    SeatAction(N_("Discard a card"), {"cmd": "discard"}),
)
MY_TURN_IS_DONE = SeatAction(N_("My turn is done"), {"cmd": TURN_DONE})


def actions(view: dict[str, Any], guardian: int) -> list[SeatAction]:
    acting = view["active"] == guardian and view["step"] == ACTIVATE
    return [*OWN_ACTIONS, *([MY_TURN_IS_DONE] if acting else [])]


def figures(view: dict[str, Any], guardian: int) -> list[SeatFigure]:
    """The guardian's health and corruption, and its cards (grip moves discards under the
    deck)."""
    own = view["guardians"][guardian]
    return [SeatFigure(N_("Health"), own["health"]),
            SeatFigure(N_("Corruption"), own["corruption"]),
            SeatFigure(N_("Deck"), own["deck"]), SeatFigure(N_("Hand"), own["hand"]),
            SeatFigure(N_("Discard"), own["discard"])]


SEAT_RULES = SeatRules(seats=seats, command=command, moment=moment, actions=actions,
                       figures=figures)
