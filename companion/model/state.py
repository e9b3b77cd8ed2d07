"""The tracked state of one game, as immutable values.

A new state is made for every accepted command (`dataclasses.replace`), so keeping the old one
is all undo needs, and two states compare equal exactly when the game is in the same place.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import DeckEntry

# Where each phase's steps come in a round, in order. The setup phase has only the initial
# explore; a finished game sits in phase "over".
ROUND_STEPS: tuple[tuple[str, str], ...] = (
    ("spirit", "growth"),
    ("spirit", "gain_energy"),
    ("spirit", "play_cards"),
    ("fast", "fast_powers"),
    ("invader", "blighted_island"),
    ("invader", "fear"),
    ("invader", "ravage"),
    ("invader", "build"),
    ("invader", "explore"),
    ("invader", "advance"),
    ("slow", "slow_powers"),
    ("time_passes", "time_passes"),
)
SETUP_STEP = ("setup", "initial_explore")
OVER_STEP = ("over", "over")


@dataclass(frozen=True)
class Setup:
    """What the players chose at the start; fixed for the whole game."""

    players: int
    mode: str  # "beginner" | "advanced"
    deck: str  # "virtual" | "physical"
    seed: int
    deck_order: str
    fear_split: tuple[int, ...]
    blight_card: str | None
    island_blight: int
    difficulty: int = 0
    adversary: str | None = None
    level: int | None = None
    thematic: bool = False


@dataclass(frozen=True)
class InvaderTrack:
    deck: tuple[DeckEntry, ...]
    """Cards still in the invader deck, top first."""
    ravage: tuple[str, ...] = ()
    build: tuple[str, ...] = ()
    explore: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    set_aside: tuple[str | None, ...] = ()
    """Cards left out of the deck at setup; None where a physical deck keeps them unseen."""
    revealed_this_step: bool = False


@dataclass(frozen=True)
class FearTrack:
    pool_size: int
    """Markers needed to earn one fear card (4 per player)."""
    generated: int
    earned: int
    resolved: int
    deck: int
    split: tuple[int, ...]
    """Fear cards per terror level, top of the deck first (default 3/3/3)."""

    @property
    def pool(self) -> int:
        return self.pool_size - self.generated

    @property
    def total_cards(self) -> int:
        return sum(self.split)

    @property
    def terror_level(self) -> int:
        """1 + the number of dividers uncovered; 4 once every fear card is earned."""
        taken = self.total_cards - self.deck
        level, boundary = 1, 0
        for size in self.split:
            boundary += size
            if taken >= boundary:
                level += 1
        return min(level, 4)

    @property
    def cards_to_next_level(self) -> int:
        taken = self.total_cards - self.deck
        boundary = 0
        for size in self.split:
            boundary += size
            if taken < boundary:
                return boundary - taken
        return 0


@dataclass(frozen=True)
class BlightTrack:
    card: str | None
    side: str  # "healthy" | "blighted"
    on_card: int
    on_island: int


@dataclass(frozen=True)
class Outcome:
    result: str  # "victory" | "defeat" | "sacrifice"
    reason: str
    detail: str
    score: int | None = None
    dahan: int | None = None
    blight_on_island: int | None = None


@dataclass(frozen=True)
class GameState:
    setup: Setup
    round: int
    phase: str
    step: str
    invader: InvaderTrack
    fear: FearTrack
    blight: BlightTrack
    outcome: Outcome | None = None
    ended_in: tuple[str, str] | None = None
    """The phase and step the game was in when it ended, for the end-of-game screen."""

    @property
    def terror_level(self) -> int:
        return self.fear.terror_level

    @property
    def is_over(self) -> bool:
        return self.outcome is not None
