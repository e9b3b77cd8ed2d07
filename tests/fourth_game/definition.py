"""Tally as the core plays it: the one `Game` record that plugs this folder in."""

from __future__ import annotations

from pathlib import Path

from companion.core.game import Game
from companion.core.history import GameHistory

from . import commands, decide, record, view
from .about import RULES
from .about import TALLY as LISTED

HERE = Path(__file__).resolve().parent

TALLY = Game(
    id=LISTED.id,
    name=LISTED.name,
    commands=commands.COMMANDS,
    new_game=commands.StartTally,
    parse_command=commands.parse_command,
    start=decide.start,
    decide=decide.decide,
    view=view.view,
    state_to_record=record.state_to_record,
    state_from_record=record.state_from_record,
    summary=record.summary,
    rounds=record.rounds,
    catalogue=lambda: {"players": commands.MAX_PLAYERS, "steps": list(commands.STEPS)},
    public_view=view.public_view,
    help_step=view.help_step,
    # Nobody wins together: the statistics count its games as played.
    history=GameHistory(won=lambda row: None),
    # Outside companion/: absolute folders (a path joined to an absolute one is that one).
    rules_corpus=RULES,
    layouts=str(HERE / "ui"),
    table_screen="tests.fourth_game.ui.table:TallyTable",
)
