"""The shared screens: each copies what it shows into Kivy properties and turns taps into commands.

They know no game's rules: a game's table, its new-game form and its other screens are in its
folder (companion/games/<game>/ui/), found through the registry's `Game` record. Layouts are in
layouts/<screen>.kv; every command goes through `App.send`, which the game service answers only
once the command is on disk.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.metrics import sp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from .. import i18n
from ..core.game import Game
from ..core.history import GameHistory, Words
from ..i18n import N_, _
from ..reader.tags import TAG_KINDS, kinds
from .reads import tag_name
from .widgets import ConfirmPopup, ask_then


def app() -> Any:
    return App.get_running_app()


def now() -> float:
    """The clock the table's tap rules read (tests replace it to play at a player's pace)."""
    return time.monotonic()


# --- home ----------------------------------------------------------------------------------------

class HomeScreen(Screen):
    resume_text = StringProperty("")
    """What the resume button says; empty when there is no unfinished game."""
    notice = StringProperty("")
    """A line for the players: a damaged database moved aside, …"""

    def on_kv_post(self, *_args: Any) -> None:
        app().bind(game_state=self._game_changed)

    def _game_changed(self, *_args: Any) -> None:
        # Off the window (a table is shown) every tap would draw the resume button's words
        # anew for nothing: entering refreshes it.
        if self.parent is not None:
            self.refresh()

    def on_pre_enter(self, *_args: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        state = app().game_state
        table = app().table_class(state) if state else None
        if not state and app().held_game is not None:  # a safe start left it waiting
            self.resume_text = _("Resume {game}").format(game=app().held_game_name())
        elif table is None:  # no game, or one this app has no table for (a script plays it)
            self.resume_text = ""
        elif hasattr(table, "resume_text"):
            self.resume_text = table.resume_text(state)
        else:
            self.resume_text = _("Resume {game}: round {round}").format(
                game=_(app().game_names.get(state["title"], state["title"])),
                round=state.get("round", "")) if unfinished(state) else ""

    def resume(self) -> None:
        if not app().game_state and app().held_game is not None:
            app().resume_held_game()
        state = app().game_state
        table = app().table_class(state) if state else None
        if table is None:
            return
        app().show(table.resume_screen(state) if hasattr(table, "resume_screen")
                   else app().table_name(state))


def unfinished(state: dict[str, Any]) -> bool:
    """A game is in play and not over (a game whose state has a phase is over in phase "over";
    one without is over once it has an outcome)."""
    if not state:
        return False
    if "phase" in state:
        return bool(state["phase"] != "over")
    return state.get("outcome") is None


# --- new game ------------------------------------------------------------------------------------

class NewGameScreen(Screen):
    """Which game, then that game's own form (from its folder, through the registry). The
    form's properties and methods read and write through the screen as its own (the reader's
    link and the tests name them so), and its ids join the screen's."""

    game = StringProperty("")
    """The game to start: its id in the registry."""
    games = ListProperty([])
    """The games offered: those with a new-game form (and a table), in the registry's order."""
    note = StringProperty("")
    """The chosen form's line beside Start (Spirit Island: the difficulty)."""

    def on_kv_post(self, *_args: Any) -> None:
        self._language = i18n.language()
        self._forms: dict[str, Any] = {}
        chooser, box = self.ids.games, self.ids.forms
        for game_id, form_class in app().setup_forms().items():
            form = form_class()
            self._forms[game_id] = form
            box.add_widget(form)
            self.ids[getattr(form, "form_id", f"{game_id.replace('-', '_')}_form")] = form
            for name, widget in form.ids.items():
                self.ids.setdefault(name, widget)
            button = _game_choice(game_id, self)
            chooser.add_widget(button)
            self.ids[f"game_{game_id.replace('-', '_')}"] = button
            form.bind(note=self._show_note)
        self.games = list(self._forms)
        self.bind(game=self._show_form)
        self.restore(app().last_new_game())

    def __getattr__(self, name: str) -> Any:
        # Only what the screen itself lacks: a property or method of a hosted form.
        if not name.startswith("_"):
            for form in self.__dict__.get("_forms", {}).values():
                if hasattr(form, name):
                    return getattr(form, name)
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        forms = self.__dict__.get("_forms", {})
        if not name.startswith("_") and not hasattr(type(self), name):
            for form in forms.values():
                if form.property(name, quiet=True) is not None:
                    setattr(form, name, value)
                    return
        super().__setattr__(name, value)

    def form(self, game_id: str | None = None) -> Any:
        """The form of `game_id` (the chosen game when None), or None."""
        return self._forms.get(self.game if game_id is None else game_id)

    def restore(self, last: dict[str, Any]) -> None:
        """The last game started is chosen again, its form filled with its choices."""
        from ..games.registry import DEFAULT_GAME

        last_game = last.get("game", DEFAULT_GAME)
        for game_id, form in self._forms.items():
            form.restore(last if game_id == last_game else app().last_new_game(game_id))
        if last_game in self._forms:
            self.game = last_game
        elif self.game not in self._forms:
            self.game = DEFAULT_GAME if DEFAULT_GAME in self._forms \
                else next(iter(self._forms), "")
        self._show_form()

    def _show_form(self, *_args: Any) -> None:
        for game_id, form in self._forms.items():
            chosen = game_id == self.game
            form.opacity = 1 if chosen else 0
            form.disabled = not chosen
            form.size_hint_y = 1 if chosen else None
            form.height = 100 if chosen else 0
        self._show_note()

    def _show_note(self, *_args: Any) -> None:
        form = self.form()
        self.note = getattr(form, "note", "") if form is not None else ""

    def on_pre_enter(self, *_args: Any) -> None:
        if self._language != i18n.language():
            self.retranslate()

    def retranslate(self) -> None:
        """Every form's names in the language in use; what was chosen stays chosen."""
        for form in self._forms.values():
            form.retranslate()
        self._language = i18n.language()

    def command(self) -> dict[str, Any]:
        """new_game as the chosen form fills it in."""
        from ..games.registry import DEFAULT_GAME

        command = dict(self.form().command())
        if self.game != DEFAULT_GAME:
            command.setdefault("game", self.game)
        return command

    def start(self) -> None:
        if self.form() is None:
            return
        state = app().game_state

        def begin() -> None:
            if unfinished(state):
                app().send({"cmd": "abandon"})
            command = self.command()
            if app().send(command):
                app().remember_new_game(command)
                app().show("checklist")

        if unfinished(state):
            ask_then(_("A game is still unfinished. Abandon it and start a new one?"),
                     _("Abandon and start"), begin, app().confirm_destructive)
        else:
            begin()


def _game_choice(game_id: str, screen: NewGameScreen) -> Any:
    """The button that chooses `game_id` (its look is GameChoice in new_game.kv)."""
    button = Factory.GameChoice()
    button.game = game_id
    button.state = "down" if screen.game == game_id else "normal"
    screen.bind(game=lambda _screen, chosen: setattr(
        button, "state", "down" if chosen == game_id else "normal"))
    button.bind(on_release=lambda _button: setattr(screen, "game", game_id))
    return button


# --- setup checklist -----------------------------------------------------------------------------

class ChecklistRow(ButtonBehavior, Label):
    """One setup instruction; a tap ticks it (the ticks help the table, the game does not
    depend on them)."""

    done = BooleanProperty(False)
    """Ticked by the players."""


class ChecklistScreen(Screen):
    items = ListProperty([])
    """The setup instructions' texts."""
    summary = StringProperty("")
    """The game's choices in one line (the table screen's `setup_summary`)."""
    ticked = NumericProperty(0)
    """How many items are ticked."""
    ready_text = StringProperty("")
    """What the button on to the table says."""

    def on_pre_enter(self, *_args: Any) -> None:
        self.refresh()

    def on_ticked(self, *_args: Any) -> None:
        self._show_ready()

    def on_items(self, *_args: Any) -> None:
        self._show_ready()

    def retranslate(self) -> None:
        """The texts again in the language in use; the ticks stay."""
        self.refresh(keep_ticks=True)

    def refresh(self, keep_ticks: bool = False) -> None:
        state = app().game_state
        if not state:
            return
        rows = self.ids.checklist
        done = [row.done for row in reversed(rows.children)] if keep_ticks else []
        self.items = [item["text"] for item in app().setup_checklist()]
        table = app().screen(app().table_name(state)) if app().table_name(state) else None
        self.summary = table.setup_summary(state) \
            if table is not None and hasattr(table, "setup_summary") else ""
        rows.clear_widgets()
        for index, text in enumerate(self.items):
            ticked = index < len(done) and done[index]
            rows.add_widget(ChecklistRow(text=text, done=ticked, on_release=self._toggled))
        self.ticked = sum(1 for row in rows.children if row.done)
        self._show_ready()

    def _show_ready(self) -> None:
        all_ticked = self.ticked >= len(self.items)
        table = app().table_class(app().game_state) if app() and app().game_state else None
        if table is not None and hasattr(table, "ready_text"):
            self.ready_text = table.ready_text(all_ticked)
        else:
            self.ready_text = _("All set: on to the table") if all_ticked \
                else _("Set up: on to the table")

    def _toggled(self, row: ChecklistRow) -> None:
        row.done = not row.done
        self.ticked = sum(1 for r in self.ids.checklist.children if r.done)

    def ready(self) -> None:
        """On to the table; with items unticked the players are asked first."""
        left = len(self.items) - self.ticked
        table = app().table_name()
        if left <= 0:
            app().show(table)
            return
        ConfirmPopup(message=_("{left} of {total} setup items are not ticked. Start anyway?")
                     .format(left=left, total=len(self.items)),
                     confirm_text=_("Start anyway"),
                     when_confirmed=lambda: app().show(table)).open()


# --- history and statistics ---------------------------------------------------------------------

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

    def _show_series(self) -> None:
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


# --- card tags (enrolment) -----------------------------------------------------------------------

class TagsScreen(Screen):
    """Enrolment: lay a card on the reader, then tap which card it is (every game's kinds)."""

    uid = StringProperty("")
    """The tag read last (upper-case hex), or empty before the first read."""
    status_text = StringProperty("")
    """What the tag read last is, or what to do first."""
    kind = StringProperty(TAG_KINDS[0])
    """The kind of card listed (the first game's first, to begin with)."""
    progress_text = StringProperty("")
    """How many cards of the listed kind have a tag."""
    can_forget = BooleanProperty(False)
    """The tag read last is enrolled, so it can be forgotten."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._tags: dict[str, dict[str, Any]] = {}
        self._progress: dict[str, list[int]] = {}
        # One button per kind, the games' in the registry's order, then "command".
        for kind, words in kinds().items():
            button = Factory.TagKindButton()  # a kv class: its properties exist once built
            button.kind, button.label, button.screen = kind, words.label, self
            self.ids.kinds.add_widget(button)

    def on_pre_enter(self, *_args: Any) -> None:
        self.refresh()

    def on_kind(self, *_args: Any) -> None:
        self.refresh()

    def retranslate(self) -> None:
        self.refresh()

    def refresh(self) -> None:
        answer = app().service_call({"cmd": "tags"})
        if not answer["ok"]:
            return
        self._tags = {tag["uid"]: tag for tag in answer["tags"]}
        self._progress = answer["progress"]
        enrolled_cards = {tag["card"] for tag in answer["tags"] if tag["kind"] == self.kind}
        self.ids.cards.data = [
            {"text": _("{name}  · tagged").format(name=name) if card in enrolled_cards
             else name,
             "card": card, "tagged": card in enrolled_cards}
            for card, name in tag_cards(self.kind)
        ]
        done, total = self._progress.get(self.kind, [len(enrolled_cards), 0])
        cards = _(kinds()[self.kind].many)
        self.progress_text = (
            _("{done} of {total} {cards} have a tag").format(done=done, total=total, cards=cards)
            if total else
            _("{count} {cards} have a tag").format(count=len(enrolled_cards), cards=cards))
        self._describe()

    def tag_read(self, uid: str) -> None:
        """A tag was laid on the reader while this screen is open."""
        self.uid = uid
        self._describe()

    def _describe(self) -> None:
        tag = self._tags.get(self.uid)
        self.can_forget = tag is not None
        if not self.uid:
            self.status_text = _("Lay a card on the reader, then tap which card it is. "
                                 "(Is the reader set up? Settings, Card reader.)")
        elif tag is None:
            self.status_text = _("Tag {uid}: not enrolled yet. Tap which card it is.").format(
                uid=self.uid)
        else:
            self.status_text = _("Tag {uid} is {name}. Tap another card to change it.").format(
                uid=self.uid, name=tag_name(tag["kind"], tag["card"]))

    def choose(self, card: str) -> None:
        if not self.uid:
            app().notice = _("Lay a card on the reader first: then the app knows which tag "
                             "it is.")
            return
        current = self._tags.get(self.uid)
        command = {"cmd": "tag_enrol", "uid": self.uid, "kind": self.kind, "card": card}
        if current is None or (current["kind"], current["card"]) == (self.kind, card):
            self._enrol(command)
            return
        name = dict(tag_cards(self.kind)).get(card, card)
        current_name = tag_name(current["kind"], current["card"])
        ConfirmPopup(message=_("This tag is {current}. Make it {name} instead?").format(
                         current=current_name, name=name),
                     confirm_text=_("Change it"),
                     when_confirmed=lambda: self._enrol({**command, "replace": True})).open()

    def _enrol(self, command: dict[str, Any]) -> None:
        if app().service_call(command)["ok"]:
            self.refresh()

    def forget(self) -> None:
        tag = self._tags.get(self.uid)
        if tag is None:
            return

        def forget_it() -> None:
            if app().service_call({"cmd": "tag_forget", "uid": self.uid})["ok"]:
                self.refresh()

        ask_then(_("Forget tag {uid} ({name})?").format(
                     uid=self.uid, name=tag_name(tag["kind"], tag["card"])),
                 _("Forget"), forget_it, app().confirm_destructive)


def tag_cards(kind: str) -> list[tuple[str, str]]:
    """(id, name) of every card a tag of `kind` can stand for, in the catalogue's order; the
    names in the language in use."""
    from ..reader.tags import COMMAND, TAG_COMMANDS, known_cards

    cards = list(TAG_COMMANDS) if kind == COMMAND else known_cards()[kind]
    return [(card, tag_name(kind, card)) for card in cards]


# --- rules ----------------------------------------------------------------------------------------


class RulesScreen(Screen):
    """Search the rules as you type; read an entry, follow its links, go back."""

    query = StringProperty("")
    """What is typed in the search box."""
    lang = StringProperty("en")
    """The language of the entries shown."""
    entry_id = StringProperty("")
    """The entry being read, or empty while the results are shown."""
    entry_title = StringProperty("")
    """The open entry's title."""
    entry_body = StringProperty("")
    """The open entry's text."""
    nothing_found = BooleanProperty(False)
    """Something is typed and no entry matches it."""
    game = StringProperty("")
    """The id of the game being played (rules.kv binds it to the state's title); empty when none."""
    all_games = BooleanProperty(False)
    """The search shows every game's entries, not only those of the game being played."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._history: list[str] = []
        self.return_to = "home"
        self.lang = i18n.language()  # the app's language, until EN / DE / FR say otherwise

    def on_query(self, *_args: Any) -> None:
        if self.ids.query.text != self.query:
            self.ids.query.text = self.query
        self.entry_id = ""
        self._history.clear()
        self.search()

    def on_lang(self, *_args: Any) -> None:
        if self.entry_id:
            self._show(self.entry_id)
        self.search()

    def on_entry_id(self, *_args: Any) -> None:
        if self.entry_id:  # reading: the keys make room for the text
            self.ids.query.focus = False

    def on_enter(self, *_args: Any) -> None:
        """Nothing to read yet: the keys come up at once, ready for a search."""
        if not self.entry_id and not self.ids.results.data:
            self.ids.query.focus = True

    def on_all_games(self, *_args: Any) -> None:
        if self.query.strip():  # an empty query may be showing a step's help: leave it
            self.search()

    on_game = on_all_games

    def search(self) -> None:
        game = None if self.all_games else self.game or None
        hits = app().rules_index().search(self.query, self.lang, game=game) \
            if self.query.strip() else []
        self.ids.results.data = [{"text": f"{hit.title}\n{hit.snippet}", "entry_id": hit.id}
                                 for hit in hits]
        self.nothing_found = bool(self.query.strip()) and not hits

    def list_entries(self, entries: list[Any]) -> None:
        """Show these entries as the results (the help for a step)."""
        self.query = ""
        self.nothing_found = False
        self.ids.results.data = [{"text": f"{entry.title}\n{entry.body[:90]}…",
                                  "entry_id": entry.id} for entry in entries]

    def open_entry(self, entry_id: str) -> None:
        if self.entry_id:
            self._history.append(self.entry_id)
        self._show(entry_id)

    def _show(self, entry_id: str) -> None:
        entry = app().rules_index().entry(entry_id, self.lang)
        if entry is None:
            return
        self.entry_id, self.entry_title, self.entry_body = entry.id, entry.title, entry.body
        related = self.ids.related
        related.clear_widgets()
        for link in entry.related:
            target = app().rules_index().entry(link, self.lang)
            if target is not None:
                related.add_widget(RelatedLink(text=target.title, entry_id=link))

    def go_back(self) -> None:
        """Back to the previous entry, then to the results, then to where the players were."""
        if self._history:
            self._show(self._history.pop())
        elif self.entry_id:
            self.entry_id = ""
        else:
            app().show(self.return_to)


class RelatedLink(Button):
    """A link from an entry to a related one."""

    entry_id = StringProperty("")
    """The entry it opens."""
