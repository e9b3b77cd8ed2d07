"""What this test process itself listens on, read from Linux's /proc: a test of "nothing
listens" asks about the app's own sockets, never whether a port is free on the machine (any
other program may hold it)."""

from __future__ import annotations

import os
from pathlib import Path

LISTEN = "0A"
"""The kernel's TCP state number for a listening socket (include/net/tcp_states.h)."""


def listening_ports() -> set[int]:
    """The TCP ports (IPv4 and IPv6) that sockets open in this process listen on."""
    own = set()
    for fd in Path("/proc/self/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:  # closed since the folder was read
            continue
        if target.startswith("socket:["):
            own.add(target[len("socket:["):-1])
    ports = set()
    for table in ("tcp", "tcp6"):
        path = Path("/proc/self/net") / table
        if not path.exists():  # a kernel without IPv6
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            if state == LISTEN and inode in own:
                ports.add(int(local.rsplit(":", 1)[1], 16))
    return ports
