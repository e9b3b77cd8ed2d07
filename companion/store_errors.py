"""The store's errors: problems with the games database a person can act on."""

from __future__ import annotations

from .core.phrases import Phrase, Translate
from .i18n import N_


class StoreError(Exception):
    """A problem with the database a person can act on; the message names the file.

    The message is English (scripts and logs read it); one given as a `Phrase` is told in the
    players' language too (`in_language`): a save that failed at the table, for one."""

    def __init__(self, message: str | Phrase) -> None:
        self.phrase = message if isinstance(message, Phrase) else Phrase(message)
        super().__init__(self.phrase.render())

    def in_language(self, translate: Translate) -> str:
        return self.phrase.render(translate)


class GameNotReplayable(StoreError):
    """A game's log does not replay; the game can be set aside while the rest stays usable."""

    def __init__(self, game_id: int, message: str) -> None:
        super().__init__(message)
        self.game_id = game_id
        """The game whose log does not replay."""


class GamesInUse(StoreError):
    """Another companion process writes the games file: this one may only read it."""

    def __init__(self, pid: int | None) -> None:
        self.pid = pid
        """The other companion's process id, when its lock file names it."""
        super().__init__(Phrase(N_("the games are open in another companion, pid {pid}"), pid=pid)
                         if pid else Phrase(N_("the games are open in another companion")))


class TagsInUse(StoreError):
    """An import would give tags already enrolled a new meaning; nothing was written."""

    def __init__(self, uids: list[str], location: str) -> None:
        super().__init__(f"{len(uids)} tag(s) are already enrolled to other cards in "
                         f"{location}: {', '.join(uids)}")
        self.uids = uids
        """The tags in question, in the order they were given."""

