"""What happened, as the game tells it: one small frozen record per change worth announcing.

Screens announce them, the driver prints them; `to_dict` gives the JSON form with a `type`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.core.events import Event


@dataclass(frozen=True)
class GameStarted(Event):
    type: ClassVar[str] = "game_started"
    players: int
    mode: str
    deck: str
    blight_card: str | None
    seed: int


@dataclass(frozen=True)
class RoundStarted(Event):
    type: ClassVar[str] = "round_started"
    round: int


@dataclass(frozen=True)
class StepStarted(Event):
    type: ClassVar[str] = "step_started"
    round: int
    phase: str
    step: str


@dataclass(frozen=True)
class StepSkipped(Event):
    type: ClassVar[str] = "step_skipped"
    step: str
    why: str


@dataclass(frozen=True)
class InvaderCardRevealed(Event):
    type: ClassVar[str] = "invader_card_revealed"
    card: str
    stage: int
    terrains: tuple[str, ...]
    escalation: bool
    deck_left: int
    forced: bool = False
    slot: str = "explore"
    """Where the card went: the Explore space, the discard (Royal Backing) or Build."""


@dataclass(frozen=True)
class LastInvaderCard(Event):
    """One card is left in the invader deck: the explore after next runs out of time."""

    type: ClassVar[str] = "last_invader_card"
    deck_left: int = 1


@dataclass(frozen=True)
class InvaderDeckEmpty(Event):
    """The deck is empty: the next time a card must be revealed, the players lose."""

    type: ClassVar[str] = "invader_deck_empty"


@dataclass(frozen=True)
class InvaderCardsAdvanced(Event):
    type: ClassVar[str] = "invader_cards_advanced"
    discarded: tuple[str, ...]
    ravage: tuple[str, ...]
    build: tuple[str, ...]
    high_immigration: tuple[str, ...] | None = None


@dataclass(frozen=True)
class HighImmigrationRemoved(Event):
    """England level 3: a Stage II card reached the space, which leaves the game with it."""

    type: ClassVar[str] = "high_immigration_removed"
    discarded: tuple[str, ...]


@dataclass(frozen=True)
class SpecialCardRevealed(Event):
    """A card that is not an invader card came up; its effect happens, then the next card."""

    type: ClassVar[str] = "special_card_revealed"
    card: str
    name: str
    effect: str


@dataclass(frozen=True)
class InvaderCardUncovered(Event):
    """An invader card hidden in the fear deck came up; it goes to the Build space."""

    type: ClassVar[str] = "invader_card_uncovered"
    stage: int
    card: str | None
    """None until the players say which card it is (a physical deck)."""


@dataclass(frozen=True)
class CardMoved(Event):
    type: ClassVar[str] = "card_moved"
    card: str | None
    source: str
    destination: str


@dataclass(frozen=True)
class EventCardDrawn(Event):
    type: ClassVar[str] = "event_card_drawn"
    card: str
    """"event" for a card of the shuffled deck, "slave_rebellion" for France's own card."""
    resolved: bool
    """False in the first round: the card is drawn and discarded unresolved."""
    deck_left: int


@dataclass(frozen=True)
class EventDeckReshuffled(Event):
    type: ClassVar[str] = "event_deck_reshuffled"
    deck: int


@dataclass(frozen=True)
class FearGenerated(Event):
    type: ClassVar[str] = "fear_generated"
    amount: int
    pool: int
    generated: int


@dataclass(frozen=True)
class PiecesDestroyed(Event):
    type: ClassVar[str] = "pieces_destroyed"
    piece: str
    count: int
    fear: int


@dataclass(frozen=True)
class SpiritDone(Event):
    """A spirit's player said they are done with the Spirit phase (or, `done` false, not yet);
    `still` is who is still growing."""

    type: ClassVar[str] = "spirit_done"
    spirit: int
    done: bool
    still: tuple[int, ...]


@dataclass(frozen=True)
class FearCardEarned(Event):
    type: ClassVar[str] = "fear_card_earned"
    number: int
    """Which fear card of the game this is, counting from 1."""
    waiting: int
    """Earned cards now waiting for the Fear step."""
    deck_left: int


@dataclass(frozen=True)
class TerrorLevelRaised(Event):
    type: ClassVar[str] = "terror_level_raised"
    terror_level: int
    victory_condition: str


@dataclass(frozen=True)
class FearCardResolved(Event):
    type: ClassVar[str] = "fear_card_resolved"
    number: int
    terror_level: int
    waiting: int
    card: str | None = None


@dataclass(frozen=True)
class FearCardNamed(Event):
    type: ClassVar[str] = "fear_card_named"
    card: str
    name: str
    terror_level: int
    effect: str


@dataclass(frozen=True)
class FearDeckCorrected(Event):
    """A fear card was put back, discarded, added or removed by hand."""

    type: ClassVar[str] = "fear_deck_corrected"
    action: str
    earned: int
    deck: int
    terror_level: int


@dataclass(frozen=True)
class FearLost(Event):
    type: ClassVar[str] = "fear_lost"
    amount: int
    pool: int
    generated: int


@dataclass(frozen=True)
class FearPoolChanged(Event):
    type: ClassVar[str] = "fear_pool_changed"
    pool_size: int
    pool: int


@dataclass(frozen=True)
class RitualPerformed(Event):
    type: ClassVar[str] = "ritual_performed"
    terror_level: int


@dataclass(frozen=True)
class BlightAdded(Event):
    type: ClassVar[str] = "blight_added"
    amount: int
    on_card: int
    on_island: int


@dataclass(frozen=True)
class BlightHealed(Event):
    type: ClassVar[str] = "blight_healed"
    amount: int
    on_card: int
    on_island: int
    on_panel: int = 0
    """France 5+: healed blight waiting on the adversary panel."""


@dataclass(frozen=True)
class BlightCardFlipped(Event):
    type: ClassVar[str] = "blight_card_flipped"
    card: str
    name: str
    refilled: int
    """Blight put on the Blighted Island side when it flipped."""
    effect: str
    side: str = "blighted"
    """"blighted", or "still_healthy" for a Still-Healthy Island card."""
    timing: str = "each_invader_phase"


@dataclass(frozen=True)
class BlightCardNeeded(Event):
    """The players must name a blight card: the one drawn face down at setup has flipped
    (`flipping`), or a Still-Healthy Island card ran out and the next goes straight to its
    back."""

    type: ClassVar[str] = "blight_card_needed"
    owed: int
    flipping: bool = False


@dataclass(frozen=True)
class BlightSet(Event):
    type: ClassVar[str] = "blight_set"
    on_card: int
    on_island: int


@dataclass(frozen=True)
class GameEnded(Event):
    type: ClassVar[str] = "game_ended"
    result: str
    reason: str
    detail: str


@dataclass(frozen=True)
class ScoreRecorded(Event):
    type: ClassVar[str] = "score_recorded"
    score: int
    dahan: int
    blight_on_island: int
