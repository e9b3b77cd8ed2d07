"""Everything a setup screen or a picker lists, as plain data: adversaries, scenarios, cards."""

from __future__ import annotations

from typing import Any

from .adversaries import ADVERSARIES
from .blight_cards import blight_cards_by_expansion
from .cards import ALL_CARDS
from .fear_cards import EXPANSION_NAMES, fear_cards_by_expansion
from .scenarios import SCENARIOS


def catalogue() -> dict[str, Any]:
    return {
        "expansions": dict(EXPANSION_NAMES),
        "adversaries": [
            {
                "id": adversary.id,
                "name": adversary.name,
                "expansion": adversary.expansion,
                "loss_condition": adversary.loss_condition,
                "escalation": adversary.escalation,
                "escalation_timing": adversary.escalation_timing,
                "levels": [
                    {"level": number, "difficulty": level.difficulty,
                     "fear_split": list(level.fear_split), "deck_order": level.deck_order}
                    for number, level in enumerate(adversary.levels)
                ],
            }
            for adversary in ADVERSARIES.values()
        ],
        "scenarios": [
            {"id": s.id, "name": s.name, "expansion": s.expansion, "difficulty": s.difficulty,
             "difficulty_choices": [s.difficulty, *s.difficulty_choices],
             "loss_condition": s.loss_condition}
            for s in SCENARIOS.values()
        ],
        "blight_cards": {
            expansion: [
                {"id": card.id, "name": card.name, "still_healthy": card.still_healthy,
                 "blighted_per_player": card.blighted_per_player, "timing": card.timing,
                 "effect": card.effect}
                for card in cards
            ]
            for expansion, cards in blight_cards_by_expansion().items()
        },
        "fear_cards": {
            expansion: [
                {"id": card.id, "name": card.name, "effects": list(card.effects)}
                for card in cards
            ]
            for expansion, cards in fear_cards_by_expansion().items()
        },
        "invader_cards": [
            {"id": card.id, "name": card.name, "stage": card.stage,
             "terrains": list(card.terrains), "escalation": card.escalation}
            for card in ALL_CARDS.values()
        ],
    }
