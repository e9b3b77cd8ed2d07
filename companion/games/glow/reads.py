"""What a Glow card laid on the reader does now (pure, over the view's state): the game's half
of `companion.ui.reads`.

- a companion in the morning on the table, while someone is to recruit: the player whose
  pick it is recruits it (`pick`) from the area the players then tap on the table (the app
  cannot see where the card lay, and the area's dice and trails go with the card);
- anything else, or another moment (a companion someone holds already, the two-player discard,
  after the morning): None (the app says what the card is).
"""

from __future__ import annotations

from typing import Any

from companion.core.game import CardRead

from .texts import READ_MESSAGES


def plan_read(kind: str, card: str, state: dict[str, Any] | None,
              screen: str) -> CardRead | None:
    """What a card of `kind` does (`state`: this game on its table, else None)."""
    if kind != "companion" or state is None or state.get("outcome") is not None:
        return None
    if state["phase"] != "morning" or state["picker"] is None or state["needs_discard"]:
        return None
    if any(held["card"] == card for player in state["players"]
           for held in player["companions"]):
        return None  # recruited already: read again, it changes nothing
    if screen != "table" or not any(area["companion"] for area in state["areas"]):
        return None
    return CardRead(READ_MESSAGES["companion-which-area"], form=True,
                    values={"player": state["players"][state["picker"]]["name"]})
