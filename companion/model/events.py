"""What happened, as the game tells it: one small frozen record per change worth announcing.

Screens announce them, the driver prints them; `to_dict` gives the JSON form with a `type`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class Event:
    type: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


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


@dataclass(frozen=True)
class BlightCardFlipped(Event):
    type: ClassVar[str] = "blight_card_flipped"
    card: str
    name: str
    refilled: int
    """Blight put on the Blighted Island side when it flipped."""
    effect: str


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


@dataclass(frozen=True)
class Undone(Event):
    type: ClassVar[str] = "undone"
    command: dict[str, Any]


@dataclass(frozen=True)
class Redone(Event):
    type: ClassVar[str] = "redone"
    command: dict[str, Any]
