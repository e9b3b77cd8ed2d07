"""Glow: the pure game model's API, no screen, no serial port, no database.

The API a shell adapts to (the core reaches it through `definition.GLOW`):

- `GAME_ID` — "glow".
- `parse_command(raw)` — a JSON object to a command, or `Refused` saying what is wrong.
- `start(new_game, seed)` / `decide(state, command)` — (new state, events); `Refused` changes
  nothing. Undo and redo are the session's: it keeps the states.
- `view(state, translate)`, `event_view(event)` — JSON-ready dicts; the texts through
  `translate` (English as written without one).
- `state_to_record(state)` / `state_from_record(record)` — a JSON-able round trip.
- `setup_checklist(state, translate)` — [(item id, text)].
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
