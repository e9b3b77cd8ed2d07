"""Tally as the store keeps it: its record for snapshots, its saved-games row, its rounds."""

from __future__ import annotations

from typing import Any

from companion.core.game import Course

from .state import Tally


def state_to_record(state: Tally) -> dict[str, Any]:
    return {"players": list(state.players), "round": state.round, "step": state.step,
            "scores": list(state.scores), "past": [list(points) for points in state.past],
            "winners": None if state.winners is None else list(state.winners)}


def state_from_record(record: dict[str, Any]) -> Tally:
    winners = record["winners"]
    return Tally(tuple(record["players"]), record["round"], record["step"],
                 tuple(record["scores"]), tuple(tuple(points) for points in record["past"]),
                 None if winners is None else tuple(winners))


def summary(state: Tally) -> dict[str, Any]:
    """The saved games' columns; the final totals go to the row's details."""
    over = state.winners is not None
    return {"status": "finished" if over else "active", "players": len(state.players),
            "rounds": len(state.past) if over else state.round,
            "result": ", ".join(state.winners) if state.winners else None,
            "reason": ("win" if len(state.winners) == 1 else "shared") if state.winners
            else None,
            "score": max(state.totals()) if over else None,
            "totals": dict(zip(state.players, state.totals(), strict=True))}


def rounds(course: Course) -> list[dict[str, Any]]:
    """Each kept round: its points and everyone's totals after it."""
    kept: dict[int, dict[str, Any]] = {}
    for _command, _events, state in course:
        for number, points in enumerate(state.past, start=1):
            totals = [sum(scored) for scored in zip(*state.past[:number], strict=True)]
            kept[number] = {"round": number, "points": list(points), "totals": totals}
    return [kept[number] for number in sorted(kept)]
