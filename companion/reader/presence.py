"""From sightings to events: when a tag counts as laid on the reader, and when as lifted.

Readers report *sightings* in their own rhythm: a PN532 sees a card on every poll (POLLED), an
RDM6300 repeats its frame while the tag lies there (REPEATING), an ID-12LA or a line bridge
says it once per lay (ONCE). The tracker turns them into one set of rules for all:

- A frame no card sends (all zeros, all F, the RDM6300's known ghosts) is a phantom: refused.
- A repeating reader's card counts as laid at its second identical frame within
  `confirm_within` seconds (a lone frame is noise until then); the others' at their first.
- A tag is present until it has not been seen for `removal_after` seconds (the grace time);
  then it is removed. A tag seen again within `cooldown` seconds of its removal is the same
  read (a card slid over the edge of the antenna) and is not laid again.
- While a card lies there, a second one is held back until the first has gone for the grace
  time: a swap is a removal, then a presence. Two cards in one poll, or two UIDs alternating
  within the grace time, are stacked cards: said once ("stacked") and nothing else happens
  until only one of them is left.
- A lay is steady once it was read `steady_reads` times (once for a reader that says a card
  only once): enrolment waits for that ("steady").

Pure: the caller passes the time in, so tests need no clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .watch import PHANTOM, READ, STACKED, UNSTEADY

POLLED = "polled"
"""The host asks and the reader answers whatever lies there (PN532)."""
REPEATING = "repeating"
"""The reader sends a lying card's frame again and again (RDM6300: no CR LF)."""
ONCE = "once"
"""The reader sends one frame per lay (ID-12LA with CR LF, line bridges)."""
RHYTHMS = (POLLED, REPEATING, ONCE)

GRACE_S = 0.4
"""The grace time's default: how long a tag may go unseen before it counts as lifted."""
CONFIRM_WITHIN_S = 0.3
"""A repeating reader's two identical frames must come this close together."""
STEADY_READS = 3
"""Frames of one lay before it counts as steady (for enrolment)."""

# Known ghost values with a valid checksum, by the UID the decoders give (without the
# checksum): the RDM6300's `000000078F88` frame (esp-rfid #411, Tasmota #9522).
KNOWN_PHANTOMS = frozenset({"000000078F"})


def is_phantom(uid: str) -> bool:
    """True for a UID no card carries: all zeros, all F, or a known ghost."""
    upper = uid.upper()
    return not upper.strip("0") or not upper.strip("F") or upper in KNOWN_PHANTOMS


@dataclass(frozen=True)
class Change:
    """A tag laid on the reader ("present"), lifted ("removed"), read steadily ("steady"), or
    two tags on the reader at once ("stacked", with the newcomer's UID)."""

    event: str
    uid: str
    reads: int | None = None
    """For "steady": the frames of the lay so far."""


@dataclass(frozen=True)
class Seen:
    """What one frame meant (one of watch.MEANINGS) and the changes it brought."""

    meaning: str
    changes: list[Change]


@dataclass
class _Waiting:
    """A card seen but not laid yet: unconfirmed, or held back behind another card."""

    rhythm: str
    first: float
    last: float
    frames: int = 1


@dataclass
class PresenceTracker:
    removal_after: float = GRACE_S
    """Silence (seconds) after which a tag counts as lifted: the grace time."""
    cooldown: float = 1.0
    """After a tag is lifted, sightings of it within this many seconds are ignored."""
    confirm_within: float = CONFIRM_WITHIN_S
    steady_reads: int = STEADY_READS
    _last_seen: dict[str, float] = field(default_factory=dict)
    _reads: dict[str, int] = field(default_factory=dict)
    _waiting: dict[str, _Waiting] = field(default_factory=dict)
    _last_frame: dict[str, float] = field(default_factory=dict)
    _stacked: bool = False
    _removed_at: dict[str, float] = field(default_factory=dict)
    _paused_at: float | None = None

    @property
    def present(self) -> list[str]:
        return list(self._last_seen)

    @property
    def stacked(self) -> bool:
        return self._stacked

    def sighted(self, uid: str, now: float) -> list[Change]:
        """The reader saw `uid` at `now` (a polled reader's rules); the lays and lifts that
        follow, with expiries."""
        return [change for change in self.see([uid], now).changes
                if change.event in ("present", "removed")]

    def see(self, uids: Sequence[str], now: float, rhythm: str = POLLED) -> Seen:
        """One frame or poll naming `uids` at `now`: what it meant and what follows."""
        if rhythm not in RHYTHMS:
            raise ValueError(f"unknown rhythm {rhythm!r}: one of {', '.join(RHYTHMS)}")
        changes = self.expire(now)
        real = [uid for uid in dict.fromkeys(uids) if not is_phantom(uid)]
        if not real:
            return Seen(PHANTOM, changes)
        alternating = len(real) == 1 and self._alternating(real[0], now)
        for uid in real:
            self._last_frame[uid] = now
            if uid in self._last_seen:
                self._last_seen[uid] = now
        newcomer = next((uid for uid in reversed(real) if uid not in self._last_seen),
                        real[-1])
        if len(real) > 1 or alternating:
            if not self._stacked:
                self._stacked = True
                changes.append(Change("stacked", newcomer))
            return Seen(STACKED, changes)
        if self._stacked:
            return Seen(STACKED, changes)
        return Seen(self._one(real[0], now, rhythm, changes), changes)

    def _alternating(self, uid: str, now: float) -> bool:
        """`uid` seen again after another tag was, all within the grace time (called before
        this frame is noted)."""
        before = self._last_frame.get(uid)
        return before is not None and now - before < self.removal_after and any(
            other != uid and before < at for other, at in self._last_frame.items())

    def _one(self, uid: str, now: float, rhythm: str, changes: list[Change]) -> str:
        """A frame of one card, no stack: laid, the same lay, waiting, or a cooldown echo."""
        if uid in self._last_seen:
            self._count_read(uid, rhythm, changes)
            return READ
        removed_at = self._removed_at.get(uid)
        if removed_at is not None and now - removed_at < self.cooldown:
            return READ  # the card slid over the antenna's edge: the same lay, already over
        waiting = self._waiting.get(uid)
        if waiting is None or now - waiting.last >= self.confirm_within:
            waiting = self._waiting[uid] = _Waiting(rhythm, now, now)
        elif waiting.last != now:
            waiting.frames += 1
            waiting.last = now
        if self._last_seen or not self._confirmed(waiting):
            return UNSTEADY  # another card lies there, or one frame of a repeating reader
        self._lay(uid, now, changes)
        return READ

    def _confirmed(self, waiting: _Waiting) -> bool:
        return waiting.rhythm != REPEATING or waiting.frames >= 2

    def _lay(self, uid: str, now: float, changes: list[Change]) -> None:
        waiting = self._waiting.pop(uid)
        self._removed_at.pop(uid, None)
        self._last_seen[uid] = now
        self._reads[uid] = 0
        changes.append(Change("present", uid))
        self._count_read(uid, waiting.rhythm, changes, waiting.frames)  # the frames it waited

    def _count_read(self, uid: str, rhythm: str, changes: list[Change], frames: int = 1) -> None:
        before = self._reads.get(uid, 0)
        reads = self._reads[uid] = before + frames
        steady_at = 1 if rhythm == ONCE else self.steady_reads
        # A card laid while the one before was still counted as lying there waits, read all
        # the while: it is steady once, however many frames it waited through.
        if before < steady_at <= reads:
            changes.append(Change("steady", uid, reads))

    def lifted(self, uid: str, now: float) -> list[Change]:
        """The reader itself says `uid` was lifted (a line bridge's REMOVED line)."""
        changes = self.expire(now)
        self._waiting.pop(uid, None)
        self._last_frame.pop(uid, None)
        if uid in self._last_seen:
            self._forget(uid, now)
            changes.append(Change("removed", uid))
        return changes

    def _forget(self, uid: str, now: float) -> None:
        del self._last_seen[uid]
        self._reads.pop(uid, None)
        self._removed_at[uid] = now

    def expire(self, now: float) -> list[Change]:
        """Tags not seen for the grace time are lifted; a card held back behind them is laid."""
        if self._paused_at is not None:
            return []
        grace = self.removal_after
        for uid in [uid for uid, at in self._last_frame.items() if now - at >= grace]:
            del self._last_frame[uid]
        if self._stacked and len(self._last_frame) > 1:
            return []  # still two cards: nothing happens until one is taken away
        self._stacked = False
        gone = [uid for uid, seen in self._last_seen.items() if now - seen >= grace]
        for uid in gone:
            self._forget(uid, now)
        changes = [Change("removed", uid) for uid in gone]
        for uid in [uid for uid, at in self._removed_at.items() if now - at >= self.cooldown]:
            del self._removed_at[uid]
        for uid, waiting in list(self._waiting.items()):
            # A card a reader names once waits as long as the card before it may still lie
            # there; the others must keep being seen.
            if now - waiting.last >= (2 * grace if waiting.rhythm == ONCE else grace):
                del self._waiting[uid]
            elif not self._last_seen and self._confirmed(waiting):
                self._lay(uid, now, changes)  # the card it waited behind has gone
        return changes

    def next_deadline(self) -> float | None:
        """When the next tag would be lifted (or a stack end) if it is not seen again (None:
        nothing present)."""
        if self._paused_at is not None:
            return None
        times = list(self._last_seen.values())
        if self._stacked or self._waiting:
            times += self._last_frame.values()
        return min(times) + self.removal_after if times else None

    def pause(self, now: float) -> None:
        """The line is down: nothing can be seen, so nothing counts as lifted meanwhile.

        A card left on the reader while the cable was out is the same card when it comes back,
        not a new one laid on it (the game would otherwise take it twice).
        """
        if self._paused_at is None:
            self._paused_at = now

    def resume(self, now: float) -> None:
        """The line is back: the tags present get a fresh grace time to be seen again; what
        was waiting or stacked starts afresh."""
        if self._paused_at is None:
            return
        self._paused_at = None
        self._waiting.clear()
        self._last_frame.clear()
        self._stacked = False
        for uid in self._last_seen:
            self._last_seen[uid] = now
