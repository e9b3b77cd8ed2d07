"""Leviathan Wilds' table panels: the active guardian's AP card, the chosen guardian (grip,
terrain, falling, focus, weaknesses) and the crystals (with the leviathan's win conditions and
counters).

The table screen (`table.py`) opens them; they show the driver's JSON state, their layout is in
layouts/leviathan_wilds/table.kv, and every tap is a driver command sent through `App.send`.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import (
    BooleanProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout

from companion.games.leviathan_wilds.table_words import turned_dice
from companion.i18n import _
from companion.ui.pickers import CardPicker
from companion.ui.widgets import InstantPopup, reuse_rows

AP_VALUES = range(0, 7)
"""The AP a card can give, as the AP card picker offers them."""


def app() -> Any:
    return App.get_running_app()


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
