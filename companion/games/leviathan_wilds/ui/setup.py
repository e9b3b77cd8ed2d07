"""Leviathan Wilds' new-game form: the leviathan, the difficulty, the players, and the numbers
the rules digest could not verify (numbers.toml), which the players may correct before they
start. The shared new-game screen hosts it.

Its layout is layouts/leviathan_wilds/new_game.kv. A corrected number goes into new_game only
when it differs from the one the game would use anyway, and is remembered with the other choices.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import (
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.scrollview import ScrollView

from companion import i18n
from companion.i18n import _
from companion.ui.corrections import NumberCorrections, NumberStepper
from companion.ui.pickers import CardPicker

GAME_ID = "leviathan-wilds"
DIFFICULTIES = ("easy", "medium", "hard", "expert")
SCALARS = ("wrath_start", "health_start", "health_max", "deck_size", "solo_rest_grip")
"""The single numbers a game may be started with corrected (the lists are the wild counts and
the crystals)."""
DIE_FACES = (1, 6)


def app() -> Any:
    return App.get_running_app()


class LeviathanForm(NumberCorrections, ScrollView):
    form_id = "leviathan_form"
    """Its name among the new-game screen's ids."""

    note = StringProperty("")
    """The line beside Start: how many unverified numbers are corrected."""
    leviathan = StringProperty("")
    """The leviathan as shown ("3 · name")."""
    leviathan_names = ListProperty([])
    """The leviathan picker's choices, by number."""
    lw_difficulty = StringProperty("medium")
    """Easy, medium, hard or expert."""
    lw_players = NumericProperty(1)
    """1 (solo: one player, two guardians) to 4."""

    def on_kv_post(self, *_args: Any) -> None:
        self.hold_numbers(self.ids.lw_numbers_box, self.ids.lw_numbers)
        self.retranslate()
        self.bind(lw_difficulty=self._show_numbers, lw_players=self._show_numbers,
                  corrections=self._show_numbers)

    def catalogue(self) -> dict[str, Any]:
        catalogue: dict[str, Any] = app().catalogue_of(GAME_ID)
        return catalogue

    # --- the choices ---

    def restore(self, last: dict[str, Any]) -> None:
        """The choices of the last game started, where they still name something known."""
        if last.get("players") in range(1, 5):
            self.lw_players = last["players"]
        if last.get("difficulty") in DIFFICULTIES:
            self.lw_difficulty = last["difficulty"]
        chosen = [name for name in self.leviathan_names
                  if name.split(" ", 1)[0] == str(last.get("leviathan"))]
        if chosen:
            self.leviathan = chosen[0]
        self.corrections = remembered_corrections(last, self.catalogue()["numbers"])

    def retranslate(self) -> None:
        number = self.leviathan.split(" ", 1)[0]
        self.leviathan_names = [f"{lev['number']} · {_(lev['name'])}"
                                for lev in self.catalogue()["leviathans"]]
        self.leviathan = next((name for name in self.leviathan_names
                               if name.split(" ", 1)[0] == number), self.leviathan_names[0])
        self._show_numbers()

    def command(self) -> dict[str, Any]:
        command: dict[str, Any] = {"cmd": "new_game", "game": GAME_ID,
                                   "players": int(self.lw_players),
                                   "difficulty": self.lw_difficulty,
                                   "leviathan": int(self.leviathan.split(" ", 1)[0])}
        return self.corrected(command)

    def pick_leviathan(self) -> None:
        """The 17 leviathans as large buttons, by number."""
        picker = CardPicker.kept(title=_("Which leviathan?"), columns=3)
        colour = app().colours["button"]
        picker.fill([{"value": name.split(" ", 1)[0], "text": name,
                      "detail": _("complexity {level}").format(level=lev["complexity"]),
                      "background": colour, "text_colour": app().colours["button_text"],
                      "highlight": name == self.leviathan}
                     for name, lev in zip(self.leviathan_names, self.catalogue()["leviathans"],
                                          strict=True)])
        picker.when_picked = lambda number: setattr(self, "leviathan", next(
            name for name in self.leviathan_names if name.split(" ", 1)[0] == number))
        picker.open()

    # --- the unverified numbers ---

    def defaults(self) -> dict[str, Any]:
        """The numbers the game uses for the difficulty and players chosen, uncorrected."""
        return numbers_in_use(self.catalogue()["numbers"], self.lw_difficulty,
                              int(self.lw_players) == 1)

    def stepped(self, stepper: NumberStepper, values: dict[str, Any]) -> Any:
        """The field's value: "wrath_start" counted from 0 (shown from 1, as players count the
        spaces), a crystal's one die, a wild count."""
        key, value = stepper.key, int(stepper.value)
        if key == "wrath_start":
            value -= 1
        if stepper.index < 0:
            return value
        entries = [dict(e) if isinstance(e, dict) else e for e in values[key]]
        if key == "crystals":
            entries[int(stepper.index)]["dice"] = [value]
        else:
            entries[int(stepper.index)] = value
        return entries

    def _show_numbers(self, *_args: Any) -> None:
        if "numbers" not in self.ids:
            return
        values = self.values()
        shown = [("wrath_start", -1, _("Wrath marker starts on space"),
                  values["wrath_start"] + 1, 1, len(values["wrath_wild_counts"])),
                 ("health_start", -1, _("Health at the start"), values["health_start"], 1,
                  values["health_max"]),
                 ("health_max", -1, _("Top of the health track"), values["health_max"], 1, 20),
                 ("deck_size", -1, _("Cards in a guardian deck") if self.lw_players != 1
                  else _("Cards in the solo deck"), values["deck_size"], 1, 60),
                 ("solo_rest_grip", -1, _("Solo: grip gained by Rest"),
                  values["solo_rest_grip"], 1, 60)]
        shown += [("wrath_wild_counts", index, _("Wild threats at wrath space {space}").format(
                       space=index + 1), count, 0, 5)
                  for index, count in enumerate(values["wrath_wild_counts"])]
        shown += [("crystals", index, (_("Crystal {number}, corrupted") if crystal["corrupted"]
                                       else _("Crystal {number}")).format(number=index + 1),
                   crystal["dice"][0], *DIE_FACES)
                  for index, crystal in enumerate(values["crystals"])]
        self.show_steppers(self.ids.numbers, shown)
        count = len(self.corrections)
        self.numbers_text = _("Unverified numbers: none corrected") if not count else \
            _("Unverified numbers: {count} corrected").format(count=count)
        self.note = i18n.ngettext("{count} number corrected", "{count} numbers corrected",
                                  count).format(count=count) if count else ""


def numbers_in_use(numbers: dict[str, Any], difficulty: str, solo: bool) -> dict[str, Any]:
    """The catalogue's numbers as new_game's fields for this difficulty and table."""
    return {
        "wrath_wild_counts": list(numbers["wrath_wild_counts"]),
        "wrath_start": numbers["wrath_start"][difficulty],
        "health_start": min(numbers["health_start"], numbers["health_max"]),
        "health_max": numbers["health_max"],
        "deck_size": numbers["deck_size"]["solo" if solo else "guardian"],
        "solo_rest_grip": numbers["solo_rest_grip"],
        "crystals": [{"dice": list(c["dice"]), "corrupted": bool(c["corrupted"])}
                     for c in numbers["crystals"]],
    }


def remembered_corrections(last: dict[str, Any], numbers: dict[str, Any]) -> dict[str, Any]:
    """The corrections a remembered new_game carried, where they are still well-formed (a
    hand-edited file loses only what it broke)."""
    kept: dict[str, Any] = {}
    for key in SCALARS:
        if isinstance(last.get(key), int) and not isinstance(last[key], bool):
            kept[key] = last[key]
    counts = last.get("wrath_wild_counts")
    if isinstance(counts, list) and len(counts) == len(numbers["wrath_wild_counts"]) \
            and all(isinstance(c, int) and 0 <= c <= 5 for c in counts):
        kept["wrath_wild_counts"] = counts
    crystals = last.get("crystals")
    if isinstance(crystals, list) and len(crystals) == len(numbers["crystals"]) and all(
            isinstance(c, dict) and isinstance(c.get("dice"), list) and len(c["dice"]) == 1
            and isinstance(c["dice"][0], int) and DIE_FACES[0] <= c["dice"][0] <= DIE_FACES[1]
            for c in crystals):
        kept["crystals"] = [{"dice": list(c["dice"]), "corrupted": bool(c.get("corrupted"))}
                            for c in crystals]
    return kept
