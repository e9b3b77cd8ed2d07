"""The System screen (Home → System, Settings → System): what is right and wrong with the
machine, each check marked OK, ! or ✕ (and coloured), with what to do; below, what can be done
with the companion itself: back up to a stick, restore, update (their work in
system_actions.py), and Home's Turn off and Restart (power_menu.py). Layout in layouts/system.kv.

The checks run on a thread of their own (a command such as vcgencmd may take a moment on a
Pi), when the screen is shown and every few seconds while it is; their answer is put on the
screen on Kivy's clock.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup

from .. import i18n
from ..i18n import _, ngettext
from ..system_health import OK, PROBLEM, WARNING, Check, Machine, run_checks
from ..updates import Update
from ..usb_sticks import mounted_sticks
from . import system_actions
from .widgets import FitButton, reuse_rows

REFRESH_S = 5.0
"""How often the checks run again while the screen is shown."""
MARKS = {OK: "OK", WARNING: "!", PROBLEM: "✕"}
"""The sign beside each check: its level is never told by colour alone."""
TONES = {OK: ("accent", "accent_text"), WARNING: ("banner", "banner_text"),
         PROBLEM: ("danger", "danger_text")}
"""The theme's colours (background, text) of a check's mark and of the summary."""
SEVERITY = {PROBLEM: 0, WARNING: 1, OK: 2}


def app() -> Any:
    return App.get_running_app()


@dataclass
class Survey:
    """What one look at the machine found (gathered off Kivy's thread)."""

    checks: list[Check]
    sticks: list[Path] = field(default_factory=list)
    updates: list[Update] = field(default_factory=list)


class CheckRow(BoxLayout):
    """One check: its mark, what is so, and what to do."""

    level = StringProperty(OK)
    """ok, warning or problem: the mark's sign and colours."""
    said = StringProperty("")
    """The check's name and what is so, as markup (the name in bold)."""
    what_to_do = StringProperty("")
    """What to do about it; empty when all is well."""
    key = StringProperty("")
    """The check's key (system_health.Check.key)."""


class SystemActionButton(FitButton):
    """One of the actions below the checks."""

    action = StringProperty("")
    """Which: system_actions.BACKUP, RESTORE, UPDATE, TURN_OFF or RESTART."""


class SystemScreen(Screen):
    summary = StringProperty("")
    """The line above the checks: all well, or how many warnings and problems."""
    summary_level = StringProperty(OK)
    """The worst level among the checks (the summary's colours)."""
    actions = ListProperty([])
    """The actions offered now, as [action, words, available] lists."""
    reasons = StringProperty("")
    """Why actions are not available here, one line each."""
    message = StringProperty("")
    """What the last action did (or why it did not)."""
    return_to = StringProperty("home")
    """The screen Back goes to (Home, or Settings when it was opened from there)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._poll = Clock.schedule_interval(self.refresh, REFRESH_S)
        self._poll.cancel()  # runs only while shown
        self._looking = False
        self._rows: list[CheckRow] = []
        self._buttons: list[SystemActionButton] = []
        self.checks: list[Check] = []
        self.sticks: list[Path] = []
        self.updates: list[Update] = []
        self.actions_at_hand = system_actions.SystemActions(self)
        self.find_sticks = mounted_sticks
        """Where the sticks plugged in are found (a test hands its own table of mounts)."""
        self.find_updates = system_actions.updates_on
        """The updates on those sticks (a test hands its own)."""

    # --- shown and left ---

    def on_pre_enter(self, *_args: Any) -> None:
        self.ids.power.refresh()
        self.refresh()
        self._poll()

    def on_leave(self, *_args: Any) -> None:
        self._poll.cancel()

    def back(self) -> None:
        target, self.return_to = self.return_to, "home"
        app().show(target)

    def retranslate(self) -> None:
        if self.checks:
            self.refresh()
        self.show_actions()

    # --- looking at the machine ---

    def machine(self) -> Machine:
        """The machine as this app sees it: its data folder and settings file."""
        settings = Path(app().get_application_config())
        db_path = games_file(app())
        return Machine.this_one(db_path or settings.parent / "games.sqlite3", settings)

    def refresh(self, *_args: Any) -> None:
        """Look again, on a thread; a look still running is not doubled."""
        running = app()
        if self._looking or running is None:  # None: the app has stopped while it was shown
            return
        self._looking = True
        machine, lang = self.machine(), i18n.language()
        reader = running.reader_link.reader
        connected = getattr(reader, "connected", None) if reader is not None else None
        threading.Thread(target=self._look,
                         args=(machine, lang, connected, running.voice_link.known_problem()),
                         name="system-checks", daemon=True).start()

    def _look(self, machine: Machine, lang: str, connected: bool | None,
              voice_problem: str | None) -> None:
        try:
            checks = run_checks(machine, lang, reader_connected=connected,
                                voice_problem=voice_problem)
            sticks = self.find_sticks()
            survey = Survey(checks, sticks, self.find_updates(sticks))
        finally:
            self._looking = False
        Clock.schedule_once(lambda _dt: self.show_survey(survey))

    def show_survey(self, survey: Survey) -> None:
        """Put what a look found on the screen (on Kivy's thread)."""
        plugged_in = bool(survey.sticks) and not self.sticks and bool(self.checks)
        self.checks, self.sticks, self.updates = survey.checks, survey.sticks, survey.updates
        rows = reuse_rows(self.ids.checks, self._rows, len(survey.checks),
                          lambda _index: CheckRow())
        # The worst first: on the small panel a problem is never below the fold.
        worst_first = sorted(survey.checks, key=lambda check: SEVERITY[check.level])
        for row, check in zip(rows, worst_first, strict=True):
            row.key, row.level = check.key, check.level
            row.said = f"[b]{escape_markup(check.title)}:[/b] {escape_markup(check.said)}"
            row.what_to_do = check.what_to_do
        problems = sum(check.level == PROBLEM for check in survey.checks)
        warnings = sum(check.level == WARNING for check in survey.checks)
        self.summary_level = PROBLEM if problems else WARNING if warnings else OK
        self.summary = summary_words(problems, warnings)
        self.show_actions()
        if plugged_in:  # a stick put in while the screen is shown: what it is for, in view
            Clock.schedule_once(lambda _dt: self.ids.scroll.scroll_to(self.ids.actions,
                                                                   animate=False))

    def show_actions(self) -> None:
        offered = self.actions_at_hand.offered()
        self.actions = [[action.key, action.words, action.available] for action in offered]
        # One line per reason, naming the actions it holds back.
        held: dict[str, list[str]] = {}
        for action in offered:
            if action.reason:
                held.setdefault(action.reason, []).append(action.words)
        self.reasons = "\n".join(f"{', '.join(words)}: {reason}"
                                 for reason, words in held.items())

    def on_actions(self, *_args: Any) -> None:
        buttons = reuse_rows(self.ids.actions, self._buttons, len(self.actions),
                             lambda _index: SystemActionButton(on_release=self._act))
        for button, (action, words, available) in zip(buttons, self.actions, strict=True):
            button.action, button.text, button.disabled = action, words, not available

    def _act(self, button: SystemActionButton) -> None:
        self.actions_at_hand.start(button.action)

    def action_button(self, action: str) -> SystemActionButton | None:
        """The button of `action` while it is offered (tests tap it)."""
        return next((button for button in self._buttons
                     if button.action == action and button.parent is not None), None)


def games_file(running: Any) -> Path | None:
    """The games file the app has open (None: the games live in memory only)."""
    service = getattr(running, "service", None)
    location = getattr(getattr(service, "store", None), "location", ":memory:")
    return None if location == ":memory:" else Path(location)


def summary_words(problems: int, warnings: int) -> str:
    if problems:
        return ngettext("{count} problem needs you", "{count} problems need you",
                        problems).format(count=problems)
    if warnings:
        return ngettext("All works; {count} thing to look at",
                        "All works; {count} things to look at", warnings).format(count=warnings)
    return _("All is well")
