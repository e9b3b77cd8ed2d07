"""Glow's new-game form: the board side, the players (how many, who starts, their names and
colours), a whole game or only the end scoring, and the board's unverified numbers, which the
players may correct before they start. The shared new-game screen hosts it.

Its layout is layouts/glow/new_game.kv. A corrected number goes into new_game only when it
differs from numbers.toml's, and is remembered with the other choices.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import (
    DictProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.scrollview import ScrollView

from companion import i18n
from companion.games.glow.texts import WORDS
from companion.i18n import N_, _
from companion.ui.corrections import NumberCorrections, NumberStepper, StepperRow
from companion.ui.palette import DEFAULT_PALETTE, PLAYER_COLOURS, PLAYER_SYMBOLS, player_colour
from companion.ui.pickers import CardPicker
from companion.ui.theme import rgba, text_colour_on

GAME_ID = "glow"
BOARDS = ("realm", "sea")
MODES = ("full", "scoring")
COLOUR_NAMES = {
    "blue": N_("Blue"),
    "red": N_("Red"),
    "green": N_("Green"),
    "yellow": N_("Yellow"),
    "purple": N_("Purple"),
    "orange": N_("Orange"),
    "white": N_("White"),
    "black": N_("Black"),
}
COLOURS: dict[str, tuple[str, str]] = {
    colour: (name, PLAYER_COLOURS[DEFAULT_PALETTE][colour])
    for colour, name in COLOUR_NAMES.items()}
"""The colours a player can choose: their name (translated) and how the standard palette draws
them (palette.py has the colour-blind safe one and each colour's symbol)."""
LISTS = ("reroll_spaces", "village_values", "island_values")
"""The board's numbers that are lists (the track's length is the one single number)."""
NAME_LENGTH = 20


def app() -> Any:
    return App.get_running_app()


def colour_name(colour: str | None) -> str:
    """A colour id in the language in use ("Blau"), or "" for none."""
    return _(COLOURS[colour][0]) if colour in COLOURS else ""


class PlayerRow(BoxLayout):
    """One player of the form: their seat, name (typed or left to their colour) and colour."""

    seat = NumericProperty(0)
    """Clockwise from 0."""
    colour = StringProperty("")
    """The colour's id."""
    colour_text = StringProperty("")
    """The colour's name in the language in use."""
    seat_text = StringProperty("")
    """"Player 1", in the language in use."""
    form = ObjectProperty(None)
    """The GlowForm it belongs to (which opens the colour picker)."""

    def on_colour(self, *_args: Any) -> None:
        # The game's own words (its catalogue): the same "Player 1" as its prompts say.
        self.seat_text = _(WORDS["player"]).format(number=self.seat + 1)
        self.colour_text = colour_name(self.colour)

    @property
    def typed_name(self) -> str:
        return str(self.ids.name.text).strip()[:NAME_LENGTH]


class GlowForm(NumberCorrections, ScrollView):
    form_id = "glow_form"
    """Its name among the new-game screen's ids."""

    note = StringProperty("")
    """The line beside Start: the mode, or how many board numbers are corrected."""
    glow_board = StringProperty("realm")
    """Realm of Shadows or Sea of Darkness."""
    glow_players = NumericProperty(3)
    """2 to 4."""
    glow_start = NumericProperty(-1)
    """The start player (from 0), or -1 for one drawn at random."""
    glow_mode = StringProperty("full")
    """"full": the whole game day by day; "scoring": only the end scoring."""
    board_names = DictProperty({})
    """The board sides' names in the language in use (the game's own words)."""

    def on_kv_post(self, *_args: Any) -> None:
        self._rows: list[PlayerRow] = []
        self._show_players()
        self.hold_numbers(self.ids.glow_numbers_box, self.ids.glow_numbers)
        self.retranslate()
        self.bind(corrections=self._show_numbers, glow_players=self._show_players,
                  glow_mode=self._show_note)

    def catalogue(self) -> dict[str, Any]:
        catalogue: dict[str, Any] = app().catalogue_of(GAME_ID)
        return catalogue

    # --- the choices ---

    def restore(self, last: dict[str, Any]) -> None:
        """The choices of the last game started, where they still name something known."""
        if last.get("players") in (2, 3, 4):
            self.glow_players = last["players"]
        if last.get("board") in BOARDS:
            self.glow_board = last["board"]
        if last.get("mode") in MODES:
            self.glow_mode = last["mode"]
        start = last.get("start_player")
        self.glow_start = start if isinstance(start, int) and 0 <= start < self.glow_players \
            else -1
        colours = last.get("colours")
        names = last.get("names")
        for seat, row in enumerate(self._rows):
            if isinstance(colours, list) and seat < len(colours) and colours[seat] in COLOURS:
                row.colour = colours[seat]
            typed = names[seat] if isinstance(names, list) and seat < len(names) else ""
            # A name that only repeats the colour was the colour's, not typed.
            row.ids.name.text = typed if isinstance(typed, str) and typed not in {
                _(label) for label, _hex in COLOURS.values()} | {
                label for label, _hex in COLOURS.values()} else ""
        self.corrections = remembered_corrections(last, self.catalogue())

    def retranslate(self) -> None:
        self.board_names = {board: _(WORDS[board]) for board in BOARDS}
        for row in self._rows:
            row.on_colour()
        self._show_numbers()
        self._show_note()

    def command(self) -> dict[str, Any]:
        rows = self._rows[:int(self.glow_players)]
        command: dict[str, Any] = {
            "cmd": "new_game", "game": GAME_ID, "players": int(self.glow_players),
            "board": self.glow_board, "mode": self.glow_mode,
            "colours": [row.colour for row in rows],
            # Players are known by their colour at the table: an untyped name is the colour's.
            "names": [row.typed_name or colour_name(row.colour) for row in rows],
        }
        if 0 <= self.glow_start < self.glow_players:
            command["start_player"] = int(self.glow_start)
        return self.corrected(command)

    def _show_players(self, *_args: Any) -> None:
        box = self.ids.glow_player_rows
        while len(self._rows) < 4:
            row = PlayerRow(seat=len(self._rows), form=self)
            row.colour = list(COLOURS)[len(self._rows)]
            self._rows.append(row)
        box.clear_widgets()
        for row in self._rows[:int(self.glow_players)]:
            box.add_widget(row)
        if self.glow_start >= self.glow_players:
            self.glow_start = -1

    def pick_colour(self, row: PlayerRow) -> None:
        """The colours as large buttons; one another player has is left out."""
        picker = CardPicker.kept(title=_("Player {number}: which colour?").format(
            number=row.seat + 1), columns=4)
        # By seat: kv hands `row` over as a weak proxy, never `is` the row itself.
        taken = {other.colour for other in self._rows[:int(self.glow_players)]
                 if other.seat != row.seat}
        palette = app().palette
        picker.fill([{"value": colour, "text": _(label), "detail": "",
                      "background": rgba(player_colour(colour, palette)),
                      "text_colour": rgba(text_colour_on(player_colour(colour, palette))),
                      "highlight": colour == row.colour, "mark": PLAYER_SYMBOLS[colour]}
                     for colour, label in COLOUR_NAMES.items()], left_out=taken)
        picker.when_picked = lambda colour: setattr(row, "colour", colour)
        picker.open()

    def _show_note(self, *_args: Any) -> None:
        count = len(self.corrections)
        if self.glow_mode == "scoring":
            self.note = _("Scoring only")
        else:
            self.note = i18n.ngettext("{count} number corrected", "{count} numbers corrected",
                                      count).format(count=count) if count else ""

    # --- the unverified numbers ---

    def defaults(self) -> dict[str, Any]:
        """The board's numbers as numbers.toml has them."""
        catalogue = self.catalogue()
        return {"track_length": catalogue["track_length"],
                **{key: list(catalogue[key]) for key in LISTS}}

    def stepped(self, stepper: NumberStepper, values: dict[str, Any]) -> Any:
        if stepper.index < 0:
            return int(stepper.value)
        entries = list(values[stepper.key])
        entries[int(stepper.index)] = int(stepper.value)
        return entries

    def _show_numbers(self, *_args: Any) -> None:
        if "glow_numbers" not in self.ids:
            return
        values = self.values()
        length = int(values["track_length"])
        shown: list[StepperRow] = [
            ("track_length", -1, _("Spaces on the score track"), length, 10, 200)]
        shown += [("reroll_spaces", index, _("Reroll space {number}").format(
                       number=index + 1), space, 0, length - 1)
                  for index, space in enumerate(values["reroll_spaces"])]
        shown += [("village_values", index, _("Village {number}: its value").format(
                       number=index + 1), value, 0, 200)
                  for index, value in enumerate(values["village_values"])]
        shown += [("island_values", index, _("Island {number}: its value").format(
                       number=index) if index else _("Central island: its value"), value, 0,
                   200)
                  for index, value in enumerate(values["island_values"])]
        self.show_steppers(self.ids.glow_number_steppers, shown)
        count = len(self.corrections)
        self.numbers_text = _("Unverified board numbers: none corrected") if not count else \
            _("Unverified board numbers: {count} corrected").format(count=count)
        self._show_note()


def remembered_corrections(last: dict[str, Any], catalogue: dict[str, Any]) -> dict[str, Any]:
    """The corrections a remembered new_game carried, where they are still well-formed (a
    hand-edited file loses only what it broke)."""
    kept: dict[str, Any] = {}
    length = last.get("track_length")
    if isinstance(length, int) and not isinstance(length, bool) and 10 <= length <= 200:
        kept["track_length"] = length
    for key in LISTS:
        values = last.get(key)
        if isinstance(values, list) and len(values) == len(catalogue[key]) and all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 200
                for v in values):
            kept[key] = values
    return kept
