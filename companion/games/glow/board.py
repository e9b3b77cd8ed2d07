"""The board's markers: the camp on the Realm of Shadows side, the boats on the Sea of Darkness
side (one boat a day, its route paid in trails), moved in the afternoon or put right at any
time."""

from __future__ import annotations

from dataclasses import replace

from companion.core.errors import Refused
from companion.core.phrases import Phrase

from . import commands as c
from . import events as e
from .basics import Events, checked_player, phase_word, set_player
from .dice import trails_for_route
from .state import State


def _board_move(state: State, correction: bool, what: Phrase) -> None:
    """Markers move on the board in the afternoon only, unless a mistake is put right."""
    if state.phase != "afternoon" and not correction:
        raise Refused(Phrase("{what} only in the afternoon; it is the {now} now. To put a "
                             "marker right, send correction: true", what=what,
                             now=phase_word(state.phase)))


def camp(state: State, command: c.Camp) -> tuple[State, Events]:
    player = checked_player(state, command.player)
    if state.setup.board != "realm":
        raise Refused(Phrase("camps are on the Realm of Shadows side; this game is on the Sea of "
                             "Darkness"))
    _board_move(state, command.correction, Phrase("the camp moves"))
    values = state.setup.numbers.village_values
    if command.value != 0 and command.value not in values:
        raise Refused(Phrase("no village is worth {value}; the villages are worth {values} (0: "
                             "the start space)", value=command.value,
                             values=", ".join(map(str, values))))
    events: Events = [e.CampMoved(command.player, command.value)]
    return set_player(state, command.player, replace(player, camp=command.value)), events


def boat(state: State, command: c.Boat) -> tuple[State, Events]:
    player = checked_player(state, command.player)
    if state.setup.board != "sea":
        raise Refused(Phrase("boats sail on the Sea of Darkness side; this game is on the Realm "
                             "of Shadows"))
    _board_move(state, command.correction, Phrase("boats move"))
    if not command.correction and player.boat_moved is not None:
        raise Refused(Phrase("player {player} has moved boat {boat} today already: one boat "
                             "moves a day. Undo to change that move, or send correction: true "
                             "to put a boat right", player=command.player,
                             boat=player.boat_moved))
    islands = len(state.setup.numbers.island_values)
    if command.island >= islands:
        raise Refused(Phrase("there is no island {island}; the islands are 0 (the centre) to "
                             "{last}", island=command.island, last=islands - 1))
    others = [b for k, b in enumerate(player.boats) if k != command.boat]
    if command.island != 0 and command.island in others:
        raise Refused(Phrase("player {player} already has a boat on island {island}; one of "
                             "your own boats per island", player=command.player,
                             island=command.island))
    spent = 0
    if (command.elements is None) != (command.route is None):
        raise Refused(Phrase("to check a route, give both elements (different elements your "
                             "dice show) and route ([n] or [low, high])"))
    if command.elements is not None and command.route is not None:
        cost = trails_for_route(command.elements, command.route, player.trails)
        if cost is None:
            raise Refused(_route_refusal(command.elements, command.route, player.trails))
        spent = cost
    boats = list(player.boats)
    boats[command.boat] = command.island
    moved = player.boat_moved if command.correction else command.boat
    events: Events = [e.BoatMoved(command.player, command.boat, command.island, spent)]
    if spent:
        events.append(e.TokensChanged(command.player, "trails", -spent, player.trails - spent))
    return set_player(state, command.player, replace(
        player, boats=tuple(boats), trails=player.trails - spent, boat_moved=moved)), events


def _route_refusal(elements: int, route: tuple[int, ...], trails: int) -> Phrase:
    demand = "–".join(map(str, route))
    if elements > route[-1]:
        return Phrase("the route asks for exactly {demand} different elements and the dice "
                      "show {elements}; trails cannot take elements away", demand=demand,
                      elements=elements)
    return Phrase("the route asks for {demand} different elements, the dice show {elements}, "
                  "and {needed} trails would be needed, not {trails}", demand=demand,
                  elements=elements, needed=route[0] - elements, trails=trails)
