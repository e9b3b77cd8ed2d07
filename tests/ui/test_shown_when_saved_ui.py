"""A tap's command is committed while the table draws it, and no frame or phone shows it before
it is on disk (companion/ui/shown_when_saved.py); a commit that fails after the answer is taken
back on the table. For every game, through the real window."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from companion import store_commit
from tests.integration.test_commit_behind import allow_commits, refuse_commits

from .every_game import start_on_table, where
from .harness import Harness

pytestmark = pytest.mark.ui

SLOW_SYNC_S = 0.05
"""How much longer each commit takes here: an SD card's sync, slowed further."""


def saved_log_length(ui: Harness) -> int:
    """How many commands the game in play has on disk, as another reader of the file sees."""
    with sqlite3.connect(ui.db_path) as reader:
        row = reader.execute("SELECT log_length FROM games WHERE id = ?",
                             [ui.app.service.game_id]).fetchone()
    return int(row[0])


@contextmanager
def at_every_swap(ui: Harness, look: Callable[[], Any]) -> Iterator[list[Any]]:
    """What `look` sees at each buffer swap, as the swap begins."""
    seen: list[Any] = []
    flip = ui.window.flip

    def flip_looked_at() -> Any:
        seen.append(look())
        return flip()

    ui.window.flip = flip_looked_at
    try:
        yield seen
    finally:
        del ui.window.flip


def test_no_frame_and_no_phone_sees_a_tap_before_it_is_on_disk(
        game_id: str, ui: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    start_on_table(ui, game_id)
    commit = store_commit._commit

    def slowly(conn: sqlite3.Connection, begun: threading.Event) -> Exception | None:
        begun.set()
        time.sleep(SLOW_SYNC_S)
        return commit(conn, threading.Event())

    monkeypatch.setattr(store_commit, "_commit", slowly)
    told: list[tuple[int, int]] = []
    publish = ui.app.mirror_link.publish

    def publish_looked_at(*args: Any) -> None:
        told.append((ui.app.service.log_length, saved_log_length(ui)))
        publish(*args)

    monkeypatch.setattr(ui.app.mirror_link, "publish", publish_looked_at)
    steps = [where(ui.state)]
    with at_every_swap(ui, lambda: (ui.app.service.log_length, saved_log_length(ui))) as swaps:
        for _ in range(2):
            ui.tap_id("done")
            steps.append(where(ui.state))
    assert len(set(steps)) == 3, steps  # each tap finished a step
    assert swaps and all(shown == saved for shown, saved in swaps), swaps
    assert len(told) >= 2 and all(shown == saved for shown, saved in told), told


def test_a_tap_whose_commit_fails_is_never_shown_and_the_table_says_why(
        game_id: str, ui: Harness) -> None:
    start_on_table(ui, game_id)
    before = ui.state
    refuse_commits(ui.app.service.store)
    with at_every_swap(ui, lambda: where(ui.app.game_state)) as swaps:
        ui.tap_id("done")
    assert swaps and set(swaps) == {where(before)}, swaps
    assert where(ui.state) == where(before) and ui.state["undo_count"] == before["undo_count"]
    assert ui.app.notice.startswith("Not done: could not save this action"), ui.app.notice
    assert saved_log_length(ui) == ui.app.service.log_length
    allow_commits(ui.app.service.store)
    ui.tap(ui.app.root.ids.notice)  # read, and put away: it may lie over the step button
    ui.tap_id("done")
    assert where(ui.state) != where(before) and ui.app.notice == ""
    assert saved_log_length(ui) == ui.app.service.log_length
