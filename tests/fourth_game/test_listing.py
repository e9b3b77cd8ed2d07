"""Tally's `about` listing is what one line in companion/games/registry.py would list: a registry
built with it names the game without importing its rules, and gives back its `Game` when asked."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

from companion.core.game import GameListing

from .about import TALLY as LISTED
from .conftest import ROOT
from .definition import TALLY


def test_the_listing_is_the_games() -> None:
    assert replace(LISTED, definition="") == GameListing.of(TALLY)


def test_a_registry_listing_it_imports_its_rules_only_when_it_is_asked_for() -> None:
    program = (
        "import sys\n"
        "from companion.games.registry import GAMES, GameRegistry\n"
        "from tests.fourth_game.about import TALLY\n"
        "games = GameRegistry([*GAMES.listed(), TALLY])\n"
        "print(list(games)[-1], 'tests.fourth_game.definition' in sys.modules)\n"
        "print(games['tally'].name, 'tests.fourth_game.definition' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert out == ["tally False", "Tally True"]
