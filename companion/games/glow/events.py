"""What happened in a Glow game: one small frozen record per change worth announcing.

`to_dict` gives the JSON form with a `type`; players are 0-based, areas 1-5 as players count.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.core.events import Event as Event


@dataclass(frozen=True)
class GameStarted(Event):
    type: ClassVar[str] = "game_started"
    players: int
    board: str
    mode: str
    start_player: int
    seed: int


@dataclass(frozen=True)
class PhaseStarted(Event):
    type: ClassVar[str] = "phase_started"
    day: int
    phase: str
    start_player: int


@dataclass(frozen=True)
class ScoreChanged(Event):
    type: ClassVar[str] = "score_changed"
    player: int
    by: int
    score: int
    lapped: bool


@dataclass(frozen=True)
class RerollsChanged(Event):
    type: ClassVar[str] = "rerolls_changed"
    player: int
    by: int
    tokens: int
    usable: int


@dataclass(frozen=True)
class TokensChanged(Event):
    type: ClassVar[str] = "tokens_changed"
    player: int
    kind: str
    """"glowworms" or "trails"."""
    by: int
    value: int


@dataclass(frozen=True)
class TrackRerolled(Event):
    type: ClassVar[str] = "track_rerolled"
    player: int
    score: int
    cost: int


@dataclass(frozen=True)
class LumipiliUsed(Event):
    type: ClassVar[str] = "lumipili_used"
    player: int
    card: str


@dataclass(frozen=True)
class FaceSet(Event):
    type: ClassVar[str] = "face_set"
    player: int
    lumipili: int
    tokens: int
    track: int


@dataclass(frozen=True)
class Picked(Event):
    type: ClassVar[str] = "picked"
    player: int
    area: int
    card: str | None
    dice: int | None
    trails: int


@dataclass(frozen=True)
class Discarded(Event):
    type: ClassVar[str] = "discarded"
    area: int
    card: str | None


@dataclass(frozen=True)
class SentToGraveyard(Event):
    type: ClassVar[str] = "sent_to_graveyard"
    areas: tuple[int, ...]
    cards: tuple[str | None, ...]


@dataclass(frozen=True)
class AreaDiceSet(Event):
    type: ClassVar[str] = "area_dice_set"
    dice: tuple[int, ...]
    trails_added: tuple[int, ...]
    """Areas (1-5) that got a trail token for holding no die."""


@dataclass(frozen=True)
class RowLaidOut(Event):
    type: ClassVar[str] = "row_laid_out"
    deck_count: int
    trails_added: tuple[int, ...]


@dataclass(frozen=True)
class StartMarkerPassed(Event):
    type: ClassVar[str] = "start_marker_passed"
    start_player: int


@dataclass(frozen=True)
class CompanionAdded(Event):
    type: ClassVar[str] = "companion_added"
    player: int
    card: str
    die: str | None
    """The Sketal's large die taken from the supply."""
    black_die: bool
    """Kaar brought the black die into play now."""


@dataclass(frozen=True)
class CompanionRemoved(Event):
    type: ClassVar[str] = "companion_removed"
    player: int
    card: str
    die: str | None
    """The Sketal's large die back in the supply."""


@dataclass(frozen=True)
class CampMoved(Event):
    type: ClassVar[str] = "camp_moved"
    player: int
    value: int


@dataclass(frozen=True)
class BoatMoved(Event):
    type: ClassVar[str] = "boat_moved"
    player: int
    boat: int
    island: int
    trails_spent: int


@dataclass(frozen=True)
class SpellsChanged(Event):
    type: ClassVar[str] = "spells_changed"
    player: int
    spells: int
    stack: int


@dataclass(frozen=True)
class GameOver(Event):
    type: ClassVar[str] = "game_over"
    day: int


@dataclass(frozen=True)
class EndScored(Event):
    type: ClassVar[str] = "end_scored"
    player: int
    track: int
    cards: int
    board: int
    bonus: int
    trails: int
    final: int


@dataclass(frozen=True)
class Ranked(Event):
    type: ClassVar[str] = "ranked"
    ranking: tuple[tuple[int, ...], ...]
