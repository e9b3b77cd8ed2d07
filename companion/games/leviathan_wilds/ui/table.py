"""Leviathan Wilds' table screen: the threat row, the wrath, the guardians and the crystals, the
step's prompt beside one big Done, the quick buttons a turn needs, the step's own buttons (the
threat card, the AP card and its actions, the last card), and two panels for the rest: one for
the chosen guardian (grip, terrain, falling, focus, weaknesses), one for the crystals (with the
leviathan's win conditions and counters).

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
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from companion.games.leviathan_wilds.data import THREATS_PER_LEVIATHAN, threat_card_id
from companion.games.leviathan_wilds.table_words import (
    DIFFICULTY_NAMES,
    STEP_NAMES,
    turned_dice,
)
from companion.i18n import N_, _
from companion.ui.figures import FigureTile  # noqa: F401  (named in kv)
from companion.ui.table_kit import KitTable
from companion.ui.theme import rgba, text_colour_on
from companion.ui.widgets import (
    CardPicker,
    FitLabel,
    InstantPopup,
    MarkFrame,
    TableMenu,
    reuse_rows,
)

CALM = "#5B3F8C"
"""A threat's calm half: the game's purple."""
WILD = "#0F6B6B"
"""A threat's wild half: the game's turquoise, dark enough for white text."""
FACE_DOWN = "#4A4F55"

STRIKE_AMOUNTS = range(1, 7)
AP_VALUES = range(0, 7)
"""The AP a card can give, as the AP card picker offers them."""
GLIDE_MOST = 6
"""The longest glide the picker offers (it never offers more than the AP left)."""
PROTECTION_NAMES = {"harmful": N_("harmful"), "slippery": N_("slippery"),
                    "corrupt": N_("corruption")}


def app() -> Any:
    return App.get_running_app()


def leviathan_name(state: dict[str, Any]) -> str:
    return str(state["leviathan"]["name"])


class ThreatTile(MarkFrame, BoxLayout):
    """One space of the threat row: face down, or its calm or wild half up."""

    slot = NumericProperty(1)
    """The space, counted 1-5 from the left as players do."""
    face = StringProperty("")
    """What lies there, in words: face down, calm, wild (and the card's name once known)."""
    half = StringProperty("")
    """The upright half, in words: WILD or calm."""
    face_up = BooleanProperty(False)
    """The card lies face up."""
    half_colour = ListProperty(rgba(CALM))
    """The upright half's colour (shown along a face-down card's top edge)."""
    background = ListProperty(rgba(FACE_DOWN))
    """The half's colour (grey face down)."""
    ink = ListProperty([1, 1, 1, 1])
    """The text colour that reads on it."""
    mark = StringProperty("")
    """"next" for the space the next reveal turns over, "now" for the one revealed this turn."""
    card = StringProperty("")
    """The threat card's number (1-5 of its leviathan) once the players named it."""


class GuardianTile(MarkFrame, ButtonBehavior, BoxLayout):
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
    """Deck, hand and discard, in words."""
    deck = NumericProperty(0)
    """Cards in the deck: the guardian's grip."""
    hand = NumericProperty(0)
    """Cards in the hand."""
    discard = NumericProperty(0)
    """Cards in the discard pile."""
    status = StringProperty("")
    """Falling, focus, weaknesses."""
    active = BooleanProperty(False)
    """It is this guardian's turn."""
    selected = BooleanProperty(False)
    """The quick buttons act on this guardian."""
    defeated = BooleanProperty(False)
    """Out of the game."""
    falling = BooleanProperty(False)
    """Falling (said beside the name when there is no room for the status line)."""
    roomy = BooleanProperty(False)
    """The tile has room for a line of its own for the status (portrait); else the status
    follows the name."""


class WrathSpace(FitLabel):
    """One space of the wrath track (one label: a track of ten is rebuilt never, refilled on
    every tap)."""

    wild = NumericProperty(0)
    """The number printed under it: how many threats turn wild at a round's end there."""
    current = BooleanProperty(False)
    """The wrath marker stands on it."""


class CrystalDie(FitLabel):
    """A crystal standing, as its dice (a giant crystal's two values joined by "+"), in its
    `text`."""

    colour = ListProperty(rgba(CALM))
    """Purple, or turquoise when corrupted."""


class LeviathanMenu(TableMenu):
    """Leaving or abandoning the game, and the settings: what is not needed every step."""


def threat_number(card: str | None) -> str:
    """"3" for the card id LW-threat-<leviathan>-3: the threat's number within its leviathan."""
    return card.rsplit("-", 1)[1] if card else ""


def crystal_text(number: int, crystal: dict[str, Any]) -> str:
    """"Crystal 2: 4+3, corrupted": its dice left, struck first to last."""
    if crystal["shattered"]:
        return _("Crystal {number}: shattered").format(number=number)
    dice = "+".join(str(die) for die in crystal["dice"])
    text = _("Crystal {number}: {dice}").format(number=number, dice=dice)
    return text + (_(", corrupted") if crystal["corrupted"] else "")


class ApCardPanel(InstantPopup):
    """The active guardian's AP card: its protections (toggles), then its AP value (one tap
    plays it)."""

    guardian_name = StringProperty("")
    """Whose activation it is."""

    PROTECTIONS = ("harmful", "slippery", "corrupt")

    def protections(self) -> list[str]:
        return [kind for kind in self.PROTECTIONS if self.ids[f"protect_{kind}"].state == "down"]

    def reset(self) -> None:
        """Kept to open again (`kept`): every card shows its protections afresh."""
        for kind in self.PROTECTIONS:
            self.ids[f"protect_{kind}"].state = "normal"

    def play(self, ap: int) -> None:
        if app().send({"cmd": "ap_card", "ap": ap, "protections": self.protections()}):
            self.dismiss()


class GuardianPanel(InstantPopup):
    """What the chosen guardian does now and then: cards between deck, hand and discard,
    terrain entered, falling, focus and weaknesses. It stays open for several taps and shows
    the guardian's numbers as they change."""

    guardian = NumericProperty(0)
    """The guardian it acts on, from 0."""
    name = StringProperty("")
    """Their name."""
    cards = StringProperty("")
    """Deck, hand and discard, in words."""
    status = StringProperty("")
    """Defeated, falling, weaknesses, in words."""
    health = NumericProperty(0)
    corruption = NumericProperty(0)
    deck = NumericProperty(0)
    """Cards in the deck: the guardian's grip."""
    hand = NumericProperty(0)
    discard = NumericProperty(0)
    falling = BooleanProperty(False)
    focus_ready = BooleanProperty(False)
    weaknesses = NumericProperty(0)
    """How many weakness cards they hold."""

    def show(self, state: dict[str, Any]) -> None:
        guardian = state["guardians"][self.guardian]
        self.name = guardian["name"]
        self.health, self.corruption = guardian["health"], guardian["corruption"]
        self.deck, self.hand, self.discard = guardian["deck"], guardian["hand"], guardian["discard"]
        self.cards = _("Deck {deck} · hand {hand} · discard {discard}").format(
            deck=guardian["deck"], hand=guardian["hand"], discard=guardian["discard"])
        status = []  # health and corruption stand above it as figures
        if guardian["defeated"]:
            status.append(_("Defeated"))
        if guardian["falling"]:
            status.append(_("Falling"))
        if guardian["weaknesses"]:
            status.append(_("Weaknesses {count}").format(count=len(guardian["weaknesses"])))
        self.status = " · ".join(status)
        self.falling, self.focus_ready = guardian["falling"], guardian["focus_ready"]
        self.weaknesses = len(guardian["weaknesses"])
        self._held = list(guardian["weaknesses"])

    @property
    def amount(self) -> int:
        """How many cards the grip buttons move (the panel's stepper)."""
        return int(self.ids.amount.value)

    def send(self, command: dict[str, Any]) -> bool:
        return bool(app().send({**command, "guardian": self.guardian}))

    def move_cards(self, what: str) -> None:
        """draw (deck to hand), discard (hand to discard), lose or gain grip."""
        if what in ("draw", "discard"):
            self.send({"cmd": what, "count": self.amount})
        else:
            self.send({"cmd": "grip", "amount": -self.amount if what == "lose" else self.amount})

    def terrain(self, kind: str) -> None:
        self.send({"cmd": "terrain", "kind": kind})

    def fall_or_land(self) -> None:
        self.send({"cmd": "land" if self.falling else "fall"})

    def toggle_focus(self) -> None:
        self.send({"cmd": "focus", "ready": not self.focus_ready})

    def draw_weakness(self) -> None:
        self.send({"cmd": "weakness"})

    def discard_weakness(self) -> None:
        """Get rid of a weakness; which one is asked only when they hold different named ones."""
        named = sorted({card for card in self._held if card is not None})
        if len(set(self._held)) <= 1:
            self.send({"cmd": "weakness", "remove": True, "card": self._held[0]
                       if self._held else None})
            return
        picker = CardPicker.kept(title=_("Get rid of which weakness?"), columns=3)
        colour = app().colours["button"]
        choices = [{"value": card, "text": _("Weakness {number}").format(
            number=card.rsplit("-", 1)[1]), "detail": card} for card in named]
        if None in self._held:
            choices.append({"value": "", "text": _("Not named"), "detail": ""})
        picker.fill([{**choice, "background": colour,
                      "text_colour": app().colours["button_text"]} for choice in choices])
        picker.when_picked = lambda card: self.send(
            {"cmd": "weakness", "remove": True, "card": card or None})
        picker.open()


class CrystalRow(BoxLayout):
    """One crystal in the crystals panel: its dice, and the corrections a player may need."""

    index = NumericProperty(0)
    """The crystal's number, from 0."""
    text = StringProperty("")
    """Its number, dice and kind, in words."""
    shattered = BooleanProperty(False)
    corrupted = BooleanProperty(False)
    panel = ObjectProperty(None)
    """The CrystalsPanel it sits in (which sends the commands)."""


class GoalRow(BoxLayout):
    """A leviathan's extra win condition (met or not) or one of its counters (±1)."""

    kind = StringProperty("")
    """"condition" or "counter"."""
    key = StringProperty("")
    """The condition's number (as text) or the counter's name."""
    text = StringProperty("")
    met = BooleanProperty(False)
    panel = ObjectProperty(None)


class CrystalsPanel(InstantPopup):
    """The crystals, corrected by hand (a die turned wrong, a crystal the book adds, one
    shattered by an effect), and the leviathan's extra win conditions and counters when it
    has them."""

    new_corrupted = BooleanProperty(False)
    """The crystal to add is corrupted."""
    has_goals = BooleanProperty(False)
    """The game has win conditions or counters to show."""

    def __init__(self, **kwargs: Any) -> None:
        self._crystal_rows: list[CrystalRow] = []
        """The crystals' rows, refilled likewise (a later game may have fewer crystals)."""
        self._goal_rows: list[GoalRow] = []
        """The goals' row widgets: the panel stays open over many taps, and each refills
        them rather than building new ones."""
        super().__init__(**kwargs)

    def show(self, state: dict[str, Any]) -> None:
        self._crystals = state["crystals"]
        shown = reuse_rows(self.ids.crystal_rows, self._crystal_rows, len(self._crystals),
                           lambda index: CrystalRow(index=index, panel=self))
        for row, crystal in zip(shown, self._crystals, strict=True):
            row.text = crystal_text(row.index + 1, crystal)
            row.shattered, row.corrupted = crystal["shattered"], crystal["corrupted"]
        goals = [{"kind": "condition", "key": str(number), "met": condition["met"],
                  "text": _("{condition} (met)").format(condition=condition["label"])
                  if condition["met"] else condition["label"]}
                 for number, condition in enumerate(state["win_conditions"])]
        goals += [{"kind": "counter", "key": name, "met": False,
                   "text": _("{counter}: {value}").format(counter=name, value=value)}
                  for name, value in state["counters"].items()]
        shown = reuse_rows(self.ids.goal_rows, self._goal_rows, len(goals),
                           lambda _index: GoalRow(panel=self))
        for row, goal in zip(shown, goals, strict=True):
            row.kind, row.key, row.text, row.met = (goal["kind"], goal["key"], goal["text"],
                                                    goal["met"])
        self.has_goals = bool(goals)

    def change(self, index: int, amount: int) -> None:
        """Turn the crystal's first die by `amount` (a shattered crystal stays shattered)."""
        dice = turned_dice(self._crystals[index], amount)
        if dice is not None:
            app().send({"cmd": "set_crystal", "crystal": index, "dice": dice})

    def toggle_corrupted(self, index: int) -> None:
        crystal = self._crystals[index]
        app().send({"cmd": "set_crystal", "crystal": index, "dice": list(crystal["dice"]),
                    "corrupted": not crystal["corrupted"]})

    def shatter(self, index: int) -> None:
        app().send({"cmd": "set_crystal", "crystal": index, "dice": []})

    def add(self) -> None:
        app().send({"cmd": "add_crystal", "dice": [int(self.ids.new_die.value)],
                    "corrupted": self.new_corrupted})

    def set_condition(self, key: str, met: bool) -> None:
        app().send({"cmd": "win_condition", "condition": int(key), "met": met})

    def count(self, name: str, amount: int) -> None:
        app().send({"cmd": "counter", "counter": name, "amount": amount})


class LeviathanTableScreen(KitTable):
    """The kit's title is the leviathan, the round and the step; its banner says Last Chance,
    or the game's end with its reason, and the news of the last command."""

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
            die.colour = rgba(WILD if crystal["corrupted"] else CALM)

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
                                          for n in range(1, THREATS_PER_LEVIATHAN + 1))])
        picker.offer(taken)
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
