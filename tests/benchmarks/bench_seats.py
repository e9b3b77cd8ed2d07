"""Benchmark of seats (not a test): run `python -m tests.benchmarks.bench_seats`.

A Glow game of 4 players, each with a seat; 50 read-only phones and the 4 seats' own phones
follow the stream (tests/benchmarks/phones.py, a process of their own). The 4 seats tap their
own score buttons over the Wi-Fi's stand-in (loopback), as fast as a seat may (4 a second each),
while the table carries each out on its thread (tests/seat_table.py: the service as the app
runs it, without a window). Prints, per seat action: from the tap to the phone's answer (the
action on disk), and from the tap to the new state on every phone; median, p95 and spread.
Goal: p95 <= 250 ms to every phone. The touchscreen's frame is not in here (no window): the
tap's share of a frame is bench_taps' to measure.
"""

from __future__ import annotations

import argparse
import http.client
import json
import platform
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from companion.mirror.rules_lookup import RulesLookup
from companion.mirror.seats import RATE_PER_S
from companion.mirror.server import SEAT_HEADER, MirrorServer
from tests.benchmarks.bench_mirror import follow
from tests.benchmarks.bench_model import percentile
from tests.seat_table import Table

GOAL_P95_MS = 250.0
TOKEN = "bench-token"
SEATS = 4
NEW_GAME = {"cmd": "new_game", "game": "glow", "players": SEATS, "board": "sea",
            "names": ["Ana", "Ben", "Cy", "Di"]}


class SeatedTable(Table):
    """The table, noting which state each seat's action became, per seat in order."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.states_of: dict[int, list[int]] = {}

    def from_a_seat(self, player: int, request: Any, version: str) -> dict[str, Any]:
        answer = super().from_a_seat(player, request, version)
        if answer["ok"]:
            self.states_of.setdefault(player, []).append(answer["seq"])
        return answer


def seat(port: int, secret: str, table: Table, player: int, actions: int,
         taps: list[tuple[int, int, int]]) -> None:
    """One seat's phone: `actions` taps, alternately +1 and -1 on its score, at the seat's
    pace; notes (player, tapped, answered) of each, in CLOCK_MONOTONIC nanoseconds."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {SEAT_HEADER: secret, "Origin": f"http://127.0.0.1:{port}",
               "Content-Type": "application/json"}
    try:
        for i in range(actions):
            version = table.service.seat_version()
            body = json.dumps({"request": {"cmd": "score", "amount": 1 if i % 2 == 0 else -1},
                               "version": version})
            tapped = time.monotonic_ns()
            conn.request("POST", f"/t/{TOKEN}/seat/act", body, headers)
            response = conn.getresponse()
            answer = json.loads(response.read())
            answered = time.monotonic_ns()
            if response.status == 200 and answer["ok"]:
                taps.append((player, tapped, answered))
            time.sleep(max(0.0, 1 / RATE_PER_S - (answered - tapped) / 1e9))
    finally:
        conn.close()


def run(phones: int, actions: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        table = SeatedTable(Path(folder) / "games.sqlite3")
        table.send(NEW_GAME)
        server = MirrorServer(table.feed, TOKEN, port=0, host="127.0.0.1",
                              rules=RulesLookup(open_index=lambda: None), seats=table.desk)
        server.start()
        following = follow(server.port, phones + SEATS)
        table.published.clear()
        taps: list[tuple[int, int, int]] = []
        seats = [threading.Thread(target=seat, args=(server.port, secret, table, held.player,
                                                     actions // SEATS, taps))
                 for held, secret, _claimed in table.desk.seats()]
        for thread in seats:
            thread.start()
        for thread in seats:
            thread.join()
        time.sleep(2)  # the last states' way to the phones (each is stamped on arrival)
        output, _ = following.communicate(timeout=60)
        report = json.loads(output.strip().splitlines()[-1])
        server.stop()
        table.close()
    report_figures(phones, taps, table.states_of, report)


def report_figures(phones: int, taps: list[tuple[int, int, int]],
                   states_of: dict[int, list[int]], report: dict[str, Any]) -> None:
    # A seat taps one at a time: its n-th answered tap made the n-th state it was answered.
    tapped_of: dict[int, int] = {}
    done: dict[int, int] = {}
    for player, tapped, _answered in taps:
        index = done.get(player, 0)
        tapped_of[states_of[player][index]] = tapped
        done[player] = index + 1
    answer_ms = sorted((answered - tapped) / 1e6 for _player, tapped, answered in taps)
    every_phone = sorted((at - tapped_of[seq]) / 1e6 for arrived in report["arrived"]
                         for seq, at in arrived if seq in tapped_of)
    missing = (phones + SEATS) * len(tapped_of) - len(every_phone)
    p95 = percentile(every_phone, 0.95)
    print(f"seats: {SEATS} seats tapping, {phones} read-only phones (+ the seats' own), "
          f"{len(taps)} actions on {platform.machine()}, Python {platform.python_version()}")
    print(f"  tap -> the seat's answer (on disk): median {statistics.median(answer_ms):.1f} ms, "
          f"p95 {percentile(answer_ms, 0.95):.1f} ms, spread {answer_ms[0]:.1f}.."
          f"{answer_ms[-1]:.1f} ms")
    print(f"  tap -> the new state on every phone: median {statistics.median(every_phone):.1f} "
          f"ms, p95 {p95:.1f} ms, spread {every_phone[0]:.1f}..{every_phone[-1]:.1f} ms; "
          f"states never received: {missing}")
    print(f"  goal p95 <= {GOAL_P95_MS:.0f} ms: {'met' if p95 <= GOAL_P95_MS else 'MISSED'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--phones", type=int, default=50)
    parser.add_argument("--actions", type=int, default=400)
    args = parser.parse_args()
    run(args.phones, args.actions)


if __name__ == "__main__":
    main()
