"""The history of saved games, one game's details (its facts and charts of its rounds) and the
statistics (wins as bars), with the helpers they share. They know no game's rules: the rows,
details and statistics come from each game's `Game.history`, through the registry. Layouts in
layouts/history.kv, history_detail.kv and statistics.kv.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.metrics import sp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from .. import i18n
from ..core.game import Game
from ..core.history import GameHistory, Words
from ..i18n import N_, _
from .widgets import ask_then


def app() -> Any:
    return App.get_running_app()


# Each game's saved games read through its `Game.history` hooks; the game's name is said on every
# row once the history holds a game other than the default one (a table that only ever played
# Spirit Island sees its history as it always was).

def words() -> Words:
    """The screens' language for a game's history hooks."""
    return Words(_, i18n.ngettext)


def game_of(row: dict[str, Any]) -> Game | None:
    from ..games.registry import GAMES

    return GAMES.get(row.get("title", ""))


def history_of(row: dict[str, Any]) -> GameHistory:
    game = game_of(row)
    return game.history if game else GameHistory()


def game_name(title: str) -> str:
    return _(app().game_names.get(title, title))


def names_games(titles: Iterable[str]) -> bool:
    """Whether the history says which game each row is: it holds a game not the default."""
    from ..games.registry import DEFAULT_GAME

    return any(title != DEFAULT_GAME for title in titles)


def only_game(titles: Iterable[str]) -> Game | None:
    """The one game the history holds (the default game's when it holds none), else None."""
    from ..games.registry import DEFAULT_GAME, GAMES

    found = set(titles) or {DEFAULT_GAME}
    return GAMES.get(found.pop()) if len(found) == 1 else None


ALL_GAMES_STATISTICS = N_("Wins by game")
"""The statistics' heading and the history's button to them when it holds several games."""


class HistoryScreen(Screen):
    stats_text = StringProperty("")
    """Games played, wins, win rate, average score."""
    statistics_button = StringProperty("")
    """The button to the statistics: what they break the games down by."""

    def on_pre_enter(self, *_args: Any) -> None:
        self.refresh()

    def retranslate(self) -> None:
        self.refresh()

    def refresh(self) -> None:
        games = app().service_call({"cmd": "games"}).get("games", [])
        stats = app().service_call({"cmd": "stats"}).get("stats", {})
        self.stats_text = stats_summary(stats)
        titles = {game["title"] for game in games}
        single = only_game(titles)
        self.statistics_button = _(single.history.statistics_button if single
                                   else ALL_GAMES_STATISTICS)
        named = names_games(titles)
        self.ids.games.data = [_history_row(game, named) for game in reversed(games)]

    def open_game(self, game_id: int) -> None:
        """A tapped row: that game's details."""
        if app().screen("history_detail").show_game(game_id):
            app().show("history_detail")

    def delete(self, game_id: int) -> None:
        def go() -> None:
            # The screen asked the players already; the service's own confirm flag is for scripts.
            app().service_call({"cmd": "delete", "game": game_id, "confirm": True})
            self.refresh()
            app().reload_state()

        row = next((row for row in self.ids.games.data if row["game_id"] == game_id), None)
        game = row["text"] if row else ""
        ask_then(_("Delete this game from the history for good?\n{game}").format(game=game),
                 _("Delete"), go, app().confirm_destructive)


def stats_summary(stats: dict[str, Any]) -> str:
    """Games played, won (and the rate, of the games that can be won together) and the average
    score (only while every game scored is of one game: scores of two games do not average)."""
    played = stats.get("games_played", 0)
    if not played:
        return _("No finished games yet.")
    parts = [i18n.ngettext("{count} game played", "{count} games played", played).format(
                 count=played)]
    if stats.get("win_rate") is not None:
        rate = round(100 * stats["win_rate"])
        parts.append(_("{wins} won ({rate}%)").format(wins=stats.get("wins", 0), rate=rate))
    average = stats.get("average_score")
    if average is not None and len(stats.get("by_game", [])) <= 1:
        parts.append(_("average score {average}").format(average=f"{average:.1f}"))
    return " · ".join(parts)


def _history_row(game: dict[str, Any], named: bool) -> dict[str, Any]:
    parts = [game_name(game["title"])] if named else []
    parts += [(game.get("started_at") or "")[:10],
              _("{players}p").format(players=game["players"]),
              history_of(game).line(game, words())]
    return {"game_id": game["id"], "text": " · ".join(parts)}


def local_time(stamp: str | None) -> str:
    """An ISO time stamp from the database as the table's local date and time."""
    if not stamp:
        return ""
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp[:16]


def duration_text(minutes: float) -> str:
    """Played time: "42 min", "1 h 05 min"."""
    whole = round(minutes)
    if whole < 60:
        return _("{minutes} min").format(minutes=whole)
    return _("{hours} h {minutes} min").format(hours=whole // 60, minutes=f"{whole % 60:02d}")


class HistoryDetailScreen(Screen):
    """One game of the history: what was played, how it ended, and charts of its rounds (each
    game's own facts and series, from its `Game.history`)."""

    game_id = NumericProperty(0)
    """The game shown."""
    title = StringProperty("")
    """Which game this is."""
    date_text = StringProperty("")
    """When it started (local time)."""
    length_text = StringProperty("")
    """How long it was played."""
    players_text = StringProperty("")
    """How many played."""
    facts = ListProperty([])
    """The game's own facts, as `Fact`s (Spirit Island: the adversary, the scenario)."""
    result_text = StringProperty("")
    """Victory, defeat, sacrifice victory; who won; or in progress, abandoned."""
    reason_text = StringProperty("")
    """Why the game ended, in words."""
    outcome_text = StringProperty("")
    """The result and why, in one sentence."""
    score_text = StringProperty("")
    """The score, or that it was not scored."""
    series = ListProperty([])
    """The game's charts, as `Series`."""
    has_rounds = BooleanProperty(False)
    """At least one round was played: the charts are shown."""

    def __getattr__(self, name: str) -> Any:
        # A fact reads as `<id>_text`: Spirit Island's adversary_text, scenario_text.
        if name.endswith("_text") and not name.startswith("_"):
            for fact in self.__dict__.get("facts_shown", ()):
                if f"{fact.id}_text" == name:
                    return fact.value
        raise AttributeError(name)

    def on_kv_post(self, *_args: Any) -> None:
        # The charts take the theme's colours as they are drawn: a new theme draws them anew.
        app().bind(colours=self._show_series)

    def retranslate(self) -> None:
        if self.game_id:
            self.show_game(int(self.game_id))

    def show_game(self, game_id: int) -> bool:
        """Fill the screen with the game's details; False when the service refused them."""
        answer = app().service_call({"cmd": "game_detail", "game": game_id})
        if not answer["ok"]:
            return False
        game = answer["game_detail"]
        history = history_of(game)
        self.game_id = game_id
        self.date_text = local_time(game.get("started_at"))
        # What the players know the game by (its name and when it began), not the database's
        # number for it.
        self.title = " · ".join(part for part in (game_name(game["title"]), self.date_text)
                                if part)
        self.length_text = duration_text(game.get("duration_minutes") or 0.0)
        players = game["players"]
        self.players_text = _("1 player") if players == 1 \
            else _("{count} players").format(count=players)
        self.__dict__["facts_shown"] = self.facts = history.facts(game, words())
        self.result_text, self.reason_text = history.result(game, words())
        self.outcome_text = _("{result}: {detail}").format(
            result=self.result_text, detail=self.reason_text) if self.reason_text \
            else self.result_text
        score = game.get("score")
        self.score_text = words().points(score) if score is not None else _("not scored")
        self.series = history.series(game)
        self.has_rounds = any(series.values for series in self.series)
        self._show_facts()
        self._show_series()
        return True

    def _forget_ids(self, kind: str) -> None:
        """Take the last game's facts or plots out of the ids (another game has others)."""
        for name in self.__dict__.pop(f"{kind}_ids", []):
            self.ids.pop(name, None)

    def _show_facts(self) -> None:
        box = self.ids.game_facts
        box.clear_widgets()
        self._forget_ids("facts")
        self.__dict__["facts_ids"] = [fact.id for fact in self.facts]
        for fact in self.facts:
            row = Factory.FactRow(name=fact.label, value=fact.value)
            box.add_widget(row)
            self.ids[fact.id] = row
        box.size_hint_y = len(self.facts) or 0.001

    def _show_series(self, *_args: Any) -> None:
        box = self.ids.chart
        for widget in self.__dict__.pop("plots_shown", []):
            box.remove_widget(widget)
        shown: list[Any] = []
        self._forget_ids("plots")
        self.__dict__["plots_ids"] = [f"{series.id}_plot" for series in self.series]
        colours = app().colours
        for number, series in enumerate(self.series, start=1):
            last = number == len(self.series)
            title = Factory.ChartTitle(text=_(series.title) if self.has_rounds else "")
            title.color = colours.get(series.colour, colours["text"])  # after the style's
            shown.append(title)
            plot = Factory.RoundPlot(
                values=list(series.values), style=series.style,
                colour=colours.get(series.colour, colours["text"]),
                axis_colour=colours["muted"], text_colour=colours["text"],
                font_size=sp(14) * app().text_scale,
                ceiling=series.ceiling or 1, value_names=list(series.value_names),
                show_rounds=last, size_hint_y=1.25 if last else 1)
            shown.append(plot)
            self.ids[f"{series.id}_plot"] = plot
        for widget in shown:
            box.add_widget(widget)
        self.__dict__["plots_shown"] = shown


class StatisticsScreen(Screen):
    """Wins as bars (games played outlined, games won filled in): by game, each game broken
    down its own way (Spirit Island: by adversary and level); one game's alone when the history
    holds only one."""

    stats_text = StringProperty("")
    """The same summary line as the history's."""
    heading = StringProperty("")
    """What the bars break the games down by."""

    def on_pre_enter(self, *_args: Any) -> None:
        self.refresh()

    def retranslate(self) -> None:
        self.refresh()

    def refresh(self) -> None:
        stats = app().service_call({"cmd": "stats"}).get("stats", {})
        finished = app().service_call({"cmd": "history"}).get("history", [])
        self.stats_text = stats_summary(stats)
        single = only_game(game["title"] for game in finished)
        self.heading = _(single.history.statistics_title if single else ALL_GAMES_STATISTICS)
        self.ids.rows.data = statistics_rows(finished, by_game=single is None)


def _bar(name: str, games: list[dict[str, Any]], heading: bool = False) -> dict[str, Any]:
    results = [history_of(game).won(game) for game in games]
    played = len(games)
    if all(result is None for result in results):  # nobody wins together: counted as played
        return {"name": name, "played": played, "won": 0, "heading": heading,
                "count_text": i18n.ngettext("{played} played", "{played} played",
                                            played).format(played=played)}
    won = sum(1 for result in results if result)
    return {"name": name, "played": played, "won": won, "heading": heading,
            "count_text": i18n.ngettext("{won} of {played} won", "{won} of {played} won",
                                        won).format(won=won, played=played)}


def statistics_rows(finished: list[dict[str, Any]], by_game: bool) -> list[dict[str, Any]]:
    """Per game (in the registry's order) a bar of its own when `by_game`, then one bar per
    group of its `history.group` (Spirit Island: adversary and level, games without one
    first), all to one scale."""
    from ..games.registry import GAMES

    rows: list[dict[str, Any]] = []
    for game in GAMES.values():
        played = [row for row in finished if row["title"] == game.id]
        if not played:
            continue
        if by_game:
            rows.append(_bar(_(game.name), played, heading=True))
        if game.history.group is None:
            continue
        groups: dict[tuple[Any, ...], tuple[str, list[dict[str, Any]]]] = {}
        for row in played:
            group = game.history.group(row, words())
            groups.setdefault(group.order, (group.name, []))[1].append(row)
        indent = "    " if by_game else ""
        rows += [_bar(indent + name, rows_in) for _order, (name, rows_in) in sorted(
            groups.items(), key=lambda item: item[0])]
    most = max([row["played"] for row in rows] or [1])
    return [{**row, "most": most} for row in rows]
