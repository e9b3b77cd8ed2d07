"""The reader check in players' words (pure: no Kivy, no serial): what the reader is doing now,
its last reads with their time and meaning, and how many frames a second it sends.

Everything said is an English template with its values, marked for the catalogue with `N_`;
the screen (or the terminal) translates it with `_` and fills it in. Who a tag is comes from
the caller (`name_of`: the tag registry's card name, or None for a tag not enrolled).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..i18n import N_
from .watch import PHANTOM, READ, STACKED, UNSTEADY, WINDOW_S, Sighting, WatchReport

NameOf = Callable[[str], "str | None"]
"""A tag's card in players' words ("Jungle (stage I)"), or None when it is not enrolled."""

OFF = "off"
"""No reader is set (or it is stopped)."""
DOWN = "down"
"""A reader is set but its line is not up."""
WAITING = "waiting"
"""Connected, nothing read lately."""
CARD = "card"
"""An enrolled card was read lately."""
UNKNOWN = "unknown"
"""A tag nobody enrolled was read lately: enrol it?"""
TWO_TAGS = "stacked"
"""Two tags at once, the last thing the reader saw."""
GLIMPSE = "glimpse"
"""One frame of a tag, not yet confirmed."""


@dataclass(frozen=True)
class Words:
    """An English template (for `_`) and the values it is filled with."""

    text: str
    values: dict[str, Any] = field(default_factory=dict)

    def said(self, translate: Callable[[str], str], decimal_sign: str = ".") -> str:
        """The words in the language of `translate`, its numbers written with its
        `decimal_sign` (`i18n.decimal_sign`)."""
        if not self.text:
            return ""  # gettext answers the empty text with the catalogue's header
        values = {key: value.written(decimal_sign) if isinstance(value, Decimal) else value
                  for key, value in self.values.items()}
        return translate(self.text).format(**values)


@dataclass(frozen=True)
class Decimal:
    """A number shown with `places` decimals, in the players' way of writing them."""

    value: float
    places: int = 1

    def written(self, decimal_sign: str) -> str:
        return f"{self.value:.{self.places}f}".replace(".", decimal_sign)


@dataclass(frozen=True)
class Status:
    """The check's big line: what the reader is doing, and the tag it names (if any)."""

    kind: str
    """One of OFF, DOWN, WAITING, CARD, UNKNOWN, TWO_TAGS, GLIMPSE."""
    words: Words
    uid: str | None = None


@dataclass(frozen=True)
class ReadLine:
    """One row of the last reads: how long ago, the UID, and what it meant."""

    ago: Words
    uid: str
    meaning: Words
    kind: str
    """The watch's meaning (READ, PHANTOM, STACKED, UNSTEADY)."""


def status(report: WatchReport | None, name_of: NameOf) -> Status:
    """The reader's state in players' words (`report` None: no reader is running)."""
    if report is None:
        return Status(OFF, Words(N_("The card reader is off. Choose where it is plugged in, "
                                    "in the settings.")))
    if not report.connected:
        if report.message:
            return Status(DOWN, Words(N_("Not connected: {why}"), {"why": report.message}))
        return Status(DOWN, Words(N_("Not connected yet: looking for the reader…")))
    last = latest_card_frame(report)
    if last is None:
        return Status(WAITING, Words(N_("Connected. Lay a card on the reader.")))
    if last.meaning == STACKED:
        return Status(TWO_TAGS, Words(N_("Two tags at once? Lay one card at a time.")))
    count = report.reads_in_window.get(last.uid, 0)
    if count == 0:  # only the first frame of a lay so far (or a card held behind another)
        return Status(GLIMPSE, Words(N_("A tag comes into view ({uid}): hold it still."),
                                     {"uid": last.uid}), last.uid)
    name = name_of(last.uid)
    if name is None:
        return Status(UNKNOWN, Words(N_("Unknown tag {uid}. Enrol it?"), {"uid": last.uid}),
                      last.uid)
    if count == 1:
        return Status(CARD, Words(N_("{name}: read once in the last 10 s"), {"name": name}),
                      last.uid)
    return Status(CARD, Words(N_("{name}: read {count} times in the last 10 s"),
                              {"name": name, "count": count}), last.uid)


def latest_card_frame(report: WatchReport) -> Sighting | None:
    """The newest frame of a real tag within the window (phantoms are counted, not shown)."""
    return next((sighting for sighting in report.recent
                 if sighting.meaning != PHANTOM and report.now - sighting.at <= WINDOW_S), None)


def read_lines(report: WatchReport | None, name_of: NameOf) -> list[ReadLine]:
    """The last reads, newest first, each with its age and meaning in players' words."""
    if report is None:
        return []
    names: dict[str, str | None] = {}
    lines = []
    for sighting in report.recent:
        if sighting.meaning in (READ, UNSTEADY) and sighting.uid not in names:
            names[sighting.uid] = name_of(sighting.uid)
        lines.append(ReadLine(ago(report.now - sighting.at), sighting.uid,
                              meaning(sighting, names.get(sighting.uid)), sighting.meaning))
    return lines


def ago(seconds: float) -> Words:
    """How long ago, as players read it: tenths under 10 s, whole seconds up to a minute."""
    seconds = max(0.0, seconds)
    if seconds < 10:
        return Words(N_("{seconds} s ago"), {"seconds": Decimal(seconds)})
    if seconds < 60:
        return Words(N_("{seconds} s ago"), {"seconds": f"{seconds:.0f}"})
    return Words(N_("{minutes} min ago"), {"minutes": f"{seconds // 60:.0f}"})


def meaning(sighting: Sighting, name: str | None) -> Words:
    """What one frame meant, in players' words."""
    if sighting.meaning == PHANTOM:
        return Words(N_("phantom read (no card sends this): ignored"))
    if sighting.meaning == STACKED:
        return Words(N_("two tags at once: ignored"))
    if sighting.meaning == UNSTEADY:
        return Words(N_("first sight, waiting for a second read"))
    if name is None:
        return Words(N_("unknown tag"))
    return Words(N_("read: {name}"), {"name": name})


def rate(report: WatchReport | None) -> Words:
    """Frames a second over the window, and the phantoms refused since the reader started."""
    per_second = report.reads_per_second if report is not None else 0.0
    phantoms = report.phantoms if report is not None else 0
    return Words(N_("{rate} reads a second · phantom reads ignored: {phantoms}"),
                 {"rate": Decimal(per_second), "phantoms": phantoms})


def line_words(report: WatchReport | None) -> Words:
    """Which reader on which port (or nothing when there is none)."""
    if report is None or not report.port:
        return Words("")
    family = report.family if report.family != "auto" else "?"
    return Words(N_("Reader {family} on {port}"), {"family": family, "port": report.port})
