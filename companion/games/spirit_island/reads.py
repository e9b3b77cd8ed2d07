"""What a Spirit Island card laid on the reader does now (pure): the game's half of
`companion.ui.reads`, which keeps the shared half (unknown tags, command tags, "nothing to do").

- an invader card while the table waits for the card turned over (physical deck): reveal it;
- a fear card in the Fear step with earned cards waiting: resolve the next one as that card;
- a blight card on the new-game screen: choose it; when the table waits for the next blight
  card: name it.
"""

from __future__ import annotations

from typing import Any

from companion.core.game import CardRead
from companion.core.phrases import as_written
from companion.i18n import N_

# The table's next action decides, so that a read does what the big button is asking for.
from .table_words import next_action


def plan_read(kind: str, card: str, state: dict[str, Any] | None,
              screen: str) -> CardRead | None:
    """What a card of `kind` does (`state`: the game on its table, else None)."""
    if kind == "blight" and screen == "new_game":
        return CardRead(N_("Blight card read: {name}"), form=True)
    if state is None:
        return None
    action = next_action(state, as_written).kind
    if kind == "invader" and action == "reveal":
        return CardRead(N_("Card read: {name}"), {"cmd": "reveal", "card": card})
    if kind == "fear" and action == "resolve_fear":  # turned over: its effect shows until Done
        return CardRead(N_("Fear card read: {name}"), {"cmd": "fear_card", "card": card})
    if kind == "blight" and action == "next_blight_card":
        return CardRead(N_("Blight card read: {name}"), {"cmd": "next_blight_card", "card": card})
    return None
