"""The tracked state of one Leviathan Wilds game, as immutable values.

Every accepted command makes a new state (`dataclasses.replace`), so keeping the old one is all
undo needs. Guardians are numbered 0.. in clockwise seating order; crystals 0.. as entered.
"""

from __future__ import annotations

from dataclasses import dataclass

STEPS = ("reveal", "activate", "resolve", "draw")
OVER = "over"


@dataclass(frozen=True)
class Numbers:
    """The numbers this game plays with: numbers.toml's, or the players' corrections."""

    wrath_wild_counts: tuple[int, ...]
    wrath_start: int
    health_start: int
    corruption_start: int
    health_max: int
    corruption_max: int
    deck_size: int
    """Cards in each grip pile before the opening hands are drawn."""
    solo_rest_grip: int


@dataclass(frozen=True)
class GuardianSetup:
    character: str | None = None
    guardian_class: str | None = None


@dataclass(frozen=True)
class Setup:
    """What the players chose at the start; fixed for the whole game."""

    leviathan: int
    difficulty: str
    players: int
    """As asked: 1 means solo, one person running two guardians."""
    seed: int
    guardians: tuple[GuardianSetup, ...]
    start_guardian: int
    numbers: Numbers

    @property
    def solo(self) -> bool:
        return self.players == 1


@dataclass(frozen=True)
class ThreatSlot:
    face_up: bool = False
    wild: bool = False
    card: str | None = None
    """The threat card's tag id once the players name it; face-down cards are unknown."""


@dataclass(frozen=True)
class Crystal:
    dice: tuple[int, ...]
    """Dice left, struck first to last; empty once shattered."""
    corrupted: bool
    start: tuple[int, ...]
    """The dice as put out, so a screen can show a giant crystal as giant to the end."""

    @property
    def shattered(self) -> bool:
        return not self.dice

    @property
    def giant(self) -> bool:
        return len(self.start) > 1


@dataclass(frozen=True)
class Pile:
    """A grip pile: the cards in the deck (the grip) and on the discard pile. Solo's two
    guardians share one."""

    deck: int
    discard: int


@dataclass(frozen=True)
class ApCard:
    ap: int
    protections: tuple[str, ...] = ()
    from_hand: bool = True
    """False for the 2 AP an empty hand gives: no card goes to the discard afterwards."""


@dataclass(frozen=True)
class Guardian:
    pile: int
    """Index into State.piles."""
    hand: int
    health: int
    corruption: int
    defeated: bool = False
    falling: bool = False
    focus_ready: bool = False
    weaknesses: tuple[str | None, ...] = ()
    """Weakness cards held; None for one drawn but not named."""
    ap_card: ApCard | None = None
    """The AP card in the slot during this guardian's activation."""
    ap_left: int = 0


@dataclass(frozen=True)
class WinCondition:
    label: str
    met: bool = False


@dataclass(frozen=True)
class Outcome:
    result: str  # "win" | "loss"
    reason: str


@dataclass(frozen=True)
class State:
    setup: Setup
    round: int
    step: str
    """One of STEPS, or OVER once the game has ended."""
    active: int
    row: tuple[ThreatSlot, ...]
    revealed_slot: int | None
    """The slot turned over this turn; None before the reveal."""
    wrath: int
    """The wrath marker's space on the track, 0 = leftmost."""
    guardians: tuple[Guardian, ...]
    piles: tuple[Pile, ...]
    crystals: tuple[Crystal, ...]
    win_conditions: tuple[WinCondition, ...] = ()
    counters: tuple[tuple[str, int], ...] = ()
    """Leviathan-specific counters (frost, relics, heat ...), by name."""
    weakness_deck: int = 12
    last_chance: tuple[int, ...] | None = None
    """After the first defeat: the guardians still owed their one last turn, in turn order."""
    outcome: Outcome | None = None

    def pile_of(self, guardian: int) -> Pile:
        return self.piles[self.guardians[guardian].pile]

    @property
    def next_slot(self) -> int | None:
        """The leftmost face-down threat: the one the next reveal turns over."""
        return next((i for i, slot in enumerate(self.row) if not slot.face_up), None)

    @property
    def crystals_left(self) -> int:
        return sum(not c.shattered for c in self.crystals)
