"""Benchmark of the card reader: frame to event, and the idle cost of polling.

Not a test (nothing is timed against a limit in CI): run it by hand and read the figures.

    python -m tests.benchmarks.bench_reader            # figures for people
    python -m tests.benchmarks.bench_reader --json     # the same figures as one JSON object

Goals from the issue: an event reaches the app at most 5 ms (median) after the last byte of the
frame that carried it, and the reader's polling loop costs at most 2 % of one core while no
card is laid.

Lay to event with the debounce on (goal: median ≤ 350 ms at 125 kHz, where an RDM6300's card
counts only at its second frame; ≤ 60 ms at 13.56 MHz): from the moment the card is laid in
the emulator (`lay`) to the "present" event, so the reader's own rhythm (an RDM6300 repeating
its frame every 0.1 s, a PN532 polled every 0.1 s) is counted in.

How the figures are made:
- latency: the emulator (companion/reader/emulator_pty.py) runs in this process on a pseudo-
  terminal and stamps time.perf_counter() right after it has written the last byte of each
  frame; the reader (companion/reader/serial_reader.py) runs on its own threads and the
  callback stamps the same clock when a "present" event reaches it, which is the point where
  the app takes it over (it queues it for Kivy's thread). For the PN532 the frame is the
  InListPassiveTarget answer that first names the card; for the RDM6300, ID-12LA and the line
  bridge it is the first frame or line sent for the card. Each run lays a new card (a fresh UID,
  so no cooldown applies), waits for "present", lifts it and waits for "removed".
- idle CPU: the emulator runs as a separate process (`python -m companion.reader.emulator`), so
  only the reader's own threads are counted: the process CPU time of this process
  (time.process_time, all threads) over a window with the reader connected and no card laid,
  as a share of one core. The PN532 is polled (ten polls a second, two commands each); the
  other families only wait on the line.
"""

from __future__ import annotations

import argparse
import json
import queue
import random
import subprocess
import sys
import time
from typing import Any

from companion.reader.emulator_pty import ReaderEmulator
from companion.reader.serial_reader import ReaderEvent, ReaderSettings, SerialReader
from tests.benchmarks.bench_model import machine, spread

GOAL_LATENCY_MS = 5.0
GOAL_LAY_MS = {"pn532": 60.0, "rdm6300": 350.0, "id12la": 350.0, "line": 60.0}
GOAL_IDLE_CPU_PERCENT = 2.0
# (emulator family, reader family): every wire format the reader speaks.
CASES = (("pn532", "pn532"), ("rdm6300", "em4100"), ("id12la", "em4100"), ("line", "line"))
WAIT_S = 5.0


def uid_for(family: str, run: int) -> str:
    if family in ("rdm6300", "id12la"):
        return f"0C{run:08X}"
    return f"04{run:012X}"


def frame_carries(frame: bytes, family: str, uid: str) -> bool:
    if family == "pn532":
        return bytes.fromhex(uid) in frame
    if family == "line":
        return " ".join(uid[i:i + 2] for i in range(0, len(uid), 2)).encode() in frame
    return uid.encode() in frame


def wait_for(events: queue.Queue[tuple[ReaderEvent, float]], kind: str) -> tuple[ReaderEvent,
                                                                                  float]:
    deadline = time.monotonic() + WAIT_S
    while True:
        event, at = events.get(timeout=max(deadline - time.monotonic(), 0.001))
        if event.event == kind:
            return event, at


def time_latency(emulated: str, family: str, runs: int) -> tuple[list[float], list[float]]:
    """Milliseconds from the last byte of the frame that made the card count as laid (a
    repeating reader's second frame: the debounce), and from the lay, to "present", per card."""
    device = ReaderEmulator(emulated, repeat_interval=0.1)
    sent: dict[str, list[float]] = {}

    def on_frame(frame: bytes, at: float) -> None:
        for uid in pending:
            if frame_carries(frame, emulated, uid):
                sent.setdefault(uid, []).append(at)

    pending: list[str] = []
    device.on_frame_sent = on_frame
    device.start()
    events: queue.Queue[tuple[ReaderEvent, float]] = queue.Queue()
    reader = SerialReader(ReaderSettings(port=device.port, family=family, removal_after=0.3),
                          lambda event: events.put((event, time.perf_counter())))
    reader.start()
    latencies, from_lay = [], []
    phase = random.Random(28)
    try:
        wait_for(events, "connected")
        for run in range(runs):
            uid = uid_for(emulated, run + 1)
            pending[:] = [uid]
            # Players do not lay cards in step with the polls or repeats: a random phase.
            time.sleep(phase.uniform(0, 0.2))
            laid = time.perf_counter()
            device.lay(uid)
            event, reached = wait_for(events, "present")
            from_lay.append((reached - laid) * 1000)
            assert event.uid == uid, (event, uid)
            # The emulator hands over its stamp (taken right after the last byte) on its own
            # thread, which may run after the reader has already delivered the event.
            assert device.wait_for(lambda uid=uid: uid in sent, timeout=WAIT_S), uid
            deciding = max((at for at in sent[uid] if at <= reached), default=sent[uid][0])
            latencies.append((reached - deciding) * 1000)
            device.lift(uid)
            wait_for(events, "removed")
    finally:
        reader.stop()
        device.close()
    return latencies, from_lay


def time_idle_cpu(emulated: str, family: str, seconds: float) -> float:
    """Percent of one core this process (the reader's threads) uses with no card laid."""
    child = subprocess.Popen([sys.executable, "-m", "companion.reader.emulator", emulated],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        port = child.stdout.readline().strip()
        events: queue.Queue[tuple[ReaderEvent, float]] = queue.Queue()
        reader = SerialReader(ReaderSettings(port=port, family=family),
                              lambda event: events.put((event, time.perf_counter())))
        reader.start()
        try:
            wait_for(events, "connected")
            time.sleep(0.5)  # past the start-up
            cpu, wall = time.process_time(), time.perf_counter()
            time.sleep(seconds)
            used = (time.process_time() - cpu) / (time.perf_counter() - wall)
        finally:
            reader.stop()
    finally:
        child.kill()
        child.wait()
    return used * 100


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.bench_reader",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--runs", type=int, default=40, help="cards laid per family")
    parser.add_argument("--idle-seconds", type=float, default=10.0,
                        help="length of each idle CPU window")
    args = parser.parse_args(argv)

    figures: dict[str, Any] = {"machine": machine(), "latency_ms": {}, "lay_to_event_ms": {},
                               "idle_cpu_percent": {}}
    for emulated, family in CASES:
        from_frame, from_lay = time_latency(emulated, family, args.runs)
        figures["latency_ms"][emulated] = spread(from_frame)
        figures["lay_to_event_ms"][emulated] = spread(from_lay)
    for emulated, family in (("pn532", "pn532"), ("rdm6300", "em4100")):
        figures["idle_cpu_percent"][emulated] = time_idle_cpu(emulated, family,
                                                              args.idle_seconds)
    figures["goals"] = {"latency_median_ms": GOAL_LATENCY_MS, "lay_to_event_ms": GOAL_LAY_MS,
                        "idle_cpu_percent": GOAL_IDLE_CPU_PERCENT}
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    m = figures["machine"]
    print("Spirit Island companion: card reader benchmark")
    print(f"machine: {m['machine']} (processor: {m['processor']}), {m['cpu_count']} CPUs, "
          f"{m['platform']}, {m['python']}")
    print(f"\nLast byte of the deciding frame to the event in the app's callback, in ms "
          f"(goal: median ≤ {GOAL_LATENCY_MS} ms)")
    for emulated, stats in figures["latency_ms"].items():
        verdict = "meets" if stats["median"] <= GOAL_LATENCY_MS else "MISSES"
        print(f"  {emulated:8} median {stats['median']:6.2f}   IQR {stats['q1']:.2f} – "
              f"{stats['q3']:.2f}   p95 {stats['p95']:.2f}   max {stats['max']:.2f}   "
              f"({stats['samples']} cards): {verdict} the goal")
    print("\nLaid on the reader to the event, debounce on, in ms (goals: 125 kHz ≤ 350 ms, "
          "13.56 MHz ≤ 60 ms)")
    for emulated, stats in figures["lay_to_event_ms"].items():
        verdict = "meets" if stats["median"] <= GOAL_LAY_MS[emulated] else "MISSES"
        print(f"  {emulated:8} median {stats['median']:6.1f}   IQR {stats['q1']:.1f} – "
              f"{stats['q3']:.1f}   p95 {stats['p95']:.1f}   max {stats['max']:.1f}   "
              f"({stats['samples']} cards): {verdict} the goal of {GOAL_LAY_MS[emulated]:g}")
    print(f"\nIdle CPU with the reader connected and no card, % of one core "
          f"(goal ≤ {GOAL_IDLE_CPU_PERCENT} %, {args.idle_seconds:.0f} s windows)")
    for emulated, percent in figures["idle_cpu_percent"].items():
        verdict = "meets" if percent <= GOAL_IDLE_CPU_PERCENT else "MISSES"
        print(f"  {emulated:8} {percent:5.2f} %: {verdict} the goal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
