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

BLIGHT_EXPANSIONS = ("base", "branch-and-claw", "jagged-earth", "nature-incarnate")

TIMINGS = (
    "each_invader_phase",
    "on_flip",
    "ongoing",
    "each_spirit_phase",
    "on_flip_and_each_invader_phase",
)
"""When a flipped card acts: in every Blighted Island step, once when it flips, as a standing rule
from the next turn on, in every Spirit Phase, or once on the flip and then every Invader Phase."""


@dataclass(frozen=True)
class BlightCard:
    id: str
    name: str
    expansion: str
    """One of BLIGHT_EXPANSIONS."""
    blighted_per_player: int
    """Blight per player put on the card when it flips to its Blighted Island side."""
    effect: str
    """What the flipped side asks of the players, in the project's words."""
    timing: str
    """When the effect applies: one of TIMINGS."""
    still_healthy: bool = False
    """A Still-Healthy Island card: emptying it draws the next blight card instead of losing."""
    reminder_steps: tuple[str, ...] = ()
    """Steps (from notes.REMINDER_STEPS) where a standing effect is worth showing again."""
    retired: bool = False
    """Withdrawn from play by the publisher; kept for reference, left out of the deck."""

    @property
    def acts_every_invader_phase(self) -> bool:
        """Its effect comes back in every Blighted Island step."""
        return self.timing in ("each_invader_phase", "on_flip_and_each_invader_phase")

    @property
    def is_standing_rule(self) -> bool:
        """Its effect is a rule that holds from the flip on, reminded at `reminder_steps`."""
        return self.timing in ("ongoing", "each_spirit_phase")


BLIGHT_CARDS: dict[str, BlightCard] = {
    c.id: c
    for c in (
        # Base game
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
        # Branch & Claw
        BlightCard(
            "a-pall-upon-the-land",
            "A Pall Upon the Land",
            "branch-and-claw",
            3,
            "Every board loses 1 Presence (destroyed) and 1 Town (removed).",
            "on_flip",
        ),
        BlightCard(
            "aid-from-lesser-spirits",
            "Aid from Lesser Spirits",
            "branch-and-claw",
            2,
            "Draw one more Minor Power than there are players and hand one to each Spirit; "
            "discard the leftover. From now on each Spirit may use its card every turn without "
            "paying Energy or spending a Card Play.",
            "on_flip",
            reminder_steps=("play_cards",),
        ),
        BlightCard(
            "back-against-the-wall",
            "Back Against the Wall",
            "branch-and-claw",
            2,
            "In every Spirit Phase, each Spirit gains 1 extra Energy and 1 extra Card Play.",
            "each_spirit_phase",
            reminder_steps=("gain_energy", "play_cards"),
        ),
        BlightCard(
            "disintegrating-ecosystem",
            "Disintegrating Ecosystem",
            "branch-and-claw",
            5,
            "Each board loses 1 Beasts (destroyed); then a land there with Towns or Cities gains "
            "1 Blight.",
            "on_flip",
        ),
        BlightCard(
            "erosion-of-will",
            "Erosion of Will",
            "branch-and-claw",
            3,
            "The players generate 2 Fear each. Every Spirit loses 1 Energy and destroys 1 of its "
            "Presence.",
            "on_flip",
        ),
        BlightCard(
            "promising-farmlands",
            "Promising Farmlands",
            "branch-and-claw",
            4,
            "On every board, pick an Inland land without Towns or Cities and add 1 Town and "
            "1 City there.",
            "on_flip",
        ),
        BlightCard(
            "tipping-point",
            "Tipping Point",
            "branch-and-claw",
            5,
            "Each Spirit destroys 3 of its own Presence.",
            "on_flip",
            retired=True,
        ),
        # Jagged Earth
        BlightCard(
            "all-things-weaken",
            "All Things Weaken",
            "jagged-earth",
            3,
            "From next turn on: Invaders and Dahan have 1 less Health (minimum 1); a land gains "
            "Blight from 1 less Damage than usual; whenever Blight is added to a land, destroy "
            "all Presence and Beasts there, plus 1 Presence in total from one adjacent land.",
            "ongoing",
            reminder_steps=("fast_powers", "ravage", "slow_powers"),
        ),
        BlightCard(
            "invaders-find-the-land-to-their-liking",
            "Invaders Find the Land to Their Liking",
            "jagged-earth",
            2,
            "The Fear Pool grows, so each Fear Card takes more Fear to earn: add 1 marker per "
            "player at Terror Level 1, 1.5 per player (rounded down) at Terror Level 2, or "
            "2 per player at Terror Level 3.",
            "on_flip",
            still_healthy=True,
        ),
        BlightCard(
            "power-corrodes-the-spirit",
            "Power Corrodes the Spirit",
            "jagged-earth",
            4,
            "Every Spirit with 3 or more Power Cards in play, or with a card in play that costs "
            "4 or more Energy, destroys 1 of its Presence.",
            "each_invader_phase",
        ),
        BlightCard(
            "strong-earth-shatters-slowly",
            "Strong Earth Shatters Slowly",
            "jagged-earth",
            2,
            "For each player, move 1 Blight from this card onto a land next to Blight already on "
            "the island.",
            "on_flip",
            still_healthy=True,
        ),
        BlightCard(
            "thriving-communities",
            "Thriving Communities",
            "jagged-earth",
            4,
            "On every board, choose 4 different lands with Explorers or Towns and upgrade one "
            "piece in each (Explorer to Town, or Town to City).",
            "on_flip",
        ),
        BlightCard(
            "unnatural-proliferation",
            "Unnatural Proliferation",
            "jagged-earth",
            3,
            "Each Spirit adds 1 Presence to a land where it already has Presence. On every "
            "board, add 1 Dahan to a land with Dahan, and 2 Cities to the land with the fewest "
            "Towns and Cities among those that have at least one.",
            "on_flip",
        ),
        BlightCard(
            "untended-land-crumbles",
            "Untended Land Crumbles",
            "jagged-earth",
            4,
            "On every board, add 1 Blight to a land next to Blight, unless the Spirits spare "
            "that board by paying 3 Energy between them or destroying 1 Presence on it.",
            "each_invader_phase",
        ),
        # Nature Incarnate
        BlightCard(
            "attenuated-essence",
            "Attenuated Essence",
            "nature-incarnate",
            4,
            "Every Spirit with at least 5 Presence on the island destroys 1 of them.",
            "each_invader_phase",
        ),
        BlightCard(
            "blight-corrodes-the-spirit",
            "Blight Corrodes the Spirit",
            "nature-incarnate",
            4,
            "On every board, destroy 1 Presence in a land that has Blight.",
            "each_invader_phase",
        ),
        BlightCard(
            "burn-brightest-before-the-end",
            "Burn Brightest Before the End",
            "nature-incarnate",
            2,
            "Each Spirit chooses: add 1 Presence to one of its lands, or take 1 Presence off its "
            "tracks and put it with its destroyed Presence.",
            "on_flip",
        ),
        BlightCard(
            "intensifying-exploitation",
            "Intensifying Exploitation",
            "nature-incarnate",
            5,
            "From next turn on, Invaders deal 2 extra Damage in each land where they Ravage.",
            "ongoing",
            reminder_steps=("ravage",),
        ),
        BlightCard(
            "shattered-fragments-of-power",
            "Shattered Fragments of Power",
            "nature-incarnate",
            2,
            "Draw two more Major Powers than there are Spirits; each Spirit takes one and gains "
            "2 Energy, and the two left over are discarded.",
            "on_flip",
        ),
        BlightCard(
            "slow-dissolution-of-will",
            "Slow Dissolution of Will",
            "nature-incarnate",
            3,
            "Right away each Spirit picks Badlands, Beasts or Wilds. In every Invader Phase, each "
            "Spirit swaps 1 of its Presence for that token; the Presence counts as destroyed.",
            "on_flip_and_each_invader_phase",
        ),
        BlightCard(
            "the-border-of-life-and-death",
            "The Border of Life and Death",
            "nature-incarnate",
            1,
            "Right away, and in every Invader Phase until another blight card takes its place: "
            "each Spirit with 2 or more Presence on the island destroys 1 of them and may discard "
            "a Power Card to gain 1 Energy.",
            "on_flip_and_each_invader_phase",
            still_healthy=True,
        ),
        BlightCard(
            "thriving-crops",
            "Thriving Crops",
            "nature-incarnate",
            2,
            "On every board, the Invaders Build in 3 lands; where a land has no Invaders, that "
            "Build usually means adding 1 Town.",
            "on_flip",
            still_healthy=True,
        ),
    )
}

BASE_GAME_BLIGHT_CARDS = tuple(c.id for c in BLIGHT_CARDS.values() if c.expansion == "base")
ACTIVE_BLIGHT_CARDS: tuple[str, ...] = tuple(c.id for c in BLIGHT_CARDS.values() if not c.retired)


def blight_cards_by_expansion(include_retired: bool = False) -> dict[str, list[BlightCard]]:
    """Expansion id -> its cards sorted by name, boxes in BLIGHT_EXPANSIONS order."""
    groups: dict[str, list[BlightCard]] = {}
    for expansion in BLIGHT_EXPANSIONS:
        groups[expansion] = sorted(
            (
                c
                for c in BLIGHT_CARDS.values()
                if c.expansion == expansion and (include_retired or not c.retired)
            ),
            key=lambda c: c.name,
        )
    return groups
