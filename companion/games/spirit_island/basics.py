"""Constants and small lookups every part of the rules shares: the adversary level, scenario
and features in play, the terror level's victory condition, the cards in play."""

from __future__ import annotations

from companion.core.events import Event

from .adversaries import ADVERSARIES, Adversary, Level
from .cards import INVADER_CARDS
from .scenarios import SCENARIOS, Scenario
from .state import InvaderTrack, Setup
from .texts import VICTORY_CONDITIONS

FEAR_MARKERS_PER_PLAYER = 4
DEFAULT_FEAR_SPLIT = (3, 3, 3)
FEAR_PER_PIECE = {"town": 1, "city": 2}
TOTAL_INVADER_CARDS = len(INVADER_CARDS)
# Branch & Claw's event deck, without France's Slave Rebellion.
BRANCH_AND_CLAW_EVENT_CARDS = 25
# France 2+: Slave Rebellion goes (and goes back) under this many event cards.
SLAVE_REBELLION_DEPTH = 3
# Setup steps during which added blight comes from the box, not the card: the pieces of setup
# are put out then. Blitz's extra Build and Explore are invader actions, as in play.
BOX_BLIGHT_STEPS = ("royal_backing", "initial_explore")
# Invaders Find the Land to Their Liking: fear markers added per player at terror level 1-3,
# in halves (level 2 adds one and a half per player, rounded down).
LIKING_FEAR_HALVES = {1: 2, 2: 3, 3: 4}

Events = list[Event]
# A game end noticed while a command runs: (result, reason, words for the players).
Ending = tuple[str, str, str]


def level_of(setup: Setup) -> Level | None:
    if setup.adversary is None or setup.level is None:
        return None
    return ADVERSARIES[setup.adversary].levels[setup.level]


def adversary_of(setup: Setup) -> Adversary | None:
    return ADVERSARIES[setup.adversary] if setup.adversary else None


def scenario_of(setup: Setup) -> Scenario | None:
    return SCENARIOS[setup.scenario] if setup.scenario else None


def has_feature(setup: Setup, feature: str) -> bool:
    level = level_of(setup)
    return level is not None and feature in level.features


def cards_in_play(track: InvaderTrack) -> tuple[str, ...]:
    """Invader cards on the board's spaces and in the discard."""
    return ((track.high_immigration or ()) + track.ravage + track.build + track.explore
            + track.discard)


def victory_condition(setup: Setup, terror_level: int) -> str:
    scenario = scenario_of(setup)
    if scenario and scenario.victory_conditions and terror_level in scenario.victory_conditions:
        return scenario.victory_conditions[terror_level]
    return VICTORY_CONDITIONS[terror_level]
