"""The card reader in the app: its events brought to Kivy's thread, then acted on like taps.

The reader runs on its own threads and calls `from_reader_thread`, which only queues the event
and pulls one Clock trigger; everything else here runs on Kivy's thread. A card read becomes
the same driver command a tap would send (so it is on disk before the screen shows it, and
undo takes it back), after the checks a tap gets.
"""

from __future__ import annotations

import logging
import queue
import re
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.core.window import Window

from ..i18n import N_, _
from .pickers import CardPicker
from .reads import ReadPlan, forceable, plan_read
from .widgets import ConfirmPopup

if TYPE_CHECKING:
    from ..reader.serial_reader import ReaderEvent, ReaderSettings, SerialReader
    from .app import CompanionApp

log = logging.getLogger(__name__)

READER_OFF = "off"
ENROLMENT_SCREENS = ("tags", "deck_enrolment")
"""The screens a card read steadily is handed to (their `tag_read`), instead of acting."""


def line_pattern_problem(pattern: str) -> str | None:
    """What is wrong with a line bridge's card number pattern, in the players' words; None
    when it can be used (an empty one means the usual formats)."""
    if not pattern.strip():
        return None
    try:
        compiled = re.compile(pattern.strip())
    except re.error:
        return _("The app cannot read this pattern: a bracket or a sign in it is out of "
                 "place. Compare it with the example UID:([0-9A-F]+), or leave it empty for "
                 "the usual formats.")
    if compiled.groups < 1:
        return _("The pattern needs round brackets around the card number, for example "
                 "UID:([0-9A-F]+).")
    return None


def grace_time(text: str) -> float | None:
    """The grace time setting in seconds, or None (the reader's own) when it is not one."""
    try:
        seconds = float(text)
    except ValueError:
        return None
    return seconds if 0 < seconds <= 10 else None


CARD_LAID = ("present", "steady", "stacked")
"""The reader's events of a card laid on it."""


class ReaderLink:
    """Owns the running reader (if the settings name one) and turns its events into actions."""

    def __init__(self, app: CompanionApp) -> None:
        self.app = app
        self.reader: SerialReader | None = None
        self._events: queue.Queue[ReaderEvent] = queue.Queue()
        self._deliver = Clock.create_trigger(self._deliver_events, -1)
        self._status: tuple[str, dict[str, Any]] = (N_("Card reader: off"), {})
        self._notice = ""
        """The notice the reader put up last (a connection clears it, not another's)."""

    # --- what the players read ---

    def show_status(self, text: str, **values: Any) -> None:
        """The reader's status line; `text` is English, shown translated (again after a change
        of language: `retranslate`)."""
        self._status = (text, values)
        self.retranslate()

    def retranslate(self) -> None:
        text, values = self._status
        self.app.reader_status = _(text).format(**values)

    def show_notice(self, text: str) -> None:
        self._notice = text
        self.app.notice = text

    # --- starting and stopping ---

    def configure(self, port: str, family: str, line_pattern: str,
                  removal_after: str = "") -> None:
        """(Re)start the reader with these settings; port "off" (or empty) stops it.
        `removal_after`: the grace time in seconds as companion.ini has it (empty or not a
        number: the reader's own)."""
        self.stop()
        port = port.strip()
        if not port or port == READER_OFF:
            self.show_status(N_("Card reader: off"))
            return
        from ..reader.serial_reader import ReaderSettings  # pyserial only when a reader is set

        problem = line_pattern_problem(line_pattern)
        if problem is not None:  # a hand-edited companion.ini: said as the settings screen says it
            self.show_status(N_("Card reader: {problem}"), problem=problem)
            self.show_notice(_("Card reader not started, because of the card number pattern "
                               "{pattern} in the settings. {problem}").format(
                                   pattern=line_pattern.strip(), problem=problem))
            return
        try:
            settings = ReaderSettings(port=port, family=family,
                                      line_pattern=line_pattern.strip() or None,
                                      removal_after=grace_time(removal_after))
        except ValueError as error:
            problem = str(error)
            self.show_status(N_("Card reader: {problem}"), problem=problem)
            self.show_notice(_("Card reader not started: {problem}").format(problem=problem))
            return
        self.start(settings)

    def start(self, settings: ReaderSettings) -> None:
        from ..reader.serial_reader import SerialReader

        self.stop()
        self.show_status(N_("Card reader: connecting to {port}…"), port=settings.port)
        self.reader = SerialReader(settings, self.from_reader_thread)
        self.reader.start()

    def stop(self) -> None:
        if self.reader is not None:
            self.reader.stop()
            self.reader = None
        self._deliver.cancel()

    # --- the hand-over between threads ---

    def from_reader_thread(self, event: ReaderEvent) -> None:
        """Called on the reader's thread: queue the event; Kivy's thread takes it from there."""
        self._events.put(event)
        self._deliver()

    def _deliver_events(self, *_: Any) -> None:
        while True:
            try:
                event = self._events.get_nowait()
            except queue.Empty:
                return
            self.on_event(event)

    # --- what the events do ---

    def on_event(self, event: ReaderEvent) -> None:
        app = self.app
        if event.event in CARD_LAID:  # the players are at the table: the screen wakes
            app.sleep_watch.poke()
        if event.event == "connected":
            self.show_status(N_("Card reader: {family} on {port}"), family=event.family,
                             port=event.port)
            if self._notice and app.notice == self._notice:
                app.notice = ""
        elif event.event == "disconnected":
            self.show_status(N_("Card reader: disconnected, retrying ({problem})"),
                             problem=event.message)
            self.show_notice(_("Card reader disconnected: {problem}. Retrying by itself.")
                             .format(problem=event.message))
        elif event.event == "error":
            self.show_notice(_("Card reader: {problem}").format(problem=event.message))
        elif self._checking():
            return  # the reader check shows every read itself and acts on none
        elif event.event == "stacked":  # nothing is taken until one card is left
            self.show_notice(_("Two cards on the reader: take one away."))
        elif event.event == "steady" and event.uid and self._enrolling():
            self.app.screen(self.app.screens.current).tag_read(event.uid)
        elif event.event == "present" and event.uid and not self._enrolling():
            self.card_read(event.uid)

    def _enrolling(self) -> bool:
        """Enrolment takes a card only once it was read steadily (the "steady" event), so a
        card brushed past the reader is not enrolled."""
        return self.app.screens.current in ENROLMENT_SCREENS

    def _checking(self) -> bool:
        return bool(self.app.screens.current == "reader_check")

    def card_read(self, uid: str) -> None:
        app = self.app
        screen = app.screens.current
        answer = app.service_call({"cmd": "tag_lookup", "uid": uid})
        if not answer["ok"]:
            return
        # Each game has its own table screen; the rules call the one shown "table".
        where = "table" if screen == app.table_name() else screen
        plan = plan_read(uid, answer["tag"], app.game_state, where)
        log.info("read %s on %s: %s", uid, screen, plan)
        self.carry_out(plan, uid)

    def carry_out(self, plan: ReadPlan, uid: str) -> None:
        app = self.app
        if plan.kind == "enrol":
            ConfirmPopup(message=plan.message, confirm_text=_("Enrol"),
                         when_confirmed=lambda: app.enrol_tag(uid)).open()
        elif plan.kind == "act":  # every game's table screen: act() is its big button
            app.read_message = plan.message
            app.screen(app.table_name()).act()
        elif plan.kind.startswith("choose_") and plan.card is not None:
            app.read_message = plan.message  # the form shown takes it: choose_blight(card) …
            getattr(app.screen(app.screens.current), plan.kind)(plan.card)
        elif plan.kind == "send" and plan.command is not None:
            self._send(plan.command, plan.message)
        else:
            app.read_message = plan.message

    def _send(self, command: dict[str, Any], message: str) -> None:
        app = self.app
        app.read_message = message
        answer = app.carry_out(command)
        if answer["ok"]:
            _close_pickers()  # the card a picker was asking for has been read
            return
        reason = forceable(answer["error"])
        if reason is None:
            return  # the refusal is on the notice line, as for a tap
        app.notice = ""
        forced = {**command, "force": True}
        # The reason is the game's refusal as the driver words it (without the scripts' hint).
        ConfirmPopup(message=_("{read}. {reason}. Take it anyway?").format(
                         read=message, reason=f"{reason[:1].upper()}{reason[1:]}"),
                     confirm_text=_("Take it"),
                     when_confirmed=lambda: self._accepted(forced, message)).open()

    def _accepted(self, command: dict[str, Any], message: str) -> None:
        if self.app.send(command):
            self.app.read_message = message
            _close_pickers()


def _close_pickers() -> None:
    for child in list(Window.children):
        if isinstance(child, CardPicker):
            child.dismiss()
