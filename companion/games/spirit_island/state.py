"""The tracked state of one game, as immutable values.

A new state is made for every accepted command (`dataclasses.replace`), so keeping the old one
is all undo needs, and two states compare equal exactly when the game is in the same place.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import DeckEntry

# Where each phase's steps come in a round, in order. Steps a game does not have (no event deck,
# no High Immigration space) are left out as the game goes; the escalation step is entered from
# the explore or advance step when a flagged card was turned over. A finished game sits in
# phase "over".
ROUND_STEPS: tuple[tuple[str, str], ...] = (
    ("spirit", "growth"),
    ("spirit", "gain_energy"),
    ("spirit", "play_cards"),
    ("fast", "fast_powers"),
    ("invader", "blighted_island"),
    ("invader", "event"),
    ("invader", "fear"),
    ("invader", "high_immigration"),
    ("invader", "ravage"),
    ("invader", "build"),
    ("invader", "explore"),
    ("invader", "advance"),
    ("slow", "slow_powers"),
    ("time_passes", "time_passes"),
)
ESCALATION_STEP = ("invader", "escalation")
SETUP_STEP = ("setup", "initial_explore")
OVER_STEP = ("over", "over")
# Steps in which invader cards are turned over.
REVEAL_STEPS = ("explore", "initial_explore", "royal_backing")


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
    scenario: str | None = None
    events: bool = False
    event_deck: int = 0
    """Event cards shuffled at setup (Slave Rebellion not counted)."""
    blight_card_hidden: bool = False
    """The blight card was drawn face down (at random): nobody knows it before it flips."""
    scenario_difficulty: int | None = None
    """The scenario's difficulty as chosen, for a scenario printed with two (Surges of
    Colonization's 7 is its Larger Surges variant); None when the printed one was taken."""


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
    reveals_due: int = 0
    """Cards still to be turned over in this step."""
    high_immigration: tuple[str, ...] | None = None
    """England's extra Build space left of Ravage; None when the game has none (or lost it)."""
    removed: tuple[str | None, ...] = ()
    """Cards put back in the box during the game (None: a physical card nobody looked at)."""
    uncovered: tuple[int, ...] = ()
    """Stages of invader cards uncovered in the fear deck that the players still have to name."""
    escalation_due: bool = False
    """A flagged card came up this round and its escalation has not happened yet."""
    more_escalations: int = 0
    """Further flagged cards turned in the same explore (Surges of Colonization) whose
    escalations follow the first one's, one escalation step each."""
    special_this_step: str | None = None
    """A special card that came up in this step; its effect is shown until the step ends."""
    surged: tuple[str, ...] = ()
    """Surges of Colonization's Final Surge: cards taken for a surge once the deck was empty,
    from the unused Stage III cards or the discard, in the order they were turned."""


@dataclass(frozen=True)
class FearTrack:
    pool_size: int
    """Markers needed to earn one fear card (4 per player)."""
    generated: int
    earned: int
    resolved: int
    groups: tuple[int, ...]
    """Fear cards left in the deck per terror group, top group first."""
    split: tuple[int, ...]
    """Fear cards per terror level at setup (default 3/3/3)."""
    terror_level: int = 1
    """1-3 while playing; 4 once the deck is spent (or the third ritual is done)."""
    discarded: int = 0
    """Earned cards discarded without being resolved."""
    dividers: bool = True
    """False when terror rises only by other means (Rituals of Terror)."""
    card: str | None = None
    """The fear card the players turned over and are resolving now, when they named it."""
    card_level: int | None = None
    """The terror level (1-3) `card` was turned over at: it is resolved at that level even if
    terror rises while it is being resolved."""
    seen: tuple[str, ...] = ()
    """Fear cards named and resolved in this game, in order."""
    resolved_this_round: int = 0
    ritual_at: tuple[int, str] | None = None
    """(round, step) of the last Ritual of Terror: waiting cards are resolved right after it."""
    ritual_cards: int = 0
    """Earned cards the last ritual still has to resolve: those waiting when it was performed.
    A card earned after it waits for the next ritual."""
    hidden_invaders: tuple[tuple[int, int, str | None], ...] = ()
    """(fear cards above it, stage, card) for invader cards hidden in the fear deck."""

    @property
    def pool(self) -> int:
        return self.pool_size - self.generated

    @property
    def deck(self) -> int:
        return sum(self.groups)

    @property
    def total_cards(self) -> int:
        return sum(self.split)

    @property
    def cards_to_next_level(self) -> int:
        if not self.dividers or self.terror_level > len(self.groups):
            return 0
        return self.groups[self.terror_level - 1]


@dataclass(frozen=True)
class EventTrack:
    deck: int
    discard: int = 0
    drawn: int = 0
    slave_rebellion: int | None = None
    """Event cards above Slave Rebellion in the deck (France 2+); None when it is not there."""
    drawn_this_round: tuple[str, ...] = ()
    """What the event step drew this round: "event" or "slave_rebellion" per card."""


@dataclass(frozen=True)
class BlightTrack:
    card: str | None
    side: str  # "healthy" | "still_healthy" | "blighted"
    on_card: int
    on_island: int
    earlier_cards: tuple[str, ...] = ()
    """Still-Healthy Island cards used up before the current one."""
    awaiting_card: bool = False
    """A Still-Healthy card ran out: the players must name the next blight card."""
    owed: int = 0
    """Blight taken while no card was in place; it comes off the next card."""
    on_panel: int = 0
    """France 5+: healed blight waiting on the adversary panel to go back to the card."""


@dataclass(frozen=True)
class Outcome:
    result: str  # "victory" | "defeat" | "sacrifice"
    reason: str
    detail: str
    score: int | None = None
    dahan: int | None = None
    blight_on_island: int | None = None
    bonus: int | None = None


@dataclass(frozen=True)
class GameState:
    setup: Setup
    round: int
    phase: str
    step: str
    invader: InvaderTrack
    fear: FearTrack
    blight: BlightTrack
    events: EventTrack | None = None
    outcome: Outcome | None = None
    ended_in: tuple[str, str] | None = None
    """The phase and step the game was in when it ended, for the end-of-game screen."""
    spirits_done: tuple[int, ...] = ()
    """Spirits (numbered from 0) whose players said they are done with this round's Spirit
    phase, in the order they said it; emptied as the Spirit phase ends."""

    @property
    def terror_level(self) -> int:
        return self.fear.terror_level

    @property
    def is_over(self) -> bool:
        return self.outcome is not None
