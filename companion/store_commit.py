"""A transaction's commit finished on a worker thread while the table draws what it changed.

With `synchronous=FULL` a commit waits for the disk to confirm the write-ahead log (an fsync).
On an SD card that wait can be as long as the rest of a tap's work, and nothing on screen
needs it until the frame is shown: the app starts the commit, updates its widgets and draws
them, and waits for the commit just before the buffer swap (`companion/ui/shown_when_saved.py`).
So the promise holds, every action is on disk before the screen shows it, and the fsync costs
the tap only what the drawing did not cover.

The connection is shared with the thread, never used by both at once: the store waits for the
commit under way before any other use of its database (`GameStore.db`).
"""

from __future__ import annotations

import sqlite3
import threading
from concurrent.futures import Future, ThreadPoolExecutor

from .core.phrases import Phrase
from .i18n import N_
from .store_errors import StoreError


def save_failure(error: Exception, what: Phrase, location: str) -> StoreError:
    """What a player is told when SQLite could not save `what` (nothing was changed)."""
    text = str(error)
    reason: Phrase | str = text  # SQLite's own words, which no catalogue has
    if "full" in text:
        reason = Phrase(N_("the disk is full"))
    elif "readonly" in text or "read-only" in text:
        reason = Phrase(N_("the database file is read-only"))
    return StoreError(Phrase(N_("could not save {what} to {location}: {reason}. Nothing was "
                                "changed; free some space or fix the file's permissions, then "
                                "try again"), what=what, location=location, reason=reason))


def read_only_failure(why: Phrase, what: Phrase, location: str) -> StoreError:
    """What a player is told when `what` cannot be saved to a file opened only to read it."""
    return StoreError(Phrase(N_("the games file is read-only: {why}, so {what} could not be "
                                "saved to {location}. Nothing was changed"),
                             why=why, what=what, location=location))


def _commit(conn: sqlite3.Connection, begun: threading.Event) -> Exception | None:
    """(On the worker) commit the open transaction; a commit that fails is rolled back, so the
    database holds none of it, and its error is returned for the caller's thread."""
    begun.set()
    try:
        conn.execute("COMMIT")
    except Exception as error:  # whatever it was, the command must not count as saved
        try:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # SQLite rolled it back itself, or cannot reach the file: not saved either way
        return error
    return None


class CommitBehind:
    """At most one commit under way on one worker thread, and the failure it left, if any."""

    def __init__(self, location: str) -> None:
        self._location = location
        self._worker: ThreadPoolExecutor | None = None
        self._under_way: Future[Exception | None] | None = None
        self._what = Phrase("")
        self._failure: StoreError | None = None

    @property
    def under_way(self) -> bool:
        return self._under_way is not None

    def start(self, conn: sqlite3.Connection, what: Phrase) -> None:
        """Commit `conn`'s open transaction on the worker; `what` names it in a failure."""
        self.wait()
        if self._worker is None:  # one thread for the store's life, started with its first use
            self._worker = ThreadPoolExecutor(1, thread_name_prefix="games-commit")
        self._what = what
        begun = threading.Event()
        self._under_way = self._worker.submit(_commit, conn, begun)
        # Waiting hands the worker the interpreter lock at once: otherwise the caller, busy
        # with the screen, would keep it for up to a switch interval (5 ms) before the commit
        # even began. SQLite lets go of the lock while it writes and syncs.
        begun.wait()

    def wait(self) -> None:
        """Wait for the commit under way (if any). A failure is kept for `outcome`."""
        under_way, self._under_way = self._under_way, None
        if under_way is None:
            return
        error = under_way.result()
        if error is not None:
            self._failure = save_failure(error, self._what, self._location)

    def outcome(self) -> None:
        """Wait for the commit under way; raise the StoreError of a commit that failed since
        the last call (once: the caller undoes what it had done on the strength of it)."""
        self.wait()
        failure, self._failure = self._failure, None
        if failure is not None:
            raise failure

    def close(self) -> None:
        self.wait()
        if self._worker is not None:
            self._worker.shutdown()
            self._worker = None
