"""The mirror's server alone in a process, for the load test (tests/mirror/test_mirror_load.py),
which measures its memory from outside.

    python -m tests.mirror.load_server TOKEN

Prints the port it listens on (127.0.0.1), then takes one command a line on stdin: `publish`
plays a command and publishes the state as the app does, then prints `published SEQ NS` (NS:
CLOCK_MONOTONIC, the same clock in every process); `count` prints `count N`, the connections it
holds (-1 when the server cannot say); end of input stops it.
"""

from __future__ import annotations

import resource
import sys
import time

from companion.bootstrap import build_service
from companion.driver import ScriptDriver, StateSnapshot
from companion.mirror.feed import MirrorFeed
from companion.mirror.rules_lookup import RulesLookup
from companion.mirror.server import MirrorServer
from tests.benchmarks.bench_store import command_cycle


def main(argv: list[str]) -> int:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    service, _ = build_service(None)
    driver = ScriptDriver(service)
    driver.handle({"cmd": "new_game", "players": 2, "seed": 1})
    feed = MirrorFeed()
    feed.publish(StateSnapshot.of(service))
    server = MirrorServer(feed, argv[0], port=0, host="127.0.0.1",
                          rules=RulesLookup(open_index=lambda: None))
    server.start()
    print(server.port, flush=True)
    played = 0
    for line in sys.stdin:
        command = line.strip()
        if command == "publish":
            answer = driver.handle(command_cycle(played))
            played += 1
            at = time.monotonic_ns()
            seq = feed.publish(StateSnapshot.of(service), {"en": answer["state"]})
            print(f"published {seq} {at}", flush=True)
        elif command == "count":
            count = getattr(server, "connection_count", lambda: -1)()
            print(f"count {count}", flush=True)
    server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
