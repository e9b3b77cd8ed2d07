"""How a saved Leviathan Wilds game reads in the history: the leviathan, the difficulty and the
guardians; the wrath and the crystals left round by round; wins by leviathan."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.history import Fact, GameHistory, Series, StatisticsGroup, plain_line
from companion.i18n import N_

from . import data

if TYPE_CHECKING:
    from companion.core.history import Row, Words

DIFFICULTY_NAMES = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard"),
                    "expert": N_("expert")}


def _leviathan(row: Row, words: Words) -> str:
    number = row["setup"].get("leviathan")
    known = data.LEVIATHANS.get(number) if isinstance(number, int) else None
    return words._(known.name) if known else words._("Leviathan {number}").format(
        number=number)


def _difficulty(row: Row, words: Words) -> str:
    difficulty = str(row["setup"].get("difficulty", ""))
    return words._(DIFFICULTY_NAMES.get(difficulty, difficulty))


def _guardians(row: Row, words: Words) -> str:
    count = row["details"].get("guardians", row.get("players") or 0)
    return words.ngettext("{count} guardian", "{count} guardians", count).format(count=count)


def line(row: Row, words: Words) -> str:
    """"Leviathan name, hard, 3 guardians · victory · 6 rounds"."""
    return (f"{_leviathan(row, words)}, {_difficulty(row, words)}, {_guardians(row, words)}"
            f" · {plain_line(row, words)}")


def facts(row: Row, words: Words) -> list[Fact]:
    return [Fact("leviathan", words._("Leviathan"), _leviathan(row, words)),
            Fact("difficulty", words._("Difficulty"), _difficulty(row, words)),
            Fact("guardians", words._("Guardians"), _guardians(row, words))]


def series(detail: Row) -> list[Series]:
    """The wrath (bars) and the crystals left (a line) at each round's end."""
    rounds = [tally for tally in detail["per_round"] if "wrath" in tally]
    if not rounds:
        return []
    return [Series("wrath", N_("Wrath at the end of each round"), [t["wrath"] for t in rounds],
                   "bars", "chart_blight"),
            Series("crystals", N_("Crystals left"), [t["crystals_left"] for t in rounds], "line",
                   "chart_fear")]


def group(row: Row, words: Words) -> StatisticsGroup:
    """By leviathan and difficulty."""
    return StatisticsGroup(
        (row["setup"].get("leviathan") or 0,
         list(DIFFICULTY_NAMES).index(d) if (d := row["setup"].get("difficulty"))
         in DIFFICULTY_NAMES else 9),
        f"{_leviathan(row, words)}, {_difficulty(row, words)}")


HISTORY = GameHistory(line=line, facts=facts, series=series, group=group,
                      statistics_title=N_("Wins by leviathan and difficulty"),
                      statistics_button=N_("Wins by leviathan"))
