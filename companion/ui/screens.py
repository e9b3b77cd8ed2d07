"""The screens: each copies what it shows into Kivy properties and turns taps into commands.

Layouts are in layouts/<screen>.kv; every command goes through `App.send`, which the game
service answers only once the command is on disk.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.metrics import dp, sp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from .. import i18n
from ..i18n import N_, _
from ..reader.tags import TAG_KINDS, kinds
from . import presenter
from .presenter import ROMAN, TableView
from .reads import tag_name
from .theme import rgba, text_colour_on
from .widgets import (
    NEUTRAL_CARD,
    CardPicker,
    ConfirmPopup,
    DetailsPopup,
    FearCardPicker,
    GrowLabel,
    InstantPopup,
    ask_then,
)

BLIGHT_SIDE_KEYS = ("healthy", "still_healthy", "blighted")
"""The sides the theme has a colour for."""

NONE_CHOICE = N_("None")
RANDOM_BLIGHT = N_("Random (base game)")


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
        if state and app().table_name(state) != "table":  # a game with a table of its own
            self.resume_text = _("Resume {game}: round {round}").format(
                game=_(app().game_names.get(state["title"], state["title"])),
                round=state["round"]) if unfinished(state) else ""
        elif state and state["phase"] != "over":
            self.resume_text = _("Resume game: round {round}, {step}").format(
                round=state["round"], step=presenter.step_title(state).split(" · ", 1)[-1])
        elif state and state["phase"] == "over" and not (state["outcome"] or {}).get("score"):
            self.resume_text = _("Resume: score the finished game")
        else:
            self.resume_text = ""

    def resume(self) -> None:
        state = app().game_state
        if state and app().table_name(state) != "table":
            app().show(app().table_name(state))
        elif state and state["phase"] == "over":
            app().show("end")
        elif state and state["phase"] == "setup" and state["step"] != "initial_explore":
            app().show("checklist")
        else:
            app().show("table")


def unfinished(state: dict[str, Any]) -> bool:
    """A game is in play and not over (Spirit Island's state has a phase; a game without one
    is over once it has an outcome)."""
    if not state:
        return False
    if "phase" in state:
        return bool(state["phase"] != "over")
    return state.get("outcome") is None


# --- new game ------------------------------------------------------------------------------------

SPIRIT_ISLAND = "spirit-island"
LEVIATHAN_WILDS = "leviathan-wilds"


class NewGameScreen(Screen):
    game = StringProperty(SPIRIT_ISLAND)
    """The game to start: its id in the registry."""
    leviathan = StringProperty("")
    """Leviathan Wilds: the leviathan as shown ("3 · name")."""
    leviathan_names = ListProperty([])
    """Leviathan Wilds: the leviathan picker's choices, by number."""
    lw_difficulty = StringProperty("medium")
    """Leviathan Wilds: easy, medium, hard or expert."""
    lw_players = NumericProperty(1)
    """Leviathan Wilds: 1 (solo: one player, two guardians) to 4."""
    players = NumericProperty(2)
    """Players at the table (1-6)."""
    mode = StringProperty("advanced")
    """"beginner" or "advanced"."""
    deck = StringProperty("virtual")
    """"virtual" (the app shuffles) or "physical" (players name each card)."""
    blight_card = StringProperty(RANDOM_BLIGHT)
    """The blight card's name, or the random choice (as shown, in the language in use)."""
    adversary = StringProperty(NONE_CHOICE)
    """The adversary's name or None (as shown)."""
    has_adversary = BooleanProperty(False)
    """An adversary is chosen, so its level can be."""
    level = StringProperty("0")
    """The adversary level."""
    scenario = StringProperty(NONE_CHOICE)
    """The scenario's name or None (as shown)."""
    scenario_difficulty = StringProperty("")
    """The chosen difficulty of a scenario printed with more than one."""
    scenario_difficulties = ListProperty([])
    """The difficulties the chosen scenario offers, when more than one."""
    events = BooleanProperty(False)
    """Play with the event deck."""
    thematic = BooleanProperty(False)
    """Play on the thematic map (+3 difficulty)."""
    difficulty_text = StringProperty("")
    """The difficulty of the choices made so far."""
    adversary_names = ListProperty([])
    """The adversary picker's choices."""
    scenario_names = ListProperty([])
    """The scenario picker's choices."""
    blight_names = ListProperty([])
    """The blight card picker's choices."""
    level_names = ListProperty([])
    """The levels the chosen adversary offers."""

    def on_kv_post(self, *_args: Any) -> None:
        self._language = ""
        self._adversaries: dict[str, dict[str, Any]] = {}
        self._scenarios: dict[str, dict[str, Any]] = {}
        self._blight: dict[str, dict[str, Any]] = {}
        self.retranslate()
        self.bind(adversary=self._changed, level=self._changed, scenario=self._changed,
                  scenario_difficulty=self._changed, thematic=self._changed,
                  mode=self._changed)
        self.restore(app().last_new_game())

    def restore(self, last: dict[str, Any]) -> None:
        """The choices of the last game started, where they still name something known."""
        if last.get("game") == LEVIATHAN_WILDS:
            self.game = LEVIATHAN_WILDS
            self._restore_leviathan(last)
            last = {}
        self._restore_spirit_island(last)

    def _restore_leviathan(self, last: dict[str, Any]) -> None:
        if last.get("players") in range(1, 5):
            self.lw_players = last["players"]
        if last.get("difficulty") in ("easy", "medium", "hard", "expert"):
            self.lw_difficulty = last["difficulty"]
        chosen = [name for name in self.leviathan_names
                  if name.split(" ", 1)[0] == str(last.get("leviathan"))]
        if chosen:
            self.leviathan = chosen[0]

    def _restore_spirit_island(self, last: dict[str, Any]) -> None:
        names = {item["id"]: name for name, item in
                 [*self._adversaries.items(), *self._scenarios.items(), *self._blight.items()]}
        if last.get("players") in range(1, 7):
            self.players = last["players"]
        if last.get("mode") in ("beginner", "advanced"):
            self.mode = last["mode"]
        if last.get("deck") in ("virtual", "physical"):
            self.deck = last["deck"]
        self.events, self.thematic = bool(last.get("events")), bool(last.get("thematic"))
        self.blight_card = names.get(last.get("blight_card"), _(RANDOM_BLIGHT))
        self.adversary = names.get(last.get("adversary"), _(NONE_CHOICE))
        self._changed()
        if str(last.get("level")) in self.level_names:
            self.level = str(last["level"])
        self.scenario = names.get(last.get("scenario"), _(NONE_CHOICE))
        self._changed()
        if str(last.get("scenario_difficulty")) in self.scenario_difficulties:
            self.scenario_difficulty = str(last["scenario_difficulty"])

    def on_pre_enter(self, *_args: Any) -> None:
        if self._language != i18n.language():
            self.retranslate()

    def retranslate(self) -> None:
        """The pickers' names in the language in use (the choices map back to the catalogue's
        ids through them); what was chosen stays chosen."""
        catalogue = app().catalogue
        adversary = self._adversaries.get(self.adversary)
        scenario = self._scenarios.get(self.scenario)
        blight = self._blight.get(self.blight_card)
        self._adversaries = {_(a["name"]): a for a in catalogue["adversaries"]}
        self._scenarios = {_(s["name"]): s for s in catalogue["scenarios"]}
        self._blight = {_(card["name"]): card for cards in catalogue["blight_cards"].values()
                        for card in cards}
        self.adversary_names = [_(NONE_CHOICE), *self._adversaries]
        self.scenario_names = [_(NONE_CHOICE), *self._scenarios]
        self.blight_names = [_(RANDOM_BLIGHT), *self._blight]
        self.adversary = _(adversary["name"]) if adversary else _(NONE_CHOICE)
        self.scenario = _(scenario["name"]) if scenario else _(NONE_CHOICE)
        self.blight_card = _(blight["name"]) if blight else _(RANDOM_BLIGHT)
        number = self.leviathan.split(" ", 1)[0]
        self.leviathan_names = [f"{lev['number']} · {_(lev['name'])}"
                                for lev in app().catalogue_of(LEVIATHAN_WILDS)["leviathans"]]
        self.leviathan = next((name for name in self.leviathan_names
                               if name.split(" ", 1)[0] == number), self.leviathan_names[0])
        self._language = i18n.language()
        self._changed()

    def _changed(self, *_args: Any) -> None:
        adversary = self._adversaries.get(self.adversary)
        self.has_adversary = adversary is not None
        for chosen in (adversary, self._scenarios.get(self.scenario)):
            if chosen and chosen.get("expansion") not in app().expansions:
                app().toggle_expansion(chosen["expansion"], True)  # its cards are on the table
        self.level_names = [str(level["level"]) for level in adversary["levels"]] \
            if adversary else ["0"]
        if self.level not in self.level_names:
            self.level = "0"
        scenario = self._scenarios.get(self.scenario)
        choices = [str(d) for d in scenario["difficulty_choices"]] if scenario else []
        self.scenario_difficulties = choices if len(choices) > 1 else []
        if self.scenario_difficulties and self.scenario_difficulty not in choices:
            self.scenario_difficulty = choices[0]
        self.difficulty_text = _("Difficulty {difficulty}").format(
            difficulty=self.difficulty())

    def difficulty(self) -> int:
        # The rules engine is imported when a screen first needs it, not before the first frame.
        from ..games.spirit_island.commands import NewGame, parse_command
        from ..games.spirit_island.setup import setup_difficulty

        command = parse_command(self.command())
        assert isinstance(command, NewGame)
        return setup_difficulty(command)

    def command(self) -> dict[str, Any]:
        if self.game == LEVIATHAN_WILDS:
            return {"cmd": "new_game", "game": LEVIATHAN_WILDS, "players": int(self.lw_players),
                    "difficulty": self.lw_difficulty,
                    "leviathan": int(self.leviathan.split(" ", 1)[0])}
        command: dict[str, Any] = {"cmd": "new_game", "players": int(self.players),
                                   "mode": self.mode, "deck": self.deck,
                                   "events": self.events, "thematic": self.thematic}
        blight = self._blight.get(self.blight_card)
        if blight and self.mode == "advanced":
            command["blight_card"] = blight["id"]
        adversary = self._adversaries.get(self.adversary)
        if adversary:
            command["adversary"] = adversary["id"]
            command["level"] = int(self.level)
        scenario = self._scenarios.get(self.scenario)
        if scenario:
            command["scenario"] = scenario["id"]
            if self.scenario_difficulties:
                command["scenario_difficulty"] = int(self.scenario_difficulty)
        return command

    def pick_leviathan(self) -> None:
        """Leviathan Wilds: the 17 leviathans as large buttons, by number."""
        picker = CardPicker(title=_("Which leviathan?"), columns=3)
        colour = app().colours["button"]
        picker.fill([{"value": name.split(" ", 1)[0], "text": name,
                      "detail": _("complexity {level}").format(level=lev["complexity"]),
                      "background": colour, "text_colour": app().colours["button_text"],
                      "highlight": name == self.leviathan}
                     for name, lev in zip(self.leviathan_names,
                                          app().catalogue_of(LEVIATHAN_WILDS)["leviathans"],
                                          strict=True)])
        picker.when_picked = lambda number: setattr(self, "leviathan", next(
            name for name in self.leviathan_names if name.split(" ", 1)[0] == number))
        picker.open()

    def choose_blight(self, card_id: str | None) -> None:
        """A blight card laid on the reader during setup: the game will use it."""
        for name, card in self._blight.items():
            if card["id"] == card_id:
                self.blight_card = name
                self.mode = "advanced"  # blight cards are part of the advanced game
                return

    def start(self) -> None:
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


# --- setup checklist -----------------------------------------------------------------------------

MODE_NAMES = {"beginner": N_("beginner game"), "advanced": N_("advanced game")}
DECK_NAMES = {"virtual": N_("virtual deck"), "physical": N_("physical deck")}


class ChecklistRow(ButtonBehavior, Label):
    """One setup instruction; a tap ticks it (the ticks help the table, the game does not
    depend on them)."""

    done = BooleanProperty(False)
    """Ticked by the players."""


class ChecklistScreen(Screen):
    items = ListProperty([])
    """The setup instructions' texts."""
    summary = StringProperty("")
    """Players, adversary, scenario and difficulty in one line."""
    ticked = NumericProperty(0)
    """How many items are ticked."""
    spirit_island = BooleanProperty(True)
    """The game is Spirit Island (set up for its first explore); else another game's table."""

    def on_pre_enter(self, *_args: Any) -> None:
        self.refresh()

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
        self.spirit_island = app().table_name(state) == "table"
        if self.spirit_island:
            self.summary = self._spirit_island_summary(state)
        else:
            self.summary = app().screen(app().table_name(state)).setup_summary(state)
        rows.clear_widgets()
        for index, text in enumerate(self.items):
            ticked = index < len(done) and done[index]
            rows.add_widget(ChecklistRow(text=text, done=ticked, on_release=self._toggled))
        self.ticked = sum(1 for row in rows.children if row.done)

    @staticmethod
    def _spirit_island_summary(state: dict[str, Any]) -> str:
        players = state["players"]
        parts = [_("1 player") if players == 1
                 else _("{count} players").format(count=players),
                 _(MODE_NAMES.get(state["mode"], state["mode"])),
                 _(DECK_NAMES.get(state["deck_mode"], state["deck_mode"]))]
        if state["adversary"]:  # the state's names are in the language in use already
            parts.append(f"{state['adversary']['name']} {state['adversary']['level']}")
        if state["scenario_detail"]:
            parts.append(state["scenario_detail"]["name"])
        parts.append(_("difficulty {difficulty}").format(difficulty=state["difficulty"]))
        return " · ".join(parts)

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


# --- the table -----------------------------------------------------------------------------------

class TableScreen(Screen):
    title = StringProperty("")
    """Round, phase and step."""
    prompt = StringProperty("")
    """What to do in this step (with the fear card's effect in the fear step)."""
    reminders = StringProperty("")
    """The adversary's, scenario's or blight card's reminders for this step."""
    high_immigration_cards = ListProperty([])
    """CardFaces on England's High Immigration space."""
    ravage_cards = ListProperty([])
    """CardFaces on the Ravage space."""
    build_cards = ListProperty([])
    """CardFaces on the Build space."""
    explore_cards = ListProperty([])
    """CardFaces on the Explore space."""
    has_high_immigration = BooleanProperty(False)
    """England 3+: the board has a fourth space."""
    deck = StringProperty("")
    """Cards left in the invader deck, by stage."""
    discard = StringProperty("")
    """The invader discard."""
    fear_pool = StringProperty("")
    """Fear markers in the pool and generated."""
    fear_earned = StringProperty("")
    """Earned fear cards waiting."""
    fear_next_level = StringProperty("")
    """Fear cards to the next terror level."""
    terror = StringProperty("")
    """The terror level."""
    victory = StringProperty("")
    """The terror level's victory condition and the extra loss conditions."""
    blight_side = StringProperty("")
    """The blight card's side."""
    blight_counts = StringProperty("")
    """Blight on the card and on the island."""
    action_label = StringProperty("Done")
    """What the big button does."""
    physical = BooleanProperty(False)
    """Physical deck: the reveal control is shown."""
    can_reveal = BooleanProperty(False)
    """A card waits to be named."""
    can_resolve_fear = BooleanProperty(False)
    """The fear step with earned cards waiting."""
    rituals = BooleanProperty(False)
    """Rituals of Terror: a ritual control is shown."""
    can_undo = BooleanProperty(False)
    """Something can be undone."""
    game_over = BooleanProperty(False)
    """The game has ended: the quick controls rest."""
    can_redo = BooleanProperty(False)
    """Something can be redone."""
    banner = StringProperty("")
    """Announcements of this step, until dismissed (one line per kind)."""
    banner_height = NumericProperty(0)
    """The banner's height: its lines' natural height, up to half the prompt's column."""
    timer = StringProperty("")
    """The Spirit-phase timer, when it is on and the Spirit phase runs."""
    timer_over = BooleanProperty(False)
    """The Spirit phase ran past its limit."""
    view = ObjectProperty(None, allownone=True)
    """The last TableView shown."""
    glance = NumericProperty(1.0)
    """How much larger than on the 800x480 panel the board is drawn (its type and shapes)."""
    figure = NumericProperty(54)
    """The height of the board's numbers' row: 54 px at 800x480, scaled with `glance`."""
    label = NumericProperty(15)
    """The size of the words beside the board's numbers: 15 px at 800x480 and normal text,
    scaled with `glance`; the largest text sizes grow it only so far (the cards win)."""
    terror_numeral = StringProperty("")
    """I, II, III, or Victory."""
    victory_line = StringProperty("")
    """The terror level's victory condition."""
    terror_goal = StringProperty("")
    """Fear cards to the next terror level, or to victory."""
    fear_pool_count = NumericProperty(0)
    """Fear markers left in the pool."""
    fear_pool_size = NumericProperty(0)
    """Fear markers the pool holds."""
    fear_earned_count = NumericProperty(0)
    """Earned fear cards waiting."""
    blight_count = NumericProperty(0)
    """Blight on the blight card."""
    blight_on_island = NumericProperty(0)
    """Blight on the island."""
    blight_side_key = StringProperty("healthy")
    """The blight card's side: healthy, still_healthy or blighted (it picks the tile's colour)."""
    blight_side_label = StringProperty("")
    """The side in a word or two."""
    blight_warning = BooleanProperty(False)
    """At most one player's worth of blight is left on the card."""
    deck_count = NumericProperty(0)
    """Cards left in the invader deck."""
    deck_runs = ListProperty([])
    """The deck's StageRuns, top first."""
    discard_count = NumericProperty(0)
    """Cards in the invader discard."""

    settle_seconds = 0.5
    """A tap on the big button this soon after the step changed was meant for the step before
    (a double tap, a bouncing touch): it must not finish the step just begun, unread."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._step: tuple[Any, ...] | None = None
        self._button_meaning: tuple[Any, ...] | None = None
        """(round, phase, step), action kind and label: what the big button means now."""
        self._meant_before: tuple[Any, ...] | None = None
        self._button_changed_at = -1e9
        self._game: int | None = None
        self._banners: dict[str, presenter.Announcement] = {}
        self._announced: list[list[presenter.Announcement]] = []
        """What each command this screen carried out announced, oldest first (undo's order)."""
        self._taken_back: list[list[presenter.Announcement]] = []
        """What the commands undone announced, for redo."""
        self._spirit_started: float | None = None
        self._auto_picker: tuple[Any, ...] | None = None
        self._fear_picker: FearCardPicker | None = None
        self._fear_picker_language = ""
        self._ticker = Clock.schedule_interval(self._tick, 1)

    def stop_timer(self) -> None:
        self._ticker.cancel()

    def on_kv_post(self, *_args: Any) -> None:
        app().bind(text_scale=self.on_size)

    def on_size(self, *_args: Any) -> None:
        # The panel's own proportions in either orientation: 1280x720 and 720x1280 both 1.5.
        long_side, short_side = max(self.size), min(self.size)
        self.glance = max(1.0, min(long_side / dp(800), short_side / dp(480)))
        self.figure = dp(54) * self.glance
        text_scale = app().text_scale if app() else 1.0
        self.label = sp(15) * min(text_scale, 1.2) * self.glance

    def on_pre_enter(self, *_args: Any) -> None:
        self.refresh(app().game_state, [])

    def refresh(self, state: dict[str, Any] | None, events: list[dict[str, Any]]) -> None:
        """Show `state`; `events` are what the command just carried out announced ([] when
        the screen is only shown again)."""
        if not state:
            return
        view = presenter.table_view(state)
        self.view = view
        if state.get("game") != self._game:  # another game: its news and history are its own
            self._game, self._announced, self._taken_back = state.get("game"), [], []
        step = (state["round"], state["phase"], state["step"])
        meaning = (step, view.action.kind, view.action.label)
        if meaning != self._button_meaning:
            # The big button now does something else: a tap in the next moment was meant
            # for what it did before.
            self._meant_before, self._button_meaning = self._button_meaning, meaning
            self._button_changed_at = now()
        if step != self._step:
            self._banners = {}
            if state["phase"] == "spirit" and (self._step is None or self._step[1] != "spirit"):
                self._spirit_started = time.monotonic()
            self._step = step
        if events:
            self._announce(events, state)
        elif not self._banners and self.banner:
            self._show_banners()
        self._show(view, state)

    def _announce(self, events: list[dict[str, Any]], state: dict[str, Any]) -> None:
        """Banners: one line per kind; an undo takes back the lines its command announced and
        says what it took back, a redo brings them again."""
        undo = next((line for line in map(presenter.undo_line, events) if line), None)
        if undo is None:
            lines = presenter.announce(events, state)
            self._announced = [*self._announced[-(HISTORY_KEPT - 1):], lines]
            self._taken_back = []
        elif events[0]["type"] == "undone":
            lines = []
            taken = self._announced.pop() if self._announced else []
            self._taken_back.append(taken)
            for line in taken:
                if self._banners.get(line.kind) == line:
                    del self._banners[line.kind]
        else:
            lines = self._taken_back.pop() if self._taken_back else []
            self._announced.append(lines)
        for line in [*lines, *([undo] if undo else [])]:
            self._banners.pop(line.kind, None)  # the newest line of a kind goes last
            self._banners[line.kind] = line
        self._show_banners()

    def _show_banners(self) -> None:
        rows = self.ids.banner_rows
        rows.clear_widgets()
        for line in self._banners.values():
            rows.add_widget(BannerLine(text=line.text, kind=line.kind, scale=self.glance))
        self.banner = "\n".join(line.text for line in self._banners.values())
        self._fit_banners()

    def _fit_banners(self, *_args: Any) -> None:
        """The banner grows with its lines up to BANNER_SHARE of the column; past that its
        lines scroll (they are never shrunk or cut off)."""
        if "banner_rows" not in self.ids or "prompt_column" not in self.ids:
            return  # still being built
        rows = self.ids.banner_rows
        if not rows.children:
            self.banner_height = 0
            return
        room = max(self.ids.prompt_column.height * BANNER_SHARE, 60)
        self.banner_height = min(rows.height + 2 * self.ids.banner.padding[1], room)

    def _show(self, view: TableView, state: dict[str, Any]) -> None:
        self.title = view.title
        prompt = view.prompt
        one_step = self.spirit_as_one_step(state)
        if one_step:
            self.title = view.title.rsplit(" · ", 1)[0]  # "Round 2 · Spirit phase"
            prompt = presenter.spirit_phase_prompt(app().driver.translate)
        if view.fear_card and state["step"] == "fear":
            prompt = f"{prompt}\n\n{view.fear_card}"
        self.prompt = prompt
        self.reminders = "\n".join(f"• {line}" for line in view.reminders)
        self.has_high_immigration = "high_immigration" in view.slots
        for slot in presenter.SLOTS:
            setattr(self, f"{slot}_cards", list(view.slots.get(slot, ())))
        self.deck = view.deck
        self.discard = view.discard
        self.fear_pool = view.fear_pool
        self.fear_earned = view.fear_earned
        self.fear_next_level = view.fear_next_level
        self.terror = view.terror
        self.victory = "\n".join([view.victory, *view.loss_conditions])
        self.blight_side = "\n".join(filter(None, [view.blight_side, view.blight_card]))
        self.blight_counts = f"{view.blight_on_card}\n{view.blight_on_island}"
        glance = view.glance
        self.terror_numeral = glance.terror_numeral
        self.victory_line = glance.victory_condition
        self.terror_goal = glance.terror_goal
        self.fear_pool_count = glance.fear_pool
        self.fear_pool_size = glance.fear_pool_size
        self.fear_earned_count = glance.fear_earned
        self.blight_count = glance.blight_on_card
        self.blight_on_island = glance.blight_on_island
        self.blight_side_key = glance.blight_side if glance.blight_side in BLIGHT_SIDE_KEYS \
            else "healthy"
        self.blight_side_label = glance.blight_side_label
        self.blight_warning = glance.blight_warning
        self.deck_count = glance.deck_count
        self.deck_runs = list(glance.deck_runs)
        self.discard_count = glance.discard_count
        self.action_label = view.action.label
        self.physical = view.physical
        self.can_reveal = view.can_reveal
        self.can_resolve_fear = view.can_resolve_fear
        self.rituals = view.rituals
        self.game_over = state["phase"] == "over"
        self.can_undo = bool(state.get("can_undo"))
        self.can_redo = bool(state.get("can_redo"))
        self._tick()
        # A card to name opens its picker by itself once per step; the button reopens it.
        if view.action.kind in ("reveal", "next_blight_card") and self.manager \
                and self.manager.current == self.name:
            key = (state["round"], state["step"], state["invader"]["deck_count"],
                   view.action.kind)
            if key != self._auto_picker:
                self._auto_picker = key
                Clock.schedule_once(lambda *_: self.act(tapped=False), 0)

    def _tick(self, *_args: Any) -> None:
        state = app().game_state if app() else None
        if not (app() and app().spirit_timer and state and state["phase"] == "spirit"
                and self._spirit_started is not None):
            self.timer, self.timer_over = "", False
            return
        elapsed = int(time.monotonic() - self._spirit_started)
        limit = app().spirit_timer_limit * 60
        clock = f"{elapsed // 60}:{elapsed % 60:02d}"
        if limit:
            self.timer = _("Spirit phase {time} of {limit}").format(
                time=clock, limit=f"{limit // 60}:00")
        else:
            self.timer = _("Spirit phase {time}").format(time=clock)
        self.timer_over = bool(limit) and elapsed > limit

    # --- taps ---

    def too_soon(self) -> bool:
        """The big button changed its meaning less than `settle_seconds` ago."""
        return (self._meant_before is not None
                and now() - self._button_changed_at < self.settle_seconds)

    def act(self, tapped: bool = True) -> None:
        """The big button: finish the step, or ask for what the step still needs. A tap too
        soon after the button changed was meant for what it did before (a double tap, a
        bouncing touch): it finishes nothing (`tapped` False: the app opens a picker)."""
        if not self.view:
            return
        state = app().game_state
        if tapped and self.too_soon():
            assert self._meant_before is not None
            (_, _, step), kind, _ = self._meant_before
            if kind == "next" and step != state["step"]:
                # Sent as meant, with its step: the driver refuses it and nothing changes.
                app().send({"cmd": "next", "step": step}, quiet=True)
            return
        kind = self.view.action.kind
        step = state["step"]
        if kind == "reveal":
            self.pick_invader_card()
        elif kind == "resolve_fear":
            if app().game_state["fear"]["card"]:  # already named: resolve that one
                app().send({"cmd": "resolve_fear"})
            else:
                self.pick_fear_card()
        elif kind == "next_blight_card":
            self.pick_blight_card()
        elif kind == "end":
            app().show("end")
        elif self.spirit_as_one_step(state):
            # Growth, energy and cards in one tap: each step is still its own command.
            for spirit_step in presenter.SPIRIT_STEPS[presenter.SPIRIT_STEPS.index(step):]:
                if not app().send({"cmd": "next", "step": spirit_step}):
                    return
        else:
            app().send({"cmd": "next", "step": step})

    @staticmethod
    def spirit_as_one_step(state: dict[str, Any]) -> bool:
        """The table takes the Spirit phase as one step (a setting) and it is under way."""
        return bool(app().spirit_one_step and state.get("phase") == "spirit"
                    and state.get("step") in presenter.SPIRIT_STEPS
                    and not state["invader"]["awaiting_reveal"])

    def dismiss_banner(self) -> None:
        self._banners = {}
        self._show_banners()

    def pick_invader_card(self) -> None:
        state = app().game_state
        if not state or not state["invader"]["awaiting_reveal"]:
            return
        picker = CardPicker(title=_("Which card came up? ({expected})").format(
                                expected=_expected(state)),
                            when_picked=lambda card: app().send({"cmd": "reveal", "card": card}))
        picker.fill([_invader_choice(card) for card in state["invader"]["candidates"]])
        picker.open()

    def fear_picker(self) -> FearCardPicker:
        """The fear-card picker, built once (again only in another language)."""
        if self._fear_picker is None or self._fear_picker_language != i18n.language():
            self._fear_picker = FearCardPicker(when_picked=self._resolve_fear)
            self._fear_picker.fill([
                {"value": card["id"], "text": _(card["name"]), "expansion": expansion,
                 "detail": _(app().catalogue["expansions"].get(expansion, expansion))}
                for expansion, cards in app().catalogue["fear_cards"].items()
                for card in cards])
            self._fear_picker_language = i18n.language()
        return self._fear_picker

    def pick_fear_card(self) -> None:
        state = app().game_state
        if not state or not state["fear"]["earned"]:
            return
        picker = self.fear_picker()
        picker.offer(set(state["fear"]["seen"]), app().expansions_in_play())
        picker.open()

    def _resolve_fear(self, card: str) -> None:
        """A named card is turned over: its effect shows until Done resolves it. Without a
        name the app only counts the card as resolved."""
        if card:
            app().send({"cmd": "fear_card", "card": card})
        else:
            app().send({"cmd": "resolve_fear"})

    def pick_blight_card(self) -> None:
        """Name a blight card: the one drawn face down has flipped, or a Still-Healthy card
        ran out and the next was drawn to replace it."""
        blight = app().game_state["blight"]
        used = set(blight["earlier_cards"])
        choices = [{"value": card["id"], "text": _(card["name"]),
                    "detail": _(app().catalogue["expansions"].get(expansion, expansion))}
                   for expansion, cards in app().catalogue["blight_cards"].items()
                   if expansion in app().expansions_in_play()
                   for card in cards if card["id"] not in used]
        title = (_("Which blight card is it? Turn it over and tap its name.")
                 if blight["side"] == "healthy" else _("Which blight card did you draw?"))
        picker = CardPicker(title=title,
                            when_picked=lambda card: app().send({"cmd": "next_blight_card",
                                                             "card": card}))
        picker.fill(choices)
        picker.open()

    def open_menu(self) -> None:
        GameMenu().open()

    def show_details(self, panel: str) -> None:
        """The sentences behind a panel's numbers: "fear", "blight" or "deck"."""
        if not self.view:
            return
        glance = self.view.glance
        titles = {"fear": _("Terror and fear"), "blight": _("Blight"),
                  "deck": _("Invader deck")}
        lines = {"fear": glance.fear_details, "blight": glance.blight_details,
                 "deck": glance.deck_details}[panel]
        DetailsPopup(title=titles[panel], text="\n\n".join(lines)).open()


BANNER_SHARE = 0.38
"""The most of the prompt's column the banner takes: the prompt and reminders keep the rest."""

HISTORY_KEPT = 500
"""Commands whose banner lines an undo can still take back."""


class BannerLine(GrowLabel):
    """One line of news on the table's banner."""

    kind = StringProperty("")
    """The kind of news (an event type, or "undo")."""
    scale = NumericProperty(1.0)
    """The table's scale with the window (its `glance`)."""


class GameMenu(InstantPopup):
    """Ending, leaving or abandoning the game: the things not needed every step."""

    def declare(self, result: str, reason: str | None = None) -> None:
        command: dict[str, Any] = {"cmd": "declare", "result": result}
        if reason:
            command["reason"] = reason

        def go() -> None:
            self.dismiss()
            if app().send(command):
                app().show("end")

        if result == "defeat":
            ask_then(_("Declare the game lost? (Undo can take it back.)"), _("We lost"), go,
                     app().confirm_destructive)
        else:
            go()

    def abandon(self) -> None:
        def go() -> None:
            self.dismiss()
            app().send({"cmd": "abandon"})
            app().reload_state()
            app().show("home")

        ask_then(_("Abandon this game? It stays in the list of games but cannot be resumed."),
                 _("Abandon"), go, app().confirm_destructive)

    def go_home(self) -> None:
        self.dismiss()
        app().show("home")

    def settings(self) -> None:
        self.dismiss()
        app().open_settings()


def _expected(state: dict[str, Any]) -> str:
    stage = state["invader"]["expected_stage"]
    return _("Stage {stage}").format(stage=ROMAN.get(stage, "?")) if stage else _("any card")


def _invader_choice(card_id: str) -> dict[str, Any]:
    face = presenter.card_face(card_id)
    colour = face.terrains[0].colour if face.terrains else NEUTRAL_CARD
    terrains = " + ".join(chip.name for chip in face.terrains)
    stage = face.stage or _("special card")
    detail = stage if terrains == face.name else f"{stage} · {terrains}"
    return {"value": face.id, "text": face.name, "detail": detail,
            "background": rgba(colour), "text_colour": rgba(text_colour_on(colour))}


# --- end of game ---------------------------------------------------------------------------------

class EndScreen(Screen):
    outcome = StringProperty("")
    """Victory or defeat, and why."""
    score_text = StringProperty("")
    """The score the inputs give, by the published formula."""
    saved_text = StringProperty("")
    """Whether the score is in the history."""
    has_bonus = BooleanProperty(False)
    """The scenario gives bonus points."""

    def on_pre_enter(self, *_args: Any) -> None:
        state = app().game_state
        if not state or not state["outcome"]:
            return
        outcome = state["outcome"]
        self.ids.dahan.value = outcome.get("dahan") or 0
        recorded = outcome.get("blight_on_island")
        self.ids.blight.value = state["blight"]["on_island"] if recorded is None else recorded
        self.has_bonus = bool(state.get("scenario"))
        self.ids.bonus.value = outcome.get("bonus") or 0
        self.retranslate()

    def retranslate(self) -> None:
        """The outcome, score and saved lines in the language in use (the counts stay)."""
        state = app().game_state
        if not state or not state["outcome"]:
            return
        outcome = state["outcome"]
        result = _(presenter.RESULT_NAMES.get(outcome["result"], outcome["result"]))
        self.outcome = _("{result}: {detail}").format(
            result=result, detail=outcome.get("detail") or outcome["reason"])
        self._show_saved()
        self.update_score()

    def _show_saved(self) -> None:
        outcome = (app().game_state or {}).get("outcome") or {}
        self.saved_text = (_("Saved to history with {score} points").format(
            score=outcome["score"]) if outcome.get("score") is not None
            else _("Not saved yet"))

    def update_score(self, *_args: Any) -> None:
        from ..games.spirit_island.endings import score

        game = app().service.session.state
        if game is None or game.outcome is None:
            return
        points = score(game, int(self.ids.dahan.value), int(self.ids.blight.value),
                       int(self.ids.bonus.value))
        self.score_text = _("Score: {points}").format(points=points)

    def save(self) -> None:
        command: dict[str, Any] = {"cmd": "score", "dahan": int(self.ids.dahan.value),
                                   "blight_on_island": int(self.ids.blight.value)}
        if self.has_bonus:
            command["bonus"] = int(self.ids.bonus.value)
        if app().send(command):
            self._show_saved()

    def back_to_game(self) -> None:
        """Undo the ending (and the score saved after it), for a game declared over by
        mistake: one tap, however many steps that takes back."""
        while (app().game_state or {}).get("phase") == "over":
            if not app().send({"cmd": "undo"}):
                return
        app().show("table")


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
    names = {a["id"]: a["name"] for a in app().catalogue["adversaries"]}
    names.update({s["id"]: s["name"] for s in app().catalogue["scenarios"]})
    return names


GAME_RESULT_NAMES = {"victory": N_("victory"), "defeat": N_("defeat"),
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
        self.result_text = _(presenter.RESULT_NAMES[outcome["result"]]) if outcome \
            else _result(game)
        self.reason_text = outcome["detail"] if outcome else (
            _("Abandoned in round {round}.").format(round=game.get("rounds") or 0)
            if game["status"] == "abandoned"
            else _("Still being played: round {round}.").format(round=game.get("rounds") or 0))
        self.outcome_text = _("{result}: {detail}").format(result=self.result_text,
                                                           detail=self.reason_text)
        score = game.get("score")
        self.score_text = _points(score) if score is not None else _("not scored")
        rounds = game["per_round"]
        self.fear = [tally["fear_generated"] for tally in rounds]
        self.blight = [tally["blight_on_island"] for tally in rounds]
        self.terror = [tally["terror_level"] for tally in rounds]
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
