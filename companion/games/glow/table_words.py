"""Glow's table words that the phones' page shows too: the phases' and board sides' names, and
the banner (the start marker passing, the last evening's end, the winner once all are scored).

Pure Python: the table screen and the mirror both call these, each with its own translator (the
app's language on the table, each phone's on the mirror).
"""

from __future__ import annotations

from typing import Any

from companion.core.phrases import Translate
from companion.i18n import N_

from .texts import WORDS

PHASES = ("morning", "late_morning", "noon", "afternoon", "evening")
PHASE_NAMES = {"morning": N_("Morning"), "late_morning": N_("Late morning"),
               "noon": N_("Noon"), "afternoon": N_("Afternoon"), "evening": N_("Evening"),
               "over": N_("End scoring")}
BOARDS = ("realm", "sea")


def names(_: Translate) -> dict[str, dict[str, str]]:
    """The words for the ids the state holds, for the phones' page: the phases (as the table's
    day track names them) and the board sides."""
    return {"phases": {key: _(text) for key, text in PHASE_NAMES.items()},
            "boards": {key: _(WORDS[key]) for key in BOARDS}}


def state_banner(state: dict[str, Any], _: Translate) -> tuple[str, str] | None:
    """What the banner says while the state lasts, as (kind, text): once every player is
    scored, the winner ("win", the view's closing line); None before."""
    if state["outcome"] is not None:
        return "win", state["prompt"]["text"]
    return None


def news(events: list[dict[str, Any]], state: dict[str, Any],
         _: Translate) -> list[tuple[str, str]]:
    """The news a command's events bring, as (kind, text): the last evening's end (a whole
    game; scoring only has no days to end), else the start marker passing left."""
    kinds = {event.get("type"): event for event in events}
    if "game_over" in kinds and state["mode"] == "full":
        return [("game_over", _("Day {day} is over: the end scoring").format(
            day=kinds["game_over"]["day"]))]
    if "start_marker_passed" in kinds:
        players = state["players"]
        first = kinds["start_marker_passed"]["start_player"]
        name = players[first]["name"] if 0 <= first < len(players) else str(first + 1)
        return [("start_marker_passed", _("Day {day}: the start marker passes to {name}").format(
            day=state["day"], name=name))]
    return []


def banner_lines(events: list[dict[str, Any]], state: dict[str, Any] | None,
                 _: Translate) -> list[dict[str, str]]:
    """Everything the banner says right after the command whose events these are: the
    winner once decided, else the command's news."""
    if not state or state.get("title") != "glow":
        return []
    lasting = state_banner(state, _)
    lines = [lasting] if lasting is not None else news(events, state, _)
    return [{"kind": kind, "text": text} for kind, text in lines]
