"""The day's course: a day is morning → late morning → noon → afternoon → evening. Finishing a
phase (`next`) begins the next one; the morning's end sends unrecruited companions to the
graveyard, and the evening lays out the next row and passes the start marker, or ends the game
once the deck is empty (day 8's evening)."""

from __future__ import annotations

from dataclasses import replace

from companion.core.errors import Refused
from companion.core.phrases import Phrase

from . import commands as c
from . import events as e
from .basics import Events, phase_word
from .data import OVER, PHASES, ROW
from .state import Area, State


def _begin(state: State, phase: str, events: Events) -> State:
    events.append(e.PhaseStarted(state.day, phase, state.start_player))
    return replace(state, phase=phase, dice_entered=False)


def _end_morning(state: State, events: Events) -> State:
    """Companions nobody recruited go to the graveyard; their dice and trails stay."""
    left = [(a, area.card) for a, area in enumerate(state.areas) if area.companion]
    if left:
        events.append(e.SentToGraveyard(tuple(a + 1 for a, _ in left),
                                        tuple(card for _, card in left)))
    areas = tuple(replace(area, companion=False, card=None) for area in state.areas)
    return replace(state, areas=areas,
                   graveyard=state.graveyard + tuple(card for _, card in left))


def _end_evening(state: State, events: Events) -> State:
    """Deck empty: the game ends. Otherwise lay out the next row, a trail token on every area
    holding no die, pass the start marker left, and begin the next day."""
    if state.deck_count == 0:
        events.append(e.GameOver(state.day))
        return replace(state, phase=OVER, dice_entered=False, picked=(), discarded=False)
    deck = state.deck_count - ROW
    if state.dice_entered:
        trailed = tuple(a for a, area in enumerate(state.areas) if area.dice == 0)
        areas = tuple(Area(True, None, area.dice, area.trails + (a in trailed))
                      for a, area in enumerate(state.areas))
    else:  # the returned dice were not entered: the track's dice are unknown now
        trailed = ()
        areas = tuple(Area(True, None, None, area.trails) for area in state.areas)
    events.append(e.RowLaidOut(deck, tuple(a + 1 for a in trailed)))
    start_player = (state.start_player + 1) % len(state.players)
    events.append(e.StartMarkerPassed(start_player))
    players = tuple(
        replace(p, gained_today=0, boat_moved=None,
                companions=tuple(replace(comp, reroll_used=False) for comp in p.companions))
        for p in state.players)
    state = replace(state, day=state.day + 1, deck_count=deck, areas=areas, players=players,
                    start_player=start_player, picked=(), discarded=False)
    return _begin(state, "morning", events)


def next_phase(state: State, command: c.Next) -> tuple[State, Events]:
    if command.phase is not None and command.phase != state.phase:
        # A second tap on Done, meant for a phase already finished: refused, so that it is
        # neither logged nor undone.
        raise Refused(Phrase("this was meant to finish the {phase}, but it is the {now} already; "
                             "nothing was changed", phase=phase_word(command.phase),
                             now=phase_word(state.phase)))
    if state.phase == OVER:
        raise Refused(Phrase("the game is over: enter each player's end score"))
    # Noon and afternoon end on a plain `next` too: the contract (issue 19) says `next`
    # finishes the phase, so "nothing forgotten?" is the screen's to ask before it sends one,
    # and `confirm` is accepted and ignored (issue 25).
    events: Events = []
    if state.phase == "morning":
        state = _end_morning(state, events)
    if state.phase == "evening":
        return _end_evening(state, events), events
    return _begin(state, PHASES[state.phase_index + 1], events), events
