"""Spirit Island's table screen: the whole Invader Board at a glance, the step's prompt with one
big button, the quick controls, the banner of what just happened, and the game menu.

It mirrors the driver's JSON state into Kivy properties (the words come from `presenter`); its
layout is layouts/spirit_island/table.kv, and every tap is a driver command sent through
`App.send`.
"""

from __future__ import annotations

import time
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import sp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)

from companion import i18n
from companion.i18n import N_, _
from companion.ui.figures import growth, key_font
from companion.ui.pickers import CardPicker
from companion.ui.table_kit import KitTable
from companion.ui.theme import rgba, text_colour_on
from companion.ui.widgets import (
    NEUTRAL_CARD,
    DetailsPopup,
    InstantPopup,
    TableMenu,
    ask_then,
)

from ..definition import SPIRIT_ISLAND
from . import presenter
from .presenter import ROMAN, TableView
from .widgets import FearCardPicker

BLIGHT_SIDE_KEYS = ("healthy", "still_healthy", "blighted")
"""The sides the theme has a colour for."""

MODE_NAMES = {"beginner": N_("beginner game"), "advanced": N_("advanced game")}
DECK_NAMES = {"virtual": N_("virtual deck"), "physical": N_("physical deck")}


def app() -> Any:
    return App.get_running_app()


class TableScreen(KitTable):
    """The kit's `prompt` carries the fear card's effect in the fear step; its `reminders` are
    the adversary's, scenario's or blight card's for this step."""

    popups_ahead = (*KitTable.popups_ahead, DetailsPopup)

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
    physical = BooleanProperty(False)
    """Physical deck: the reveal control is shown."""
    can_reveal = BooleanProperty(False)
    """A card waits to be named."""
    can_resolve_fear = BooleanProperty(False)
    """The fear step with earned cards waiting."""
    rituals = BooleanProperty(False)
    """Rituals of Terror: a ritual control is shown."""
    game_over = BooleanProperty(False)
    """The game has ended: the quick controls rest."""
    timer = StringProperty("")
    """The Spirit-phase timer, when it is on and the Spirit phase runs."""
    timer_over = BooleanProperty(False)
    """The Spirit phase ran past its limit."""
    view = ObjectProperty(None, allownone=True)
    """The last TableView shown."""
    figure = NumericProperty(72)
    """The height of the board's numbers' row: 72 px at 800x480 (digits 42 px high), scaled
    with `glance`."""
    figure_growth = NumericProperty(1.0)
    """How much larger the board's numbers' digits are drawn, in the same rows, at the larger
    text sizes."""
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
    blight_card_name = StringProperty("")
    """The flipped blight card's name ("" before it flips)."""
    blight_warning = BooleanProperty(False)
    """At most one player's worth of blight is left on the card."""
    deck_count = NumericProperty(0)
    """Cards left in the invader deck."""
    deck_runs = ListProperty([])
    """The deck's StageRuns, top first."""
    discard_count = NumericProperty(0)
    """Cards in the invader discard."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._spirit_step: tuple[Any, ...] | None = None
        self._spirit_started: float | None = None
        self._auto_picker: tuple[Any, ...] | None = None
        self._fear_picker: FearCardPicker | None = None
        self._fear_picker_language = ""
        self._over = False
        """The game was over when last shown."""
        self._ticker: Any = None
        """The Spirit-phase timer's clock: it ticks only while this table is on the screen,
        so nothing of Spirit Island runs while another game is played."""

    def on_enter(self, *_args: Any) -> None:
        self.stop_timer()
        self._ticker = Clock.schedule_interval(self._tick, 1)

    def on_leave(self, *_args: Any) -> None:
        self.stop_timer()

    def stop_timer(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None

    @staticmethod
    def setting(key: str) -> Any:
        """One of Spirit Island's settings as it acts now (off while another game is played)."""
        return app().game_setting(SPIRIT_ISLAND.id, f"companion/{key}")

    # --- what the shared screens ask of a game's table ---

    @staticmethod
    def resume_text(state: dict[str, Any]) -> str:
        """Home's resume button: the round and step, or the score still to enter."""
        if state["phase"] != "over":
            return _("Resume game: round {round}, {step}").format(
                round=state["round"], step=presenter.step_title(state).split(" · ", 1)[-1])
        if not (state["outcome"] or {}).get("score"):
            return _("Resume: score the finished game")
        return ""

    @staticmethod
    def resume_screen(state: dict[str, Any]) -> str:
        """Where resuming goes: the score, the setup checklist, or the table."""
        if state["phase"] == "over":
            return "end"
        if state["phase"] == "setup" and state["step"] != "initial_explore":
            return "checklist"
        return "table"

    @staticmethod
    def ready_text(all_ticked: bool) -> str:
        """The checklist's button on to the table."""
        return _("All set: on to the first explore") if all_ticked \
            else _("Set up: on to the first explore")

    @staticmethod
    def setup_summary(state: dict[str, Any]) -> str:
        """The checklist's line: players, rules, deck, adversary, scenario and difficulty."""
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

    def key_pressed(self, key: int, codepoint: str | None, ctrl: bool) -> bool:
        """The kit's keys (Ctrl+Z, Ctrl+Y, Space and Enter), and F for one fear."""
        if not ctrl and codepoint == "f":
            app().send({"cmd": "fear", "amount": 1})
            return True
        return super().key_pressed(key, codepoint, ctrl)

    def popups_to_warm(self, state: dict[str, Any] | None) -> list[InstantPopup]:
        """The kit's, and the fear-card picker, which needs no game to be filled."""
        picker = self.fear_picker()
        picker.offer(set(), None)
        return [*super().popups_to_warm(state), picker]

    def on_size(self, *_args: Any) -> None:
        super().on_size()  # the kit's `glance`: how much larger than the 800x480 panel
        text_scale = app().text_scale if app() else 1.0
        # The board's key figures are figure tiles' key figures: their digits 40 px or more
        # at 800x480 (a Figure's font is 0.82 of its row). Their rows do not grow with the
        # text, only their digits: on the 800x480 board the invader cards would fall under
        # their 64 px.
        self.figure = key_font(self.glance, 1.0) / 0.82
        self.figure_growth = growth(text_scale)
        self.label = sp(15) * min(text_scale, 1.2) * self.glance

    def shows(self, state: dict[str, Any]) -> bool:
        return "invader" in state  # not another game's state

    def show_state(self, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
        was_over, self._over = self._over, state["phase"] == "over"
        view = presenter.table_view(state)
        self.view = view
        step = (state["round"], state["phase"], state["step"])
        if step != self._spirit_step:
            if state["phase"] == "spirit" and (self._spirit_step is None
                                               or self._spirit_step[1] != "spirit"):
                self._spirit_started = time.monotonic()
            self._spirit_step = step
        self._show(view, state)
        if events and self._over and not was_over and self.manager \
                and self.manager.current == self.name:
            app().show("end")  # the command ended the game: on to the score

    def _show(self, view: TableView, state: dict[str, Any]) -> None:
        self.title = view.title
        prompt = view.prompt
        one_step = self.spirit_as_one_step(state)
        if one_step:
            self.title = view.title.rsplit(" · ", 1)[0]  # "Round 2 · Spirit phase"
            prompt = presenter.spirit_phase_prompt(app().driver.translate)
            if state.get("still_growing"):  # the phones said who is done: above the long prompt
                prompt = f"{state['still_growing']}\n{prompt}"
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
        self.blight_card_name = glance.blight_card_name
        self.blight_warning = glance.blight_warning
        self.deck_count = glance.deck_count
        self.deck_runs = list(glance.deck_runs)
        self.discard_count = glance.discard_count
        self.show_step(view.action.label,
                       {"cmd": "next", "step": state["step"]} if view.action.kind == "next"
                       else None, view.action.kind)
        self.physical = view.physical
        self.can_reveal = view.can_reveal
        self.can_resolve_fear = view.can_resolve_fear
        self.rituals = view.rituals
        self.game_over = state["phase"] == "over"
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
        # The setting is off unless Spirit Island is played: only then is the state its own.
        state = app().game_state if app() and self.setting("spirit_timer") else None
        if not (state and state.get("phase") == "spirit" and self._spirit_started is not None):
            self.timer, self.timer_over = "", False
            return
        elapsed = int(time.monotonic() - self._spirit_started)
        limit = int(self.setting("spirit_timer_limit")) * 60
        clock = f"{elapsed // 60}:{elapsed % 60:02d}"
        if limit:
            self.timer = _("Spirit phase {time} of {limit}").format(
                time=clock, limit=f"{limit // 60}:00")
        else:
            self.timer = _("Spirit phase {time}").format(time=clock)
        self.timer_over = bool(limit) and elapsed > limit

    # --- taps ---

    def step_action(self) -> None:
        """The big button: finish the step, or ask for what the step still needs (the kit
        has already set aside a tap meant for what the button did before)."""
        if not self.view:
            return
        state = app().game_state
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
        return bool(TableScreen.setting("spirit_one_step") and state.get("phase") == "spirit"
                    and state.get("step") in presenter.SPIRIT_STEPS
                    and not state["invader"]["awaiting_reveal"])

    def pick_invader_card(self) -> None:
        state = app().game_state
        if not state or not state["invader"]["awaiting_reveal"]:
            return
        picker = CardPicker.kept(title=_("Which card came up? ({expected})").format(
                                     expected=_expected(state)),
                                 when_picked=lambda card: app().send({"cmd": "reveal",
                                                                      "card": card}))
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
        picker = CardPicker.kept(title=title,
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
        DetailsPopup.kept(title=titles[panel], text="\n\n".join(lines)).open()


class GameMenu(TableMenu):
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


def _expected(state: dict[str, Any]) -> str:
    stage = state["invader"]["expected_stage"]
    return _("Stage {stage}").format(stage=ROMAN.get(stage, "?")) if stage else _("any card")


def _invader_choice(card_id: str) -> dict[str, Any]:
    face = presenter.card_face(card_id, App.get_running_app().palette)
    colour = face.terrains[0].colour if face.terrains else NEUTRAL_CARD
    terrains = " + ".join(chip.name for chip in face.terrains)
    stage = face.stage or _("special card")
    detail = stage if terrains == face.name else f"{stage} · {terrains}"
    return {"value": face.id, "text": face.name, "detail": detail,
            "background": rgba(colour), "text_colour": rgba(text_colour_on(colour)),
            "mark": " ".join(chip.symbol for chip in face.terrains)}

