"""The store's errors: problems with the games database a person can act on."""

from __future__ import annotations


class StoreError(Exception):
    """A problem with the database a person can act on; the message names the file."""


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
        super().__init__(f"the games are open in another companion{f', pid {pid}' if pid else ''}")


class TagsInUse(StoreError):
    """An import would give tags already enrolled a new meaning; nothing was written."""

    def __init__(self, uids: list[str], location: str) -> None:
        super().__init__(f"{len(uids)} tag(s) are already enrolled to other cards in "
                         f"{location}: {', '.join(uids)}")
        self.uids = uids
        """The tags in question, in the order they were given."""

