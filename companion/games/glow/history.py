"""How a saved Glow game reads in the history (a competitive game: nobody wins together, one
player or a few tie at the top): the board side, who won and by how much, the scores day by day;
games by board side in the statistics. Also the rules help's step for the table's "?"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.core.history import Fact, GameHistory, Series, StatisticsGroup, result_word
from companion.core.phrases import Listing
from companion.i18n import N_

from . import data
from .state import State
from .texts import WORDS

if TYPE_CHECKING:
    from companion.core.history import Row, Words


def standings(state: State) -> dict[str, Any]:
    """The summary's details: the board side and, once scored, each player's final score by
    rank ({"rank" from 1, "player" from 0, "name" or None, "score"})."""
    standing = [
        {"rank": rank, "player": i, "name": state.setup.names[i] or None,
         "score": final.total if (final := state.players[i].final) else None}
        for rank, group in enumerate(state.ranking or (), start=1) for i in group]
    return {"board": state.setup.board, "standings": standing}


def _name(entry: dict[str, Any], words: Words) -> str:
    return entry["name"] or words._(WORDS["player"]).format(number=entry["player"] + 1)


def _names(names: list[str], words: Words) -> str:
    """"Ada", "Ada and Bo"."""
    return Listing(names, "").render(words._)


def winner_text(row: Row, words: Words) -> str | None:
    """"won by Ada, 78 to 72"; "shared by Ada and Bo, 70 to 64"; None before the end."""
    standing = row["details"].get("standings") or []
    if row.get("status") != "finished":
        return None
    if not standing:  # saved before the details were kept: the winners' names alone
        return words._("won by {names}").format(names=row["result"]) if row.get("result") \
            else None
    top = [entry for entry in standing if entry["rank"] == 1]
    rest = [entry["score"] for entry in standing if entry["rank"] > 1]
    names = _names([_name(entry, words) for entry in top], words)
    score = top[0]["score"]
    if not rest:
        return words._("won by {names} with {score}").format(names=names, score=score)
    template = words._("won by {names}, {score} to {next}") if len(top) == 1 \
        else words._("shared by {names}, {score} to {next}")
    return template.format(names=names, score=score, next=max(rest))


def _board(row: Row, words: Words) -> str:
    board = row["details"].get("board") or row["setup"].get("board")
    return words._(WORDS[board]) if board in data.BOARDS else str(board)


def _days(row: Row, words: Words) -> str:
    days = row.get("rounds") or 0
    return words.ngettext("{days} day", "{days} days", days).format(days=days)


def line(row: Row, words: Words) -> str:
    """"Sea of Darkness · won by Bo, 78 to 72 · 8 days" (· scoring only, for a game whose
    end scoring alone was entered)."""
    return " · ".join([_board(row, words), winner_text(row, words) or result_word(row, words),
                       words._("scoring only") if row.get("mode") == "scoring"
                       else _days(row, words)])


def facts(row: Row, words: Words) -> list[Fact]:
    standing = row["details"].get("standings") or []
    scores = ", ".join(f"{entry['rank']}. {_name(entry, words)} {entry['score']}"
                       for entry in standing)
    mode = words._("scoring only") if row.get("mode") == "scoring" \
        else words._("a whole game")
    return [Fact("board", words._("Board side"), _board(row, words)),
            Fact("mode", words._("Played"), mode),
            Fact("scores", words._("Final scores"),
                 scores or words._("not scored yet"))]


def result(row: Row, words: Words) -> tuple[str, str]:
    """"Bo wins" and "78 to 72"; "Ada and Bo share the win"; or how far the game got."""
    standing = row["details"].get("standings") or []
    days = row.get("rounds") or 0
    if row.get("status") != "finished" or not standing:
        return (result_word(row, words),
                words._("Abandoned on day {day}.").format(day=days)
                if row["status"] == "abandoned"
                else words._("Still being played: day {day}.").format(day=days))
    top = [entry for entry in standing if entry["rank"] == 1]
    rest = [entry["score"] for entry in standing if entry["rank"] > 1]
    names = _names([_name(entry, words) for entry in top], words)
    said = words._("{names} wins") if len(top) == 1 \
        else words._("{names} share the win")
    score = top[0]["score"]
    return (said.format(names=names),
            words._("{score} to {next}").format(score=score, next=max(rest)) if rest
            else words.ngettext("{score} point", "{score} points", score).format(score=score))


def series(detail: Row) -> list[Series]:
    """The leader's score on the track at each day's end (the end scoring comes after); none
    for a game scored only."""
    if detail.get("mode") == "scoring":
        return []
    days = [tally for tally in detail["per_round"] if tally.get("scores") and tally.get("round")]
    if not days:
        return []
    return [Series("leader", N_("Best score on the track at the end of each day"),
                   [max(tally["scores"]) for tally in days], "line", "chart_won")]


def group(row: Row, words: Words) -> StatisticsGroup:
    """By board side."""
    board = row["details"].get("board") or row["setup"].get("board")
    order = data.BOARDS.index(board) if board in data.BOARDS else len(data.BOARDS)
    return StatisticsGroup((order,), _board(row, words))


def help_step(state: dict[str, Any]) -> str | None:
    """The rules' step for the day's phase: "glow/noon"."""
    phase = state.get("phase")
    return f"{data.GAME_ID}/{phase}" if phase else None


HISTORY = GameHistory(line=line, facts=facts, result=result, series=series,
                      won=lambda row: None, group=group,
                      statistics_title=N_("Games by board side"),
                      statistics_button=N_("Games by board side"))
