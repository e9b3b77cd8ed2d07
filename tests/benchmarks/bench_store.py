"""Benchmark of the durable store (not a test): run `python -m tests.benchmarks.bench_store`.

Prints the time to acknowledge one command durably (median and p99 over 1,000, on a real file
with WAL and synchronous=FULL) and the time to resume a 2,000-command game from its database.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.bootstrap import wired_service
from companion.service import GameService
from companion.store import GameStore
from tests.benchmarks.bench_model import percentile

ACK_GOAL_P99_MS = 10.0
RESUME_GOAL_MS = 100.0


def command_cycle(i: int) -> dict[str, Any]:
    """Commands that are always legal and never end the game, so any count can be logged."""
    return [{"cmd": "blight"}, {"cmd": "heal"}, {"cmd": "fear"}, {"cmd": "undo"},
            {"cmd": "redo"}, {"cmd": "undo"}][i % 6]


def fresh_service(path: Path) -> GameService:
    store, _ = GameStore.open(path)
    service = wired_service(store, seed_source=lambda: 1)
    service.resume_latest()
    return service


def time_acknowledgements(folder: Path, count: int) -> list[float]:
    service = fresh_service(folder / "ack.sqlite3")
    service.handle(service.parse({"cmd": "new_game", "players": 2, "seed": 1}))
    timings = []
    for i in range(count):
        command = service.parse(command_cycle(i))
        start = time.perf_counter_ns()
        service.handle(command)  # returns only after the transaction is committed and synced
        timings.append((time.perf_counter_ns() - start) / 1e6)
    service.store.close()
    return timings


def time_resumes(folder: Path, commands: int, repeats: int) -> list[float]:
    path = folder / "resume.sqlite3"
    service = fresh_service(path)
    service.handle(service.parse({"cmd": "new_game", "players": 2, "seed": 1}))
    for i in range(commands - 1):
        service.handle(service.parse(command_cycle(i)))
    expected = service.session.snapshot()
    service.store.close()
    timings = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        resumed = fresh_service(path)
        timings.append((time.perf_counter_ns() - start) / 1e6)
        assert resumed.session.snapshot() == expected
        resumed.store.close()
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--dir", type=Path, default=None,
                        help="where to put the database files (default: a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        acks = time_acknowledgements(Path(tmp), 1000)
        resumes = time_resumes(Path(tmp), 2000, 20)
    figures = {
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.platform()}, "
                   f"Python {platform.python_version()}",
        "ack_ms": {"median": statistics.median(acks), "p99": percentile(acks, 0.99),
                   "min": min(acks), "max": max(acks), "count": len(acks)},
        "resume_ms": {"median": statistics.median(resumes), "min": min(resumes),
                      "max": max(resumes), "count": len(resumes)},
    }
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    ack, resume = figures["ack_ms"], figures["resume_ms"]
    print("Spirit Island companion: durable store benchmark")
    print(f"machine: {figures['machine']}")
    print(f"Acknowledging one command durably (WAL, synchronous=FULL), {ack['count']} commands:")
    print(f"  median {ack['median']:.2f} ms   p99 {ack['p99']:.2f} ms   "
          f"(min {ack['min']:.2f}, max {ack['max']:.2f}); goal p99 <= {ACK_GOAL_P99_MS} ms")
    print(f"Resuming a 2,000-command game, {resume['count']} times:")
    print(f"  median {resume['median']:.1f} ms   (min {resume['min']:.1f}, "
          f"max {resume['max']:.1f}); goal <= {RESUME_GOAL_MS} ms")


if __name__ == "__main__":
    main()
