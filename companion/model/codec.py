"""The whole game state, hidden cards included, as plain JSON-ready data and back.

Snapshots in the store use this, so that resuming a long game need not replay it from the start.
`state_from_record(state_to_record(s)) == s` for every state.
"""

from __future__ import annotations

from typing import Any

from .cards import DeckEntry
from .state import BlightTrack, FearTrack, GameState, InvaderTrack, Outcome, Setup

RECORD_VERSION = 1


def state_to_record(state: GameState) -> dict[str, Any]:
    setup, track, fear, blight = state.setup, state.invader, state.fear, state.blight
    outcome = state.outcome
    return {
        "v": RECORD_VERSION,
        "setup": {
            "players": setup.players, "mode": setup.mode, "deck": setup.deck,
            "seed": setup.seed, "deck_order": setup.deck_order,
            "fear_split": list(setup.fear_split), "blight_card": setup.blight_card,
            "island_blight": setup.island_blight, "difficulty": setup.difficulty,
            "adversary": setup.adversary, "level": setup.level, "thematic": setup.thematic,
        },
        "round": state.round,
        "phase": state.phase,
        "step": state.step,
        "invader": {
            "deck": [[entry.stage, entry.card] for entry in track.deck],
            "ravage": list(track.ravage), "build": list(track.build),
            "explore": list(track.explore), "discard": list(track.discard),
            "set_aside": list(track.set_aside),
            "revealed_this_step": track.revealed_this_step,
        },
        "fear": {
            "pool_size": fear.pool_size, "generated": fear.generated, "earned": fear.earned,
            "resolved": fear.resolved, "deck": fear.deck, "split": list(fear.split),
        },
        "blight": {
            "card": blight.card, "side": blight.side, "on_card": blight.on_card,
            "on_island": blight.on_island,
        },
        "outcome": None if outcome is None else {
            "result": outcome.result, "reason": outcome.reason, "detail": outcome.detail,
            "score": outcome.score, "dahan": outcome.dahan,
            "blight_on_island": outcome.blight_on_island,
        },
        "ended_in": None if state.ended_in is None else list(state.ended_in),
    }


def state_from_record(record: dict[str, Any]) -> GameState:
    """Rebuild a state; raises ValueError (or KeyError/TypeError) on a record it cannot read."""
    if record.get("v") != RECORD_VERSION:
        raise ValueError(f"unknown state record version {record.get('v')!r}")
    setup = dict(record["setup"])
    setup["fear_split"] = tuple(setup["fear_split"])
    track = record["invader"]
    fear = dict(record["fear"])
    fear["split"] = tuple(fear["split"])
    ended_in = record["ended_in"]
    return GameState(
        setup=Setup(**setup),
        round=record["round"],
        phase=record["phase"],
        step=record["step"],
        invader=InvaderTrack(
            deck=tuple(DeckEntry(stage, card) for stage, card in track["deck"]),
            ravage=tuple(track["ravage"]), build=tuple(track["build"]),
            explore=tuple(track["explore"]), discard=tuple(track["discard"]),
            set_aside=tuple(track["set_aside"]),
            revealed_this_step=track["revealed_this_step"],
        ),
        fear=FearTrack(**fear),
        blight=BlightTrack(**record["blight"]),
        outcome=None if record["outcome"] is None else Outcome(**record["outcome"]),
        ended_in=None if ended_in is None else (ended_in[0], ended_in[1]),
    )
