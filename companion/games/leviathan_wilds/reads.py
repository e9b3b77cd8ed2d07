"""What a Leviathan Wilds card laid on the reader does now (pure, over the view's state): the
game's half of `companion.ui.reads`.

- a threat card in step 1: turn the next threat over as that card; once it is face up, name
  (or rename) the card turned over;
- a weakness card: the active guardian draws it (threats are resolved against the guardian
  whose turn it is; undo and the menu cover a weakness someone else drew); a weakness a
  guardian holds is got rid of, as the cards are scanned again when discarded;
- anything else, or another moment: None (the app says what the card is).
"""

from __future__ import annotations

from typing import Any

from companion.core.game import CardRead
from companion.core.phrases import Phrase

from .texts import READ_MESSAGES, WORDS


def plan_read(kind: str, card: str, state: dict[str, Any] | None,
              screen: str) -> CardRead | None:
    """What a card of `kind` does (`state`: this game on its table, else None)."""
    if state is None or state.get("outcome") is not None:
        return None
    if kind == "threat":
        return _threat(card, state)
    if kind == "weakness":
        return _weakness(card, state)
    return None


def _threat(card: str, state: dict[str, Any]) -> CardRead | None:
    if state["step"] != "reveal":
        return None
    slot = state.get("revealed_slot")
    if slot is None:
        return CardRead(READ_MESSAGES["threat-revealed"], {"cmd": "reveal", "card": card})
    if state["threat_row"][slot]["card"] == card:
        return None  # named already: read again, it changes nothing
    return CardRead(READ_MESSAGES["threat-named"], {"cmd": "reveal", "card": card},
                    values={"slot": slot + 1})


def _weakness(card: str, state: dict[str, Any]) -> CardRead | None:
    guardians = state["guardians"]
    holder = next((i for i, guardian in enumerate(guardians) if card in guardian["weaknesses"]),
                  None)
    if holder is not None:
        return CardRead(READ_MESSAGES["weakness-discarded"],
                        {"cmd": "weakness", "guardian": holder, "card": card, "remove": True},
                        values={"guardian": _who(guardians, holder)})
    active = state["active"]
    if guardians[active]["defeated"]:
        return None
    return CardRead(READ_MESSAGES["weakness-drawn"],
                    {"cmd": "weakness", "guardian": active, "card": card},
                    values={"guardian": _who(guardians, active)})


def _who(guardians: list[dict[str, Any]], i: int) -> str | Phrase:
    """The guardian's character name, or "Guardian n" in the players' language."""
    character: str | None = guardians[i]["character"]
    return character if character else Phrase(WORDS["guardian"], number=i + 1)
