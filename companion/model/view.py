"""The state as players and other programs see it: a plain dict, ready for JSON or a screen.

Cards still in a virtual deck and cards set aside stay hidden, as they are face down at the table.
"""

from __future__ import annotations

from typing import Any

from .adversaries import ADVERSARIES
from .blight_cards import BLIGHT_CARDS
from .cards import INVADER_CARDS
from .game import awaiting_reveal, candidates
from .state import GameState
from .texts import AWAITING_REVEAL_PROMPT, STEP_PROMPTS, VICTORY_CONDITIONS, stage_name


def state_view(state: GameState) -> dict[str, Any]:
    setup, fear, track, blight = state.setup, state.fear, state.invader, state.blight
    awaiting = awaiting_reveal(state)
    card = BLIGHT_CARDS.get(blight.card or "")
    return {
        "round": state.round,
        "phase": state.phase,
        "step": state.step,
        "players": setup.players,
        "mode": setup.mode,
        "deck_mode": setup.deck,
        "seed": setup.seed,
        "difficulty": setup.difficulty,
        "adversary": _adversary_view(state),
        "scenario": None,
        "thematic": setup.thematic,
        "terror_level": state.terror_level,
        "victory_condition": VICTORY_CONDITIONS[state.terror_level],
        "fear": {
            "pool": fear.pool,
            "generated": fear.generated,
            "earned": fear.earned,
            "resolved": fear.resolved,
            "deck": fear.deck,
            "pool_size": fear.pool_size,
            "split": list(fear.split),
            "cards_to_next_terror_level": fear.cards_to_next_level,
        },
        "invader": {
            "deck_count": len(track.deck),
            "deck_stages": [entry.stage for entry in track.deck],
            "ravage": list(track.ravage),
            "build": list(track.build),
            "explore": list(track.explore),
            "discard": list(track.discard),
            "set_aside": len(track.set_aside),
            "deck_order": setup.deck_order,
            "awaiting_reveal": awaiting,
            "candidates": candidates(state) if awaiting else [],
        },
        "blight": {
            "card": blight.card,
            "side": blight.side,
            "on_card": blight.on_card,
            "on_island": blight.on_island,
            "name": card.name if card else None,
            "effect": card.effect if card and blight.side == "blighted" else None,
        },
        "prompt": prompt(state),
        "outcome": _outcome_view(state),
    }


def _adversary_view(state: GameState) -> dict[str, Any] | None:
    setup = state.setup
    if setup.adversary is None:
        return None
    adversary = ADVERSARIES[setup.adversary]
    return {
        "id": adversary.id,
        "level": setup.level,
        "name": adversary.name,
        "loss_condition": adversary.loss_condition,
        "escalation": adversary.escalation,
    }


def _terrains(cards: tuple[str, ...]) -> str:
    return " and ".join(INVADER_CARDS[card].name for card in cards) or "no land"


def prompt(state: GameState) -> str:
    """What the players should do now, in a sentence or three."""
    if state.outcome is not None:
        return state.outcome.detail
    if awaiting_reveal(state):
        return AWAITING_REVEAL_PROMPT.format(stage=stage_name(state.invader.deck[0].stage))
    template = STEP_PROMPTS[state.step]
    slot = {"ravage": state.invader.ravage, "build": state.invader.build}.get(
        state.step, state.invader.explore)
    card = BLIGHT_CARDS.get(state.blight.card or "")
    return template.format(
        terrains=_terrains(slot),
        effect=card.effect if card else "",
        terror_level=state.terror_level,
        waiting=state.fear.earned,
    )


def _outcome_view(state: GameState) -> dict[str, Any] | None:
    outcome = state.outcome
    if outcome is None:
        return None
    return {
        "result": outcome.result,
        "reason": outcome.reason,
        "detail": outcome.detail,
        "score": outcome.score,
        "dahan": outcome.dahan,
        "blight_on_island": outcome.blight_on_island,
        "round": state.round,
    }
