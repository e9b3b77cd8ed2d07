"""Simulated phones for the benchmarks: COUNT streams of a mirror's events, read in a process of
their own so that reading them costs the touchscreen's process nothing (as real phones would).

    python -m tests.benchmarks.phones HOST PORT PATH COUNT

PATH is the page's path (/t/<token>). Prints READY once every phone holds its first state, reads
until its stdin is closed, then prints one JSON line: for each phone, [seq, arrival] of every
state it was sent, the arrival in CLOCK_MONOTONIC nanoseconds (the same clock in every process,
so the parent can subtract its own stamps), and how many phones the server let go.
"""

from __future__ import annotations

import json
import selectors
import socket
import sys
import time
from dataclasses import dataclass, field

LANGUAGES = ("en", "de", "fr")  # the phones' languages in turn: the server translates for two
READY = "READY"
BUFFER = 1 << 16


@dataclass
class Phone:
    """One stream: its unfinished line, and each state's sequence number and arrival."""

    sock: socket.socket
    partial: bytes = b""
    pending_seq: int | None = None
    arrived: list[tuple[int, int]] = field(default_factory=list)
    closed: bool = False

    def take(self, chunk: bytes, now_ns: int) -> None:
        """Read complete lines: a state has arrived when its data line is complete."""
        lines = (self.partial + chunk).split(b"\n")
        self.partial = lines.pop()
        for line in lines:
            if line.startswith(b"id: "):
                self.pending_seq = int(line[4:])
            elif line.startswith(b"data: ") and self.pending_seq is not None:
                self.arrived.append((self.pending_seq, now_ns))
                self.pending_seq = None


def source_address(index: int) -> str:
    """Phone `index`'s own loopback address (127.0.1.1, 127.0.1.2, ...): on Linux the whole of
    127/8 is this machine, and phones on a Wi-Fi each have an address, which the mirror's
    per-address cap counts."""
    return f"127.0.{1 + index // 250}.{1 + index % 250}"


def connect(host: str, port: int, path: str, count: int) -> list[Phone]:
    phones = []
    for index in range(count):
        source = (source_address(index), 0) if host.startswith("127.") else None
        sock = socket.create_connection((host, port), timeout=30, source_address=source)
        language = LANGUAGES[index % len(LANGUAGES)]
        sock.sendall(f"GET {path}/events?lang={language} HTTP/1.1\r\nHost: phone\r\n\r\n"
                     .encode())
        sock.setblocking(False)
        phones.append(Phone(sock))
    return phones


def follow(phones: list[Phone], stdin_fd: int) -> None:
    """Read every stream until stdin closes; say READY once each phone has a state."""
    selector = selectors.DefaultSelector()
    for phone in phones:
        selector.register(phone.sock, selectors.EVENT_READ, phone)
    selector.register(stdin_fd, selectors.EVENT_READ, None)
    said_ready = False
    while True:
        for key, _ in selector.select(timeout=1.0):
            if key.data is None:  # the parent closed our stdin: stop
                selector.close()
                return
            phone = key.data
            try:
                chunk = phone.sock.recv(BUFFER)
            except BlockingIOError:
                continue
            now = time.monotonic_ns()
            if not chunk:
                selector.unregister(phone.sock)
                phone.closed = True
                continue
            phone.take(chunk, now)
        if not said_ready and all(phone.arrived for phone in phones):
            print(READY, flush=True)
            said_ready = True


def main(argv: list[str]) -> int:
    host, port, path, count = argv[0], int(argv[1]), argv[2], int(argv[3])
    phones = connect(host, port, path, count)
    follow(phones, sys.stdin.fileno())
    for phone in phones:
        phone.sock.close()
    print(json.dumps({"arrived": [phone.arrived for phone in phones],
                      "closed_by_server": sum(phone.closed for phone in phones)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
