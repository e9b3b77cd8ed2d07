"""Junk clients for the mirror's load test: PER_KIND connections of each kind, from the source
addresses 127.0.0.2-127.0.0.250 in turn, none with the right token, for SECONDS.

    python -m tests.mirror.load_junk PORT PER_KIND SECONDS

Kinds: `idle` connects and says nothing; `slowloris` sends a request's headers a byte a second
and never ends them; `huge` sends header lines of 60 KB as fast as it may and never ends them
(6 MB per connection at most); `unread` asks for the event stream (with a wrong token) fifty
times in a row and never reads an answer. A connection the server ends is opened again two
seconds later, so the pressure stays. Loopback only, bounded in time and in connections
opened; prints one JSON line at the end: what was opened and how often the server ended one.
"""

from __future__ import annotations

import errno
import json
import resource
import select
import socket
import sys
import time
from dataclasses import dataclass

KINDS = ("idle", "slowloris", "huge", "unread")
SOURCES = [f"127.0.0.{last}" for last in range(2, 251)]
REOPEN_AFTER_S = 2.0
TICK_S = 0.2
HUGE_LINE = b"X-Junk: " + b"a" * 60000 + b"\r\n"
HUGE_MAX = 6 * 1024 * 1024
UNREAD_REQUESTS = b"GET /t/wrong-token-0/events HTTP/1.1\r\nHost: junk\r\n\r\n" * 50
RDHUP = getattr(select, "EPOLLRDHUP", 0x2000)


@dataclass
class Slot:
    kind: str
    source: str
    sock: socket.socket | None = None
    sent: int = 0
    next_at: float = 0.0


def main(argv: list[str]) -> int:
    port, per_kind, seconds = int(argv[0]), int(argv[1]), float(argv[2])
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    slots = [Slot(kind, SOURCES[index % len(SOURCES)])
             for index in range(per_kind) for kind in KINDS]
    max_opens = len(slots) * 20
    poller = select.epoll()
    by_fd: dict[int, Slot] = {}
    opened = ended = failed = 0
    deadline = time.monotonic() + seconds

    def close(slot: Slot, by_server: bool) -> None:
        nonlocal ended
        if slot.sock is None:
            return
        poller.unregister(slot.sock.fileno())
        del by_fd[slot.sock.fileno()]
        slot.sock.close()
        slot.sock = None
        slot.next_at = time.monotonic() + REOPEN_AFTER_S
        ended += by_server

    def open_(slot: Slot) -> None:
        nonlocal opened, failed
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.bind((slot.source, 0))
            code = sock.connect_ex(("127.0.0.1", port))
        except OSError:
            code = -1
        if code not in (0, errno.EINPROGRESS):
            sock.close()
            failed += 1
            slot.next_at = time.monotonic() + REOPEN_AFTER_S
            return
        opened += 1
        slot.sock, slot.sent, slot.next_at = sock, 0, time.monotonic()
        # The unread kind is woken only by the end of its connection, never by data.
        mask = RDHUP | select.EPOLLHUP | select.EPOLLERR
        if slot.kind != "unread":
            mask |= select.EPOLLIN
        poller.register(sock.fileno(), mask)
        by_fd[sock.fileno()] = slot

    def feed(slot: Slot, now: float) -> None:
        sock = slot.sock
        assert sock is not None
        try:
            if slot.kind == "slowloris" and now >= slot.next_at:
                sock.send(b"GET /t/wrong HTTP/1.1\r\n"[slot.sent:slot.sent + 1] or b"X")
                slot.sent += 1
                slot.next_at = now + 1.0
            elif slot.kind == "huge" and slot.sent < HUGE_MAX:
                if slot.sent == 0:
                    slot.sent += sock.send(b"GET / HTTP/1.1\r\n")
                while slot.sent < HUGE_MAX:
                    slot.sent += sock.send(HUGE_LINE)
            elif slot.kind == "unread" and slot.sent < len(UNREAD_REQUESTS):
                slot.sent += sock.send(UNREAD_REQUESTS[slot.sent:])
        except (BlockingIOError, InterruptedError):
            pass
        except OSError as error:
            if error.errno != errno.ENOTCONN:  # still connecting: next tick
                close(slot, by_server=True)

    while (now := time.monotonic()) < deadline:
        for slot in slots:
            if slot.sock is None and now >= slot.next_at and opened < max_opens:
                open_(slot)
            elif slot.sock is not None:
                feed(slot, now)
        for fd, events in poller.poll(TICK_S):
            slot = by_fd.get(fd)
            if slot is None or slot.sock is None:
                continue
            if events & (RDHUP | select.EPOLLHUP | select.EPOLLERR):
                close(slot, by_server=True)
                continue
            try:
                if not slot.sock.recv(65536):
                    close(slot, by_server=True)
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                close(slot, by_server=True)
    for slot in slots:
        close(slot, by_server=False)
    print(json.dumps({"opened": opened, "ended_by_server": ended, "failed": failed}),
          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
