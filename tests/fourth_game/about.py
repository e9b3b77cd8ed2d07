"""Tally as a registry lists it before anyone plays it (see `GameListing`): imports none of its
rules, as a real game's `about` module."""

from __future__ import annotations

from pathlib import Path

from companion.core.game import GameListing

RULES = str(Path(__file__).resolve().parent / "rules")
"""Its rules-lookup entries: a folder of its own, read by the index while it is registered."""

TALLY = GameListing(
    id="tally",
    name="Tally",
    definition="tests.fourth_game.definition:TALLY",
    rules_corpus=RULES,
)
