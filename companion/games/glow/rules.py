"""The rules of the day: `start` sets a game up, `decide` answers every command after that.

Both are pure: same input, same answer; a refused command (`Refused`) changes nothing, because
nothing is ever changed in place. A day is morning → late morning → noon → afternoon → evening;
the evening that finds the deck empty (day 8's) ends the game, and the end scoring follows.

Each command's rule lives with its concern: the day's course (`day`), the encounter track's
areas (`encounter`), the companions (`companions`), rerolls (`rerolls`), the board's markers
(`board`), the hand-moved counters (`counters`) and the end (`end_scoring`); `basics` holds
what they all share.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from companion.core.commands import outside_the_rules
from companion.core.errors import Refused
from companion.core.phrases import Phrase

from . import commands as c
from . import events as e
from .basics import Events
from .board import boat, camp
from .companions import companion
from .counters import change_tokens, score, spell
from .data import (
    BOATS,
    DECK,
    ISLAND_VALUES,
    LARGE_DICE_SUPPLY,
    OVER,
    REROLL_SPACES,
    ROW,
    SPELLS,
    START_REROLLS,
    START_SCORE,
    TRACK_LENGTH,
    VILLAGE_VALUES,
)
from .day import next_phase
from .encounter import area_dice, discard, pick
from .end_scoring import end_score
from .rerolls import lumipili, rerolls, set_face, track_reroll
from .state import Area, Numbers, Player, Setup, State

# --- starting a game ------------------------------------------------------------------------------


def _numbers(command: c.NewGame) -> Numbers:
    length = command.track_length or TRACK_LENGTH
    spaces = command.reroll_spaces if command.reroll_spaces is not None else REROLL_SPACES
    if spaces and spaces[-1] >= length:
        raise Refused(Phrase("a reroll space {space} lies beyond a score track of {length} "
                             "spaces (0 to {last})", space=spaces[-1], length=length,
                             last=length - 1))
    return Numbers(length, spaces, command.village_values or VILLAGE_VALUES,
                   command.island_values or ISLAND_VALUES)


def _per_player(command: c.NewGame, key: str, values: tuple[str, ...]) -> tuple[str | None, ...]:
    if len(values) > command.players:
        raise Refused(Phrase("{count} {key} were given for {players} players", count=len(values),
                             key=key, players=command.players))
    return (*values, *(None,) * (command.players - len(values)))


def start(command: c.NewGame, seed: int) -> tuple[State, Events]:
    """Set up a game (digest section 3): everyone on 10, two reroll tokens to the player right
    of the start player, 35 cards left after the first row, and stop at day 1's morning. In
    scoring mode the game is over at once, waiting for the end scores."""
    players = command.players
    first = command.start_player
    if first is None:
        first = random.Random(seed).randrange(players)
    elif first >= players:
        raise Refused(Phrase("there is no player {player} to start; the players are 0 to {last}",
                             player=first, last=players - 1))
    adventurers = _per_player(command, "adventurers", command.adventurers)
    taken = [a for a in adventurers if a is not None]
    if len(set(taken)) != len(taken):
        raise Refused(Phrase("each adventurer can be played by one player only"))
    numbers = _numbers(command)
    setup = Setup(players, command.board, command.mode, seed, first,
                  _per_player(command, "names", command.names),
                  _per_player(command, "colours", command.colours), adventurers, numbers)
    last = (first - 1) % players
    boats = (0,) * BOATS if command.board == "sea" else ()
    # In scoring mode the game was played without the app: its reroll tokens are unknown
    # until entered (the setup's count stays in the field, as the contract recorded it).
    known = command.mode != "scoring"
    roster = tuple(
        Player(score=START_SCORE, reroll_tokens=START_REROLLS if i == last else 0, boats=boats,
               rerolls_known=known)
        for i in range(players))
    events: Events = [e.GameStarted(players, command.board, command.mode, first, seed)]
    if command.mode == "scoring":
        state = State(setup=setup, day=8, phase=OVER, start_player=first, deck_count=0,
                      players=roster, areas=(), supply=LARGE_DICE_SUPPLY, spell_stack=SPELLS)
        events.append(e.GameOver(8))
        return state, events
    state = State(setup=setup, day=1, phase="morning", start_player=first,
                  deck_count=DECK - ROW, players=roster,
                  areas=tuple(Area(companion=True) for _ in range(ROW)),
                  supply=LARGE_DICE_SUPPLY, spell_stack=SPELLS)
    events.append(e.PhaseStarted(1, "morning", first))
    return state, events


# --- deciding -----------------------------------------------------------------------------------


def _running(state: State) -> None:
    if state.phase == OVER:
        raise Refused(Phrase("the game is over: only the end scores (end_score) can be entered "
                             "now"))


Handler = Callable[[State, Any], tuple[State, Events]]

HANDLERS: dict[type[c.Command], Handler] = {
    c.Next: next_phase,
    c.Score: score,
    c.Rerolls: rerolls,
    c.Glowworms: change_tokens("glowworms"),
    c.Trails: change_tokens("trails"),
    c.Pick: pick,
    c.Discard: discard,
    c.AreaDice: area_dice,
    c.TrackReroll: track_reroll,
    c.Lumipili: lumipili,
    c.SetFace: set_face,
    c.CompanionCard: companion,
    c.Camp: camp,
    c.Boat: boat,
    c.Spell: spell,
}


def decide(state: State, command: c.Command) -> tuple[State, Events]:
    """The state after `command`, and what happened; `Refused` if it cannot be done."""
    if outside_the_rules(command, c.NewGame):
        return state, []
    if isinstance(command, c.EndScore):
        return end_score(state, command)
    if not isinstance(command, c.Next):
        _running(state)
    handler = HANDLERS.get(type(command))
    if handler is None:
        raise Refused(Phrase("'{command}' is not a Glow command", command=command.name))
    return handler(state, command)
