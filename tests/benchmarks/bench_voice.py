"""Benchmark of taps with the table's voice on against off (issue 30): Spirit Island's Done and
+1 fear, played as in bench_ui, in blocks with the voice off and on in turn (off, on, off, on,
...) in one app, so that a drift of the machine's load hits both alike.

A section of bench_taps (its report prints it); not a test (nothing here is timed against a
limit in CI): run it by hand and read the figures.

    python -m tests.benchmarks.bench_taps --sections voice
    python -m tests.benchmarks.bench_taps --sections voice --voice-blocks 6 --voice-rounds 40

For an "on" block the voice is switched on as the Settings switch does it (`app.change_setting`)
and speaks through the real espeak-ng, which writes each line into a WAV file rather than to a
sound device (this machine may have none, and espeak-ng then gives up at once: the synthesis
would not be measured). espeak-ng writes a file faster than it would speak it aloud, so a line
is mostly finished before the next tap; a line still running when the next tap's news comes is
cut off, as at the table. Each tap is timed as bench_ui times them (its docstring has the
details): from just before touch_up until the next frame has been swapped, with the work before
the swap split out. Besides the taps, the espeak-ng runs are counted: started, finished, cut.

This machine may be shared: the load average is printed at the start and end of each block.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.voice import Speaking, start_program
from tests.benchmarks.bench_taps import load_average, off_and_on, print_off_and_on
from tests.benchmarks.bench_ui import (
    Stopwatch,
    Tap,
    build_ahead_as_on_the_pi,
    play,
    settle,
    start_game,
    stopwatch_on,
)
from tests.ui.harness import Harness, running_app


@dataclass
class Runs:
    """The espeak-ng processes the voice started, and how each ended."""

    started: list[Speaking] = field(default_factory=list)

    def start(self, command: list[str]) -> Speaking:
        process = start_program(command)
        self.started.append(process)
        return process

    def counted(self) -> dict[str, int]:
        codes = [process.wait() for process in self.started]
        return {"started": len(codes), "finished": sum(code == 0 for code in codes),
                "cut_off": sum(code < 0 for code in codes),
                "failed": sum(code > 0 for code in codes)}


Block = tuple[bool, str, str, list[Tap]]
"""One run of taps: the voice on or not, the load average at its start and end, its taps."""


def play_block(harness: Harness, watch: Stopwatch, voice_on: bool, rounds: int,
               warm_up: int) -> Block:
    app = harness.app
    load_at_start = load_average()
    if voice_on:
        app.change_setting("voice", "enabled", "1")
    try:
        for _ in play(harness, watch, warm_up):
            pass
        taps = list(play(harness, watch, rounds))
    finally:
        app.change_setting("voice", "enabled", "0")
        app.voice_link.voice.idle(timeout=10)
    return voice_on, load_at_start, load_average(), taps


def time_voice(rounds: int, warm_up: int, blocks: int, folder: Path) -> dict[str, Any]:
    load_at_start = load_average()
    done: list[Block] = []
    runs = Runs()
    with running_app(folder / "games.db") as harness:
        voice = harness.app.voice_link.voice
        voice.runner = runs.start
        voice.wav_file = str(folder / "voice.wav")
        build_ahead_as_on_the_pi(harness)
        start_game(harness)
        with stopwatch_on(harness) as watch:
            for index in range(blocks):
                if harness.app.screens.current != "table":
                    start_game(harness)
                done.append(play_block(harness, watch, index % 2 == 1, rounds, warm_up))
                settle(harness)
        problem = voice.problem
        harness.app.voice_link.stop()
    by_condition, per_block = off_and_on("voice", done)
    return {"blocks": blocks, "rounds_per_block": rounds, "warm_up_rounds_per_block": warm_up,
            "load_average": {"start": load_at_start, "end": load_average()},
            "by_condition": by_condition, "per_block": per_block,
            "espeak_ng_runs": runs.counted(), "problem": problem}


def report(voice: dict[str, Any]) -> None:
    """bench_taps' report of the voice section."""
    print(f"Spirit Island's table with the voice off and on: {voice['blocks']} blocks in turn "
          f"(off, on, ...), {voice['rounds_per_block']} taps of Done and of +1 fear in each "
          f"after {voice['warm_up_rounds_per_block']} untimed rounds; the voice is the real "
          "espeak-ng, writing a WAV file")
    print(f"  load average (1/5/15 min) at start {voice['load_average']['start']}, at end "
          f"{voice['load_average']['end']}")
    print_off_and_on("voice", voice)
    runs = voice["espeak_ng_runs"]
    print(f"  espeak-ng runs: {runs['started']} started, {runs['finished']} finished, "
          f"{runs['cut_off']} cut off by newer news, {runs['failed']} failed"
          + (f"; problem: {voice['problem']}" if voice["problem"] else ""))
