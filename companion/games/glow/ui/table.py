"""Glow's table screen: the day and its phase over a day track, one tile per player (score with
its lap, reroll tokens with those usable only tomorrow apart, the glowworm threshold, camp or
boats), the phase's prompt and reminders beside one big Done (which asks "nothing forgotten?"
at the end of noon and afternoon), and once the game is over the end scoring: each player's four
categories apart, their total and rank, the winner and the tie-break.

It mirrors the driver's JSON state (the game's `view`) into Kivy properties; its layout is in
layouts/glow/table.kv, and every tap is a driver command sent through `App.send`. The words it
shows come from `presenter`, its tiles and cells are in `widgets`, and the panels that hold
what is not needed every phase (a player's tokens, companions, camp or boats; a player's end
scoring; the tie-break) are in `panels`.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, StringProperty

from companion.games.glow.data import ROW
from companion.games.glow.table_words import PHASE_NAMES, PHASES
from companion.games.glow.ui.panels import PlayerPanel, ScorePanel, TiePanel
from companion.games.glow.ui.presenter import (
    CATEGORIES,
    COMPANION_COLOUR,
    area_action_text,
    board_text,
    companion_detail,
    end_line,
    is_glow,
    lap_text,
    rank_numbers,
    rerolls_text,
    tie_break_text,
)
from companion.games.glow.ui.widgets import AreaCell, DayCell, PlayerTile
from companion.i18n import _, ngettext
from companion.ui.pickers import CardPicker
from companion.ui.table_kit import KitTable
from companion.ui.theme import rgba, text_colour_on
from companion.ui.widgets import ConfirmPopup, InstantPopup, TableMenu


def app() -> Any:
    return App.get_running_app()


class GlowMenu(TableMenu):
    """Leaving or abandoning the game, and the settings: what is not needed every phase."""


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
    panels_ahead = (PlayerPanel,)

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
        """The encounter track's cells, kept in their row (folded while it asks nothing)."""
        for cell in self._areas:
            self.ids.area_cells.add_widget(cell)
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
        chooser = self._recruit_picker(
            _("{name} recruits from area {area}: which companion?")
            .format(name=state["players"][picker]["name"], area=area),
            left_out={c["card"] for p in state["players"] for c in p["companions"]})

        def recruit(card: str) -> None:
            command: dict[str, Any] = {"cmd": "pick", "player": picker, "area": area}
            if card:
                command["card"] = card
            app().send(command)

        chooser.when_picked = recruit
        chooser.open()

    @staticmethod
    def _recruit_picker(title: str, left_out: set[str]) -> CardPicker:
        """The companions to recruit, "Not named" first, but those in `left_out`."""
        chooser: CardPicker = CardPicker.kept(title=title, columns=4)
        unnamed = {"value": "", "text": _("Not named"), "detail": _("add it later"),
                   "background": app().colours["button"],
                   "text_colour": app().colours["button_text"]}
        look = {"background": rgba(COMPANION_COLOUR),
                "text_colour": rgba(text_colour_on(COMPANION_COLOUR))}
        chooser.fill([unnamed, *({"value": card["id"], "text": card["name"],
                                  "detail": companion_detail(card), **look}
                                 for card in app().catalogue_of("glow")["companions"])],
                     left_out=left_out)
        return chooser

    def popups_to_warm(self, state: dict[str, Any] | None) -> list[InstantPopup]:
        """The kit's, and the companions' picker: its first opening fitted and drew 47 buttons'
        words in the tap (a fifth of a second here)."""
        return [*super().popups_to_warm(state), self._recruit_picker("", left_out=set())]

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
            tile.colour = player["colour"] or ""
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
