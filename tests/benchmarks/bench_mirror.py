"""Benchmark of the mirror (not a test): run `python -m tests.benchmarks.bench_mirror`.

50 phones on loopback follow the stream while 1,000 commands are played through the driver on
a real database, each published as the app publishes it. Prints, from acknowledgement (the
driver's answer, the command on disk) to the state's arrival on every phone: median, p99 and
spread; and what publishing adds to a tap (the touchscreen's share).
Goal: p99 <= 250 ms, and publishing far below a frame (16 ms).
"""

from __future__ import annotations

import argparse
import platform
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path

from companion.bootstrap import build_service
from companion.driver import ScriptDriver, StateSnapshot
from companion.mirror.feed import MirrorFeed
from companion.mirror.server import MirrorServer, RulesLookup
from tests.benchmarks.bench_model import percentile
from tests.benchmarks.bench_store import command_cycle

GOAL_P99_MS = 250.0
TOKEN = "bench-token"


class Phone(threading.Thread):
    """One phone: reads the stream and notes when each sequence number arrived."""

    def __init__(self, port: int, lang: str) -> None:
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.sock.sendall(f"GET /t/{TOKEN}/events?lang={lang} HTTP/1.1\r\nHost: b\r\n\r\n"
                          .encode())
        self.arrived: dict[int, float] = {}
        self.connected = threading.Event()

    def run(self) -> None:
        with self.sock.makefile("rb") as stream:
            for line in stream:
                if line.startswith(b"id: "):
                    self.arrived[int(line[4:])] = time.perf_counter()
                    self.connected.set()


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
        clients = [Phone(server.port, ("en", "de", "fr")[i % 3]) for i in range(phones)]
        for client in clients:
            client.start()
        for client in clients:
            client.connected.wait(30)
        acknowledged: dict[int, float] = {}
        publish_ms = []
        for i in range(commands):
            answer = driver.handle(command_cycle(i))
            done = time.perf_counter()  # the answer is back: the command is on disk
            seq = feed.publish(StateSnapshot.of(service), {"en": answer["state"]})
            publish_ms.append((time.perf_counter() - done) * 1000)
            acknowledged[seq] = done
            time.sleep(0.005)  # a tap every 5 ms: far faster than a table plays
        deadline = time.perf_counter() + 30
        last = max(acknowledged)
        while time.perf_counter() < deadline and any(last not in c.arrived for c in clients):
            time.sleep(0.05)
        latencies = [(client.arrived[seq] - at) * 1000 for client in clients
                     for seq, at in acknowledged.items() if seq in client.arrived]
        missing = phones * commands - len(latencies)
        server.stop()
        service.store.close()
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
