"""The reader check (Settings → Card reader → Check): what the reader sees, live, in players'
words, its last reads, and a guided range test. Layout in layouts/reader_check.kv.

While shown, the screen looks at the running reader's watch four times a second on Kivy's
clock (never from the reader's thread) and stops looking when it is left. What it says comes
from the pure model in companion/reader/check.py and range_test.py.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.screenmanager import Screen

from ..i18n import _, decimal_sign
from ..reader import check
from ..reader.range_test import DONE, RangeTest
from ..reader.watch import WatchFollower, WatchReport
from .reads import tag_name

TONES = {check.CARD: ("accent", "accent_text"), check.UNKNOWN: ("banner", "banner_text"),
         check.TWO_TAGS: ("banner", "banner_text"), check.GLIMPSE: ("panel", "text"),
         check.WAITING: ("panel", "text"), check.DOWN: ("danger", "danger_text"),
         check.OFF: ("danger", "danger_text")}
"""The status line's colours (background, text) by what it says: a card read is green, a tag
to act on yellow, no reader red."""
POLL_S = 0.25
"""How often the screen looks at the reader while shown."""
NAME = "reader_check"


def said(words: check.Words) -> str:
    """`words` in the players' language, decimals as they write them."""
    return words.said(_, decimal_sign())


def app() -> Any:
    return App.get_running_app()


class ReaderCheckScreen(Screen):
    status_text = StringProperty("")
    """The big line: not connected, lay a card, card X read N times, unknown tag, two tags."""
    status_kind = StringProperty(check.OFF)
    """check.OFF, DOWN, WAITING, CARD, UNKNOWN, TWO_TAGS or GLIMPSE (the line's colour)."""
    status_colours = ListProperty(["panel", "text"])
    """The theme's colours (background, text) of the status line: TONES."""
    line_text = StringProperty("")
    """Which reader on which port, the reads per second and the phantoms ignored."""
    reads = ListProperty([])
    """The last reads, newest first, as the list's rows (ago, uid, meaning)."""
    enrol_uid = StringProperty("")
    """The unknown tag the status names: "Enrol this card" takes it to the tag screen."""
    reader_on = BooleanProperty(False)
    """A reader is set in the settings (else the screen offers to go there)."""
    testing = BooleanProperty(False)
    """The range test's panel is shown (running, or showing its verdict)."""
    range_text = StringProperty("")
    """The range test's step, or its verdict and advice."""
    range_details = StringProperty("")
    """What the verdict was drawn from (reads, gaps), in a smaller line."""
    range_step = StringProperty("")
    """The range test's step (range_test.LAY, HOLD, LIFT, DONE; empty when none runs)."""
    range_band = StringProperty("")
    """The verdict's band once there is one (range_test.GOOD, WEAK, UNMEASURABLE)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._poll = Clock.schedule_interval(self.refresh, POLL_S)
        self._poll.cancel()  # looks only while shown
        self._names: dict[str, str | None] = {}
        self._range: RangeTest | None = None
        self._follower: WatchFollower | None = None

    # --- shown and left ---

    def on_pre_enter(self, *_args: Any) -> None:
        self._names.clear()  # a card may have been enrolled meanwhile
        self.refresh()
        self._poll()

    def on_leave(self, *_args: Any) -> None:
        self._poll.cancel()
        self.stop_range_test()

    def retranslate(self) -> None:
        self._names.clear()
        self.refresh()

    # --- what the reader saw ---

    def refresh(self, *_args: Any) -> None:
        if app() is None:  # its timer's last tick after the app stopped
            return
        reader = app().reader_link.reader
        report = reader.watch.report() if reader is not None else None
        if self._range is not None and reader is not None and report is not None:
            if self._follower is None or self._follower.watch is not reader.watch:
                self._follower = WatchFollower(reader.watch, self._range.started)
            frames, empty_polls = self._follower.news()
            self._range.family = reader.family
            self._range.feed(frames, report.now, empty_polls)
        self.show_report(report)

    def show_report(self, report: WatchReport | None) -> None:
        """Put what `report` says on the screen (None: no reader is running)."""
        self.reader_on = report is not None
        status = check.status(report, self.name_of)
        self.status_kind = status.kind
        self.status_text = said(status.words)
        self.status_colours = list(TONES[status.kind])
        self.enrol_uid = (status.uid or "") if status.kind == check.UNKNOWN else ""
        line = said(check.line_words(report))
        self.line_text = "\n".join(text for text in (line, said(check.rate(report)))
                                    if text) if report is not None else ""
        self.reads = [{"ago": said(row.ago), "tag": row.uid,
                       "meaning": said(row.meaning), "kind": row.kind}
                      for row in check.read_lines(report, self.name_of)]
        self._show_range()

    def on_reads(self, *_args: Any) -> None:
        # Handed over here, not bound in kv: a list filled while its rule is applied breaks
        # Kivy's builder (a row built inside the screen's own rule).
        self.ids.reads.data = self.reads

    def name_of(self, uid: str) -> str | None:
        """The card `uid` is enrolled as, in the language in use (None: not enrolled)."""
        if uid not in self._names:
            answer = app().service_call({"cmd": "tag_lookup", "uid": uid})
            tag = answer.get("tag") if answer.get("ok") else None
            self._names[uid] = tag_name(tag["kind"], tag["card"]) if tag else None
        return self._names[uid]

    # --- the buttons ---

    def enrol(self) -> None:
        """The tag screen, with the unknown tag read: it asks which card it is."""
        if self.enrol_uid:
            app().enrol_tag(self.enrol_uid)

    def reader_settings(self) -> None:
        """Back to the settings, at the card reader's part."""
        app().show("settings")
        settings = app().screen("settings")
        Clock.schedule_once(lambda _dt: settings.ids.scroll.scroll_to(settings.ids.port,
                                                                      animate=False), 0)

    def toggle_range_test(self) -> None:
        if self.testing and self._range is not None and self._range.step != DONE:
            self.stop_range_test()
            return
        reader = app().reader_link.reader
        if reader is None:
            return
        self._range = RangeTest(reader.now(), reader.family)
        self._follower = WatchFollower(reader.watch, self._range.started)  # what comes now
        self.testing = True
        self._show_range()

    def stop_range_test(self) -> None:
        self._range = None
        self.testing = False
        self.range_text = self.range_band = self.range_step = self.range_details = ""

    def _show_range(self) -> None:
        test = self._range
        if test is None:
            return
        self.range_step = test.step
        if test.result is None:
            self.range_band = self.range_details = ""
            self.range_text = "\n".join(said(words) for words in (test.note, test.prompt())
                                        if words is not None)
            return
        self.range_band = test.result.band
        self.range_text = "\n".join(said(words) for words in (test.result.heading,
                                                                 test.result.advice))
        self.range_details = said(test.result.details)

