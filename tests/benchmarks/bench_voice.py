"""Benchmark of taps with the table's voice on against off (issue 30): Spirit Island's Done and
+1 fear, played as in bench_ui, in blocks with the voice off and on in turn (off, on, off, on,
...) in one app, so that a drift of the machine's load hits both alike.

Not a test (nothing here is timed against a limit in CI): run it by hand and read the figures.

    python -m tests.benchmarks.bench_voice
    python -m tests.benchmarks.bench_voice --blocks 6 --rounds 40 --json

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

import argparse
import json
import os
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.voice import Speaking, start_program
from tests.benchmarks.bench_taps import (
    SPIRIT_ISLAND_TAPS,
    in_order,
    load_average,
    print_kinds,
    tap_summary,
)
from tests.benchmarks.bench_ui import (
    GOAL_FRAME_MS,
    Stopwatch,
    Tap,
    build_ahead_as_on_the_pi,
    machine,
    play,
    settle,
    start_game,
    stopwatch_on,
)
from tests.ui.harness import Harness, ensure_display, prepare, running_app


@dataclass
class Block:
    """One run of taps with the voice off or on."""

    voice_on: bool
    load_at_start: str
    load_at_end: str = ""
    taps: list[Tap] = field(default_factory=list)


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


def play_block(harness: Harness, watch: Stopwatch, block: Block, rounds: int,
               warm_up: int) -> None:
    app = harness.app
    if block.voice_on:
        app.change_setting("voice", "enabled", "1")
    try:
        for _ in play(harness, watch, warm_up):
            pass
        block.taps = list(play(harness, watch, rounds))
    finally:
        app.change_setting("voice", "enabled", "0")
        app.voice_link.voice.idle(timeout=10)
    block.load_at_end = load_average()


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
                block = Block(voice_on=index % 2 == 1, load_at_start=load_average())
                if harness.app.screens.current != "table":
                    start_game(harness)
                play_block(harness, watch, block, rounds, warm_up)
                done.append(block)
                settle(harness)
        problem = voice.problem
        harness.app.voice_link.stop()
    by_condition = {}
    for condition, on in (("off", False), ("on", True)):
        taps = [tap for block in done if block.voice_on == on for tap in block.taps]
        by_condition[condition] = tap_summary(taps, SPIRIT_ISLAND_TAPS)
    per_block = [{"voice": "on" if block.voice_on else "off",
                  "load_average": {"start": block.load_at_start, "end": block.load_at_end},
                  "median_by_kind": {kind: statistics.median(
                      tap.total_ms for tap in block.taps if tap.kind == kind)
                      for kind in in_order([tap.kind for tap in block.taps],
                                           SPIRIT_ISLAND_TAPS)}}
                 for block in done]
    return {"blocks": blocks, "rounds_per_block": rounds, "warm_up_rounds_per_block": warm_up,
            "load_average": {"start": load_at_start, "end": load_average()},
            "by_condition": by_condition, "per_block": per_block,
            "espeak_ng_runs": runs.counted(), "problem": problem}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.bench_voice",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--blocks", type=int, default=4,
                        help="blocks, off and on in turn (an even number)")
    parser.add_argument("--rounds", type=int, default=30,
                        help="timed taps of Done and of +1 fear in each block")
    args = parser.parse_args(argv)
    if args.blocks < 2 or args.blocks % 2 or args.rounds < 2:
        parser.error("--blocks must be even and at least 2, --rounds at least 2")
    xvfb = ensure_display()
    display = os.environ["DISPLAY"] + (" (Xvfb started for this run)" if xvfb else "")
    figures: dict[str, Any] = {"machine": {**machine(), "display": display},
                               "goal_frame_ms": GOAL_FRAME_MS}
    try:
        with tempfile.TemporaryDirectory(prefix="companion-bench-voice-") as tmp:
            folder = Path(tmp)
            prepare(folder / "kivy-home")
            figures["voice"] = time_voice(args.rounds, warm_up=5, blocks=args.blocks,
                                          folder=folder)
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait()
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        report(figures)
    return 0


def report(figures: dict[str, Any]) -> None:
    m, voice = figures["machine"], figures["voice"]
    print("Table companion: taps to frame with the table's voice off and on")
    print(f"machine: {m['machine']}, {m['cpu_count']} CPUs, {m['platform']}, {m['python']}, "
          f"Kivy {m['kivy']}; display {m['display']}")
    print(f"In ms, from touch_up to the next frame swapped (goal ≤ {GOAL_FRAME_MS:.1f}); "
          "'without the swap': the app's and Kivy's work, leaving out the renderer's")
    print()
    print(f"Spirit Island's table with the voice off and on: {voice['blocks']} blocks in turn "
          f"(off, on, ...), {voice['rounds_per_block']} taps of Done and of +1 fear in each "
          f"after {voice['warm_up_rounds_per_block']} untimed rounds; the voice is the real "
          "espeak-ng, writing a WAV file")
    print(f"  load average (1/5/15 min) at start {voice['load_average']['start']}, at end "
          f"{voice['load_average']['end']}")
    for condition in ("off", "on"):
        print(f"  voice {condition}:")
        print_kinds(voice["by_condition"][condition], indent="    ")
    print("  median by block (load average at its start → end):")
    for number, block in enumerate(voice["per_block"], start=1):
        medians = ", ".join(f"{kind} {value:.1f}"
                            for kind, value in block["median_by_kind"].items())
        print(f"    {number}. voice {block['voice']:3}: {medians}   (load "
              f"{block['load_average']['start']} → {block['load_average']['end']})")
    off, on = voice["by_condition"]["off"], voice["by_condition"]["on"]
    for kind in [kind for kind in off if kind in on]:
        total = on[kind]["total"]["median"] - off[kind]["total"]["median"]
        p95 = on[kind]["total"]["p95"] - off[kind]["total"]["p95"]
        work = on[kind]["work_before_swap"]["median"] - off[kind]["work_before_swap"]["median"]
        print(f"  {kind}: on − off {total:+.1f} ms in the medians, {p95:+.1f} ms in the p95 "
              f"({work:+.1f} ms in the median without the swap)")
    runs = voice["espeak_ng_runs"]
    print(f"  espeak-ng runs: {runs['started']} started, {runs['finished']} finished, "
          f"{runs['cut_off']} cut off by newer news, {runs['failed']} failed"
          + (f"; problem: {voice['problem']}" if voice["problem"] else ""))


if __name__ == "__main__":
    sys.exit(main())
