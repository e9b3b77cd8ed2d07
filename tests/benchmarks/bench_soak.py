"""Soak benchmark: a long evening of taps per game, and whether the app's memory stays flat.

Not a test (tests/ui/test_memory_ui.py is the short, bounded one): run it by hand and read
the figures. It takes minutes per game (ten thousand taps through a real window).

    python -m tests.benchmarks.bench_soak                     # every game, 10,000 taps each
    python -m tests.benchmarks.bench_soak --games glow --taps 2000 --warm-up 500
    python -m tests.benchmarks.bench_soak --json

For each registered game with a table screen: the real app on a fresh database in the test
harness's window (under Xvfb when there is no display), started as on the Pi (the screens built
ahead; the garbage collected in the players' pauses, here every few taps), plays
games of mixed play through touches (tests/ui/soak.py: Done most often, Undo and Redo often,
every other button of the table, the pickers, panels and questions they open, a new game when
one ends). The process's resident set (RSS) is read every `--sample-every` taps. After
`--warm-up` taps (every screen, picker and panel has been built by then) the figures count:
RSS at warm-up and at the end, the highest and lowest after it, the growth per 1,000 taps
(least squares over the samples), Kivy widgets alive and objects frozen for the collector
(gc.freeze: never given back) at both ends, and how long the full
garbage collections took (each would be a pause, were it to fall in a tap). Goal: RSS after
warm-up flat within ±15 MB.

This machine may be shared: the load average is printed at the start and end of each game.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.benchmarks.bench_taps import load_average
from tests.benchmarks.bench_ui import machine
from tests.ui.harness import ensure_display, prepare, running_app

GOAL_FLAT_MB = 15.0


def slope_per_thousand(samples: list[tuple[int, float]]) -> float:
    """Least-squares growth of RSS per 1,000 taps over (taps, MB) samples."""
    if len(samples) < 2:
        return 0.0
    mean_x = sum(x for x, _ in samples) / len(samples)
    mean_y = sum(y for _, y in samples) / len(samples)
    spread_x = sum((x - mean_x) ** 2 for x, _ in samples)
    if not spread_x:
        return 0.0
    return 1000 * sum((x - mean_x) * (y - mean_y) for x, y in samples) / spread_x


class CollectorWatch:
    """Times each full collection (generation 2) the app's process makes while it is on: the
    pause a collection would put into a tap, were it to fall in one."""

    def __init__(self) -> None:
        self.full_ms: list[float] = []
        self._started = 0.0
        self.on = True

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif self.on and info["generation"] == 2:
            self.full_ms.append((time.perf_counter() - self._started) * 1000)


def soak(game_id: str, taps: int, warm_up: int, sample_every: int, seed: int,
         folder: Path) -> dict[str, Any]:
    from tests.ui import soak as play

    load_at_start = load_average()
    (folder / game_id).mkdir()
    started = time.perf_counter()
    samples: list[tuple[int, float]] = []
    widgets_at_warm_up: dict[str, int] = {}
    frozen_at_warm_up = 0
    watch = CollectorWatch()
    with running_app(folder / game_id / "games.db") as harness:
        undo = play.as_on_the_pi(harness)
        gc.callbacks.append(watch)
        try:
            for done in play.play(harness, game_id, taps, seed):
                if done == warm_up:
                    watch.on, watch.full_ms = False, []  # the counting's own collection
                    widgets_at_warm_up = dict(play.live_widgets())
                    frozen_at_warm_up = play.frozen_objects()
                    watch.on = True
                if done >= warm_up and (done - warm_up) % sample_every == 0 or done == taps:
                    samples.append((done, play.rss_mb()))
            watch.on = False
            widgets_at_end = dict(play.live_widgets())
            frozen_at_end = play.frozen_objects()
        finally:
            gc.callbacks.remove(watch)
            undo()
    after = [mb for done, mb in samples if done >= warm_up]
    at_warm_up = after[0]
    changed = {name: widgets_at_end.get(name, 0) - widgets_at_warm_up.get(name, 0)
               for name in set(widgets_at_end) | set(widgets_at_warm_up)}
    return {
        "taps": taps, "warm_up": warm_up, "seconds": time.perf_counter() - started,
        "load_average": {"start": load_at_start, "end": load_average()},
        "rss_mb": {"at_warm_up": at_warm_up, "at_end": after[-1], "lowest": min(after),
                   "highest": max(after), "samples": samples},
        "growth_mb_per_1000_taps": slope_per_thousand(
            [(done, mb) for done, mb in samples if done >= warm_up]),
        "widest_swing_mb": max(abs(mb - at_warm_up) for mb in after),
        "full_collections_ms": {
            "count": len(watch.full_ms),
            "median": statistics.median(watch.full_ms) if watch.full_ms else 0.0,
            "max": max(watch.full_ms, default=0.0)},
        "frozen_objects": {"at_warm_up": frozen_at_warm_up, "at_end": frozen_at_end},
        "widgets": {"at_warm_up": sum(widgets_at_warm_up.values()),
                    "at_end": sum(widgets_at_end.values()),
                    "most_changed": dict(sorted(((n, c) for n, c in changed.items() if c),
                                                key=lambda item: -abs(item[1]))[:8])},
    }


def main(argv: list[str] | None = None) -> int:
    from tests.ui.soak import table_games

    games = table_games()
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.bench_soak",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--games", default=",".join(games),
                        help=f"which games, comma-separated (default: {','.join(games)})")
    parser.add_argument("--taps", type=int, default=10_000, help="taps per game")
    parser.add_argument("--warm-up", type=int, default=1_000,
                        help="taps before the figures count")
    parser.add_argument("--sample-every", type=int, default=250, help="taps between RSS reads")
    parser.add_argument("--seed", type=int, default=25, help="the random taps' seed")
    args = parser.parse_args(argv)
    chosen = [name.strip() for name in args.games.split(",") if name.strip()]
    if not chosen or any(name not in games for name in chosen):
        parser.error(f"--games takes some of {', '.join(games)}")
    if not 0 < args.warm_up < args.taps or args.sample_every < 1:
        parser.error("the warm-up must be shorter than the taps, and samples at least 1 apart")

    xvfb = ensure_display()
    display = os.environ["DISPLAY"] + (" (Xvfb started for this run)" if xvfb else "")
    figures: dict[str, Any] = {"machine": {**machine(), "display": display},
                               "goal_flat_mb": GOAL_FLAT_MB, "games": {}}
    if not args.json:
        m = figures["machine"]
        print("Table companion: memory over a long evening of taps (soak)")
        print(f"machine: {m['machine']}, {m['cpu_count']} CPUs, {m['platform']}, "
              f"{m['python']}, Kivy {m['kivy']}; display {display}; seed {args.seed}",
              flush=True)
    try:
        with tempfile.TemporaryDirectory(prefix="companion-bench-soak-") as tmp:
            folder = Path(tmp)
            prepare(folder / "kivy-home")
            for game_id in chosen:
                figures["games"][game_id] = soak(game_id, args.taps, args.warm_up,
                                                 args.sample_every, args.seed, folder)
                if not args.json:
                    report_game(game_id, figures["games"][game_id])
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait()
    if args.json:
        print(json.dumps(figures, indent=2))
    return 0


def report_game(game_id: str, f: dict[str, Any]) -> None:
    rss = f["rss_mb"]
    verdict = "met" if f["widest_swing_mb"] <= GOAL_FLAT_MB else "MISSED"
    print(f"{game_id}: {f['taps']} taps of mixed play in {f['seconds']:.0f} s, the first "
          f"{f['warm_up']} as warm-up (load average {f['load_average']['start']} → "
          f"{f['load_average']['end']})", flush=True)
    print(f"  RSS at warm-up {rss['at_warm_up']:.1f} MB, at the end {rss['at_end']:.1f} MB "
          f"(lowest {rss['lowest']:.1f}, highest {rss['highest']:.1f}); growth "
          f"{f['growth_mb_per_1000_taps']:+.2f} MB per 1,000 taps; widest swing from warm-up "
          f"{f['widest_swing_mb']:.1f} MB: goal ±{GOAL_FLAT_MB:.0f} MB {verdict}", flush=True)
    full = f["full_collections_ms"]
    print(f"  full collections after warm-up (the app's in each pause among them): "
          f"{full['count']}, median {full['median']:.1f} ms, longest {full['max']:.1f} ms",
          flush=True)
    widgets = f["widgets"]
    changed = ", ".join(f"{name} {count:+d}" for name, count in widgets["most_changed"].items())
    print(f"  Kivy widgets alive at warm-up {widgets['at_warm_up']}, at the end "
          f"{widgets['at_end']}{': ' + changed if changed else ''} (frozen ones left out)",
          flush=True)
    frozen = f["frozen_objects"]
    print(f"  objects frozen for the collector (never given back) at warm-up "
          f"{frozen['at_warm_up']}, at the end {frozen['at_end']}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
