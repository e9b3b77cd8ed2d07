"""Glow's table panels, for what is not needed every phase: a player's tokens, companions and
camp or boats (the player panel), a player's end scoring (the score panel), and the reroll tokens
a tie-break asks for (the tie panel). Each sends its commands through `App.send`.

Their look is in layouts/glow/table.kv.
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
from kivy.uix.boxlayout import BoxLayout

from companion.games.glow.ui.presenter import (
    CATEGORIES,
    COMPANION_COLOUR,
    companion_detail,
    companion_text,
    end_line,
    is_glow,
    player_summary,
)
from companion.i18n import _
from companion.ui.pickers import CardPicker
from companion.ui.theme import rgba, text_colour_on
from companion.ui.widgets import InstantPopup, Stepper, reuse_rows


def app() -> Any:
    return App.get_running_app()


class PanelCounter(BoxLayout):
    """A count in the player panel: its words, its value, − and + that send a command."""

    label = StringProperty("")
    value = StringProperty("")
    command = StringProperty("")
    """The driver command − and + send with "amount"."""
    panel = ObjectProperty(None)

    def step(self, amount: int) -> None:
        self.panel.send({"cmd": self.command, "amount": amount})


class CompanionRow(BoxLayout):
    """One companion in a player's row: its name and numbers, and a button to send it away."""

    card = StringProperty("")
    text = StringProperty("")
    panel = ObjectProperty(None)


class PlayerPanel(InstantPopup):
    """One player's tokens, companions and camp or boats: it stays open for several taps and
    shows their numbers as they change."""

    player = NumericProperty(0)
    name = StringProperty("")
    board = StringProperty("realm")
    summary = StringProperty("")
    """Score, rerolls, threshold, board value, in words."""
    camp_text = StringProperty("")
    track_reroll_text = StringProperty("")
    """The late morning's score-track reroll, with where it moves the marker ("" if none)."""
    lumipili_left = NumericProperty(0)
    boats = ListProperty([])
    """The island each boat is on."""

    def __init__(self, **kwargs: Any) -> None:
        self._companion_rows: list[CompanionRow] = []
        """The companions' row widgets: the panel stays open over many taps, and each
        refills them rather than building new ones."""
        super().__init__(**kwargs)

    def show(self, state: dict[str, Any]) -> None:
        if not is_glow(state):
            return
        self._state = state
        player = state["players"][self.player]
        self.name = player["name"]
        self.board = state["board"]
        self.summary = player_summary(player)
        counters = {"score": str(player["score"]), "rerolls": _(
            "{usable} usable · {tomorrow} from tomorrow").format(
                usable=player["reroll_tokens_usable"],
                tomorrow=player["reroll_tokens_gained_today"]),
            "glowworms": str(player["glowworm_tokens"]), "trails": str(player["trails"]),
            "spell": str(player["spells"])}
        for command, value in counters.items():
            self.ids[f"counter_{command}"].value = value
        shown = reuse_rows(self.ids.companions, self._companion_rows,
                           len(player["companions"]), lambda _index: CompanionRow(panel=self))
        for row, companion in zip(shown, player["companions"], strict=True):
            row.card, row.text = companion["card"], companion_text(companion)
        self.camp_text = _("Camp: village worth {value}").format(value=player["camp"]) \
            if player["camp"] else _("Camp: on the start space")
        self.boats = list(player["boats"] or [])
        for boat in range(4):
            button = self.ids[f"boat_{boat}"]
            island = self.boats[boat] if boat < len(self.boats) else 0
            button.text = _("Boat {number}: island {island}").format(
                number=boat + 1, island=island) if island else _(
                "Boat {number}: centre").format(number=boat + 1)
        costs = player["track_rerolls"]
        self.track_reroll_text = _("Score-track reroll: to {space}").format(space=costs[0]) \
            if costs and state["phase"] == "late_morning" else ""
        self.lumipili_left = player["lumipili_left"] if state["phase"] == "late_morning" else 0

    def send(self, command: dict[str, Any]) -> bool:
        return bool(app().send({**command, "player": self.player}))

    def pick_companion(self) -> None:
        """The card list as large buttons; cards already in a row are left out."""
        picker = CardPicker.kept(title=_("{name}: which companion?").format(name=self.name),
                                 columns=4)
        held = {c["card"] for p in self._state["players"] for c in p["companions"]}
        look = {"background": rgba(COMPANION_COLOUR),
                "text_colour": rgba(text_colour_on(COMPANION_COLOUR))}
        picker.fill([{"value": card["id"], "text": card["name"],
                      "detail": companion_detail(card), **look}
                     for card in app().catalogue_of("glow")["companions"]], left_out=held)
        picker.when_picked = lambda card: self.send({"cmd": "companion", "card": card})
        picker.open()

    def remove_companion(self, card: str) -> None:
        self.send({"cmd": "companion", "card": card, "remove": True})

    def pick_camp(self) -> None:
        picker = CardPicker.kept(title=_("{name}: where is the camp?").format(name=self.name),
                                 columns=4)
        colour = app().colours["button"]
        values = [0, *self._state["village_values"]]
        picker.fill([{"value": str(value), "text": _("Village worth {value}").format(
                          value=value) if value else _("Start space"), "detail": "",
                      "background": colour, "text_colour": app().colours["button_text"],
                      "highlight": value == self._state["players"][self.player]["camp"]}
                     for value in values])
        # The panel puts markers right at any time (the afternoon's move included), so it
        # sends a correction: outside the afternoon a plain move is refused.
        picker.when_picked = lambda value: self.send(
            {"cmd": "camp", "value": int(value), "correction": True})
        picker.open()

    def pick_island(self, boat: int) -> None:
        picker = CardPicker.kept(title=_("{name}: boat {number} sails to which island?").format(
            name=self.name, number=boat + 1), columns=4)
        colour = app().colours["button"]
        picker.fill([{"value": str(island), "text": _("Island {number}").format(number=island)
                      if island else _("Centre"),
                      "detail": _("worth {value}").format(value=value), "background": colour,
                      "text_colour": app().colours["button_text"],
                      "highlight": boat < len(self.boats) and self.boats[boat] == island}
                     for island, value in enumerate(self._state["island_values"])])
        picker.when_picked = lambda island: self.send(
            {"cmd": "boat", "boat": boat, "island": int(island), "correction": True})
        picker.open()

    def track_reroll(self) -> None:
        self.send({"cmd": "track_reroll"})

    def lumipili(self) -> None:
        self.send({"cmd": "lumipili"})


class ScoreStepper(Stepper):
    """An end-scoring number: − and + by one, and by ten where the numbers run high. It may
    start unknown ("?"): a game scored without the app has nothing the app could fill in, and
    the first tap counts from 0 (− on "?" says 0 where 0 is the lowest)."""

    key = StringProperty("")
    """end_score's field."""
    tens = BooleanProperty(False)
    """Offers −10 and +10 too."""
    known = BooleanProperty(True)
    """The number is entered (or tracked); False shows "?" until the first tap."""

    def step(self, amount: int) -> None:
        if not self.known:
            self.value = 0
            self.known = True
        super().step(amount)


class ScorePanel(InstantPopup):
    """One player's end scoring: the track's score, the four categories and the reroll tokens
    left, filled in with what the app knows; the total follows every tap, Save sends it."""

    player = NumericProperty(0)
    name = StringProperty("")
    total_text = StringProperty("")
    """The sum as the categories stand, each apart."""

    def show(self, state: dict[str, Any]) -> None:
        """Fill the numbers in once, from the entered scoring or what the app tracked."""
        if getattr(self, "_filled", False) or not is_glow(state):
            return
        self._filled = True
        player = state["players"][self.player]
        self.name = player["name"]
        # A game played with the app fills in what it tracked; scoring only knows nothing
        # until entered, and asks for reroll tokens only when a tie needs them.
        entered = player["end"]
        tracked = state["mode"] != "scoring"
        known = entered or {**player["end_suggested"], "track": player["score"]}
        values = {"track": known["track"], "reroll_tokens": player["reroll_tokens"],
                  **{key: known[key] for key in CATEGORIES}}
        rerolls_known = player.get("reroll_tokens_known", True)
        labels = {"track": _("Score on the track"), "cards": _("Cards' values"),
                  "board": _("Camp's village") if state["board"] == "realm"
                  else _("Boats' islands"),
                  "glowworms": _("Glowworms"), "companions": _("Companions"),
                  "trails": _("Trails"), "reroll_tokens": _("Reroll tokens left")}
        limits = {"track": (0, 300), "cards": (-60, 120), "board": (0, 100),
                  "glowworms": (0, 60), "companions": (0, 60), "trails": (0, 60),
                  "reroll_tokens": (0, 60)}
        box = self.ids.numbers
        box.clear_widgets()
        self._steppers: dict[str, ScoreStepper] = {}
        keys = ("track", *CATEGORIES, *(("reroll_tokens",) if rerolls_known else ()))
        for key in keys:
            low, high = limits[key]
            stepper = ScoreStepper(key=key, label=labels[key], minimum=low, maximum=high,
                                   tens=key in ("track", "cards", "board"),
                                   known=tracked or entered is not None)
            stepper.value = values[key]
            stepper.bind(value=self._show_total)
            box.add_widget(stepper)
            self._steppers[key] = stepper
            self.ids[f"end_{key}"] = stepper
        self._show_total()

    def numbers(self) -> dict[str, int]:
        """The numbers entered; those still "?" are left out."""
        return {key: int(stepper.value) for key, stepper in self._steppers.items()
                if stepper.known}

    def missing(self) -> list[str]:
        """The words of the numbers still to enter."""
        return [stepper.label for stepper in self._steppers.values() if not stepper.known]

    def _show_total(self, *_args: Any) -> None:
        missing = self.missing()
        if missing:
            self.total_text = _("Still to enter: {numbers}").format(numbers=", ".join(missing))
            return
        numbers = self.numbers()
        bonus = 10 if numbers["glowworms"] >= numbers["companions"] else 0
        total = numbers["track"] + numbers["cards"] + numbers["board"] + bonus + \
            numbers["trails"]
        self.total_text = end_line({**numbers, "glowworm_bonus": bonus, "total": total})

    def save(self) -> None:
        missing = self.missing()
        if missing:
            app().notice = _("Not saved: enter {numbers} first (− on \"?\" enters 0)").format(
                numbers=", ".join(missing))
            return
        numbers = self.numbers()
        command = {"cmd": "end_score", "player": self.player, "score": numbers["track"],
                   **{key: numbers[key] for key in (*CATEGORIES, "reroll_tokens")
                      if key in numbers}}
        if app().send(command):
            self.dismiss()


class TiePanel(InstantPopup):
    """The tie-break of a game scored without the app: the reroll tokens left of the players
    level on light shards, and only theirs; Save re-sends their end scoring with them."""

    names = StringProperty("")
    """The tied players, in words."""

    def show(self, state: dict[str, Any]) -> None:
        if getattr(self, "_filled", False) or not is_glow(state):
            return
        self._filled = True
        self._state = state
        players = state["players"]
        needed = state.get("reroll_tokens_needed", [])
        self.names = ", ".join(players[i]["name"] for i in needed)
        box = self.ids.numbers
        box.clear_widgets()
        self._steppers: dict[int, ScoreStepper] = {}
        for i in needed:
            stepper = ScoreStepper(key="reroll_tokens", minimum=0, maximum=60, known=False,
                                   label=_("{name}: reroll tokens left").format(
                                       name=players[i]["name"]))
            box.add_widget(stepper)
            self._steppers[i] = stepper
            self.ids[f"tie_{i}"] = stepper

    def save(self) -> None:
        missing = [s.label for s in self._steppers.values() if not s.known]
        if missing:
            app().notice = _("Not saved: enter {numbers} first (− on \"?\" enters 0)").format(
                numbers=", ".join(missing))
            return
        for i, stepper in self._steppers.items():
            end = self._state["players"][i]["end"]
            command = {"cmd": "end_score", "player": i, "score": end["track"],
                       "reroll_tokens": int(stepper.value),
                       **{key: end[key] for key in CATEGORIES}}
            if not app().send(command):
                return
        self.dismiss()
