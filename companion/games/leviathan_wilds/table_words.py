"""The table's words that the phones' page shows too: the steps' names and the banner (Last
Chance, the game's end, and the news of a command: a round ended, a guardian defeated).

Pure Python: the table screen and the mirror both call these, each with its own translator
(the app's language on the table, each phone's on the mirror).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.core.phrases import Translate
from companion.i18n import N_

from .data import LEVIATHANS

Plural = Callable[[str, str, int], str]
"""ngettext: the form of a text a count takes."""

STEP_NAMES = {"reveal": N_("1 Reveal a threat"), "activate": N_("2 Activate"),
              "resolve": N_("3 Resolve the threat"), "draw": N_("4 Draw"),
              "over": N_("Game over")}
DIFFICULTY_NAMES = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard"),
                    "expert": N_("expert")}


def names(_: Translate) -> dict[str, dict[str, str]]:
    """The words for the ids the state holds, for the phones' page: the steps, the
    difficulties and the leviathans' names (the view gives them in English)."""
    return {"steps": {key: _(text) for key, text in STEP_NAMES.items()},
            "difficulties": {key: _(text) for key, text in DIFFICULTY_NAMES.items()},
            "leviathans": {lev.name: _(lev.name) for lev in LEVIATHANS.values()}}


def state_banner(state: dict[str, Any], _: Translate,
                 ngettext: Plural) -> tuple[str, str] | None:
    """What the table's banner says while the state lasts, as (kind, text): the game's end
    ("win" or "loss") or Last Chance ("last_chance"); None otherwise."""
    outcome = state["outcome"]
    if outcome is not None:
        won = outcome["result"] == "win"
        text = (_("We won: {reason}") if won else _("We lost: {reason}")).format(
            reason=outcome["reason"])
        return ("win" if won else "loss"), text
    if state["last_chance"] is not None:
        # The list holds the turns still owed after this one; a turn being played counts too
        # unless it is the turn of the defeat (its guardian is then in the list, or beaten).
        active = state["active"]
        playing = active not in state["last_chance"] \
            and not state["guardians"][active]["defeated"]
        turns = len(state["last_chance"]) + (1 if playing else 0)
        return "last_chance", ngettext(
            "Last Chance: {count} turn left to heal the leviathan",
            "Last Chance: {count} turns left to heal the leviathan", turns).format(count=turns)
    return None


def news(events: list[dict[str, Any]], state: dict[str, Any], _: Translate,
         ngettext: Plural) -> list[tuple[str, str]]:
    """The news a command's events bring, as (kind, text): the round's end, a defeat, an undo."""
    lines: list[tuple[str, str]] = []
    guardians = state.get("guardians") or []
    for event in events:
        kind = event["type"]
        if kind == "round_ended":
            lines.append((kind, ngettext(
                "Round {round} is over: wrath {wrath}, {count} threat turns wild.",
                "Round {round} is over: wrath {wrath}, {count} threats turn wild.",
                event["wild"]).format(round=event["round"], wrath=event["wrath"] + 1,
                                      count=event["wild"])))
        elif kind == "guardian_defeated":
            index = event["guardian"]
            name = guardians[index]["name"] if 0 <= index < len(guardians) else str(index + 1)
            lines.append((kind, _("{guardian} is defeated.").format(guardian=name)))
        elif kind == "undone":
            lines.append(("undo", _("Undone: the last command.")))
        elif kind == "redone":
            lines.append(("undo", _("Redone: the command undone last.")))
    return lines


def banner_lines(events: list[dict[str, Any]], state: dict[str, Any] | None, _: Translate,
                 ngettext: Plural) -> list[dict[str, str]]:
    """Everything the banner says right after the command whose events these are."""
    if not state or "threat_row" not in state:
        return []
    lines = news(events, state, _, ngettext)
    lasting = state_banner(state, _, ngettext)
    if lasting is not None:
        lines.append(lasting)
    return [{"kind": kind, "text": text} for kind, text in lines]


def turned_dice(crystal: dict[str, Any], amount: int) -> list[int] | None:
    """A crystal's dice after its first die is turned by `amount`: below 1 the die is gone
    (the next die of a giant crystal is struck next). None for a shattered crystal: its dice
    are back in the box, and a +1 must not raise it again (Undo takes back a wrong shatter)."""
    dice = list(crystal["dice"])
    if crystal["shattered"] or not dice:
        return None
    if dice[0] + amount < 1:
        return dice[1:]
    dice[0] += amount
    return dice
