"""Leviathan Wilds: the pure game model's API, no screen, no serial port, no database.

The names every game's model API offers (see `companion.core.game.model_fields`, which plugs
them into `definition.LEVIATHAN_WILDS`; its `setup_checklist` takes a state or a setup), and
Leviathan Wilds' own: `GAME_ID` ("leviathan-wilds"), `LEVIATHANS`, `UNVERIFIED` (the numbers
still to check against a printed copy) and `TAG_IDS`, `THREAT_CARDS`, `WEAKNESS_CARD_IDS` (the
card tag ids the reader can name).
"""

from __future__ import annotations

from companion.core.errors import Refused

from .commands import COMMANDS, Command, NewGame
from .data import GAME_ID, LEVIATHANS, TAG_IDS, THREAT_CARDS, UNVERIFIED, WEAKNESS_CARD_IDS
from .events import Event
from .parse import command_to_dict, parse_command
from .record import state_from_record, state_to_record
from .rules import decide, start
from .state import State
from .view import event_view, setup_checklist, view

__all__ = [
    "COMMANDS", "GAME_ID", "LEVIATHANS", "TAG_IDS", "THREAT_CARDS", "UNVERIFIED",
    "WEAKNESS_CARD_IDS", "Command", "Event", "NewGame", "Refused", "State", "command_to_dict",
    "decide", "event_view", "parse_command", "setup_checklist", "start", "state_from_record",
    "state_to_record", "view",
]
