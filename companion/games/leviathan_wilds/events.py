"""What happened in a Leviathan Wilds game: one small frozen record per change worth announcing.

`to_dict` gives the JSON form with a `type`; guardians, slots and crystals are 0-based indices.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.core.events import Event as Event


@dataclass(frozen=True)
class GameStarted(Event):
    type: ClassVar[str] = "game_started"
    leviathan: int
    difficulty: str
    players: int
    guardians: int
    seed: int


@dataclass(frozen=True)
class StepStarted(Event):
    type: ClassVar[str] = "step_started"
    round: int
    step: str
    guardian: int


@dataclass(frozen=True)
class ThreatRevealed(Event):
    type: ClassVar[str] = "threat_revealed"
    slot: int
    wild: bool
    card: str | None


@dataclass(frozen=True)
class ThreatNamed(Event):
    type: ClassVar[str] = "threat_named"
    slot: int
    card: str


@dataclass(frozen=True)
class ThreatsMadeWild(Event):
    type: ClassVar[str] = "threats_made_wild"
    slots: tuple[int, ...]
    asked: int
    """How many the effect or the wrath track asked for; fewer when too few were calm."""


@dataclass(frozen=True)
class RoundEnded(Event):
    type: ClassVar[str] = "round_ended"
    round: int
    wrath: int
    wild: int


@dataclass(frozen=True)
class ActivationStarted(Event):
    type: ClassVar[str] = "activation_started"
    guardian: int
    ap: int | None
    """2 when the hand was empty; None while the AP card is still to be played."""


@dataclass(frozen=True)
class ApCardPlayed(Event):
    type: ClassVar[str] = "ap_card_played"
    guardian: int
    ap: int
    protections: tuple[str, ...]


@dataclass(frozen=True)
class ActionTaken(Event):
    type: ClassVar[str] = "action_taken"
    guardian: int
    action: str
    x: int
    ap_left: int


@dataclass(frozen=True)
class ActivationEnded(Event):
    type: ClassVar[str] = "activation_ended"
    guardian: int
    ap_lost: int


@dataclass(frozen=True)
class HealthChanged(Event):
    type: ClassVar[str] = "health_changed"
    guardian: int
    by: int
    health: int


@dataclass(frozen=True)
class CorruptionChanged(Event):
    type: ClassVar[str] = "corruption_changed"
    guardian: int
    by: int
    corruption: int


@dataclass(frozen=True)
class Protected(Event):
    type: ClassVar[str] = "protected"
    guardian: int
    against: str


@dataclass(frozen=True)
class CardsMoved(Event):
    type: ClassVar[str] = "cards_moved"
    guardian: int
    what: str
    """"draw", "discard", "grip_loss", "grip_gain", "rest", "ap_card", "declined_last" ..."""
    count: int
    deck: int
    hand: int
    discard: int


@dataclass(frozen=True)
class FallingStarted(Event):
    type: ClassVar[str] = "falling_started"
    guardian: int
    why: str
    """"empty_deck", "open_space" or "let_go"."""


@dataclass(frozen=True)
class Landed(Event):
    type: ClassVar[str] = "landed"
    guardian: int


@dataclass(frozen=True)
class FocusChanged(Event):
    type: ClassVar[str] = "focus_changed"
    guardian: int
    ready: bool


@dataclass(frozen=True)
class WeaknessDrawn(Event):
    type: ClassVar[str] = "weakness_drawn"
    guardian: int
    card: str | None
    deck: int


@dataclass(frozen=True)
class WeaknessDiscarded(Event):
    type: ClassVar[str] = "weakness_discarded"
    guardian: int
    card: str | None
    deck: int


@dataclass(frozen=True)
class CrystalStruck(Event):
    type: ClassVar[str] = "crystal_struck"
    crystal: int
    guardian: int | None
    x: int
    dice: tuple[int, ...]
    shattered: bool


@dataclass(frozen=True)
class CrystalChanged(Event):
    type: ClassVar[str] = "crystal_changed"
    crystal: int
    dice: tuple[int, ...]
    corrupted: bool


@dataclass(frozen=True)
class WinConditionChanged(Event):
    type: ClassVar[str] = "win_condition_changed"
    condition: int
    met: bool


@dataclass(frozen=True)
class CounterChanged(Event):
    type: ClassVar[str] = "counter_changed"
    counter: str
    value: int


@dataclass(frozen=True)
class GuardianDefeated(Event):
    type: ClassVar[str] = "guardian_defeated"
    guardian: int


@dataclass(frozen=True)
class LastChanceBegan(Event):
    type: ClassVar[str] = "last_chance_began"
    remaining: tuple[int, ...]


@dataclass(frozen=True)
class GameEnded(Event):
    type: ClassVar[str] = "game_ended"
    result: str
    reason: str
