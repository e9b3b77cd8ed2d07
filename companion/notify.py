"""Telling systemd how the app is doing: READY once the table is on the screen, WATCHDOG while
its main loop runs (the sd_notify protocol, in the standard library).

Outside systemd (no NOTIFY_SOCKET) every call does nothing, so the same app runs on a desktop,
under the tests and as the appliance's service.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger(__name__)


class SystemdNotifier:
    """Sends sd_notify messages to the socket systemd named in the environment, if any."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        environ = os.environ if environ is None else environ
        self.address = _socket_address(environ.get("NOTIFY_SOCKET", ""))
        self.watchdog_seconds = _watchdog_seconds(environ)
        self._failed = False

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def send(self, *assignments: str) -> bool:
        """Send `KEY=value` lines in one datagram; False when there is nobody to tell."""
        if self.address is None:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.connect(self.address)
                sock.sendall("\n".join(assignments).encode())
        except OSError as error:
            # Told once: a watchdog ping every few seconds must not fill the journal.
            if not self._failed:
                log.warning("could not notify systemd at %r: %s", self.address, error)
                self._failed = True
            return False
        self._failed = False
        return True

    def ready(self, status: str = "") -> bool:
        return self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def ping(self) -> bool:
        """Tell the watchdog the main loop is alive."""
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def ping_interval(self) -> float | None:
        """How often to ping: a third of the watchdog's timeout (None: no watchdog), so one
        late frame does not get the app killed."""
        if self.watchdog_seconds is None or self.address is None:
            return None
        return self.watchdog_seconds / 3


def _socket_address(value: str) -> str | None:
    if not value:
        return None
    if value.startswith("@"):  # an abstract socket: a leading NUL byte on Linux
        return "\0" + value[1:]
    return value


def _watchdog_seconds(environ: Mapping[str, str]) -> float | None:
    """WATCHDOG_USEC, when it is meant for this process (WATCHDOG_PID, if set, names it)."""
    try:
        usec = int(environ.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    pid = environ.get("WATCHDOG_PID")
    if usec <= 0 or (pid and pid != str(os.getpid())):
        return None
    return usec / 1_000_000
