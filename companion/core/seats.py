"""Seats: each player acting from their own phone on their own things (issue 31).

A game says who sits at its table (`SeatRules.seats`), which of its commands a seat may send
for its own player (`SeatRules.command`) and what moment of the game the table is in
(`SeatRules.moment`); the service plays a seat's command as it plays the table's, in the same
order, logged with the seat's name. Pure: no phone, no token, no HTTP is known here.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..i18n import N_
from .errors import Refused
from .events import Event
from .phrases import Phrase

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
    template: str | None = None
    """Where `label` is the game's words rather than a name: its English template, numbered
    ("Spirit {number}", the player's number from 1), shown in the players' language."""

    def shown(self, translate: Callable[[str], str]) -> str:
        return called(self.label, self.template, self.player + 1, translate)


def called(label: str, template: str | None, number: int | None,
           translate: Callable[[str], str]) -> str:
    """A seat's name in `translate`'s language: a name as written, the game's words translated."""
    if template is None or number is None:
        return label
    return translate(template).format(number=number)


@dataclass(frozen=True)
class SeatAction:
    """One button of a seat's page."""

    label: str
    """In English, translated where it is shown ("+1 fear", "Health −1"); also what the banner
    says the seat did."""
    request: dict[str, Any]
    """What the phone sends for it (`SeatRules.command` makes it the player's command)."""
    values: dict[str, str] = field(default_factory=dict)
    """Names `label` is a template for ("{name} to the graveyard"), shown as written."""

    def shown(self, translate: Callable[[str], str]) -> str:
        return translate(self.label).format(**self.values) if self.values \
            else translate(self.label)


@dataclass(frozen=True)
class SeatFigure:
    """One of a seat's own figures, shown above its buttons ("Health 6")."""

    label: str
    """In English, translated where it is shown."""
    value: int | str


def no_figures(view: dict[str, Any], player: int) -> list[SeatFigure]:
    return []


@dataclass(frozen=True)
class SeatActed(Event):
    """A seat's request was carried out: who ("Ana") and what, as its button says (English)."""

    type: ClassVar[str] = "seat_acted"
    seat: str
    action: str
    seat_template: str | None = None
    """The seat's `Seat.template`, and its number, to say its name in each language."""
    seat_number: int | None = None
    action_template: str | None = None
    """For a button whose label names something (`SeatAction.values`): its template and the
    names, to say it in each language; `action` is it in English."""
    action_values: dict[str, str] | None = None


def seat_lines(events: list[dict[str, Any]],
               words: gettext.NullTranslations) -> list[dict[str, str]]:
    """The banner's line for a seat's action ("Ana: +2 fear"), before the game's own lines:
    the table and the phones say who did it, whatever the game."""
    return [{"kind": SeatActed.type,
             "text": words.gettext(SEAT_LINE).format(
                 seat=called(event["seat"], event.get("seat_template"),
                             event.get("seat_number"), words.gettext),
                 action=words.gettext(event["action_template"]).format(**event["action_values"])
                 if event.get("action_template") else words.gettext(event["action"]))}
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
    figures: Callable[[dict[str, Any], int], list[SeatFigure]] = no_figures
    """Player `int`'s own figures, which their buttons move, for their page."""

    def acted(self, seat: Seat, view: dict[str, Any], request: Any) -> SeatActed:
        """The news that `seat` sent `request`, in the words of its button (its command's name
        for one the page does not offer as a button)."""
        action = next((action for action in self.actions(view, seat.player)
                       if action.request == request), None)
        number = None if seat.template is None else seat.player + 1
        if action is None:
            name = str(request.get("cmd", "")) if isinstance(request, dict) else ""
            return SeatActed(seat.label, name, seat.template, number)
        return SeatActed(seat.label, action.shown(str), seat.template, number,
                         action.label if action.values else None,
                         dict(action.values) if action.values else None)


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
            raise Refused(Phrase("a seat cannot send {name}: it is not this player's own "
                                 "action", name=repr(name)))
        stray = sorted(set(request) - {"cmd"} - allowed[name])
        if stray:
            raise Refused(Phrase("a seat's {name} takes no {fields}", name=name,
                                 fields=", ".join(stray)))
        condition = conditions.get(name)
        why = condition(view, player) if condition is not None else None
        if why is not None:
            raise Refused(why)
        data = dict(request)
        if player_field is not None:
            data[player_field] = player
        return data

    return command
