"""The shapes of the table's written help: setup checklist items and step reminders.

The data (what the base game, each adversary level and each scenario ask of the table) lives
in `base_table_rules.py`, `adversary_table_rules.py` and `scenario_table_rules.py`;
`reminders.py` picks the entries that apply to a game and a step. Texts may hold the
placeholders listed in `PLACEHOLDERS`, filled in from the game's setup.
"""

from __future__ import annotations

from dataclasses import dataclass

# Steps a reminder may name. The setup phase has `initial_explore` (and `royal_backing` for
# Sweden level 4+); the invader phase adds `event`, `high_immigration` and `escalation` only
# when the game has them.
REMINDER_STEPS = (
    "royal_backing", "initial_explore",
    "growth", "gain_energy", "play_cards", "fast_powers",
    "blighted_island", "event", "fear", "high_immigration", "ravage", "build", "escalation",
    "explore", "advance", "slow_powers", "time_passes",
)

# When a reminder applies beyond its steps (None: at every one of its steps).
CONDITIONS = {
    "from_round_2": "only from the second round on",
    "stage_3": "only once a Stage III invader card has been turned over",
    "no_fear_resolved": "only when no fear card was resolved in this invader phase",
    "odd_round": "only in odd-numbered rounds",
    "even_round": "only in even-numbered rounds",
    "surge_round": "only in even-numbered rounds of Surges of Colonization at its printed "
                   "difficulty",
    "larger_surge_round": "only in even-numbered rounds of the Larger Surges variant",
    "escalation": "only in a round whose explore card carries the escalation flag",
    "high_immigration_tile": "only while the High Immigration tile is on the Invader Board",
    "blight_card": "only in a game with a blight card (not the beginner's blight space)",
}

# Values a text may use as {name}; the app fills them in for the game at hand.
PLACEHOLDERS = ("players", "fear_pool", "fear_split", "fear_cards", "blight", "deck_order")


@dataclass(frozen=True)
class Note:
    """One setup checklist item."""

    id: str
    text: str


@dataclass(frozen=True)
class Reminder:
    """What a rule adds to a step of the round."""

    id: str
    text: str
    steps: tuple[str, ...]
    when: str | None = None
    replaces: str | None = None
    """The id of an earlier level's reminder that this one takes the place of."""
