"""The counters the players move by hand: light shards on the score track (with its laps),
glowworm and trail tokens, and spell tiles."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from companion.core.errors import Refused
from companion.core.phrases import Phrase

from . import commands as c
from . import events as e
from .basics import Events, checked_player, set_player
from .state import State


def move_score(state: State, i: int, amount: int, events: Events) -> State:
    """Shards move the marker at once; it never goes below space 0, and passing the track's
    end is a lap: from then on no score-track rerolls."""
    player = state.players[i]
    score = max(0, player.score + amount)
    lapped = player.lapped or score >= state.setup.numbers.track_length
    events.append(e.ScoreChanged(i, score - player.score, score, lapped))
    return set_player(state, i, replace(player, score=score, lapped=lapped))


def score(state: State, command: c.Score) -> tuple[State, Events]:
    checked_player(state, command.player)
    events: Events = []
    return move_score(state, command.player, command.amount, events), events


def change_tokens(kind: str) -> Callable[[State, Any], tuple[State, Events]]:
    def change(state: State, command: c.Glowworms | c.Trails) -> tuple[State, Events]:
        player = checked_player(state, command.player)
        value = getattr(player, "glowworm_tokens" if kind == "glowworms" else "trails")
        if value + command.amount < 0:
            raise Refused(Phrase("player {player} has {kind} worth {value}; {amount} cannot be "
                                 "given back", player=command.player,
                                 kind=Phrase("glowworms") if kind == "glowworms"
                                 else Phrase("trails"), value=value, amount=-command.amount))
        field = "glowworm_tokens" if kind == "glowworms" else "trails"
        state = set_player(state, command.player,
                           replace(player, **{field: value + command.amount}))
        return state, [e.TokensChanged(command.player, kind, command.amount,
                                       value + command.amount)]
    return change


def spell(state: State, command: c.Spell) -> tuple[State, Events]:
    player = checked_player(state, command.player)
    if command.amount > state.spell_stack:
        raise Refused(Phrase("only {count} spell tiles are left in the stack",
                             count=state.spell_stack))
    if player.spells + command.amount < 0:
        raise Refused(Phrase("player {player} holds {count} spell tiles", player=command.player,
                             count=player.spells))
    stack = state.spell_stack - max(0, command.amount)  # used or broken ones go to the box
    player = replace(player, spells=player.spells + command.amount)
    events: Events = [e.SpellsChanged(command.player, player.spells, stack)]
    return replace(set_player(state, command.player, player), spell_stack=stack), events
