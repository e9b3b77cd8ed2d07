"""The table kit: the parts every game's table is built from, with their guard rails written once.

`KitTable` is the screen class a game's table derives from. It carries the big step button (a
tap within `settle_seconds` of the button changing its meaning was meant for the old meaning,
and the button always sends the step or phase it means), the top bar (title, "?", Undo, Redo,
Menu), the banner (one line per kind of news, never cut off, told again in the new language
after a switch, "Undone: …" after an undo) and the prompt-and-reminders column (it scrolls
rather than shrinks). Their layout is layouts/table_kit.kv; a game's table.kv places the parts
(`TableTopBar`, `BannerArea`, `PromptColumn`, `StepButton`) among its own, and its table class
fills them in `show_state`.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, cast

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import (
    BooleanProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView

from .. import i18n
from ..core.seats import seat_lines
from ..i18n import _
from .figures import sizes as figure_sizes
from .showing_row import ShowingRow  # noqa: F401  (a part a game's table.kv places)
from .table_panels import Panel, TablePanels
from .widgets import FitButton, GrowLabel, TableMenu, reuse_rows

SETTLE_SECONDS = 0.5
"""A tap on the step button this soon after it changed its meaning was meant for the meaning
before (a double tap, a bouncing touch): it must not finish the step just begun, unread."""

HISTORY_KEPT = 500
"""Commands whose banner lines an undo can still take back."""

UNDO_KIND = "undo"
"""The banner kind of "Undone: …" and "Redone: …"."""


def app() -> Any:
    return App.get_running_app()


def now() -> float:
    """The clock the table's tap rules read (tests replace it to play at a player's pace)."""
    return time.monotonic()


def step_key(state: dict[str, Any]) -> tuple[Any, ...]:
    """Where the game stands, in the fields the games' states share: a new key is a new step,
    whose news starts afresh."""
    return tuple(state.get(name) for name in ("game", "round", "day", "phase", "step", "active"))


@dataclass(eq=False)
class BannerNews:
    """One line of the banner and what it was told from, so that it can be told again in
    another language; compared by identity (an undo takes back the very lines its command
    brought)."""

    kind: str
    text: str
    events: list[dict[str, Any]] = field(default_factory=list)
    lasting: bool = False
    """Told from the state alone (the game's end, Last Chance): it lasts while the state says
    it, and heads the banner."""


def fallback_undo_line(event: dict[str, Any]) -> str | None:
    """ "Undone: …" for a game whose banner does not say what an undo took back."""
    if event.get("type") == "undone":
        return _("Undone: the last command.")
    if event.get("type") == "redone":
        return _("Redone: the command undone last.")
    return None


class KitPart:
    """A part of the table kit placed in a game's table.kv: `table` is the screen it serves,
    and its ids join the screen's, so that `screen.ids.done` is found wherever it sits."""

    table = ObjectProperty(None, allownone=True, rebind=True)
    """The KitTable this part belongs to (set in the game's kv: `table: root`)."""


class TableTopBar(KitPart, BoxLayout):
    """Title, "?", Undo, Redo and Menu; widgets a game adds to it in its kv (Spirit Island's
    timer) sit between the title and the buttons."""

    def add_widget(self, widget: Any, *args: Any, **kwargs: Any) -> None:
        if "extras" in self.ids:  # the kit's own rule is built: the game's additions
            self.ids.extras.add_widget(widget, *args, **kwargs)
            return
        super().add_widget(widget, *args, **kwargs)


class BannerArea(KitPart, BoxLayout):
    """The banner: its lines scroll once they would take more than `room`; OK clears them."""

    room = NumericProperty(dp(120))
    """The most height the banner takes before its lines scroll (the game's kv sets it)."""
    shown_height = NumericProperty(0)
    """Its lines' natural height, up to `room`."""

    def fit(self, *_args: Any) -> None:
        rows = self.ids.get("banner_rows")
        if rows is None or not rows.children:
            self.shown_height = 0
            return
        # At least a finger's height (its OK button), at most `room`.
        self.shown_height = max(dp(52), min(rows.height + 2 * self.padding[1],
                                            max(self.room, dp(60))))


class PromptColumn(KitPart, ScrollView):
    """The step's prompt and its reminders, scrolling when long; widgets a game adds to it in its
    kv (Glow's tie-break) sit between the two."""

    def add_widget(self, widget: Any, *args: Any, **kwargs: Any) -> None:
        if "extras" in self.ids:
            self.ids.extras.add_widget(widget, *args, **kwargs)
            return
        super().add_widget(widget, *args, **kwargs)


class StepButton(KitPart, FitButton):
    """The big step button: it says the table's `action_label`; a tap goes to `KitTable.act`."""


class BannerLine(GrowLabel):
    """One line of news on a table's banner."""

    kind = StringProperty("")
    """The kind of news (an event type, "undo", or a lasting kind such as "win")."""
    scale = NumericProperty(1.0)
    """The table's scale with the window (its `glance`)."""


class KitMenu(TableMenu):
    """A table's menu with what every game needs: Home, Abandon, Settings, Back."""


class KitTable(TablePanels, Screen):
    """A game's table screen, built from the kit. A game overrides `shows` (is this state one
    of mine?), `show_state` (fill its own properties and call `show_step`) and, where the step
    button does more than send one command, `step_action`; it names the panels and popups its
    taps open (`TablePanels`)."""

    title = StringProperty("")
    """Where the game stands: round, day, phase, step (the top bar's title)."""
    prompt = StringProperty("")
    """What to do now."""
    reminders = StringProperty("")
    """The rules to keep in mind now, one a line."""
    can_undo = BooleanProperty(False)
    """Something can be undone."""
    can_redo = BooleanProperty(False)
    """Something can be redone."""
    action_label = StringProperty("")
    """What the step button says."""
    banner = StringProperty("")
    """The banner's lines, one a line ("" when it is closed)."""
    banner_kind = StringProperty("")
    """The first line's kind (a lasting one, such as "win", "loss", "last_chance", heads)."""
    glance = NumericProperty(1.0)
    """How much larger than on the 800x480 panel the table is drawn."""
    prompt_bold = BooleanProperty(False)
    """The prompt in bold (a game's choice)."""

    settle_seconds = SETTLE_SECONDS

    def __init__(self, **kwargs: Any) -> None:
        self._meaning: tuple[Any, ...] | None = None
        """What the step button means now: the step, its label, the game's extra."""
        self._meant_before: tuple[Any, ...] | None = None
        self._changed_at = -1e9
        self._command: dict[str, Any] | None = None
        """The command the step button sends now (None: it does something else)."""
        self._command_before: dict[str, Any] | None = None
        self._step: tuple[Any, ...] | None = None
        self._game: Any = None
        self._state: dict[str, Any] = {}
        self._banners: dict[str, BannerNews] = {}
        self._banner_lines: list[BannerLine] = []
        """The banner's line widgets, refilled on every command (one a kind at most)."""
        self._told_in = i18n.language()
        self._announced: list[list[BannerNews]] = []
        """What each command this screen carried out announced, oldest first (undo's order)."""
        self._taken_back: list[list[BannerNews]] = []
        """What the commands undone announced, for redo."""
        self._panel: Panel | None = None
        """The panel open over the table, refilled after every command."""
        self._panels: dict[type, Panel] = {}
        """The panels built once for this table (`panel_of`)."""
        super().__init__(**kwargs)

    def on_kv_post(self, *_args: Any) -> None:
        # The kit's parts keep their ids in their own rule: they join the screen's, so that a
        # test, the reader and the soak find `done`, `undo`, `banner_rows` as before.
        for part in list(self.walk(restrict=True)):
            if isinstance(part, KitPart):
                for name, widget in cast(Any, part).ids.items():
                    self.ids.setdefault(name, widget)
        # Bound, not only the on_size below: a game's table that has an on_size of its own
        # and forgets super() still grows (Glow's once stayed at 1.0 in portrait).
        self.fbind("size", self._follow_window)
        self._follow_window()
        if app() is not None:
            app().bind(text_scale=self.on_size)

    def on_size(self, *_args: Any) -> None:
        self._follow_window()

    def _follow_window(self, *_args: Any) -> None:
        # The panel's own proportions in either orientation: 1280x720 and 720x1280 both 1.5.
        long_side, short_side = max(self.size), min(self.size)
        self.glance = max(1.0, min(long_side / dp(800), short_side / dp(480)))
        for line in self._banner_lines:  # the banner's words grow with the table
            line.scale = self.glance

    def on_pre_enter(self, *_args: Any) -> None:
        # The step button's words and the figure tiles grow with the window and the text
        # setting, on every table (not only where a figure tile happened to be built first).
        figure_sizes.follow()
        if app().game_state:
            self.refresh(app().game_state, [])

    # --- what a game gives ---

    def shows(self, state: dict[str, Any]) -> bool:
        """Whether `state` is one this table shows (another game's is ignored)."""
        return bool(state)

    def show_state(self, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
        """Copy the game's state into the screen's properties; call `show_step`."""

    def step_action(self) -> None:
        """What the step button does when a tap is meant for what it shows: by default, send
        the command `show_step` gave it."""
        if self._command is not None:
            app().send(dict(self._command))

    def tell(self, events: list[dict[str, Any]], state: dict[str, Any]) -> list[tuple[str, str]]:
        """The banner's lines for a command's events (for [] those the state alone calls for),
        as (kind, text) in the language in use: the game's `banner` from the registry."""
        from ..games.registry import GAMES

        game = GAMES.get(str(state.get("title", "")))
        if game is None:
            return []
        words = i18n.translations(i18n.language())
        return [(line["kind"], line["text"])
                for line in seat_lines(events, words) + game.banner(events, state, words)]

    # --- showing ---

    def refresh(self, state: dict[str, Any] | None, events: list[dict[str, Any]]) -> None:
        """Show `state`; `events` are what the command just carried out announced ([] when the
        screen is only shown again, or in another language)."""
        if not state or not self.shows(state):
            return
        self._state = state
        if state.get("game") != self._game:  # another game: its news and history are its own
            self._game, self._announced, self._taken_back = state.get("game"), [], []
            self._banners = {}
        self.can_undo = bool(state.get("can_undo"))
        self.can_redo = bool(state.get("can_redo"))
        self.show_state(state, events)
        if self._panel is not None:
            self._panel.show(state)
        stepped = step_key(state) != self._step
        news = self._news(state, events)
        voice = getattr(app(), "voice_link", None)
        if voice is not None:  # the new step's prompt and the new news, aloud if it is on
            voice.table_said(self.prompt if stepped and events else "",
                             [line.text for line in news])

    # --- panels ---

    def open_panel(self, panel: Panel) -> None:
        """Open `panel` (one of `panel_of`'s, or one built for this opening) over the table,
        filled from the game's state; the table refills it while it stays open."""
        panel.show(self._state)
        panel.bind(on_dismiss=self._panel_closed)  # Kivy binds a callback once, however often
        self._panel = panel
        panel.open()

    def _panel_closed(self, *_args: Any) -> None:
        self._panel = None

    def show_step(self, label: str, command: dict[str, Any] | None,
                  extra: Hashable = None) -> None:
        """What the step button says and, when a tap simply sends a command, which one (with
        the step or phase it means). A new label, step or `extra` is a new meaning: a tap in
        the next `settle_seconds` was meant for the old one."""
        self.action_label = label
        meaning = (step_key(self._state), label, extra)
        if meaning != self._meaning:
            self._meant_before, self._meaning = self._meaning, meaning
            self._command_before = self._command
            self._changed_at = now()
        self._command = command

    # --- the step button ---

    def too_soon(self) -> bool:
        """The step button changed its meaning less than `settle_seconds` ago."""
        return self._meant_before is not None and now() - self._changed_at < self.settle_seconds

    def act(self, tapped: bool = True) -> None:
        """The step button (and Space, Enter, a "done" tag). A tap too soon after the button
        changed was meant for what it did before: it is sent as meant, with its step, and the
        game refuses it quietly, so it finishes nothing (`tapped` False: the app itself acts,
        e.g. opening a picker)."""
        if not self._state:
            return
        if tapped and self.too_soon():
            before = self._command_before
            if before is not None and before != self._command:
                app().send(dict(before), quiet=True)
            return
        self.step_action()

    def key_pressed(self, key: int, codepoint: str | None, ctrl: bool) -> bool:
        """A key on a keyboard at the table: Ctrl+Z undo, Ctrl+Y redo, Space or Enter the step
        button. False for any other key."""
        if ctrl and codepoint == "z":
            self.undo()
        elif ctrl and codepoint == "y":
            self.redo()
        elif not ctrl and key in (13, 32, 271):  # Enter, Space, keypad Enter
            self.act()
        else:
            return False
        return True

    def undo(self) -> None:
        app().send({"cmd": "undo"})

    def redo(self) -> None:
        app().send({"cmd": "redo"})

    def open_menu(self) -> None:
        """The game's menu: the kit's (Home, Abandon, Settings, Back) unless the game has its
        own."""
        KitMenu().open()

    # --- the banner ---

    def _news(self, state: dict[str, Any], events: list[dict[str, Any]]) -> list[BannerNews]:
        """Refill the banner; returns the lines that are news now (a command's, and a lasting
        line it brought or changed), for the voice."""
        step = step_key(state)
        if step != self._step:
            self._banners = {kind: news for kind, news in self._banners.items()
                             if news.lasting}
            self._step = step
        was = {kind: news.text for kind, news in self._banners.items() if news.lasting}
        announced = self._announce(events, state) if events else []
        lasting = self.tell([], state)
        kinds = {kind for kind, _text in lasting}
        heads = {kind: BannerNews(kind, text, lasting=True) for kind, text in lasting}
        rest = {kind: news for kind, news in self._banners.items()
                if kind not in kinds and not news.lasting}
        self._banners = {**heads, **rest}
        self.show_banners()
        brought = [line for kind, line in heads.items() if was.get(kind) != line.text]
        return [*brought, *announced] if events else []

    def _announce(self, events: list[dict[str, Any]],
                  state: dict[str, Any]) -> list[BannerNews]:
        """One line per kind; an undo takes back the lines its command announced and says what
        it took back, a redo brings them again. Returns the lines it put up."""
        told = self.tell(events, state)
        undo_event = next((event for event in events
                           if event.get("type") in ("undone", "redone")), None)
        if undo_event is None:
            lines = [BannerNews(kind, text, events) for kind, text in told]
            self._announced = [*self._announced[-(HISTORY_KEPT - 1):], lines]
            self._taken_back = []
            undo = None
        else:
            said = next((text for kind, text in told if kind == UNDO_KIND), None)
            text = said or fallback_undo_line(undo_event) or ""
            undo = BannerNews(UNDO_KIND, text, events)
            if undo_event["type"] == "undone":
                lines = []
                taken = self._announced.pop() if self._announced else []
                self._taken_back.append(taken)
                for line in taken:
                    if self._banners.get(line.kind) is line:
                        del self._banners[line.kind]
            else:
                lines = self._taken_back.pop() if self._taken_back else []
                self._announced.append(lines)
        for line in [*lines, *([undo] if undo else [])]:
            self._banners.pop(line.kind, None)  # the newest line of a kind goes last
            self._banners[line.kind] = line
        return [*lines, *([undo] if undo else [])]

    def _retell(self) -> None:
        """The language changed: every line told again in it."""
        for news in self._banners.values():
            if news.lasting:
                continue  # told afresh from the state on every refresh
            undo = next((event for event in news.events
                         if event.get("type") in ("undone", "redone")), None)
            told = dict(self.tell(news.events, self._state))
            if undo is not None and news.kind == UNDO_KIND:
                news.text = told.get(UNDO_KIND) or fallback_undo_line(undo) or news.text
            else:
                news.text = told.get(news.kind, news.text)

    def show_banners(self) -> None:
        if i18n.language() != self._told_in:
            self._told_in = i18n.language()
            self._retell()
        lines = [news for news in self._banners.values() if news.text]
        rows = self.ids.get("banner_rows")
        if rows is not None:
            shown = reuse_rows(rows, self._banner_lines, len(lines),
                               lambda _index: BannerLine())
            for widget, line in zip(shown, lines, strict=True):
                widget.text, widget.kind, widget.scale = line.text, line.kind, self.glance
        self.banner = "\n".join(line.text for line in lines)
        self.banner_kind = lines[0].kind if lines else ""
        area = self.ids.get("banner")
        if isinstance(area, BannerArea):
            area.fit()

    def dismiss_banner(self) -> None:
        self._banners = {}
        self.show_banners()

