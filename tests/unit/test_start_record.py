"""The record of the app's last starts: two early deaths in a row make the next start a safe
one; a clean stop or a run that lasted ends the row; a damaged or missing record never stops a
start."""

from __future__ import annotations

import os
from pathlib import Path

from companion.start_record import (
    KEEP_BYTES,
    RECORD_NAME,
    Run,
    StartRecord,
    early_deaths,
    read_runs,
)


def a_start(folder: Path) -> StartRecord:
    record = StartRecord(folder)
    record.begin()
    return record


def test_two_early_deaths_in_a_row_make_the_next_start_safe(tmp_path: Path) -> None:
    assert not a_start(tmp_path).safe  # the first start ever
    second = a_start(tmp_path)  # the first died: one death is not enough
    assert second.deaths == 1 and not second.safe
    third = a_start(tmp_path)
    assert third.deaths == 2 and third.safe
    third.stopped()  # the safe start stopped cleanly: the next is a plain one again
    assert a_start(tmp_path).deaths == 0


def test_a_run_that_lasted_ends_the_row_of_early_deaths(tmp_path: Path) -> None:
    a_start(tmp_path)
    a_start(tmp_path).survived()  # died, but long after its start
    assert a_start(tmp_path).deaths == 0
    assert a_start(tmp_path).deaths == 1


def test_a_companion_still_running_beside_this_one_is_no_death() -> None:
    runs = [Run("a", 11, "boot"), Run("b", 12, "boot"), Run("c", 13, "boot")]
    assert early_deaths(runs, "boot", running={13}) == 2
    assert early_deaths(runs, "boot", running={12, 13}) == 1
    # A number of another boot belongs to another process now: that run is over.
    assert early_deaths(runs, "other boot", running={11, 12, 13}) == 3


def test_damaged_lines_are_skipped() -> None:
    text = ("start a 11 boot\nstart b 1x boot\n\x00\x00garbage\nstop zz\nalive a\n"
            "start c 13 bo")  # the last line cut by a power cut mid-write
    runs = read_runs(text)
    assert [(run.run, run.alive) for run in runs] == [("a", True)]


def test_a_damaged_or_unreadable_record_is_read_as_none_and_never_stops_a_start(
        tmp_path: Path) -> None:
    (tmp_path / RECORD_NAME).write_bytes(os.urandom(3000) + b"\nstart x 1 boot\n")
    record = a_start(tmp_path)
    assert record.deaths <= 1
    assert f"start {record.run} " in (tmp_path / RECORD_NAME).read_text(errors="replace")
    folder = tmp_path / "blocked"
    folder.mkdir()
    (folder / RECORD_NAME).mkdir()  # not a file at all
    blocked = a_start(folder)
    assert blocked.deaths == 0
    blocked.survived()
    blocked.stopped()


def test_a_line_cut_by_a_power_cut_does_not_spoil_the_next(tmp_path: Path) -> None:
    a_start(tmp_path)
    with (tmp_path / RECORD_NAME).open("a") as record:
        record.write("start cut 12")  # no end: the power went while it was written
    assert a_start(tmp_path).deaths == 1
    assert a_start(tmp_path).deaths == 2


def test_a_long_record_is_cut_to_its_last_runs_and_keeps_its_meaning(tmp_path: Path) -> None:
    path = tmp_path / RECORD_NAME
    path.write_text("".join(f"start old{n} {n + 100} boot\nstop old{n}\n" for n in range(300)))
    assert path.stat().st_size > KEEP_BYTES
    a_start(tmp_path)
    a_start(tmp_path)
    assert path.stat().st_size < KEEP_BYTES
    assert a_start(tmp_path).safe
