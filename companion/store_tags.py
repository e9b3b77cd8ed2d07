"""The tag registry: what each RFID tag under a card means, in the games database's tags table.

Not part of any game: the registry belongs to the table's cards and outlives every game played
with them. The store is a registry too (it inherits these methods), and the registry writes in
the store's transactions, so a tag is saved exactly as an action is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from datetime import datetime

from sqlite_utils import Database

from .core.phrases import Phrase
from .i18n import N_
from .store_errors import TagsInUse


class TagRegistry:
    """The tags table's reads and writes, over the store's database, clock and transactions."""

    db: Database
    location: str
    _clock: Callable[[], datetime]

    def _writing(self, what: Phrase) -> AbstractContextManager[None]:
        """One transaction, as the store makes them (GameStore._writing)."""
        raise NotImplementedError

    def enrol_tag(self, uid: str, kind: str, card: str) -> None:
        """Give a tag its meaning, replacing any it had."""
        with self._writing(Phrase(N_("the tag"))):
            self.db.table("tags").upsert({"uid": uid, "kind": kind, "card": card,
                                          "enrolled_at": self._clock().isoformat()}, pk="uid")

    def forget_tag(self, uid: str) -> None:
        with self._writing(Phrase(N_("forgetting the tag"))):
            self.db.execute("DELETE FROM tags WHERE uid = ?", [uid])

    def replace_tags(self, mapping: Mapping[str, Mapping[str, str]],
                     replace_existing: bool) -> int:
        """Enrol many tags (uid → {"kind", "card"}) in one transaction: all of them or none.

        A tag already enrolled to the same card keeps its row. One enrolled to another card is
        re-enrolled when `replace_existing`, else TagsInUse is raised and nothing is written.
        Returns how many tags changed meaning.
        """
        at = self._clock().isoformat()
        with self._writing(Phrase(N_("the tags"))):
            current = self.tags()
            writes = [uid for uid, meaning in mapping.items() if uid not in current or (
                current[uid]["kind"], current[uid]["card"]) != (meaning["kind"], meaning["card"])]
            changed = [uid for uid in writes if uid in current]
            if changed and not replace_existing:
                raise TagsInUse(changed, self.location)
            self.db.table("tags").upsert_all(
                ({"uid": uid, "kind": mapping[uid]["kind"], "card": mapping[uid]["card"],
                  "enrolled_at": at} for uid in writes), pk="uid")
        return len(changed)

    def tag(self, uid: str) -> dict[str, str] | None:
        """A tag's {"kind", "card", "enrolled_at"}, or None when it is not enrolled."""
        row = self.db.execute("SELECT kind, card, enrolled_at FROM tags WHERE uid = ?",
                              [uid]).fetchone()
        return {"kind": row[0], "card": row[1], "enrolled_at": row[2]} if row else None

    def tags(self) -> dict[str, dict[str, str]]:
        """Every enrolled tag, uid → {"kind", "card", "enrolled_at"}, by uid."""
        return {uid: {"kind": kind, "card": card, "enrolled_at": at}
                for uid, kind, card, at in self.db.execute(
                    "SELECT uid, kind, card, enrolled_at FROM tags ORDER BY uid")}
