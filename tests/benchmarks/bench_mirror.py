"""Benchmark of the mirror (not a test): run `python -m tests.benchmarks.bench_mirror`.

50 phones on loopback (tests/benchmarks/phones.py: a process of their own, each phone from an
address of its own) follow the stream while 1,000 commands are played through the driver on
a real database, each published as the app publishes it. Prints, from acknowledgement (the
driver's answer, the command on disk) to the state's arrival on every phone: median, p99 and
spread; and what publishing adds to a tap (the touchscreen's share).
Goal: p99 <= 250 ms, and publishing far below a frame (16 ms).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from companion.bootstrap import build_service
from companion.driver import ScriptDriver, StateSnapshot
from companion.mirror.feed import MirrorFeed
from companion.mirror.rules_lookup import RulesLookup
from companion.mirror.server import MirrorServer
from tests.benchmarks.bench_model import percentile
from tests.benchmarks.bench_store import command_cycle
from tests.benchmarks.phones import READY

GOAL_P99_MS = 250.0
TOKEN = "bench-token"
REPO = Path(__file__).resolve().parents[2]


def follow(port: int, phones: int, page: str = f"/t/{TOKEN}") -> subprocess.Popen[str]:
    """The phones, in a process of their own as real phones would be (tests/benchmarks/
    phones.py): reading them costs the server's process nothing."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.benchmarks.phones", "127.0.0.1", str(port),
         page, str(phones)], cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True)
    watchdog = threading.Timer(60, process.kill)
    watchdog.start()
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
    finally:
        watchdog.cancel()
    if line.strip() != READY:
        process.kill()
        raise RuntimeError(f"the phones did not all get a state (they said {line!r})")
    return process


def run(phones: int, commands: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        service, _ = build_service(Path(folder) / "games.sqlite3")
        driver = ScriptDriver(service)
        driver.handle({"cmd": "new_game", "players": 2, "seed": 1})
        feed = MirrorFeed()
        feed.publish(StateSnapshot.of(service))
        server = MirrorServer(feed, TOKEN, port=0, host="127.0.0.1",
                              rules=RulesLookup(open_index=lambda: None))
        server.start()
        following = follow(server.port, phones)
        acknowledged: dict[int, int] = {}
        publish_ms = []
        for i in range(commands):
            answer = driver.handle(command_cycle(i))
            done = time.monotonic_ns()  # the answer is back: the command is on disk
            seq = feed.publish(StateSnapshot.of(service), {"en": answer["state"]})
            publish_ms.append((time.monotonic_ns() - done) / 1e6)
            acknowledged[seq] = done
            time.sleep(0.005)  # a tap every 5 ms: far faster than a table plays
        time.sleep(2)  # the last states' way to the phones (each is stamped on arrival)
        output, _ = following.communicate(timeout=60)
        report = json.loads(output.strip().splitlines()[-1])
        server.stop()
        service.store.close()
    latencies = [(at - acknowledged[seq]) / 1e6 for arrived in report["arrived"]
                 for seq, at in arrived if seq in acknowledged]
    missing = phones * commands - len(latencies)
    latencies.sort()
    publish_ms.sort()
    p99 = percentile(latencies, 0.99)
    print(f"mirror: {phones} phones, {commands} commands on {platform.machine()}, "
          f"Python {platform.python_version()}")
    print(f"  acknowledgement -> event on every phone: median {statistics.median(latencies):.2f}"
          f" ms, p99 {p99:.2f} ms, spread {latencies[0]:.2f}..{latencies[-1]:.2f} ms "
          f"(stdev {statistics.pstdev(latencies):.2f}); states never received: {missing}")
    print(f"  publishing, the touchscreen's share of a tap: median "
          f"{statistics.median(publish_ms):.3f} ms, p99 {percentile(publish_ms, 0.99):.3f} ms")
    print(f"  goal p99 <= {GOAL_P99_MS:.0f} ms: {'met' if p99 <= GOAL_P99_MS else 'MISSED'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--phones", type=int, default=50)
    parser.add_argument("--commands", type=int, default=1000)
    args = parser.parse_args()
    run(args.phones, args.commands)


if __name__ == "__main__":
    main()
