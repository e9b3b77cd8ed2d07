"""The companions in a player's row: one added (recruited, fetched back from the graveyard, or
put right) with its Sketal die and Kaar's black die, one sent to the graveyard, and the
`companion` command that does either."""

from __future__ import annotations

from dataclasses import replace

from companion.core.errors import Refused
from companion.core.phrases import Phrase

from . import commands as c
from . import events as e
from .basics import Events, checked_player, set_player
from .data import COMPANIONS, LARGE_DICE_SUPPLY
from .state import Companion, State


def add_companion(state: State, i: int, card: str, events: Events, value: int | None = None,
                  glowworms: int | None = None, die: str | None = None) -> State:
    for holder, other in enumerate(state.players):
        if any(comp.card == card for comp in other.companions):
            raise Refused(Phrase("{card} ({name}) is already in player {holder}'s row", card=card,
                                 name=COMPANIONS[card].name, holder=holder))
    data = COMPANIONS[card]
    if die is not None and data.sketal != "any":
        raise Refused(Phrase("only the many-coloured Sketal chooses its die; {card} is {name}",
                             card=card, name=data.name))
    taken: str | None = None
    if data.sketal is not None:
        wanted = data.sketal if data.sketal != "any" else die
        if wanted is None:
            taken = state.supply[0] if state.supply else None
        elif wanted in state.supply:
            taken = wanted
        supply = list(state.supply)
        if taken is not None:
            supply.remove(taken)
        state = replace(state, supply=tuple(supply))
    brings_black = data.black_die and not state.black_die
    if data.black_die:  # Kaar's owner is whoever holds Kaar now (a fetched Kaar changes hands)
        state = replace(state, black_die=True, kaar_owner=i)
    companion = Companion(card, data.value if value is None else value,
                          data.glowworms if glowworms is None else glowworms, data.reroll,
                          sketal_die=taken)
    graveyard = list(state.graveyard)
    if card in graveyard:  # fetched back (Cromaug)
        graveyard.remove(card)
    state = replace(state, graveyard=tuple(graveyard))
    player = state.players[i]
    events.append(e.CompanionAdded(i, card, taken, brings_black))
    return set_player(state, i, replace(player, companions=player.companions + (companion,)))


def _remove_companion(state: State, i: int, card: str, events: Events) -> State:
    player = state.players[i]
    found = next((comp for comp in player.companions if comp.card == card), None)
    if found is None:
        raise Refused(Phrase("player {player} has no {card} ({name}) in play", player=i,
                             card=card, name=COMPANIONS[card].name))
    supply = state.supply
    if found.sketal_die is not None:
        supply = tuple(d for d in LARGE_DICE_SUPPLY if d in supply or d == found.sketal_die)
    events.append(e.CompanionRemoved(i, card, found.sketal_die))
    # The black die stays in play, but a Kaar in the graveyard protects nobody.
    owner = None if COMPANIONS[card].black_die else state.kaar_owner
    state = replace(state, supply=supply, graveyard=state.graveyard + (card,), kaar_owner=owner)
    return set_player(state, i, replace(
        player, companions=tuple(comp for comp in player.companions if comp is not found)))


def companion(state: State, command: c.CompanionCard) -> tuple[State, Events]:
    checked_player(state, command.player)
    events: Events = []
    if command.remove:
        if (command.value, command.glowworms, command.die) != (None, None, None):
            raise Refused(Phrase("a companion sent to the graveyard takes no value, glowworms or "
                                 "die"))
        return _remove_companion(state, command.player, command.card, events), events
    return add_companion(state, command.player, command.card, events, command.value,
                         command.glowworms, command.die), events
