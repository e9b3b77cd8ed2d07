"""Blight cards the tracker knows: how much blight each side holds and what the flipped side does.

Ids follow ../shared/data/blight-cards.md. Effects are summarised in the project's own words.
"""

from __future__ import annotations

from dataclasses import dataclass

# Every known card holds 2 blight per player on its Healthy Island side.
HEALTHY_BLIGHT_PER_PLAYER = 2
# Published setup errata: one extra blight on the card at setup, whatever the player count.
SETUP_EXTRA_BLIGHT = 1
# Without a blight card the Invader Board's own blight space holds 5 per player (+1 errata).
BEGINNER_BLIGHT_PER_PLAYER = 5


@dataclass(frozen=True)
class BlightCard:
    id: str
    name: str
    expansion: str
    blighted_per_player: int
    """Blight per player put on the card when it flips to its Blighted Island side."""
    effect: str
    """What the Blighted Island side asks of the players, in the project's words."""
    timing: str
    """When the effect applies: `each_invader_phase` (the Blighted Island step) or `on_flip`."""


BLIGHT_CARDS: dict[str, BlightCard] = {
    c.id: c
    for c in (
        BlightCard(
            "downward-spiral",
            "Downward Spiral",
            "base",
            5,
            "Each Spirit destroys one of its own Presence.",
            "each_invader_phase",
        ),
        BlightCard(
            "memory-fades-to-dust",
            "Memory Fades to Dust",
            "base",
            4,
            "Each Spirit chooses: forget one Power Card, or destroy one of its own Presence.",
            "each_invader_phase",
        ),
    )
}

BASE_GAME_BLIGHT_CARDS = tuple(c.id for c in BLIGHT_CARDS.values() if c.expansion == "base")
