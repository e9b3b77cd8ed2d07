"""Leviathan Wilds' fixed data: the numbers in numbers.toml, the leviathans, and card tag ids.

numbers.toml marks each number read from a lost picture `verified = false`; `UNVERIFIED` lists
them so a screen can ask the players to check them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.core.numbers_file import load_numbers, unverified

GAME_ID = "leviathan-wilds"
DIFFICULTIES = ("easy", "medium", "hard", "expert")
PROTECTIONS = ("harmful", "slippery", "corrupt")
"""What an AP card's protection symbols guard against: harmful terrain, slippery terrain and
the corruption from striking a corrupted crystal (digest 2.3)."""
TERRAINS = ("harmful", "slippery", "open")
ACTIONS = ("climb", "jump", "glide", "rest", "heal")

NUMBERS: dict[str, Any] = load_numbers(Path(__file__).with_name("numbers.toml"))

UNVERIFIED: tuple[tuple[str, str], ...] = tuple(unverified(NUMBERS))
"""(table, note) for every table of numbers.toml still marked verified = false."""

WRATH_WILD_COUNTS: tuple[int, ...] = tuple(NUMBERS["wrath"]["wild_counts"])
WRATH_START: dict[str, int] = {d: NUMBERS["wrath"]["start"][d] for d in DIFFICULTIES}
SETUP_WILD: dict[str, int] = {d: NUMBERS["setup_wild"][d] for d in DIFFICULTIES}
HEALTH_START: int = NUMBERS["health_track"]["health_start"]
CORRUPTION_START: int = NUMBERS["health_track"]["corruption_start"]
HEALTH_MAX: int = NUMBERS["health_track"]["maximum"]["health"]
CORRUPTION_MAX: int = NUMBERS["health_track"]["maximum"]["corruption"]
HAND_SIZE: int = NUMBERS["grip"]["hand_size"]
EMPTY_HAND_AP: int = NUMBERS["grip"]["empty_hand_ap"]
GUARDIAN_DECK: int = NUMBERS["grip"]["deck"]["guardian"]
SOLO_DECK: int = NUMBERS["grip"]["deck"]["solo"]
SOLO_REST_GRIP: int = NUMBERS["solo"]["rest_grip"]
THREAT_SLOTS: int = NUMBERS["components"]["threat_slots"]
THREATS_PER_LEVIATHAN: int = NUMBERS["components"]["threats_per_leviathan"]
WEAKNESS_CARDS: int = NUMBERS["components"]["weakness_cards"]
ATTACK_MARKERS: int = NUMBERS["components"]["attack_markers"]
MUSHROOMS_DRAWN: int = NUMBERS["components"]["mushrooms_drawn"]
DICE_PER_COLOUR: int = NUMBERS["components"]["dice_per_colour"]
"""Crystal dice of each colour in the box: purple (regular) and turquoise (corrupted)."""
ACTION_COST: dict[str, int] = {
    name: NUMBERS["actions"][name] for name in ("climb", "jump", "rest", "heal")}


@dataclass(frozen=True)
class Leviathan:
    number: int
    """1-17, the order of the Book of Leviathans."""
    name: str
    complexity: int


LEVIATHANS: dict[int, Leviathan] = {
    number: Leviathan(number, name, complexity)
    for number, (name, complexity) in enumerate(
        zip(NUMBERS["leviathans"]["names"], NUMBERS["leviathans"]["complexity"], strict=True),
        start=1)
}

DEFAULT_CRYSTALS: tuple[tuple[tuple[int, ...], bool], ...] = tuple(
    (tuple(c["dice"]), bool(c["corrupted"])) for c in NUMBERS["crystals"]["default"])
"""(dice, corrupted) for each crystal put out when the players enter none."""


def threat_card_id(leviathan: int, n: int) -> str:
    return f"LW-threat-{leviathan}-{n}"


THREAT_CARDS: tuple[str, ...] = tuple(
    threat_card_id(lev, n) for lev in LEVIATHANS for n in range(1, THREATS_PER_LEVIATHAN + 1))
"""Tag ids of the 85 threat cards (17 leviathans x 5), for the card reader."""

WEAKNESS_CARD_IDS: tuple[str, ...] = tuple(
    f"LW-weakness-{n}" for n in range(1, WEAKNESS_CARDS + 1))
"""Tag ids of the 12 weakness cards, for the card reader."""

TAG_IDS: tuple[str, ...] = THREAT_CARDS + WEAKNESS_CARD_IDS
"""Every card tag id the reader can name in this game."""


def threats_of(leviathan: int) -> tuple[str, ...]:
    return tuple(threat_card_id(leviathan, n) for n in range(1, THREATS_PER_LEVIATHAN + 1))
