"""Leviathan Wilds' table screen: the threat row, the wrath, the guardians and the crystals, the
step's prompt beside one big Done, the quick buttons a turn needs, the step's own buttons (the
threat card, the AP card and its actions, the last card) and their pickers, and two panels for
the rest: one for the chosen guardian (grip, terrain, falling, focus, weaknesses), one for the
crystals (with the leviathan's win conditions and counters). The tiles are in `tiles.py`, the
panels in `panels.py`.

It mirrors the driver's JSON state (the game's `view`) into Kivy properties; its layout is in
layouts/leviathan_wilds/table.kv, and every tap is a driver command sent through `App.send`.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, NumericProperty, StringProperty

from companion.games.leviathan_wilds.data import THREATS_PER_LEVIATHAN, threat_card_id
from companion.games.leviathan_wilds.table_words import DIFFICULTY_NAMES, STEP_NAMES
from companion.games.leviathan_wilds.ui.panels import ApCardPanel, CrystalsPanel, GuardianPanel
from companion.games.leviathan_wilds.ui.tiles import (
    CALM,
    FACE_DOWN,
    WILD,
    CrystalDie,
    GuardianTile,
    ThreatTile,
    WrathSpace,
    threat_number,
)
from companion.i18n import N_, _
from companion.ui.figures import FigureTile  # noqa: F401  (named in kv)
from companion.ui.pickers import CardPicker
from companion.ui.table_kit import KitTable
from companion.ui.theme import rgba, text_colour_on
from companion.ui.widgets import TableMenu, reuse_rows

STRIKE_AMOUNTS = range(1, 7)
GLIDE_MOST = 6
"""The longest glide the picker offers (it never offers more than the AP left)."""
PROTECTION_NAMES = {"harmful": N_("harmful"), "slippery": N_("slippery"),
                    "corrupt": N_("corruption")}


def app() -> Any:
    return App.get_running_app()


def leviathan_name(state: dict[str, Any]) -> str:
    return str(state["leviathan"]["name"])


class LeviathanMenu(TableMenu):
    """Leaving or abandoning the game, and the settings: what is not needed every step."""


class LeviathanTableScreen(KitTable):
    """The kit's title is the leviathan, the round and the step; its banner says Last Chance,
    or the game's end with its reason, and the news of the last command."""

    panels_ahead = (GuardianPanel, CrystalsPanel)
    popups_ahead = (*KitTable.popups_ahead, ApCardPanel)

    step = StringProperty("")
    """The step the game is in (what Done finishes): reveal, activate, resolve, draw, over."""
    wrath = StringProperty("")
    """The wrath marker's space and how many threats it turns wild."""
    crystals = StringProperty("")
    """The crystals left, with their dice."""
    crystals_heading = StringProperty("")
    """How many crystals are left (their dice are drawn under it)."""
    over = BooleanProperty(False)
    """The game has ended."""
    selected = NumericProperty(0)
    """The guardian the quick buttons act on (the active one unless another is tapped)."""
    selected_name = StringProperty("")
    """Their name."""
    active_name = StringProperty("")
    """The active guardian's name."""
    has_ap = BooleanProperty(False)
    """In step 2, the active guardian has AP to spend (an AP card, or 2 from an empty hand):
    the standard actions are offered instead of the AP card."""
    ap_info = StringProperty("")
    """The AP card's protections, in words ("" without any)."""
    active_hand = NumericProperty(0)
    """Cards in the active guardian's hand (step 4 offers a discard while there are some)."""
    can_decline_last = BooleanProperty(False)
    """Step 4's last-strength option applies: drawing up would take the deck's last card."""
    step_buttons = BooleanProperty(False)
    """The step has buttons of its own (the row above the prompt is shown)."""

    prompt_bold = True

    def on_kv_post(self, *_args: Any) -> None:
        super().on_kv_post()
        self._active = -1
        self._state: dict[str, Any] = {}
        self._wrath_spaces: list[WrathSpace] = []
        self._crystal_dice: list[CrystalDie] = []

    # --- what the screen shows ---

    def setup_summary(self, state: dict[str, Any]) -> str:
        """The checklist's line: the leviathan, the difficulty, the players."""
        leviathan = state["leviathan"]
        players = _("solo, two guardians") if state["solo"] \
            else _("{count} players").format(count=state["players"])
        return " · ".join([f"{leviathan['number']} {_(leviathan['name'])}",
                           _(DIFFICULTY_NAMES.get(state["difficulty"], state["difficulty"])),
                           players])

    def shows(self, state: dict[str, Any]) -> bool:
        return "threat_row" in state  # not another game's state

    def show_state(self, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
        self._state = state
        leviathan = state["leviathan"]
        self.step = state["step"]
        if state["outcome"] is not None or state["step"] == "over":
            self.title = _("{leviathan} · round {round} · game over").format(
                leviathan=_(leviathan["name"]), round=state["round"])
        else:
            self.title = _("{leviathan} · round {round} · step {step}").format(
                leviathan=_(leviathan["name"]), round=state["round"],
                step=_(STEP_NAMES.get(state["step"], state["step"])))
        self.prompt = state["prompt"]["text"]
        self.reminders = "\n".join(f"• {reminder['text']}" for reminder in state["reminders"])
        track = state["wrath_track"]
        # Players count the track's spaces from 1, as the new-game form does.
        self.wrath = _("Wrath {position} of {last} · {wild} wild").format(
            position=track["position"] + 1, last=len(track["wild_counts"]),
            wild=track["wild_now"])
        self._show_wrath_track(track)
        self.crystals = self._crystals_text(state)
        self.crystals_heading = _("Crystals left {count}").format(count=state["crystals_left"])
        self._show_crystal_dice(state["crystals"])
        self._show_banner(state)
        self._show_threats(state)
        if state["active"] != self._active:  # a new turn: the quick buttons follow it
            self._active = state["active"]
            self.selected = state["active"]
        self._show_guardians(state)
        self._show_step_buttons(state)

    def _show_step_buttons(self, state: dict[str, Any]) -> None:
        active = state["guardians"][state["active"]]
        self.active_name = active["name"]
        card = active["ap_card"]
        self.has_ap = state["step"] == "activate" and card is not None
        self.ap_info = "" if card is None else self._ap_text(card["protections"])
        self.active_hand = active["hand"]
        self.can_decline_last = bool(state.get("can_decline_last"))
        self.step_buttons = state["outcome"] is None and state["step"] in (
            "reveal", "activate", "draw")

    @staticmethod
    def _ap_text(protections: list[str]) -> str:
        """The AP card's protections (the AP left are in the model's prompt)."""
        if not protections:
            return ""
        return _("Protected: {kinds}").format(kinds=", ".join(
            _(PROTECTION_NAMES.get(kind, kind)) for kind in protections))

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

    def _show_wrath_track(self, track: dict[str, Any]) -> None:
        spaces = reuse_rows(self.ids.wrath_track, self._wrath_spaces, len(track["wild_counts"]),
                            lambda _index: WrathSpace())
        for index, (space, wild) in enumerate(zip(spaces, track["wild_counts"], strict=True)):
            space.wild, space.current = wild, index == track["position"]

    def _show_crystal_dice(self, crystals: list[dict[str, Any]]) -> None:
        standing = [crystal for crystal in crystals if not crystal["shattered"]]
        dice = reuse_rows(self.ids.crystal_dice, self._crystal_dice, len(standing),
                          lambda _index: CrystalDie())
        for die, crystal in zip(dice, standing, strict=True):
            die.text = "+".join(str(value) for value in crystal["dice"])
            die.cue_state = "corrupted" if crystal["corrupted"] else ""

    def _show_banner(self, state: dict[str, Any]) -> None:
        """The banner's lines are the kit's (the game's `banner`); the step button follows the
        game's end: Done, then Home."""
        self.over = state["outcome"] is not None
        self.show_step(_("Home") if self.over else _("Done"),
                       None if self.over else {"cmd": "next", "step": state["step"]})

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
            tile.half, tile.face_up = half, threat["face_up"]
            tile.half_colour = rgba(WILD if threat["wild"] else CALM)
            tile.background = rgba(colour)
            tile.ink = rgba(text_colour_on(colour))
            tile.card = threat_number(threat["card"]) if threat["face_up"] else ""
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
            tile.deck, tile.hand, tile.discard = (guardian["deck"], guardian["hand"],
                                                  guardian["discard"])
            tile.cards = _("Deck {deck} · hand {hand} · discard {discard}").format(
                deck=guardian["deck"], hand=guardian["hand"], discard=guardian["discard"])
            status = []
            if guardian["falling"]:
                status.append(_("Falling"))
            if guardian["focus_ready"]:
                status.append(_("Focus ready"))
            if guardian["weaknesses"]:
                status.append(_("Weaknesses {count}").format(count=len(guardian["weaknesses"])))
            tile.status = " · ".join(status)
            tile.falling = guardian["falling"]
            tile.active = i == state["active"] and state["outcome"] is None
            tile.selected = i == self.selected
        # A line of its own for the status in portrait, while any guardian has one (every
        # tile alike, so a row's tiles stay as high as each other); else its room goes to
        # the prompt.
        roomy = self.height > self.width and any(tile.status for tile in tiles)
        for tile in tiles:
            tile.roomy = roomy
        self.selected_name = state["guardians"][self.selected]["name"]

    def _chosen(self, tile: GuardianTile) -> None:
        self.selected = tile.index
        if self._state:
            self._show_guardians(self._state)

    # --- what the players do ---

    def step_action(self) -> None:
        """The big button: finish the step it means (or, once the game is over, go home)."""
        if self.over:
            app().show("home")
            return
        super().step_action()

    def done(self) -> None:
        """The big button, through the kit's guard (the name this table had before the kit)."""
        self.act()

    def wild(self) -> None:
        app().send({"cmd": "wild", "count": 1})

    def change(self, what: str, amount: int) -> None:
        """Health or corruption of the chosen guardian, up or down."""
        app().send({"cmd": what, "guardian": self.selected, "amount": amount})

    def open_menu(self) -> None:
        LeviathanMenu().open()

    def strike(self) -> None:
        """Which crystal, then how much: a strike by the chosen guardian."""
        picker = CardPicker.kept(title=_("Strike which crystal?"), columns=3)
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
        picker = CardPicker.kept(title=_("Strike crystal {number} by how much?").format(
            number=int(crystal) + 1), columns=3)
        colour = app().colours["button"]
        picker.fill([{"value": str(amount), "text": str(amount), "detail": "",
                      "background": colour, "text_colour": app().colours["button_text"]}
                     for amount in STRIKE_AMOUNTS])
        picker.when_picked = lambda amount: app().send(
            {"cmd": "strike", "crystal": int(crystal), "amount": int(amount),
             "guardian": self.selected})
        picker.open()

    # --- the step's own buttons ---

    def pick_threat(self) -> None:
        """Step 1: name the threat card turned over (or turn it over, named, in one go)."""
        state = self._state
        leviathan = state["leviathan"]["number"]
        slot = state["revealed_slot"] if state["revealed_slot"] is not None \
            else state["next_slot"]
        taken = {threat["card"] for index, threat in enumerate(state["threat_row"])
                 if threat["card"] and index != slot}
        named = state["threat_row"][slot]["card"] if slot is not None else None
        picker = CardPicker.kept(title=_("Which threat card is it?"), columns=5)
        colour = WILD if slot is not None and state["threat_row"][slot]["wild"] else CALM
        picker.fill([{"value": card, "text": _("Threat {number}").format(number=number),
                      "detail": _(leviathan_name(state)), "highlight": card == named,
                      "background": rgba(colour), "text_colour": rgba(text_colour_on(colour))}
                     for number, card in ((n, threat_card_id(leviathan, n))
                                          for n in range(1, THREATS_PER_LEVIATHAN + 1))],
                    left_out=taken)
        picker.when_picked = lambda card: app().send({"cmd": "reveal", "card": card})
        picker.open()

    def open_ap_card(self) -> None:
        ApCardPanel.kept(guardian_name=self.active_name).open()

    def take_action(self, action: str) -> None:
        app().send({"cmd": "act", "action": action})

    def glide(self) -> None:
        """Glide X: how far, at most the AP left."""
        ap_left = self._state["guardians"][self._state["active"]]["ap_left"]
        picker = CardPicker.kept(title=_("Glide how far?"), columns=3)
        colour = app().colours["button"]
        picker.fill([{"value": str(x), "text": _("Glide {x}").format(x=x),
                      "detail": _("{ap} AP").format(ap=x), "background": colour,
                      "text_colour": app().colours["button_text"]}
                     for x in range(1, max(1, min(ap_left, GLIDE_MOST)) + 1)])
        picker.when_picked = lambda x: app().send({"cmd": "act", "action": "glide",
                                                   "x": int(x)})
        picker.open()

    def discard_active(self) -> None:
        """Step 4: the active guardian discards a card before drawing up."""
        app().send({"cmd": "discard", "guardian": self._state["active"], "count": 1})

    def decline_last(self) -> None:
        """Step 4's last-strength option: draw up, but leave the deck's last card."""
        app().send({"cmd": "next", "step": "draw", "decline_last": True})

    # --- the panels ---

    def open_guardian(self) -> None:
        panel = self.panel_of(GuardianPanel)
        panel.guardian = self.selected
        panel.ids.amount.value = 1
        self.open_panel(panel)

    def open_crystals(self) -> None:
        self.open_panel(self.panel_of(CrystalsPanel))
