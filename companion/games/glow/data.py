"""Glow's fixed data: the numbers in numbers.toml, the board sides, the phases and the cards.

numbers.toml marks each number read from a lost picture `verified = false`; `UNVERIFIED` lists
them so a screen can ask the players to check them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.core.numbers_file import load_numbers, unverified

GAME_ID = "glow"
BOARDS = ("realm", "sea")
"""Realm of Shadows (a camp in a village) and Sea of Darkness (four boats on islands)."""
MODES = ("full", "scoring")
"""A whole game day by day, or only the end scoring's totals."""
PHASES = ("morning", "late_morning", "noon", "afternoon", "evening")
OVER = "over"
GLOWWORM_BONUS = 10
"""Digest 5 step 3 [R]: +10 when glowworms (tokens and icons) are at least the companions."""
ELEMENTS = ("fire", "water", "earth", "air", "nature")

NUMBERS: dict[str, Any] = load_numbers(Path(__file__).with_name("numbers.toml"))

UNVERIFIED: tuple[tuple[str, str], ...] = tuple(unverified(NUMBERS))
"""(table, note) for every table of numbers.toml still marked verified = false."""

START_SCORE: int = NUMBERS["setup"]["start_score"]
START_REROLLS: int = NUMBERS["setup"]["start_rerolls"]
DAYS: int = NUMBERS["setup"]["days"]
DECK: int = NUMBERS["setup"]["deck"]
ROW: int = NUMBERS["setup"]["row"]
SPELLS: int = NUMBERS["setup"]["spells"]
SMALL_DICE: int = NUMBERS["setup"]["small_dice"]
LARGE_DICE_SUPPLY: tuple[str, ...] = tuple(NUMBERS["setup"]["large_dice_supply"])
MIN_PLAYERS: int = NUMBERS["players"]["low"]
MAX_PLAYERS: int = NUMBERS["players"]["high"]
TRACK_LENGTH: int = NUMBERS["score_track"]["length"]
REROLL_SPACES: tuple[int, ...] = tuple(NUMBERS["score_track"]["reroll_spaces"])
VILLAGE_VALUES: tuple[int, ...] = tuple(NUMBERS["realm"]["village_values"])
ISLAND_VALUES: tuple[int, ...] = tuple(NUMBERS["sea"]["island_values"])
BOATS: int = NUMBERS["sea"]["boats"]


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    value: int
    """Light shards at the game's end (top right; negative subtracts)."""
    glowworms: int = 0
    """Glowworm icons the card shows (its ability)."""
    reroll: bool = False
    """Lumipili: one reroll a day while in play."""
    sketal: str | None = None
    """A Sketal's large die colour, "any" for the many-coloured one."""
    black_die: bool = False
    """Kaar: brings the black die into play."""
    large_dice: int = 0
    """An adventurer's own large dice."""


def _cards(table: str) -> dict[str, Card]:
    return {entry["id"]: Card(**entry) for entry in NUMBERS[table]["cards"]}


ADVENTURERS: dict[str, Card] = _cards("adventurers")
COMPANIONS: dict[str, Card] = _cards("companions")
CARD_IDS: tuple[str, ...] = (*ADVENTURERS, *COMPANIONS)
"""Every card tag id the reader can name in this game."""
