"""The small pieces every Glow rule shares: the list of events a rule appends to, a player
looked up (refused if there is none), a player or an area replaced in the (never changed) state,
and the refusal of a command outside its phase."""

from __future__ import annotations

from dataclasses import replace

from companion.core.errors import Refused
from companion.core.phrases import Phrase

from . import events as e
from .data import OVER
from .state import Area, Player, State
from .texts import WORDS

Events = list[e.Event]


def checked_player(state: State, i: int) -> Player:
    if i >= len(state.players):
        raise Refused(Phrase("there is no player {player}; the players are 0 to {last}", player=i,
                             last=len(state.players) - 1))
    return state.players[i]


def set_player(state: State, i: int, player: Player) -> State:
    players = list(state.players)
    players[i] = player
    return replace(state, players=tuple(players))


def set_area(state: State, area: int, value: Area) -> State:
    areas = list(state.areas)
    areas[area] = value
    return replace(state, areas=tuple(areas))


def phase_word(phase: str) -> Phrase:
    """A phase's name inside a refusal: "late morning"; the game's end as "over"."""
    return Phrase("over") if phase == OVER else Phrase(WORDS[phase])


def only_in(state: State, phase: str, what: Phrase) -> None:
    if state.phase != phase:
        raise Refused(Phrase("{what} only in the {phase}; it is the {now} now", what=what,
                             phase=phase_word(phase), now=phase_word(state.phase)))
