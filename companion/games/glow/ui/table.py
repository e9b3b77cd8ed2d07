"""Glow's table screen: the day and its phase over a day track, one tile per player (score with
its lap, reroll tokens with those usable only tomorrow apart, the glowworm threshold, camp or
boats), the phase's prompt and reminders beside one big Done (which asks "nothing forgotten?"
at the end of noon and afternoon), and once the game is over the end scoring: each player's four
categories apart, their total and rank, the winner and the tie-break.

It mirrors the driver's JSON state (the game's `view`) into Kivy properties; its layout is in
layouts/glow/table.kv, and every tap is a driver command sent through `App.send`. Two panels
hold what is not needed every phase: a player's tokens, companions, camp or boats; and a
player's end scoring.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from companion.games.glow.data import ROW
from companion.games.glow.table_words import PHASE_NAMES, PHASES
from companion.games.glow.ui.setup import colour_hex, colour_rgba
from companion.i18n import _, ngettext
from companion.ui.table_kit import KitTable
from companion.ui.theme import rgba, text_colour_on
from companion.ui.widgets import (
    CardPicker,
    ConfirmPopup,
    InstantPopup,
    MarkFrame,
    Stepper,
    TableMenu,
    reuse_rows,
)

CATEGORIES = ("cards", "board", "glowworms", "companions", "trails")
"""end_score's fields besides the track's score and the reroll tokens left."""
NEUTRAL = "#5A5F66"
COMPANION_COLOUR = "#3B5E7A"


def app() -> Any:
    return App.get_running_app()


def is_glow(state: dict[str, Any] | None) -> bool:
    return bool(state) and state is not None and state.get("title") == "glow"


def rank_numbers(ranking: list[list[int]]) -> dict[int, int]:
    """Each player's rank, tied players sharing one (1, 1, 3)."""
    ranks: dict[int, int] = {}
    place = 1
    for group in ranking:
        for player in group:
            ranks[player] = place
        place += len(group)
    return ranks


def tie_break_text(state: dict[str, Any]) -> str:
    """Players level on light shards whom reroll tokens told apart, in words; "" for none."""
    outcome = state.get("outcome")
    if not outcome:
        return ""
    players = state["players"]
    groups = outcome["ranking"]
    lines = []
    for upper, lower in zip(groups, groups[1:], strict=False):
        if players[upper[0]]["final"] == players[lower[0]]["final"]:
            lines.append(_("{first} and {second} both have {score}: {first} keeps more reroll "
                           "tokens ({more} to {fewer})").format(
                first=players[upper[0]]["name"], second=players[lower[0]]["name"],
                score=players[upper[0]]["final"], more=players[upper[0]]["reroll_tokens"],
                fewer=players[lower[0]]["reroll_tokens"]))
    return "\n".join(lines)


def end_line(end: dict[str, Any]) -> str:
    """"60 + cards 4 + board 5 + glowworms 0 + trails 3 = 72": the four categories apart."""
    return _("{track} + cards {cards} + board {board} + glowworms {bonus} + trails {trails} = "
             "{total}").format(track=end["track"], cards=signed(end["cards"]),
                               board=end["board"], bonus=end["glowworm_bonus"],
                               trails=end["trails"], total=end["total"])


def signed(value: int) -> str:
    return f"{value:+d}" if value < 0 else str(value)


class DayCell(Label):
    """One day of the day track, or one phase of the day."""

    when = StringProperty("future")
    """"past", "now" or "future"."""


class PlayerTile(MarkFrame, BoxLayout):
    """One player's numbers at a glance, with the buttons a phase needs most."""

    index = NumericProperty(0)
    """The player's seat, from 0."""
    name = StringProperty("")
    band = ListProperty(rgba(NEUTRAL))
    """Their colour."""
    ink = ListProperty([1, 1, 1, 1])
    """A text colour that reads on it."""
    starts = BooleanProperty(False)
    """They hold the start marker."""
    score = NumericProperty(0)
    """Light shards, absolute."""
    lap_text = StringProperty("")
    """Where the marker stands on the board: space and lap."""
    rerolls = NumericProperty(0)
    rerolls_text = StringProperty("")
    """Usable now, and gained today (usable tomorrow) apart."""
    threshold_text = StringProperty("")
    """"glowworms 4 / companions 5"."""
    threshold_met = BooleanProperty(False)
    board_text = StringProperty("")
    """Camp village (realm) or boats' islands (sea)."""
    over = BooleanProperty(False)
    """The game is over: the tile shows the end scoring."""
    scored = BooleanProperty(False)
    """Their end scoring is entered."""
    final_text = StringProperty("")
    """The total, or what the app suggests."""
    end_text = StringProperty("")
    """The four categories apart, once entered."""
    rank_text = StringProperty("")
    can_accept = BooleanProperty(False)
    """The app knows every category (a whole game played with it): one tap scores them."""
    winner = BooleanProperty(False)
    compact = BooleanProperty(False)
    """Leave out the lap and board lines: the encounter track's row needs their room (a
    landscape screen while the morning or the evening asks for the areas)."""
    screen = ObjectProperty(None)
    """The table screen (which sends the commands)."""


class AreaCell(BoxLayout):
    """One area of the encounter track, as the morning and the evening ask for it: its small
    dice with − and + while they are entered, or a button to recruit its companion (or send it
    to the graveyard) while the morning's picks go on."""

    area = NumericProperty(1)
    """The area, 1-5 left to right."""
    caption = StringProperty("")
    count = NumericProperty(0)
    """The small dice entered for it so far (not sent until the whole track is entered)."""
    mode = StringProperty("")
    """"dice", "pick" or "discard" (the screen's `area_mode`)."""
    action_text = StringProperty("")
    """The pick or discard button's words."""
    has_companion = BooleanProperty(True)
    """A companion still lies there."""
    screen = ObjectProperty(None)

    def step(self, amount: int) -> None:
        self.screen.step_dice(self, amount)

    def act(self) -> None:
        self.screen.area_tapped(self.area)


class GlowMenu(TableMenu):
    """Leaving or abandoning the game, and the settings: what is not needed every phase."""


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
        colour = COMPANION_COLOUR
        picker.fill([{"value": card["id"], "text": card["name"],
                      "detail": companion_detail(card),
                      "background": rgba(colour), "text_colour": rgba(text_colour_on(colour))}
                     for card in app().catalogue_of("glow")["companions"]])
        picker.offer(held)
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


def player_summary(player: dict[str, Any]) -> str:
    parts = [_("Score {score}").format(score=player["score"]),
             player["glowworm_threshold"]["text"],
             _("trails {trails}").format(trails=player["trails"])]
    return " · ".join(parts)


def companion_text(companion: dict[str, Any]) -> str:
    return _("{name} ({card}): value {value}, glowworms {glowworms}").format(
        name=companion["name"], card=companion["card"].removeprefix("glow-"),
        value=signed(companion["value"]), glowworms=companion["glowworms"])


def companion_detail(card: dict[str, Any]) -> str:
    detail = _("{card} · value {value}").format(card=card["id"].removeprefix("glow-"),
                                               value=signed(card["value"]))
    if card["glowworms"]:
        detail += " · " + _("{count} glowworms").format(count=card["glowworms"])
    return detail


def lap_text(player: dict[str, Any]) -> str:
    """Where the marker stands, so the number matches the board."""
    if player["lap"]:
        return _("space {space}, lap {lap}").format(space=player["track_space"],
                                                    lap=player["lap"] + 1)
    return _("space {space}").format(space=player["track_space"])


def rerolls_text(player: dict[str, Any]) -> str:
    """Usable now on the first line; gained today, usable from tomorrow, apart below."""
    tomorrow = player["reroll_tokens_gained_today"]
    usable = _("Rerolls {count}").format(count=player["reroll_tokens_usable"])
    return usable + ("\n" + _("+{count} tomorrow").format(count=tomorrow) if tomorrow else "")


def area_action_text(mode: str, area: dict[str, Any] | None) -> str:
    """The pick or discard button of one area: what it does and what goes with it."""
    if mode not in ("pick", "discard"):
        return ""
    if area is None or not area["companion"]:
        return _("Area {area}: taken").format(area=area["area"]) if area else ""
    if mode == "discard":
        return _("Area {area}: to the graveyard").format(area=area["area"])
    dice = area["dice"]
    dice_text = ngettext("{count} die", "{count} dice", dice).format(count=dice) \
        if dice is not None else _("dice not entered")
    trails = ngettext("{count} trail", "{count} trails", area["trails"]).format(
        count=area["trails"])
    return _("Area {area}: recruit").format(area=area["area"]) + "\n" + dice_text + " · " + \
        trails


def board_text(state: dict[str, Any], player: dict[str, Any]) -> str:
    if state["board"] == "realm":
        return _("Camp: village {value}").format(value=player["camp"]) if player["camp"] \
            else _("Camp: start space")
    islands = [island for island in player["boats"] or [] if island]
    if not islands:
        return _("Boats: all in the centre")
    return _("Boats: islands {islands} = {value}").format(
        islands=", ".join(map(str, islands)), value=player["board_value"])


class GlowTableScreen(KitTable):
    """The kit's title is the board side, the day and the phase; its reminders are the
    phase's, the evening's chores numbered; its banner the start marker passing, the game's
    end, the winner."""

    phase = StringProperty("")
    """The phase the game is in (what Done finishes), or "over"."""
    gate = StringProperty("")
    """The "nothing forgotten?" question Done asks in this phase ("" when it asks none)."""
    over = BooleanProperty(False)
    """The days are over: the end scoring."""
    scored = BooleanProperty(False)
    """Every player is scored: the result stands."""
    tie_break = StringProperty("")
    """Who a tie-break by reroll tokens put ahead, in words."""
    area_mode = StringProperty("")
    """What the encounter-track row asks for: "dice" (the small dice in each area), "pick"
    (who recruits from which area), "discard" (two players' extra companion), "" (hidden)."""
    dice_counted = NumericProperty(0)
    """The small dice entered in the row so far."""
    dice_expected = NumericProperty(0)
    """The small dice on the table: 9, or 10 once Kaar has brought the black die."""
    enter_dice_text = StringProperty("")
    compact_tiles = BooleanProperty(False)
    """The tiles leave out their lap and board lines for the encounter track's row."""
    prompt_bold = True

    @property
    def done_text(self) -> str:
        """What the big button says now (the kit's `action_label`)."""
        return str(self.action_label)

    def on_kv_post(self, *_args: Any) -> None:
        super().on_kv_post()
        self._state: dict[str, Any] = {}
        days, phases = self.ids.days, self.ids.phases
        self._days = [DayCell(text=str(day)) for day in range(1, 9)]
        for cell in self._days:
            days.add_widget(cell)
        self._phases = [DayCell() for _phase in PHASES]
        for cell in self._phases:
            phases.add_widget(cell)
        self._areas = [AreaCell(area=area, screen=self) for area in range(1, ROW + 1)]
        """The encounter track's cells, in the row only while it asks for something."""
        self._dice_for: tuple[int, str] | None = None
        """The day and phase the row's dice counts were started for: kept over refreshes
        (a score tapped meanwhile), started afresh at the next entry."""

    # --- what the shared screens ask of a table ---

    def setup_summary(self, state: dict[str, Any]) -> str:
        """The checklist's line: the board side, the players, who starts."""
        names = ", ".join(p["name"] for p in state["players"])
        starter = state["players"][state["start_player"]]["name"]
        mode = _("end scoring only") if state["mode"] == "scoring" else _(
            "{name} starts").format(name=starter)
        return " · ".join([state["board_name"], names, mode])

    @staticmethod
    def resume_text(state: dict[str, Any]) -> str:
        """Home's button: the day and phase, or the end scoring still to do."""
        if state.get("outcome") is not None:
            return ""
        if state["phase"] == "over":
            return _("Resume Glow: the end scoring")
        return _("Resume Glow: day {day}, {phase}").format(
            day=state["day"], phase=_(PHASE_NAMES.get(state["phase"], state["phase"])).lower())

    @staticmethod
    def ready_text(all_ticked: bool) -> str:
        return _("All set: on to day 1") if all_ticked else _("Set up: on to day 1")

    # --- what the screen shows ---

    def shows(self, state: dict[str, Any]) -> bool:
        return is_glow(state)  # not another game's state

    def show_state(self, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
        self._state = state
        phase = state["phase"]
        self.phase = phase
        self.over = phase == "over"
        self.scored = state["outcome"] is not None
        board = state["board_name"]
        if self.over:
            self.title = _("Glow · {board} · end scoring").format(board=board)
        else:
            self.title = _("Glow · {board} · day {day} of {days} · {phase}").format(
                board=board, day=state["day"], days=state["days"],
                phase=state["phase_name"])  # the game's own word: "Mittag", not "mittag"
        self.prompt = state["prompt"]["text"]
        lines = [reminder["text"] for reminder in state["reminders"]]
        numbered = phase == "evening"
        self.reminders = "\n".join(f"{n}. {line}" if numbered else f"• {line}"
                                   for n, line in enumerate(lines, start=1))
        self.gate = state["gate"]["text"] if state["gate"] else ""
        self.tie_break = tie_break_text(state)
        self._show_track(state)
        self._show_players(state)
        self._show_areas(state)
        tie = bool(state.get("reroll_tokens_needed"))
        # Done sends the phase it means; where it asks "nothing forgotten?" first, it opens
        # the question instead.
        self.show_step((_("Home") if self.scored else _("Break the tie") if tie
                        else _("Score the next player"))
                       if self.over else (_("Done: nothing forgotten?") if self.gate
                                          else _("Done")),
                       None if self.over or self.gate else {"cmd": "next", "phase": phase})
        if any(event.get("type") == "game_started" and event.get("mode") == "scoring"
               for event in events):
            # Scoring only: nothing to set out, straight on to the scoring (after the shared
            # new-game screen has shown the checklist).
            Clock.schedule_once(lambda _dt: app().show(app().table_name()), 0)

    def _show_track(self, state: dict[str, Any]) -> None:
        for day, cell in enumerate(self._days, start=1):
            cell.when = "now" if day == state["day"] and not self.over else (
                "past" if day < state["day"] or self.over else "future")
        index = PHASES.index(state["phase"]) if state["phase"] in PHASES else len(PHASES)
        for position, (phase, cell) in enumerate(zip(PHASES, self._phases, strict=True)):
            cell.text = _(PHASE_NAMES[phase])
            cell.when = "now" if position == index else ("past" if position < index
                                                          else "future")

    def _show_areas(self, state: dict[str, Any]) -> None:
        """The encounter track's row: dice steppers while the dice are asked for, the pick or
        discard buttons while the morning's recruiting goes on, hidden otherwise."""
        if state.get("dice_wanted"):
            mode = "dice"
        elif state["phase"] == "morning" and state["needs_discard"]:
            mode = "discard"
        elif state["phase"] == "morning" and state["picker"] is not None:
            mode = "pick"
        else:
            mode = ""
        self.dice_expected = state.get("small_dice", 0)
        entry = (state["day"], state["phase"])
        if mode == "dice" and self._dice_for != entry:
            self._dice_for = entry
            for cell in self._areas:
                cell.count = 0
        areas = state["areas"]
        for cell in self._areas if mode else ():  # a hidden row is filled when it comes back
            area = areas[cell.area - 1] if cell.area <= len(areas) else None
            cell.mode = mode
            cell.has_companion = bool(area and area["companion"])
            cell.caption = _("Area {area}").format(area=cell.area)
            cell.action_text = area_action_text(mode, area)
        self.area_mode = mode
        self._compact_tiles()
        # A hidden row gives its cells back: a disabled button, even one of no height's row,
        # still swallows the taps that land on it (the end scoring's buttons lie there).
        box = self.ids.area_cells
        if mode and not box.children:
            for cell in self._areas:
                box.add_widget(cell)
        elif not mode and box.children:
            box.clear_widgets()
        self._count_dice()

    def on_size(self, *_args: Any) -> None:
        super().on_size()
        self._compact_tiles()

    def _compact_tiles(self) -> None:
        """A landscape screen has no room for both the encounter track's row and the tiles'
        lap and board lines; a portrait one has."""
        self.compact_tiles = bool(self.area_mode) and self.width > self.height
        for tile in self.ids.players.children:
            tile.compact = self.compact_tiles

    def step_dice(self, cell: AreaCell, amount: int) -> None:
        """An area's − or +: never below 0, never more dice in the row than are in play."""
        others = sum(other.count for other in self._areas if other is not cell)
        cell.count = max(0, min(cell.count + amount, self.dice_expected - others))
        self._count_dice()

    def _count_dice(self) -> None:
        self.dice_counted = sum(cell.count for cell in self._areas)
        self.enter_dice_text = _("Enter the dice\n{counted} of {expected}").format(
            counted=self.dice_counted, expected=self.dice_expected)

    def enter_dice(self) -> None:
        """Send the row's counts: the rules check that every small die is there."""
        app().send({"cmd": "dice", "dice": [cell.count for cell in self._areas]})

    def area_tapped(self, area: int) -> None:
        """Pick: the player whose turn it is recruits from `area`, naming the companion if
        they like; discard: the start player's extra companion goes to the graveyard."""
        state = self._state
        if self.area_mode == "discard":
            app().send({"cmd": "discard", "area": area})
            return
        picker = state.get("picker")
        if self.area_mode != "pick" or picker is None:
            return
        chooser = CardPicker.kept(title=_("{name} recruits from area {area}: which companion?")
                                  .format(name=state["players"][picker]["name"], area=area),
                                  columns=4)
        colour = COMPANION_COLOUR
        unnamed = {"value": "", "text": _("Not named"), "detail": _("add it later"),
                   "background": app().colours["button"],
                   "text_colour": app().colours["button_text"]}
        chooser.fill([unnamed, *({"value": card["id"], "text": card["name"],
                                  "detail": companion_detail(card), "background": rgba(colour),
                                  "text_colour": rgba(text_colour_on(colour))}
                                 for card in app().catalogue_of("glow")["companions"])])
        chooser.offer({c["card"] for p in state["players"] for c in p["companions"]})

        def recruit(card: str) -> None:
            command: dict[str, Any] = {"cmd": "pick", "player": picker, "area": area}
            if card:
                command["card"] = card
            app().send(command)

        chooser.when_picked = recruit
        chooser.open()

    def _show_players(self, state: dict[str, Any]) -> None:
        box = self.ids.players
        tiles = list(reversed(box.children))
        if len(tiles) != len(state["players"]):
            box.clear_widgets()
            tiles = [PlayerTile(index=i, screen=self) for i in range(len(state["players"]))]
            for tile in tiles:
                box.add_widget(tile)
        ranks = rank_numbers(state["outcome"]["ranking"]) if state["outcome"] else {}
        for i, (tile, player) in enumerate(zip(tiles, state["players"], strict=True)):
            tile.band = colour_rgba(player["colour"])
            tile.ink = rgba(text_colour_on(colour_hex(player["colour"])))
            tile.starts = i == state["start_player"] and not self.over
            tile.name = player["name"] + (" · " + _("start") if tile.starts else "")
            tile.score = player["score"]
            tile.lap_text = lap_text(player)
            tile.rerolls = player["reroll_tokens"]
            tile.rerolls_text = rerolls_text(player)
            tile.threshold_text = player["glowworm_threshold"]["text"]
            tile.threshold_met = player["glowworm_threshold"]["met"]
            tile.board_text = board_text(state, player)
            tile.over = self.over
            end = player["end"]
            tile.scored = end is not None
            tile.can_accept = self.over and end is None and state["mode"] == "full"
            if end is not None:
                tile.final_text = str(end["total"])
                tile.end_text = end_line(end)
            else:
                tile.final_text = "–"
                tile.end_text = _("not scored yet")
            rank = ranks.get(i)
            tile.winner = rank == 1
            if rank is None:
                tile.rank_text = ""
            elif not player.get("reroll_tokens_known", True):
                tile.rank_text = _("Rank {rank}").format(rank=rank)
            else:
                tile.rank_text = ngettext("Rank {rank} · {count} reroll token left",
                                          "Rank {rank} · {count} reroll tokens left",
                                          player["reroll_tokens"]).format(
                    rank=rank, count=player["reroll_tokens"])

    # --- what the players do ---

    def step_action(self) -> None:
        """The big button: finish the phase (asking "nothing forgotten?" where the rules do);
        once the days are over, the next player's scoring; once all are scored, Home."""
        if self.over:
            if self.scored:
                app().show("home")
                return
            unscored = [i for i, p in enumerate(self._state["players"]) if p["end"] is None]
            if unscored:
                self.open_scoring(unscored[0])
            elif self._state.get("reroll_tokens_needed"):
                self.open_tie_break()
            return
        if self.gate:
            phase = self.phase
            ConfirmPopup.kept(message=self.gate, confirm_text=_("Nothing forgotten: go on"),
                              when_confirmed=lambda: app().send(
                                  {"cmd": "next", "phase": phase, "confirm": True})).open()
            return
        super().step_action()

    def done(self) -> None:
        """The big button, through the kit's guard (the name this table had before the kit)."""
        self.act()

    def change(self, what: str, player: int, amount: int) -> None:
        """A tile's − or +: the score or the reroll tokens."""
        app().send({"cmd": what, "player": player, "amount": amount})

    def accept(self, player: int) -> None:
        """One tap: the end scoring as the app tracked it."""
        known = self._state["players"][player]["end_suggested"]
        app().send({"cmd": "end_score", "player": player,
                    **{key: known[key] for key in CATEGORIES}})

    def choose_companion(self, card: str) -> None:
        """A companion laid on the reader while several areas still hold one: the player whose
        pick it is recruits it from the area tapped here (its dice and trails go with it)."""
        picker = self._state["picker"]
        if picker is None:
            return
        chooser = CardPicker.kept(title=app().read_message, columns=4)
        colour = app().colours["button"]
        chooser.fill([{"value": str(area["area"]),
                       "text": _("Area {area}").format(area=area["area"]), "detail": "",
                       "background": colour, "text_colour": app().colours["button_text"]}
                      for area in self._state["areas"] if area["companion"]])
        chooser.when_picked = lambda area: app().send(
            {"cmd": "pick", "player": picker, "area": int(area), "card": card})
        chooser.open()

    def open_menu(self) -> None:
        GlowMenu().open()

    # --- the panels ---

    def open_player(self, player: int) -> None:
        if self.over:
            self.open_scoring(player)
            return
        panel = self.panel_of(PlayerPanel)  # opened on many taps: built once
        panel.player = player
        self.open_panel(panel)

    def open_scoring(self, player: int) -> None:
        self.open_panel(ScorePanel(player=player))  # a form filled once per opening

    def open_tie_break(self) -> None:
        self.open_panel(TiePanel())

