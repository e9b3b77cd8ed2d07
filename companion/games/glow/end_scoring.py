"""The end of the game: each player's end scoring (what the tracked state suggests, what the
players enter), the tie-break by reroll tokens left, and the ranking."""

from __future__ import annotations

from dataclasses import replace

from companion.core.errors import Refused
from companion.core.phrases import Phrase

from . import commands as c
from . import events as e
from .basics import Events, checked_player, phase_word, set_player
from .data import ADVENTURERS, OVER
from .state import Final, State


def rerolls_needed(state: State) -> tuple[int, ...]:
    """Once everyone is scored: the players level on light shards with someone whose reroll
    tokens the app does not know (scoring mode). The tie-break asks for theirs, and only
    theirs; the ranking waits for them."""
    if any(p.final is None for p in state.players):
        return ()
    totals = [p.final.total for p in state.players if p.final is not None]
    return tuple(i for i, p in enumerate(state.players)
                 if totals.count(totals[i]) > 1 and not p.rerolls_known)


def rank(state: State) -> tuple[tuple[int, ...], ...]:
    """Best first by final score, then by reroll tokens left; still tied players share a rank."""
    def key(i: int) -> tuple[int, int]:
        final = state.players[i].final
        assert final is not None
        return (final.total, state.players[i].reroll_tokens)
    order = sorted(range(len(state.players)), key=lambda i: (-key(i)[0], -key(i)[1], i))
    ranks: list[list[int]] = []
    for i in order:
        if ranks and key(ranks[-1][0]) == key(i):
            ranks[-1].append(i)
        else:
            ranks.append([i])
    return tuple(tuple(group) for group in ranks)


def end_score(state: State, command: c.EndScore) -> tuple[State, Events]:
    if state.phase != OVER:
        raise Refused(Phrase("the end scoring comes after day 8's evening; it is day {day}'s "
                             "{phase} now", day=state.day, phase=phase_word(state.phase)))
    player = checked_player(state, command.player)
    if state.setup.mode == "scoring" and command.score is None and player.final is None:
        raise Refused(Phrase("scoring mode: give the player's score on the track (score) too"))
    track = player.score if command.score is None else command.score
    tokens = player.reroll_tokens if command.reroll_tokens is None else command.reroll_tokens
    known = player.rerolls_known or command.reroll_tokens is not None
    final = Final(track, command.cards, command.board, command.glowworms, command.companions,
                  command.trails)
    lapped = player.lapped or track >= state.setup.numbers.track_length
    state = set_player(state, command.player, replace(
        player, score=track, lapped=lapped, reroll_tokens=tokens, final=final,
        rerolls_known=known))
    events: Events = [e.EndScored(command.player, track, final.cards, final.board, final.bonus,
                                  final.trails, final.total)]
    if all(p.final is not None for p in state.players) and not rerolls_needed(state):
        ranking = rank(state)
        events.append(e.Ranked(ranking))
        return replace(state, ranking=ranking), events
    return replace(state, ranking=None), events


def suggested_end_score(state: State, i: int) -> dict[str, int]:
    """What the tracked state says each end category is (the players confirm or correct)."""
    player = state.players[i]
    adventurer = state.setup.adventurers[i]
    cards = sum(comp.value for comp in player.companions) + (
        ADVENTURERS[adventurer].value if adventurer else 0)
    values = state.setup.numbers.island_values
    board = player.camp if state.setup.board == "realm" else sum(
        values[island] for island in player.boats if island < len(values))
    return {"cards": cards, "board": board, "glowworms": player.glowworms,
            "companions": len(player.companions), "trails": player.trails}
