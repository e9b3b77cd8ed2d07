"""Tally as the driver shows it, and what of it the phones may see."""

from __future__ import annotations

from typing import Any

from companion.core.game import PublicFields, public_part
from companion.core.phrases import Translate

from .state import Tally

PUBLIC_FIELDS: PublicFields = {"round": True, "step": True, "players": True, "rounds": True,
                               "outcome": True}
"""A score sheet hides nothing: every field is the whole table's."""


def view(state: Tally, translate: Translate) -> dict[str, Any]:
    totals = state.totals()
    outcome = None
    if state.winners is not None:
        outcome = {"result": "win" if len(state.winners) == 1 else "shared",
                   "winners": list(state.winners), "score": max(totals),
                   "detail": ", ".join(f"{name} {total}" for name, total
                                       in zip(state.players, totals, strict=True))}
    return {"round": state.round, "step": state.step,
            "players": [{"name": name, "score": total, "round_score": points}
                        for name, total, points in zip(state.players, totals, state.scores,
                                                       strict=True)],
            "rounds": [list(points) for points in state.past], "outcome": outcome}


def public_view(view: dict[str, Any]) -> dict[str, Any]:
    return public_part(view, PUBLIC_FIELDS)


def help_step(view: dict[str, Any]) -> str | None:
    """The rules lookup's entries for this moment: "tally/scoring", "tally/checking"."""
    return None if view.get("outcome") else f"tally/{view['step']}"
