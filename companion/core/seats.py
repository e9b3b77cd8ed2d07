"""Seats: each player acting from their own phone on their own things (issue 31).

A game says who sits at its table (`SeatRules.seats`), which of its commands a seat may send
for its own player (`SeatRules.command`) and what moment of the game the table is in
(`SeatRules.moment`); the service plays a seat's command as it plays the table's, in the same
order, logged with the seat's name. Pure: no phone, no token, no HTTP is known here.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..i18n import N_
from .errors import Refused
from .events import Event

SEAT_LINE = N_("{seat}: {action}")
"""The banner's line for a seat's action."""


@dataclass(frozen=True)
class Seat:
    """One player's place at the table, as a phone holds it."""

    player: int
    """The game's number of the player, spirit or guardian the seat acts for (from 0)."""
    label: str
    """What the table calls them ("Spirit 2", "Ana", "Guardian 1"): the log's "by" and the
    banner's name."""
    colour: str | None = None
    """Their colour, where the game gives players one."""


@dataclass(frozen=True)
class SeatAction:
    """One button of a seat's page."""

    label: str
    """In English, translated where it is shown ("+1 fear", "Health −1"); also what the banner
    says the seat did."""
    request: dict[str, Any]
    """What the phone sends for it (`SeatRules.command` makes it the player's command)."""


@dataclass(frozen=True)
class SeatActed(Event):
    """A seat's request was carried out: who ("Ana") and what, as its button says (English)."""

    type: ClassVar[str] = "seat_acted"
    seat: str
    action: str


def seat_lines(events: list[dict[str, Any]],
               words: gettext.NullTranslations) -> list[dict[str, str]]:
    """The banner's line for a seat's action ("Ana: +2 fear"), before the game's own lines:
    the table and the phones say who did it, whatever the game."""
    return [{"kind": SeatActed.type,
             "text": words.gettext(SEAT_LINE).format(
                 seat=event["seat"], action=words.gettext(event["action"]))}
            for event in events if event.get("type") == SeatActed.type]


@dataclass(frozen=True)
class SeatRules:
    """What a game's seats are and may do. All three read the state as the game's `view`
    shows it (the same the table and the phones see)."""

    seats: Callable[[dict[str, Any]], list[Seat]]
    """Who sits at the table now, in the game's order."""
    command: Callable[[dict[str, Any], int, dict[str, Any]], dict[str, Any]]
    """A seat's request (`cmd` and its fields, no player) for player `int`, as the command it
    stands for, or Refused in players' words when it is not that player's own to send now."""
    moment: Callable[[dict[str, Any]], str]
    """The moment of play (round, phase, step, whose turn): a seat's command made in another
    moment is refused, since what the player saw is gone."""
    actions: Callable[[dict[str, Any], int], list[SeatAction]]
    """The buttons player `int`'s page offers now, in order."""

    def action_label(self, view: dict[str, Any], player: int, request: Any) -> str:
        """What the request does in the words of its button (English), or its command's name
        for one the page does not offer as a button."""
        for action in self.actions(view, player):
            if action.request == request:
                return action.label
        return str(request.get("cmd", "")) if isinstance(request, dict) else ""


def own_actions(allowed: Mapping[str, frozenset[str]], player_field: str | None,
                when: Mapping[str, Callable[[dict[str, Any], int], str | None]] | None = None,
                ) -> Callable[[dict[str, Any], int, dict[str, Any]], dict[str, Any]]:
    """`SeatRules.command` for a game whose seat actions are some of its commands with some
    of their fields, the player named in `player_field` (None: the command names no player),
    and where `when[cmd](view, player)` says why that command cannot be sent now (or None)."""
    conditions = when or {}

    def command(view: dict[str, Any], player: int, request: dict[str, Any]) -> dict[str, Any]:
        name = request.get("cmd") if isinstance(request, dict) else None
        if not isinstance(name, str) or name not in allowed:
            raise Refused(f"a seat can send {', '.join(sorted(allowed))}, not {name!r}")
        stray = sorted(set(request) - {"cmd"} - allowed[name])
        if stray:
            raise Refused(f"a seat's {name} takes no {', '.join(stray)}")
        condition = conditions.get(name)
        why = condition(view, player) if condition is not None else None
        if why is not None:
            raise Refused(why)
        data = dict(request)
        if player_field is not None:
            data[player_field] = player
        return data

    return command
