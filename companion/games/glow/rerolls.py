"""Rerolls: reroll tokens gained and spent (those gained today usable from tomorrow), the score
track's reroll spaces, the Lumipili's daily reroll, and three rerolls that set a die to any
face."""

from __future__ import annotations

from dataclasses import replace

from companion.core.errors import Refused
from companion.core.phrases import Phrase

from . import commands as c
from . import events as e
from .basics import Events, checked_player, only_in, set_player
from .state import Player, State


def track_reroll_target(state: State, i: int) -> int | None:
    """The next reroll space below the player's marker; None when there is none or the player
    has lapped (staying on a reroll space or moving forward never gives a reroll)."""
    player = state.players[i]
    return None if player.lapped else _space_below(state.setup.numbers.reroll_spaces,
                                                   player.score)


def _space_below(spaces: tuple[int, ...], score: int) -> int | None:
    below = [space for space in spaces if space < score]
    return below[-1] if below else None


def track_reroll_costs(state: State, i: int, count: int = 3) -> list[int]:
    """The score after each of the next `count` score-track rerolls (fewer if fewer remain)."""
    # On the score alone, not a new state per step: the view asks this for every player with
    # every tap, and the states cost more than the rest of the player's view.
    if state.players[i].lapped:
        return []
    spaces, score = state.setup.numbers.reroll_spaces, state.players[i].score
    out: list[int] = []
    for _ in range(count):
        target = _space_below(spaces, score)
        if target is None:
            break
        out.append(target)
        score = target
    return out


def rerolls(state: State, command: c.Rerolls) -> tuple[State, Events]:
    player = checked_player(state, command.player)
    if command.amount > 0:
        player = replace(player, reroll_tokens=player.reroll_tokens + command.amount,
                         gained_today=player.gained_today + command.amount)
    else:
        only_in(state, "late_morning", Phrase("reroll tokens are spent"))
        spend = -command.amount
        if spend > player.usable_rerolls:
            raise Refused(_not_usable(command.player, player, spend))
        player = replace(player, reroll_tokens=player.reroll_tokens - spend)
    events: Events = [e.RerollsChanged(command.player, command.amount, player.reroll_tokens,
                                       player.usable_rerolls)]
    return set_player(state, command.player, player), events


def _not_usable(i: int, player: Player, spend: int) -> Phrase:
    waiting: Phrase | str = (Phrase("; {count} gained today can be used from tomorrow",
                                    count=player.gained_today) if player.gained_today else "")
    return Phrase("player {player} can spend {usable} reroll tokens, not {spend}{waiting}",
                  player=i, usable=player.usable_rerolls, spend=spend, waiting=waiting)


def track_reroll(state: State, command: c.TrackReroll) -> tuple[State, Events]:
    only_in(state, "late_morning", Phrase("rerolls are taken"))
    player = checked_player(state, command.player)
    target = track_reroll_target(state, command.player)
    if target is None:
        raise Refused(Phrase("player {player} has passed the end of the score track: no "
                             "score-track reroll", player=command.player) if player.lapped
                      else Phrase("player {player} has no reroll space below their marker: no "
                                  "score-track reroll", player=command.player))
    events: Events = [e.TrackRerolled(command.player, target, player.score - target)]
    return set_player(state, command.player, replace(player, score=target)), events


def _use_lumipili(state: State, i: int, events: Events) -> State:
    player = state.players[i]
    index = next((k for k, comp in enumerate(player.companions)
                  if comp.reroll and not comp.reroll_used), None)
    if index is None:
        raise Refused(Phrase("player {player} has no Lumipili with its reroll left today",
                             player=i))
    companions = list(player.companions)
    companions[index] = replace(companions[index], reroll_used=True)
    events.append(e.LumipiliUsed(i, companions[index].card))
    return set_player(state, i, replace(player, companions=tuple(companions)))


def lumipili(state: State, command: c.Lumipili) -> tuple[State, Events]:
    only_in(state, "late_morning", Phrase("rerolls are taken"))
    checked_player(state, command.player)
    events: Events = []
    return _use_lumipili(state, command.player, events), events


def set_face(state: State, command: c.SetFace) -> tuple[State, Events]:
    """Three rerolls from any mix of sources turn one die to any face."""
    only_in(state, "late_morning", Phrase("rerolls are taken"))
    player = checked_player(state, command.player)
    if command.lumipili + command.tokens + command.track != 3:
        raise Refused(Phrase("setting a die to a face takes exactly 3 rerolls (lumipili + tokens "
                             "+ track), not {count}",
                             count=command.lumipili + command.tokens + command.track))
    if command.tokens > player.usable_rerolls:
        raise Refused(_not_usable(command.player, player, command.tokens))
    events: Events = []
    for _ in range(command.lumipili):
        state = _use_lumipili(state, command.player, events)
    for _ in range(command.track):
        state, more = track_reroll(state, c.TrackReroll(command.player))
        events += more
    player = state.players[command.player]
    state = set_player(state, command.player,
                       replace(player, reroll_tokens=player.reroll_tokens - command.tokens))
    events.append(e.FaceSet(command.player, command.lumipili, command.tokens, command.track))
    return state, events
