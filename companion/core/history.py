"""How a game's saved games read in the history: its row, its facts, its chart and its statistics.

Each `Game` record holds one `GameHistory`; the shared history screens call it and know no
game's rules. A hook gets a saved game's row (the store's columns, its "details", its "setup":
the new_game command) and `Words`, the screens' language, and returns finished text. The
defaults fit a cooperative game that only wins or loses.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..i18n import N_
from .phrases import as_written

Row = dict[str, Any]
"""One saved game as the service's `games`/`history`/`game_detail` give it."""


def english_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


class Words:
    """The language the history is shown in: `_` for a text, `ngettext` for a count's (the
    names the catalogues' extraction looks for, so a hook's texts are found)."""

    def __init__(self, gettext: Callable[[str], str] = as_written,
                 ngettext: Callable[[str, str, int], str] = english_plural) -> None:
        self._gettext, self._ngettext = gettext, ngettext

    def _(self, text: str) -> str:
        return self._gettext(text)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return self._ngettext(singular, plural, count)

    def points(self, score: int) -> str:
        return self.ngettext("{score} point", "{score} points", score).format(score=score)

    def rounds(self, rounds: int) -> str:
        return self.ngettext("{rounds} round", "{rounds} rounds", rounds).format(rounds=rounds)


AS_WRITTEN = Words()
"""English, as the texts are written (scripts and tests)."""


RESULT_NAMES = {"victory": N_("victory"), "defeat": N_("defeat"),
                "win": N_("victory"), "loss": N_("defeat"),
                "sacrifice": N_("sacrifice victory"), "active": N_("in progress"),
                "finished": N_("finished"), "abandoned": N_("abandoned"),
                "unreadable": N_("unreadable")}
"""A history row's result, or its status while it has none."""

OUTCOME_NAMES = {"victory": N_("Victory"), "defeat": N_("Defeat"),
                 "sacrifice": N_("Sacrifice victory"), "win": N_("Victory"),
                 "loss": N_("Defeat")}
"""A finished game's result in the history's details."""

WINNING_RESULTS = ("victory", "sacrifice", "win")
"""The results a cooperative game counts as won."""


def result_word(row: Row, words: Words) -> str:
    """"victory", "defeat", …; or the game's status while it has no result."""
    result = str(row.get("result") or row["status"])
    return words._(RESULT_NAMES.get(result, result))


def plain_line(row: Row, words: Words) -> str:
    """A row's own part for a game without its own: the result, the score, the rounds."""
    parts = [result_word(row, words)]
    if row.get("score") is not None:
        parts.append(words.points(row["score"]))
    parts.append(words.rounds(row.get("rounds") or 0))
    return " · ".join(parts)


def plain_result(row: Row, words: Words) -> tuple[str, str]:
    """The detail's result and why, from the view's outcome ({"result", and "detail" or
    "reason"}), or how far an unfinished game got."""
    outcome = row.get("outcome")
    if outcome:
        return (words._(OUTCOME_NAMES.get(outcome["result"], outcome["result"])),
                outcome.get("detail") or outcome.get("reason") or "")
    rounds = row.get("rounds") or 0
    return (result_word(row, words),
            words._("Abandoned in round {round}.").format(round=rounds)
            if row["status"] == "abandoned"
            else words._("Still being played: round {round}.").format(round=rounds))


def won_when_result_wins(row: Row) -> bool | None:
    """A cooperative game: won when its result is a victory."""
    return row.get("result") in WINNING_RESULTS


@dataclass(frozen=True)
class Fact:
    """One line of the detail screen's facts."""

    id: str
    """Its name among the screen's texts: the screen's `<id>_text` reads its value."""
    label: str
    value: str
    """Both shown as they are (already in the screens' language)."""


@dataclass(frozen=True)
class Series:
    """One chart of the detail screen: a value per round, round 1 first."""

    id: str
    """Its plot's name among the screen's ids: `<id>_plot`."""
    title: str
    """What it counts, in English (translated where it is shown)."""
    values: Sequence[int]
    style: str = "bars"
    """"bars" or "line"."""
    colour: str = "chart_fear"
    """A colour of the theme (companion/ui/theme.py) by name."""
    ceiling: int | None = None
    """The highest value the axis shows (the highest value when None)."""
    value_names: Sequence[str] = ()
    """What the axis writes for 0, 1, 2, … (the numbers when empty)."""


@dataclass(frozen=True)
class StatisticsGroup:
    """One bar of a game's statistics: where a finished game counts, and in what order."""

    order: tuple[Any, ...]
    name: str
    """Shown as it is (already in the screens' language)."""


@dataclass(frozen=True)
class GameHistory:
    """A game's hooks for the history, the detail screen and the statistics."""

    line: Callable[[Row, Words], str] = plain_line
    """A row's own part, after the date and the players: what was played and how it ended."""
    facts: Callable[[Row, Words], list[Fact]] = lambda row, words: []
    """The detail's facts between the players and the result."""
    result: Callable[[Row, Words], tuple[str, str]] = plain_result
    """The detail's result and why ("Defeat", "The island is overrun."); the row has the
    view's "outcome" (None until the game ends)."""
    series: Callable[[Row], list[Series]] = lambda detail: []
    """The detail's charts from `game_detail`'s answer (its "per_round" above all), drawn when
    a value is in one (none: the facts alone)."""
    won: Callable[[Row], bool | None] = won_when_result_wins
    """Whether a finished game was won; None for a game nobody wins together (competitive):
    the statistics count it as played only."""
    group: Callable[[Row, Words], StatisticsGroup] | None = None
    """Where a finished game counts in the game's own statistics (none: its total alone)."""
    statistics_title: str = N_("Wins and losses")
    """The statistics' heading when the history holds only this game."""
    statistics_button: str = N_("Statistics")
    """The history's button to the statistics when it holds only this game."""
