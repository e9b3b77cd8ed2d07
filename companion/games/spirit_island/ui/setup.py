"""Spirit Island's new-game form: players, rules, deck, expansions, blight card, adversary and
scenario, with the difficulty they add up to. The shared new-game screen hosts it.

Its layout is layouts/spirit_island/new_game.kv.
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
from kivy.uix.scrollview import ScrollView

from companion.i18n import N_, _

NONE_CHOICE = N_("None")
RANDOM_BLIGHT = N_("Random (base game)")


def app() -> Any:
    return App.get_running_app()


class SpiritIslandForm(ScrollView):
    form_id = "spirit_island_form"
    """Its name among the new-game screen's ids."""

    note = StringProperty("")
    """The line beside Start: the difficulty of the choices made so far."""
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
        self._adversaries: dict[str, dict[str, Any]] = {}
        self._scenarios: dict[str, dict[str, Any]] = {}
        self._blight: dict[str, dict[str, Any]] = {}
        self.retranslate()
        self.bind(adversary=self._changed, level=self._changed, scenario=self._changed,
                  scenario_difficulty=self._changed, thematic=self._changed,
                  mode=self._changed)

    def catalogue(self) -> dict[str, Any]:
        catalogue: dict[str, Any] = app().catalogue_of("spirit-island")
        return catalogue

    def restore(self, last: dict[str, Any]) -> None:
        """The choices of the last game started, where they still name something known."""
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

    def retranslate(self) -> None:
        """The pickers' names in the language in use (the choices map back to the catalogue's
        ids through them); what was chosen stays chosen."""
        catalogue = self.catalogue()
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
        self.note = self.difficulty_text

    def difficulty(self) -> int:
        # The rules engine is imported when a screen first needs it, not before the first frame.
        from ..commands import NewGame, parse_command
        from ..setup import setup_difficulty

        command = parse_command(self.command())
        assert isinstance(command, NewGame)
        return setup_difficulty(command)

    def command(self) -> dict[str, Any]:
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

    def choose_blight(self, card_id: str | None) -> None:
        """A blight card laid on the reader during setup: the game will use it."""
        for name, card in self._blight.items():
            if card["id"] == card_id:
                self.blight_card = name
                self.mode = "advanced"  # blight cards are part of the advanced game
                return
