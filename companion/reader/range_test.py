"""The guided range test (pure: fed the reader's frames and the time, no clock of its own):
"lay the card" → it is read steadily for a moment → "lift it slowly" → the card is lost; then
the rhythm of the reads says whether the reader's range is good or weak.

A reader that sees a lying card again and again (a PN532 polled 20×/s, an RDM6300 repeating
~10×/s) shows its range in that rhythm: a good one keeps the rhythm until the card is out of
reach and then stops short; a weak one stutters (gaps in the reads) over a long stretch of the
lift, or already while the card lies flat. The rhythm is measured while the card lies still,
so the rules hold for any reader's speed. A reader that sends one frame per lay (ID-12LA, most
line bridges) has no rhythm: the test says so instead of guessing.

A polled reader also says when a poll found nothing. There a silence is a gap only if polls in
it came back empty: a busy host that polled late (the screen drawing, a loaded Pi) missed no
read, and must not make a good reader look weak.
"""

from __future__ import annotations

import statistics
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass

from ..i18n import N_
from .check import Decimal, Words
from .watch import PHANTOM, STACKED, Sighting

LAY, HOLD, LIFT, DONE = "lay", "hold", "lift", "done"
"""The steps: waiting for the card, measuring it lying still, lifting, the result."""
GOOD, WEAK, UNMEASURABLE = "good", "weak", "unmeasurable"

HOLD_S = 1.5
"""How long the card lies still while its rhythm is measured."""
ONCE_WAIT_S = 1.0
"""No second frame this long after the first: a reader that sends a card once per lay."""
GAP_FACTOR = 2.5
"""A silence longer than this many usual intervals is a gap (one missed poll is not)."""
FLAT_GAPS = 3
"""Gaps while the card lies still from which the range is weak at once."""
EDGE_GAPS = 2
"""Gaps a good reader may show at the edge of its range as the card leaves it."""
EDGE_S = 0.5
"""The stretch (at least, or eight intervals) over which a good reader's edge stutter ends."""
LOST_S = 1.0
"""Silence (at least, or ten intervals) after which the card counts as lost."""
POLLED_FAMILY = "pn532"
"""The family the host polls: a card it saw once and then not again was only brushed past."""
EMPTY_POLLS_IN_A_GAP = 2
"""Polls that found nothing, in a silence of a polled reader that tells them, for a gap."""
EMPTY_POLLS_WHEN_LOST = 8
"""Polls in a row that found nothing, besides the time, before a polled card counts as gone."""
TOO_SOON = Words(N_("Lifted too soon. Lay the card again and leave it until you are asked to "
                    "lift it."))


@dataclass(frozen=True)
class RangeResult:
    band: str
    """GOOD, WEAK or UNMEASURABLE."""
    heading: Words
    advice: Words
    details: Words


class RangeTest:
    """One run of the test for one card, fed every frame in order (`feed`) and the time."""

    def __init__(self, started: float, family: str = "") -> None:
        self.step = LAY
        self.family = family
        """The reader's family: a polled PN532 always sees a lying card more than once."""
        self.started = started
        self.result: RangeResult | None = None
        self.note: Words | None = None
        """What went wrong on the way (lifted too soon, two tags): shown with the prompt."""
        self.uid: str | None = None
        self._frames: list[float] = []
        self._empty_polls: list[float] | None = None
        """When polls found no card, oldest first (None: the reader does not tell)."""
        self._interval = 0.0
        self._lift_from = 0.0
        self._lift_gaps: list[tuple[float, float]] = []

    # --- what the players read ---

    def prompt(self) -> Words:
        if self.step == LAY:
            return Words(N_("Lay the card flat on the reader and leave it there."))
        if self.step == HOLD:
            return Words(N_("Keep the card still…"))
        if self.step == LIFT:
            return Words(N_("Now lift it slowly, straight up, until it is no longer read."))
        return Words(N_("Done."))

    # --- what the reader saw ---

    def feed(self, frames: Iterable[Sighting], now: float,
             empty_polls: Iterable[float] | None = None) -> None:
        """The frames seen since the last call (oldest first), then the time now;
        `empty_polls`: when a polled reader's polls since the last call found no card (fetched
        after the frames, so that none older than a frame fed is still to come)."""
        if empty_polls is not None and self.family == POLLED_FAMILY:
            if self._empty_polls is None or self.step == LAY:
                self._empty_polls = []  # none counts before the card's first read
            self._empty_polls.extend(empty_polls)
        for frame in frames:
            if self.step == DONE:
                return
            self._frame(frame)
        self.tick(now)

    def _frame(self, frame: Sighting) -> None:
        if frame.meaning == PHANTOM:
            return
        if frame.meaning == STACKED:
            self._again(Words(N_("Two tags at once: lay only the one card.")))
            return
        if self.uid is None:
            self.uid, self.step, self.note = frame.uid, HOLD, None
        if frame.uid != self.uid:
            return  # another tag brushed past: the test follows the first one
        if self._frames and frame.at <= self._frames[-1]:
            return  # two frames at the same moment (a poll naming it twice)
        if self.step == LIFT and self._silent(self._frames[-1], frame.at, self._gap()):
            self._lift_gaps.append((self._frames[-1], frame.at))
        self._frames.append(frame.at)

    def tick(self, now: float) -> None:
        """Time passes: the hold ends, or the card counts as lost."""
        if self.step == HOLD:
            self._hold_over(now)
        elif self.step == LIFT and self._silent(self._frames[-1], now, self._lost_after(),
                                                EMPTY_POLLS_WHEN_LOST):
            self._lost()

    def _hold_over(self, now: float) -> None:
        first, last = self._frames[0], self._frames[-1]
        if len(self._frames) == 1:
            if now - first >= ONCE_WAIT_S and self.family == POLLED_FAMILY:
                self._again(TOO_SOON)
            elif now - first >= ONCE_WAIT_S:
                self._finish(UNMEASURABLE, 0)
            return
        if self._silent(last, now, max(LOST_S, 10 * self._measured()), EMPTY_POLLS_WHEN_LOST):
            self._again(TOO_SOON)
            return
        if now - first < HOLD_S:
            return
        self._interval = self._measured()
        flat_gaps = sum(1 for a, b in zip(self._frames, self._frames[1:], strict=False)
                        if self._silent(a, b, self._gap()))
        if flat_gaps >= FLAT_GAPS:
            self._finish(WEAK, flat_gaps, flat=True)
            return
        self.step, self._lift_from = LIFT, last

    def _lost(self) -> None:
        gaps = self._lift_gaps
        stutter = self._frames[-1] - gaps[0][0] if gaps else 0.0
        edge = max(EDGE_S, 8 * self._interval)
        band = GOOD if len(gaps) <= EDGE_GAPS and stutter < edge else WEAK
        self._finish(band, len(gaps), stutter=stutter)

    def _again(self, why: Words) -> None:
        """Start over from "lay the card", saying why."""
        self.step, self.uid, self.note = LAY, None, why
        self._frames, self._lift_gaps = [], []
        if self._empty_polls is not None:
            self._empty_polls = []

    # --- the rhythm ---

    def _measured(self) -> float:
        """The usual time between two frames of the card lying still (the median: a missed
        poll does not move it)."""
        spans = [b - a for a, b in zip(self._frames, self._frames[1:], strict=False)]
        return statistics.median(spans) if spans else 0.0

    def _silent(self, since: float, until: float, longer_than: float,
                empty_polls: int = EMPTY_POLLS_IN_A_GAP) -> bool:
        """No read of the card from `since` to `until`, for at least `longer_than` seconds;
        from a reader that tells its empty polls, only if that many fell in between."""
        if until - since < longer_than:
            return False
        if self._empty_polls is None:
            return True
        empty = bisect_left(self._empty_polls, until) - bisect_right(self._empty_polls, since)
        return empty >= empty_polls

    def _gap(self) -> float:
        return GAP_FACTOR * (self._interval or self._measured())

    def _lost_after(self) -> float:
        return max(LOST_S, 10 * self._interval)

    # --- the verdict ---

    def _finish(self, band: str, gaps: int, *, flat: bool = False,
                stutter: float = 0.0) -> None:
        self.step, self.note = DONE, None
        reads = len(self._frames)
        if band == UNMEASURABLE:
            self.result = RangeResult(band, Words(N_("Range: cannot be measured")), Words(N_(
                "This reader sends a card only once each time it is laid, so its range does "
                "not show. Lay the cards flat in the middle of the reader.")), Words(""))
            return
        regular = (self._lift_gaps[0][0] if self._lift_gaps else self._frames[-1]) \
            - self._lift_from
        details = Words(N_("{reads} reads; while lifting, steady until the card was gone."),
                        {"reads": reads}) if not self._lift_gaps else \
            Words(N_("{reads} reads; while lifting, steady for {steady} s, then {gaps} gaps "
                     "over {stutter} s."),
                  {"reads": reads, "steady": Decimal(max(0.0, regular)), "gaps": gaps,
                   "stutter": Decimal(stutter)})
        if band == GOOD:
            self.result = RangeResult(band, Words(N_("Range: good")), Words(N_(
                "The card was read steadily until it left the reader. Nothing to do.")),
                details)
        elif flat:
            self.result = RangeResult(band, Words(N_("Range: weak")), Words(N_(
                "The reads stutter even while the card lies flat. The tag may be small or "
                "detuned by a phone nearby, or the reader sits too far below the surface.")),
                Words(N_("{reads} reads while lying still, with {gaps} gaps."),
                      {"reads": reads, "gaps": gaps}))
        else:
            self.result = RangeResult(band, Words(N_("Range: weak")), Words(N_(
                "The reads stuttered over a long stretch as the card was lifted. Move the "
                "reader closer to the surface, keep phones away from it, or try a larger "
                "tag.")), details)
