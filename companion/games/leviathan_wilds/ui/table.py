"""Leviathan Wilds' table screen: the threat row, the wrath, the guardians and the crystals, the
step's prompt beside one big Done, and the quick buttons a turn needs.

It mirrors the driver's JSON state (the game's `view`) into Kivy properties; its layout is in
layouts/leviathan_wilds/table.kv, and every tap is a driver command sent through `App.send`.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.i18n import N_, _
from companion.ui.theme import rgba, text_colour_on
from companion.ui.widgets import CardPicker, InstantPopup, ask_then

CALM = "#5B3F8C"
"""A threat's calm half: the game's purple."""
WILD = "#0F6B6B"
"""A threat's wild half: the game's turquoise, dark enough for white text."""
FACE_DOWN = "#4A4F55"

STEP_NAMES = {"reveal": N_("1 Reveal a threat"), "activate": N_("2 Activate"),
              "resolve": N_("3 Resolve the threat"), "draw": N_("4 Draw"),
              "over": N_("Game over")}
DIFFICULTY_NAMES = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard"),
                    "expert": N_("expert")}
STRIKE_AMOUNTS = range(1, 7)


def app() -> Any:
    return App.get_running_app()


class ThreatTile(BoxLayout):
    """One space of the threat row: face down, or its calm or wild half up."""

    slot = NumericProperty(1)
    """The space, counted 1-5 from the left as players do."""
    face = StringProperty("")
    """What lies there, in words: face down, calm, wild (and the card's name once known)."""
    background = ListProperty(rgba(FACE_DOWN))
    """The half's colour (grey face down)."""
    ink = ListProperty([1, 1, 1, 1])
    """The text colour that reads on it."""
    mark = StringProperty("")
    """"next" for the space the next reveal turns over, "now" for the one revealed this turn."""


class GuardianTile(ButtonBehavior, BoxLayout):
    """One guardian's numbers; a tap chooses the guardian the quick buttons act on."""

    index = NumericProperty(0)
    """The guardian's number, from 0."""
    name = StringProperty("")
    """The guardian's name."""
    health = NumericProperty(0)
    """Health (the red cube)."""
    corruption = NumericProperty(0)
    """Corruption (the turquoise cube)."""
    margin = NumericProperty(0)
    """Health above corruption: the guardian is defeated when it reaches 0."""
    cards = StringProperty("")
    """Deck, hand and discard."""
    status = StringProperty("")
    """Falling, focus, weaknesses."""
    active = BooleanProperty(False)
    """It is this guardian's turn."""
    selected = BooleanProperty(False)
    """The quick buttons act on this guardian."""
    defeated = BooleanProperty(False)
    """Out of the game."""


class LeviathanMenu(InstantPopup):
    """Leaving or abandoning the game, and the settings: what is not needed every step."""

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


class LeviathanTableScreen(Screen):
    title = StringProperty("")
    """The leviathan, the round and the step."""
    step = StringProperty("")
    """The step the game is in (what Done finishes): reveal, activate, resolve, draw, over."""
    prompt = StringProperty("")
    """What to do now."""
    reminders = StringProperty("")
    """The rules to keep in mind in this step, one a line."""
    wrath = StringProperty("")
    """The wrath marker's space and how many threats it turns wild."""
    crystals = StringProperty("")
    """The crystals left, with their dice."""
    banner = StringProperty("")
    """Last Chance, or the game's end with its reason; empty otherwise."""
    banner_kind = StringProperty("")
    """"last_chance", "win" or "loss"."""
    over = BooleanProperty(False)
    """The game has ended."""
    can_undo = BooleanProperty(False)
    """There is a command to undo."""
    can_redo = BooleanProperty(False)
    """There is an undone command to redo."""
    selected = NumericProperty(0)
    """The guardian the quick buttons act on (the active one unless another is tapped)."""
    selected_name = StringProperty("")
    """Their name."""

    def on_kv_post(self, *_args: Any) -> None:
        self._active = -1
        self._state: dict[str, Any] = {}

    def on_pre_enter(self, *_args: Any) -> None:
        if app().game_state:
            self.refresh(app().game_state, [])

    # --- what the screen shows ---

    def setup_summary(self, state: dict[str, Any]) -> str:
        """The checklist's line: the leviathan, the difficulty, the players."""
        leviathan = state["leviathan"]
        players = _("solo, two guardians") if state["solo"] \
            else _("{count} players").format(count=state["players"])
        return " · ".join([f"{leviathan['number']} {_(leviathan['name'])}",
                           _(DIFFICULTY_NAMES.get(state["difficulty"], state["difficulty"])),
                           players])

    def refresh(self, state: dict[str, Any] | None, events: list[dict[str, Any]]) -> None:
        if not state or "threat_row" not in state:
            return  # no game, or another game's state
        self._state = state
        leviathan = state["leviathan"]
        self.step = state["step"]
        self.title = _("{leviathan} · round {round} · step {step}").format(
            leviathan=_(leviathan["name"]), round=state["round"],
            step=_(STEP_NAMES.get(state["step"], state["step"])))
        self.prompt = state["prompt"]["text"]
        self.reminders = "\n".join(f"• {reminder['text']}" for reminder in state["reminders"])
        track = state["wrath_track"]
        self.wrath = _("Wrath {position} of {last} · {wild} wild").format(
            position=track["position"], last=len(track["wild_counts"]) - 1,
            wild=track["wild_now"])
        self.crystals = self._crystals_text(state)
        self.can_undo, self.can_redo = bool(state.get("can_undo")), bool(state.get("can_redo"))
        self._show_banner(state)
        self._show_threats(state)
        if state["active"] != self._active:  # a new turn: the quick buttons follow it
            self._active = state["active"]
            self.selected = state["active"]
        self._show_guardians(state)

    @staticmethod
    def _crystals_text(state: dict[str, Any]) -> str:
        shown = []
        for number, crystal in enumerate(state["crystals"], start=1):
            if crystal["shattered"]:
                continue
            dice = "+".join(str(die) for die in crystal["dice"])
            extra = _(" corrupted") if crystal["corrupted"] else ""
            shown.append(f"#{number}: {dice}{extra}")
        return _("Crystals left {count}: {crystals}").format(
            count=state["crystals_left"], crystals=", ".join(shown) or "-")

    def _show_banner(self, state: dict[str, Any]) -> None:
        outcome = state["outcome"]
        self.over = outcome is not None
        if outcome is not None:
            self.banner_kind = "win" if outcome["result"] == "win" else "loss"
            self.banner = (_("We won: {reason}") if outcome["result"] == "win"
                           else _("We lost: {reason}")).format(reason=outcome["reason"])
        elif state["last_chance"] is not None:
            self.banner_kind = "last_chance"
            self.banner = _("Last Chance: {count} turns left to heal the leviathan").format(
                count=len(state["last_chance"]))
        else:
            self.banner_kind, self.banner = "", ""

    def _show_threats(self, state: dict[str, Any]) -> None:
        row = self.ids.threats
        tiles = list(reversed(row.children))
        while len(tiles) < len(state["threat_row"]):
            tile = ThreatTile(slot=len(tiles) + 1)
            row.add_widget(tile)
            tiles.append(tile)
        for index, (tile, threat) in enumerate(zip(tiles, state["threat_row"], strict=False)):
            colour = (WILD if threat["wild"] else CALM) if threat["face_up"] else FACE_DOWN
            half = _("WILD") if threat["wild"] else _("calm")
            tile.face = half if threat["face_up"] else _("face down\n({half})").format(half=half)
            tile.background = rgba(colour)
            tile.ink = rgba(text_colour_on(colour))
            tile.mark = ("now" if index == state["revealed_slot"]
                         else "next" if index == state["next_slot"]
                         and state["revealed_slot"] is None and state["outcome"] is None
                         else "")

    def _show_guardians(self, state: dict[str, Any]) -> None:
        box = self.ids.guardians
        tiles = list(reversed(box.children))
        if len(tiles) != len(state["guardians"]):
            box.clear_widgets()
            tiles = [GuardianTile(index=i, on_release=self._chosen)
                     for i in range(len(state["guardians"]))]
            for tile in tiles:
                box.add_widget(tile)
        for i, (tile, guardian) in enumerate(zip(tiles, state["guardians"], strict=True)):
            tile.name = guardian["name"]
            tile.health, tile.corruption = guardian["health"], guardian["corruption"]
            tile.margin = max(0, guardian["health"] - guardian["corruption"])
            tile.defeated = guardian["defeated"]
            tile.cards = _("Deck {deck} · hand {hand} · discard {discard}").format(
                deck=guardian["deck"], hand=guardian["hand"], discard=guardian["discard"])
            status = []
            if guardian["falling"]:
                status.append(_("Falling"))
            if guardian["focus_ready"]:
                status.append(_("Focus ready"))
            if guardian["weaknesses"]:
                status.append(_("Weaknesses {count}").format(count=len(guardian["weaknesses"])))
            if guardian["ap_card"] is not None and i == state["active"]:
                status.append(_("AP left {ap}").format(ap=guardian["ap_left"]))
            tile.status = " · ".join(status)
            tile.active = i == state["active"] and state["outcome"] is None
            tile.selected = i == self.selected
        self.selected_name = state["guardians"][self.selected]["name"]

    def _chosen(self, tile: GuardianTile) -> None:
        self.selected = tile.index
        if self._state:
            self._show_guardians(self._state)

    # --- what the players do ---

    def done(self) -> None:
        """The big button: finish the step (or, once the game is over, go home)."""
        if self.over:
            app().show("home")
            return
        app().send({"cmd": "next", "step": self.step})

    def act(self) -> None:
        """A "done" command tag laid on the reader: what the big button does (the name every
        game's table screen answers to)."""
        self.done()

    def wild(self) -> None:
        app().send({"cmd": "wild", "count": 1})

    def change(self, what: str, amount: int) -> None:
        """Health or corruption of the chosen guardian, up or down."""
        app().send({"cmd": what, "guardian": self.selected, "amount": amount})

    def undo(self) -> None:
        app().send({"cmd": "undo"})

    def redo(self) -> None:
        app().send({"cmd": "redo"})

    def open_menu(self) -> None:
        LeviathanMenu().open()

    def strike(self) -> None:
        """Which crystal, then how much: a strike by the chosen guardian."""
        picker = CardPicker(title=_("Strike which crystal?"), columns=3)
        choices = []
        for index, crystal in enumerate(self._state.get("crystals", [])):
            if crystal["shattered"]:
                continue
            colour = WILD if crystal["corrupted"] else CALM
            choices.append({"value": str(index), "text": _("Crystal {number}").format(
                number=index + 1), "detail": "+".join(str(d) for d in crystal["dice"])
                + (_(" corrupted") if crystal["corrupted"] else ""),
                "background": rgba(colour), "text_colour": rgba(text_colour_on(colour))})
        picker.fill(choices)
        picker.when_picked = self._strike_amount
        picker.open()

    def _strike_amount(self, crystal: str) -> None:
        picker = CardPicker(title=_("Strike crystal {number} by how much?").format(
            number=int(crystal) + 1), columns=3)
        colour = app().colours["button"]
        picker.fill([{"value": str(amount), "text": str(amount), "detail": "",
                      "background": colour, "text_colour": app().colours["button_text"]}
                     for amount in STRIKE_AMOUNTS])
        picker.when_picked = lambda amount: app().send(
            {"cmd": "strike", "crystal": int(crystal), "amount": int(amount),
             "guardian": self.selected})
        picker.open()
