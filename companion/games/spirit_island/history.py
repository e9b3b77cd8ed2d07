"""How a saved Spirit Island game reads in the history: adversary and scenario, the fear, blight
and terror chart, and wins by adversary and level in the statistics."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from companion.core.history import Fact, GameHistory, Series, StatisticsGroup, plain_line
from companion.i18n import N_

from .catalogue import catalogue

if TYPE_CHECKING:
    from companion.core.history import Row, Words

NONE_CHOICE = N_("None")


@functools.cache
def _names() -> dict[str, str]:
    """Adversary and scenario ids to their names (in English: `Words` translates them)."""
    data = catalogue()
    names = {a["id"]: a["name"] for a in data.get("adversaries", [])}
    names.update({s["id"]: s["name"] for s in data.get("scenarios", [])})
    return names


def _name(words: Words, card: str) -> str:
    return words._(_names().get(card, card))


def against(row: Row, words: Words) -> str:
    """"Brandenburg-Prussia 2, Powers Long Forgotten", or that there was no adversary."""
    adversary, scenario = row.get("adversary"), row.get("scenario")
    return ", ".join(filter(None, [
        f"{_name(words, adversary)} {row.get('adversary_level') or 0}" if adversary else "",
        _name(words, scenario) if scenario else "",
    ])) or words._("no adversary")


def line(row: Row, words: Words) -> str:
    return f"{against(row, words)} · {plain_line(row, words)}"


def facts(row: Row, words: Words) -> list[Fact]:
    adversary, scenario = row.get("adversary"), row.get("scenario")
    return [
        Fact("adversary", words._("Adversary"),
         words._("{name}, level {level}").format(
             name=_name(words, adversary), level=row.get("adversary_level") or 0)
         if adversary else words._(NONE_CHOICE)),
        Fact("scenario", words._("Scenario"),
         _name(words, scenario) if scenario else words._(NONE_CHOICE)),
    ]


def series(detail: Row) -> list[Series]:
    """Fear generated (bars), blight on the island (a line), the terror level (bars to IV);
    the plots are there (empty) before the first round too."""
    rounds = [tally for tally in detail["per_round"] if "fear_generated" in tally]
    return [
        Series("fear", N_("Fear generated each round"), [t["fear_generated"] for t in rounds],
               "bars", "chart_fear"),
        Series("blight", N_("Blight on the island"), [t.get("blight_on_island", 0) for t in rounds],
               "line", "chart_blight"),
        Series("terror", N_("Terror level"), [t.get("terror_level", 0) for t in rounds], "bars",
               "chart_terror", ceiling=4, value_names=("0", "I", "II", "III", "IV")),
    ]


def group(row: Row, words: Words) -> StatisticsGroup:
    """By adversary and level, games without one first."""
    adversary, level = row.get("adversary"), row.get("adversary_level")
    return StatisticsGroup(
        (adversary or "", level or 0),
        f"{_name(words, adversary)} {level or 0}" if adversary
        else words._("No adversary"))


HISTORY = GameHistory(line=line, facts=facts, series=series, group=group,
                      statistics_title=N_("Wins by adversary and level"),
                      statistics_button=N_("Wins by adversary"))
