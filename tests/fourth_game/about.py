"""Tally as a registry lists it before anyone plays it (see `GameListing`): imports none of its
rules, as a real game's `about` module."""

from __future__ import annotations

from companion.core.game import GameListing

TALLY = GameListing(
    id="tally",
    name="Tally",
    definition="tests.fourth_game.definition:TALLY",
)
