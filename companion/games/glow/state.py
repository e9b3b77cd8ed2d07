"""The tracked state of one Glow game, as immutable values.

Every accepted command makes a new state (`dataclasses.replace`), so keeping the old one is all
undo needs. Players are numbered 0.. in clockwise seating order; the encounter track's areas
0..4 left to right (players count them 1-5).
"""

from __future__ import annotations

from dataclasses import dataclass

from .data import GLOWWORM_BONUS, PHASES


@dataclass(frozen=True)
class Numbers:
    """The board's numbers this game plays with: numbers.toml's, or the players' corrections."""

    track_length: int
    reroll_spaces: tuple[int, ...]
    village_values: tuple[int, ...]
    island_values: tuple[int, ...]
    """Island 0 is the central island the boats start on."""


@dataclass(frozen=True)
class Setup:
    """What the players chose at the start; fixed for the whole game."""

    players: int
    board: str
    mode: str
    seed: int
    start_player: int
    """The first day's start player (drawn from the seed when new_game named none)."""
    names: tuple[str | None, ...]
    colours: tuple[str | None, ...]
    adventurers: tuple[str | None, ...]
    numbers: Numbers


@dataclass(frozen=True)
class Companion:
    card: str
    value: int
    """End value, the card list's or the players' correction."""
    glowworms: int
    reroll: bool = False
    reroll_used: bool = False
    """A Lumipili's one reroll of the day, spent."""
    sketal_die: str | None = None
    """The large die this Sketal took from the supply; it goes back when the Sketal leaves."""


@dataclass(frozen=True)
class Final:
    """One player's end scoring, the four categories apart."""

    track: int
    """The score track's total before the end scoring."""
    cards: int
    board: int
    glowworms: int
    companions: int
    trails: int

    @property
    def bonus(self) -> int:
        return GLOWWORM_BONUS if self.glowworms >= self.companions else 0

    @property
    def total(self) -> int:
        return self.track + self.cards + self.board + self.bonus + self.trails


@dataclass(frozen=True)
class Player:
    score: int
    """Light shards, absolute (the track position is score mod the track's length)."""
    reroll_tokens: int
    lapped: bool = False
    """Passed the end of the score track: no more score-track rerolls."""
    gained_today: int = 0
    """Reroll tokens gained today: usable from tomorrow."""
    glowworm_tokens: int = 0
    """The value of the glowworm tokens held (a token shows 1 or 2)."""
    trails: int = 0
    """The value of the trail tokens held."""
    companions: tuple[Companion, ...] = ()
    """In play, oldest first: the last is the rightmost."""
    camp: int = 0
    """Realm: the value of the village holding the camp (0 on the start space)."""
    boats: tuple[int, ...] = ()
    """Sea: the island each boat is on."""
    boat_moved: int | None = None
    """Sea: the boat that made today's one move (None before it)."""
    spells: int = 0
    """Spell tiles held (handed out by Xar'gok)."""
    final: Final | None = None
    rerolls_known: bool = True
    """The app knows the reroll tokens: always in a game played with it; in scoring mode only
    once the players have entered them (until then `reroll_tokens` is a placeholder)."""

    @property
    def usable_rerolls(self) -> int:
        return self.reroll_tokens - self.gained_today

    @property
    def glowworms(self) -> int:
        """Glowworms for the end bonus: tokens plus the icons on companions."""
        return self.glowworm_tokens + sum(c.glowworms for c in self.companions)

    @property
    def lumipili_left(self) -> int:
        return sum(c.reroll and not c.reroll_used for c in self.companions)


@dataclass(frozen=True)
class Area:
    """One area of the encounter track."""

    companion: bool
    """A companion lies there, waiting to be recruited."""
    card: str | None = None
    """Its card id, once named."""
    dice: int | None = None
    """Small dice lying there; None while the players have not said."""
    trails: int = 0
    """Trail tokens lying there (each 1-side up); they pile up day after day."""


@dataclass(frozen=True)
class State:
    setup: Setup
    day: int
    phase: str
    """One of PHASES, or "over" after the last evening."""
    start_player: int
    deck_count: int
    players: tuple[Player, ...]
    areas: tuple[Area, ...]
    picked: tuple[int, ...] = ()
    """Who has recruited this morning, in order."""
    discarded: bool = False
    """Two players: the start player has sent this morning's extra companion away."""
    dice_entered: bool = False
    """The small dice of the setup roll or of this evening's return have been entered."""
    graveyard: tuple[str | None, ...] = ()
    """Companions sent away, in order; None for one nobody named."""
    supply: tuple[str, ...] = ()
    """Large dice in the supply, by colour."""
    black_die: bool = False
    """Kaar has brought the black die into play; it stays until the end."""
    kaar_owner: int | None = None
    spell_stack: int = 7
    ranking: tuple[tuple[int, ...], ...] | None = None
    """Once every player is scored: players by rank, best first; tied players share a rank."""

    @property
    def pick_order(self) -> tuple[int, ...]:
        count = len(self.players)
        return tuple((self.start_player + k) % count for k in range(count))

    @property
    def picker(self) -> int | None:
        """Who recruits next this morning (None outside the morning or when all have)."""
        if self.phase != "morning" or len(self.picked) >= len(self.players):
            return None
        return self.pick_order[len(self.picked)]

    @property
    def needs_discard(self) -> bool:
        """Two players: the start player has picked and still sends one companion away."""
        return (self.phase == "morning" and len(self.players) == 2 and len(self.picked) == 1
                and not self.discarded)

    @property
    def last_picker(self) -> int:
        """The player right of the start player: picks last."""
        return (self.start_player - 1) % len(self.players)

    @property
    def phase_index(self) -> int:
        return PHASES.index(self.phase) if self.phase in PHASES else len(PHASES)
