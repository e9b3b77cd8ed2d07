"""`companion` with the fourth game in its registry, in a process of its own:

    python -m tests.fourth_game.play script --db games.db

runs the real entry point (`companion.cli.main`) with its real standard input and output, and
Tally registered as a line in companion/games/registry.py would register a game, so a test
plays it as a script plays the three games there are. The appliance itself has no way to be
given a game from outside: only this file, in the tests, adds one.
"""

from __future__ import annotations

import sys

from companion.cli import main
from companion.games.registry import GAMES

from .definition import TALLY

if __name__ == "__main__":
    GAMES[TALLY.id] = TALLY
    sys.exit(main(sys.argv[1:]))
