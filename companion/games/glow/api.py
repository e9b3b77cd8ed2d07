"""Glow: the pure game model's API, no screen, no serial port, no database.

The names every game's model API offers (see `companion.core.game.model_fields`, which plugs
them into `definition.GLOW`), and Glow's own: `GAME_ID` ("glow"), `ADVENTURERS` and `COMPANIONS`
(the cards), `CARD_IDS` (the card tag ids the reader can name) and `UNVERIFIED` (the numbers
still to check against a printed copy).
"""

from __future__ import annotations

from companion.core.errors import Refused

from .commands import COMMANDS, Command, NewGame
from .data import ADVENTURERS, CARD_IDS, COMPANIONS, GAME_ID, UNVERIFIED
from .events import Event
from .parse import command_to_dict, parse_command
from .record import state_from_record, state_to_record
from .rules import decide, start
from .state import State
from .view import event_view, setup_checklist, view

__all__ = [
    "ADVENTURERS", "CARD_IDS", "COMMANDS", "COMPANIONS", "GAME_ID", "UNVERIFIED", "Command",
    "Event", "NewGame", "Refused", "State", "command_to_dict", "decide", "event_view",
    "parse_command", "setup_checklist", "start", "state_from_record", "state_to_record", "view",
]
