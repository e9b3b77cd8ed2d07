"""The reader check's memory: the last frames, newest first, what they meant, the reads of the
last ten seconds, the phantoms refused, and the line's state; written and read from two threads."""

from __future__ import annotations

import threading
import time

import pytest

from companion.reader.watch import KEEP, PHANTOM, READ, STACKED, UNSTEADY, ReaderWatch


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_it_lists_the_last_frames_newest_first_and_counts_a_card_s_reads_in_ten_seconds() -> None:
    clock = Clock()
    watch = ReaderWatch(clock)
    watch.connection(True, "pn532", "/dev/ttyUSB0")
    for step in range(30):
        clock.now = 100.0 + step * 0.5
        watch.saw("04A1B2C3", READ if step % 3 else UNSTEADY)
    report = watch.report()
    assert report.connected and report.family == "pn532" and report.message is None
    assert len(report.recent) == KEEP and report.recent[0].at == 114.5
    assert [s.at for s in report.recent] == sorted((s.at for s in report.recent), reverse=True)
    # frames of the last 10 s: 104.5 … 114.5, 21 of them, 14 taken as reads
    assert report.reads_in_window == {"04A1B2C3": 14}
    assert report.reads_per_second == pytest.approx(2.1)
    assert not report.stacked and report.phantoms == 0


def test_phantoms_are_counted_for_as_long_as_it_runs_and_two_cards_show_while_they_last() -> None:
    clock = Clock()
    watch = ReaderWatch(clock)
    for _ in range(25):
        watch.saw("0000000000", PHANTOM)
    watch.saw("04A1", STACKED)
    clock.now += 60
    report = watch.report()
    assert report.phantoms == 25 and report.stacked and report.reads_per_second == 0
    watch.saw("04A1", READ)
    assert not watch.report().stacked and watch.report().last.meaning == READ


def test_a_line_that_went_down_says_why_and_an_unknown_meaning_is_refused() -> None:
    watch = ReaderWatch(Clock())
    watch.connection(False, "em4100", "/dev/serial0", "the reader on /dev/serial0 was "
                     "disconnected")
    assert not watch.report().connected
    assert watch.report().message == "the reader on /dev/serial0 was disconnected"
    with pytest.raises(ValueError, match="unknown meaning 'maybe'"):
        watch.saw("04A1", "maybe")


def test_the_reader_s_thread_writes_while_the_app_s_thread_reads() -> None:
    # The clock stands still, so every frame stays in the window however slow the machine.
    watch = ReaderWatch(Clock())
    done = threading.Event()

    def reader() -> None:
        for n in range(5_000):  # more than the window keeps
            watch.saw(f"{n % 7:08X}", READ)
        done.set()

    thread = threading.Thread(target=reader)
    thread.start()
    reports = 0
    while not done.is_set():
        report = watch.report()
        assert len(report.recent) <= KEEP
        reports += 1
        time.sleep(0.001)  # as the screen looks: now and then, not in a busy loop
    thread.join()
    assert sum(watch.report().reads_in_window.values()) == 4000  # the window keeps at most
    assert reports > 0
