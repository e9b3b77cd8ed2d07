"""The shared screens: each copies what it shows into Kivy properties and turns taps into commands.

They know no game's rules: a game's table, its new-game form and its other screens are in its
folder (companion/games/<game>/ui/), found through the registry's `Game` record. Layouts are in
layouts/<screen>.kv; every command goes through `App.send`, which the game service answers only
once the command is on disk.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from kivy.app import App
from kivy.factory import Factory
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
from ..i18n import N_, _
from ..reader.tags import TAG_KINDS, kinds
from .reads import tag_name
from .widgets import ConfirmPopup, ask_then

NONE_CHOICE = N_("None")

OUTCOME_NAMES = {"victory": N_("Victory"), "defeat": N_("Defeat"),
                 "sacrifice": N_("Sacrifice victory"), "win": N_("Victory"),
                 "loss": N_("Defeat")}
"""A finished game's result in the history's details."""


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
        app().bind(game_state=lambda *_: self.refresh())

    def on_pre_enter(self, *_args: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        state = app().game_state
        table = app().table_class(state) if state else None
        if table is None:  # no game, or one this app has no table for (a script plays it)
            self.resume_text = ""
        elif hasattr(table, "resume_text"):
            self.resume_text = table.resume_text(state)
        else:
            self.resume_text = _("Resume {game}: round {round}").format(
                game=_(app().game_names.get(state["title"], state["title"])),
                round=state.get("round", "")) if unfinished(state) else ""

    def resume(self) -> None:
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
            form.restore(last if game_id == last_game else {})
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


# --- history and statistics ----------------------------------------------------------------------

class HistoryScreen(Screen):
    stats_text = StringProperty("")
    """Games played, wins, win rate, average score."""

    def on_pre_enter(self, *_args: Any) -> None:
        self.refresh()

    def retranslate(self) -> None:
        self.refresh()

    def refresh(self) -> None:
        games = app().service_call({"cmd": "games"}).get("games", [])
        stats = app().service_call({"cmd": "stats"}).get("stats", {})
        self.stats_text = stats_summary(stats)
        names = catalogue_names()
        self.ids.games.data = [_history_row(game, names) for game in reversed(games)]

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

        ask_then(_("Delete game {game} from the history for good?").format(game=game_id),
                 _("Delete"), go, app().confirm_destructive)


def stats_summary(stats: dict[str, Any]) -> str:
    """Games played, won (and the rate) and the average score, in one line."""
    played = stats.get("games_played", 0)
    if not played:
        return _("No finished games yet.")
    rate = round(100 * stats.get("win_rate", 0))
    average = stats.get("average_score")
    parts = [i18n.ngettext("{count} game played", "{count} games played", played).format(
                 count=played),
             _("{wins} won ({rate}%)").format(wins=stats.get("wins", 0), rate=rate)]
    if average is not None:
        parts.append(_("average score {average}").format(average=f"{average:.1f}"))
    return " · ".join(parts)


def catalogue_names() -> dict[str, str]:
    """Adversary and scenario ids to their names (in English: `_` translates them)."""
    names = {a["id"]: a["name"] for a in app().catalogue.get("adversaries", [])}
    names.update({s["id"]: s["name"] for s in app().catalogue.get("scenarios", [])})
    return names


GAME_RESULT_NAMES = {"victory": N_("victory"), "defeat": N_("defeat"),
                     "win": N_("victory"), "loss": N_("defeat"),
                     "sacrifice": N_("sacrifice victory"), "active": N_("in progress"),
                     "finished": N_("finished"), "abandoned": N_("abandoned"),
                     "unreadable": N_("unreadable")}
"""A history row's result, or its status while it has none."""


def _against(game: dict[str, Any], names: dict[str, str]) -> str:
    adversary, scenario = game.get("adversary"), game.get("scenario")
    return ", ".join(filter(None, [
        f"{_(names.get(adversary, adversary))} {game.get('adversary_level') or 0}" if adversary
        else "",
        _(names.get(scenario, scenario)) if scenario else "",
    ])) or _("no adversary")


def _result(game: dict[str, Any]) -> str:
    result = game.get("result") or game["status"]
    return _(GAME_RESULT_NAMES.get(result, result))


def _points(score: int) -> str:
    return i18n.ngettext("{score} point", "{score} points", score).format(score=score)


def _history_row(game: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    parts = [(game.get("started_at") or "")[:10],
             _("{players}p").format(players=game["players"]), _against(game, names),
             _result(game)]
    if game.get("score") is not None:
        parts.append(_points(game["score"]))
    rounds = game.get("rounds") or 0
    parts.append(i18n.ngettext("{rounds} round", "{rounds} rounds", rounds).format(
        rounds=rounds))
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
    """One game of the history: what was played, how it ended, and a chart of its rounds."""

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
    adversary_text = StringProperty("")
    """The adversary and its level, or none."""
    scenario_text = StringProperty("")
    """The scenario, or none."""
    result_text = StringProperty("")
    """Victory, defeat, sacrifice victory; or in progress, abandoned."""
    reason_text = StringProperty("")
    """Why the game ended, in words."""
    outcome_text = StringProperty("")
    """The result and why, in one sentence."""
    score_text = StringProperty("")
    """The score, or that it was not scored."""
    fear = ListProperty([])
    """Fear generated in each round, round 1 first."""
    blight = ListProperty([])
    """Blight on the island at the end of each round."""
    terror = ListProperty([])
    """The terror level at the end of each round."""
    has_rounds = BooleanProperty(False)
    """At least one round was played: the chart is shown."""

    def retranslate(self) -> None:
        if self.game_id:
            self.show_game(int(self.game_id))

    def show_game(self, game_id: int) -> bool:
        """Fill the screen with the game's details; False when the service refused them."""
        answer = app().service_call({"cmd": "game_detail", "game": game_id})
        if not answer["ok"]:
            return False
        game = answer["game_detail"]
        names = catalogue_names()
        self.game_id = game_id
        self.title = _("Game {game}").format(game=game_id)
        self.date_text = local_time(game.get("started_at"))
        self.length_text = duration_text(game.get("duration_minutes") or 0.0)
        players = game["players"]
        self.players_text = _("1 player") if players == 1 \
            else _("{count} players").format(count=players)
        adversary, scenario = game.get("adversary"), game.get("scenario")
        self.adversary_text = _("{name}, level {level}").format(
            name=_(names.get(adversary, adversary)), level=game.get("adversary_level") or 0) \
            if adversary else _(NONE_CHOICE)
        self.scenario_text = _(names.get(scenario, scenario)) if scenario else _(NONE_CHOICE)
        outcome = game.get("outcome")
        self.result_text = _(OUTCOME_NAMES.get(outcome["result"], outcome["result"])) if outcome \
            else _result(game)
        self.reason_text = outcome["detail"] if outcome else (
            _("Abandoned in round {round}.").format(round=game.get("rounds") or 0)
            if game["status"] == "abandoned"
            else _("Still being played: round {round}.").format(round=game.get("rounds") or 0))
        self.outcome_text = _("{result}: {detail}").format(result=self.result_text,
                                                           detail=self.reason_text)
        score = game.get("score")
        self.score_text = _points(score) if score is not None else _("not scored")
        # The chart draws fear, blight and terror: a game whose rounds count other things
        # (Leviathan Wilds') shows its facts without it.
        rounds = [tally for tally in game["per_round"] if "fear_generated" in tally]
        self.fear = [tally["fear_generated"] for tally in rounds]
        self.blight = [tally.get("blight_on_island", 0) for tally in rounds]
        self.terror = [tally.get("terror_level", 0) for tally in rounds]
        self.has_rounds = bool(rounds)
        return True


class StatisticsScreen(Screen):
    """Wins by adversary and level as bars: games played outlined, games won filled in."""

    stats_text = StringProperty("")
    """The same summary line as the history's."""

    def on_pre_enter(self, *_args: Any) -> None:
        self.refresh()

    def retranslate(self) -> None:
        self.refresh()

    def refresh(self) -> None:
        stats = app().service_call({"cmd": "stats"}).get("stats", {})
        self.stats_text = stats_summary(stats)
        self.ids.rows.data = statistics_rows(stats, catalogue_names())


def statistics_rows(stats: dict[str, Any], names: dict[str, str]) -> list[dict[str, Any]]:
    """One bar per adversary and level (games without one first), all to one scale."""
    groups = stats.get("by_adversary", [])
    most = max([group["games_played"] for group in groups] or [1])
    return [{
        "name": f"{_(names.get(group['adversary'], group['adversary']))} {group['level'] or 0}"
        if group["adversary"] else _("No adversary"),
        "played": group["games_played"], "won": group["wins"], "most": most,
        "count_text": i18n.ngettext("{won} of {played} won", "{won} of {played} won",
                                    group["wins"]).format(won=group["wins"],
                                                          played=group["games_played"]),
    } for group in groups]


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

KEY_ACTIONS: dict[str, Callable[[str], str]] = {
    "Del": lambda text: text[:-1], "Space": lambda text: text + " ", "Clear": lambda text: ""}


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
    show_keys = BooleanProperty(True)
    """The letter keys are shown while searching (not while reading an entry)."""
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
        self.show_keys = not self.entry_id

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

    def list_entries(self, entries: list[Any]) -> None:
        """Show these entries as the results (the help for a step)."""
        self.query = ""
        self.ids.results.data = [{"text": f"{entry.title}\n{entry.body[:90]}…",
                                  "entry_id": entry.id} for entry in entries]

    def type_key(self, key: str) -> None:
        action = KEY_ACTIONS.get(key)
        self.query = action(self.query) if action else self.query + key

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
