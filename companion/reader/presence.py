"""From sightings to events: when a tag counts as laid on the reader, and when as lifted.

Readers report *sightings* in their own rhythm: a PN532 sees a card on every poll, an RDM6300
repeats its frame while the tag lies there, an ID-12LA or a line bridge may say it only once.
The tracker turns them into one rule for all: a tag is present from its first sighting until it
has not been seen for `removal_after` seconds; then it is removed. A tag seen again within
`cooldown` seconds of its removal is the same read (a card slid over the edge of the antenna),
so it does not count as laid again until the cooldown has passed.

Pure: the caller passes the time in, so tests need no clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Change:
    """A tag laid on the reader ("present") or lifted from it ("removed")."""

    event: str
    uid: str


@dataclass
class PresenceTracker:
    removal_after: float
    """Silence (seconds) after which a tag counts as lifted."""
    cooldown: float = 1.0
    """After a tag is lifted, sightings of it within this many seconds are ignored."""
    _last_seen: dict[str, float] = field(default_factory=dict)
    _removed_at: dict[str, float] = field(default_factory=dict)
    _paused_at: float | None = None

    @property
    def present(self) -> list[str]:
        return list(self._last_seen)

    def sighted(self, uid: str, now: float) -> list[Change]:
        """The reader saw `uid` at `now`; returns the changes that follow (with expiries)."""
        changes = self.expire(now)
        if uid in self._last_seen:
            self._last_seen[uid] = now
            return changes
        removed_at = self._removed_at.get(uid)
        if removed_at is not None and now - removed_at < self.cooldown:
            return changes
        self._removed_at.pop(uid, None)
        self._last_seen[uid] = now
        changes.append(Change("present", uid))
        return changes

    def lifted(self, uid: str, now: float) -> list[Change]:
        """The reader itself says `uid` was lifted (a line bridge's REMOVED line)."""
        changes = self.expire(now)
        if uid in self._last_seen:
            del self._last_seen[uid]
            self._removed_at[uid] = now
            changes.append(Change("removed", uid))
        return changes

    def expire(self, now: float) -> list[Change]:
        """Tags not seen for `removal_after` seconds are lifted."""
        if self._paused_at is not None:
            return []
        gone = [uid for uid, seen in self._last_seen.items() if now - seen >= self.removal_after]
        for uid in gone:
            del self._last_seen[uid]
            self._removed_at[uid] = now
        stale = [uid for uid, at in self._removed_at.items() if now - at >= self.cooldown]
        for uid in stale:
            del self._removed_at[uid]
        return [Change("removed", uid) for uid in gone]

    def next_deadline(self) -> float | None:
        """When the next tag would be lifted if it is not seen again (None: nothing present)."""
        if self._paused_at is not None or not self._last_seen:
            return None
        return min(self._last_seen.values()) + self.removal_after

    def pause(self, now: float) -> None:
        """The line is down: nothing can be seen, so nothing counts as lifted meanwhile.

        A card left on the reader while the cable was out is the same card when it comes back,
        not a new one laid on it (the game would otherwise take it twice).
        """
        if self._paused_at is None:
            self._paused_at = now

    def resume(self, now: float) -> None:
        """The line is back: the tags present get a fresh `removal_after` to be seen again."""
        if self._paused_at is None:
            return
        self._paused_at = None
        for uid in self._last_seen:
            self._last_seen[uid] = now
