"""The guard in front of every connection to the mirror: what a stranger on the Wi-Fi can take
is kept small. Connections are capped (overall and per address, strangers making room for
phones), a request's header block is capped in bytes and in time, strangers and methods other
than GET and HEAD are answered here before aiohttp sees them (but a seat's POST of its action,
whose small body is counted through), and a phone that stops reading is noticed so the server
can drop it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import struct
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from typing import TYPE_CHECKING

from .access import allowed_client

if TYPE_CHECKING:
    from .server import MirrorServer

log = logging.getLogger(__name__)

# What every answer carries, the guard's refusals and the server's pages alike.
SERVER_NAME = "companion-mirror"
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the address holds the token
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'none'; script-src 'unsafe-inline'; "
                               "style-src 'unsafe-inline'; connect-src 'self'; img-src data:",
}
_METHODS = (b"GET", b"HEAD")
SEAT_ACTION_PATH = b"/seat/act"
"""Under the token: where a seat POSTs its action (server.py), the one request with a body."""
SEAT_BODY_BYTES = 2048
"""A seat's action in JSON: a command and a few fields."""
LINGER_S = 2.0
"""After a refusal the connection reads (and forgets) this long, so the answer is not lost to a
reset while the client is still sending."""


@dataclass(frozen=True)
class Limits:
    """What the mirror lets the network take. A table has a handful of phones, each with a
    stream and a few browser connections; the rest is someone else's."""

    connections: int = 256
    """Open connections in all: far below the unit's LimitNOFILE (4096), so the app's own files
    (the games, exports, the rules index) are never refused."""
    per_address: int = 24
    """Open connections from one address (a browser opens up to six per site)."""
    header_bytes: int = 8192
    """A request's header block in all (request line and header lines)."""
    request_deadline_s: float = 10.0
    """From connecting, or from the end of the last answer, to a whole request: bytes that
    trickle in do not extend it."""
    send_deadline_s: float = 10.0
    """How long a phone may leave what it was sent unread before it is dropped."""
    send_backlog: int = 256 * 1024
    """Bytes a phone may leave queued in this process before it is dropped at once."""
    send_buffer: int = 64 * 1024
    """The kernel's send buffer per connection (SO_SNDBUF): a stalled phone holds this much
    kernel memory at most, not the megabytes of an auto-tuned buffer."""
    backlog: int = 128
    """Connections the kernel queues before the server accepts them (a burst of phones); also
    how many asyncio accepts in one go, so a flood of connections is taken in bites between
    which the phones' states go out."""


def reset(transport: asyncio.Transport) -> None:
    """End a connection at once with a reset: the kernel drops what it still holds for the
    client too (a plain close would keep it, and the FIN behind it, for a client that does
    not read)."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()


class Connections:
    """Every open connection, by address and age, and the caps on them. Used on the loop's
    thread only (the count also from others, read without a lock: an int)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._open: dict[Connection, None] = {}
        self._unproven: dict[Connection, None] = {}
        """Oldest first: connections that have not yet asked for anything with the token."""
        self._per_address: dict[str, int] = {}
        self._by_transport: dict[asyncio.BaseTransport, Connection] = {}
        self._refused = 0

    def admit(self, connection: Connection, transport: asyncio.BaseTransport) -> bool:
        """Whether a new connection may stay. At the overall cap the oldest connection that
        never showed the token makes room, so strangers cannot keep the phones out."""
        address = connection.remote
        if self._per_address.get(address, 0) >= self.limits.per_address:
            self._note_refusal(f"{address} has {self.limits.per_address} connections open")
            return False
        if len(self._open) >= self.limits.connections:
            if not self._unproven:
                self._note_refusal(f"{self.limits.connections} connections are open")
                return False
            oldest = next(iter(self._unproven))
            oldest.abort()
            self.release(oldest)
        self._open[connection] = None
        self._unproven[connection] = None
        self._per_address[address] = self._per_address.get(address, 0) + 1
        self._by_transport[transport] = connection
        return True

    def release(self, connection: Connection) -> None:
        if connection not in self._open:
            return  # already let go (made room for another, then lost)
        del self._open[connection]
        self._unproven.pop(connection, None)
        left = self._per_address.get(connection.remote, 1) - 1
        if left > 0:
            self._per_address[connection.remote] = left
        else:
            self._per_address.pop(connection.remote, None)
        if connection.transport is not None:
            self._by_transport.pop(connection.transport, None)

    def prove(self, transport: asyncio.BaseTransport | None) -> None:
        """The connection asked with the token: a phone's, never made room for strangers."""
        connection = self.of(transport)
        if connection is not None:
            self._unproven.pop(connection, None)

    def of(self, transport: asyncio.BaseTransport | None) -> Connection | None:
        return None if transport is None else self._by_transport.get(transport)

    def count(self) -> int:
        return len(self._open)

    def close_all(self) -> None:
        for connection in list(self._open):
            connection.close()

    def _note_refusal(self, why: str) -> None:
        # One line per hundred: a flood must not flood the journal too.
        if self._refused % 100 == 0:
            log.warning("the mirror refuses connections: %s (%d refused so far)", why,
                        self._refused + 1)
        self._refused += 1


class Connection(asyncio.Protocol):
    """One client's connection, in front of aiohttp's protocol: admits it (or not), holds back
    a request's header block until it is complete (at most `header_bytes`), answers strangers
    and methods other than GET and HEAD itself, and notes when the client stops reading."""

    def __init__(self, mirror: MirrorServer, http: Callable[[], asyncio.Protocol]) -> None:
        self.mirror = mirror
        self._make_http = http
        """aiohttp's protocol, made only for a connection that is admitted."""
        self.http: asyncio.Protocol = asyncio.Protocol()
        self.remote = ""
        self.transport: asyncio.Transport | None = None
        self._head = bytearray()
        self._passing = False
        """False until admitted, and again once refused: nothing more reaches aiohttp."""
        self._http_open = False
        self._deadline: asyncio.TimerHandle | None = None
        self._stalled_since: float | None = None
        self._body_left = 0
        """Bytes of an admitted POST's body still to hand to aiohttp as they come."""

    # asyncio's protocol ------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.remote = str(peer[0]) if peer else ""
        if not self.mirror.connections.admit(self, transport):
            reset(transport)
            return
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF,
                                self.mirror.limits.send_buffer)
        # Writes never wait below the backlog: past it the phone is dropped, not waited for.
        transport.set_write_buffer_limits(high=self.mirror.limits.send_backlog + 1)
        self._passing = True
        # aiohttp joins at the first whole request: until then the deadline is the guard's, and
        # a stranger who never finishes one costs this object alone.
        self._deadline = asyncio.get_running_loop().call_later(
            self.mirror.limits.request_deadline_s, self._too_slow)

    def _too_slow(self) -> None:
        if not self._http_open and self.transport is not None:
            reset(self.transport)

    def _hand_to_http(self, block: bytes) -> None:
        if not self._http_open:
            assert self.transport is not None
            if self._deadline is not None:
                self._deadline.cancel()
            self.http = self._make_http()
            self._http_open = True
            self.http.connection_made(self.transport)
        self.http.data_received(block)

    def data_received(self, data: bytes) -> None:
        if not self._passing:
            return  # refused: read and forgotten until the linger ends
        self._head += data
        while self._passing:
            if self._body_left:  # a seat's action: its bytes go through as they are
                body = bytes(self._head[:self._body_left])
                del self._head[:len(body)]
                self._body_left -= len(body)
                self.http.data_received(body)
                if self._body_left:
                    return
                continue
            end = self._head.find(b"\r\n\r\n")
            limit = self.mirror.limits.header_bytes
            if (end < 0 and len(self._head) > limit) or end + 4 > limit:
                self._refuse(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                             f"a request's headers may take {limit} bytes in all", False)
                return
            if end < 0:
                return
            block = bytes(self._head[:end + 4])
            del self._head[:end + 4]
            if self._admits(block):
                self._hand_to_http(block)

    def eof_received(self) -> bool | None:
        if self._http_open:
            return self.http.eof_received()
        return None  # closes: a client done sending before a whole request has nothing due

    def connection_lost(self, exc: Exception | None) -> None:
        self.mirror.connections.release(self)
        self._passing = False
        if self._deadline is not None:
            self._deadline.cancel()
        self._let_go_of_http(exc)

    def _let_go_of_http(self, exc: Exception | None) -> None:
        if self._http_open:
            self._http_open = False
            self.http.connection_lost(exc)

    def pause_writing(self) -> None:
        self._stalled_since = asyncio.get_running_loop().time()
        if self._http_open:
            self.http.pause_writing()

    def resume_writing(self) -> None:
        self._stalled_since = None
        if self._http_open:
            self.http.resume_writing()

    # the guard's own ------------------------------------------------------------------------

    def time_left_to_send(self, deadline: float) -> float | None:
        """None while the kernel takes what is written; else the deadline's seconds left."""
        if self.transport is None or self.transport.get_write_buffer_size() == 0:
            self._stalled_since = None
            return None
        now = asyncio.get_running_loop().time()
        if self._stalled_since is None:
            self._stalled_since = now
        return max(0.0, self._stalled_since + deadline - now)

    def _admits(self, block: bytes) -> bool:
        """Answers a block itself (and ends the connection) when it is not for aiohttp."""
        line = block.lstrip(b"\r\n").split(b"\r\n", 1)[0]
        method, _, rest = line.partition(b" ")
        head = method == b"HEAD"
        if not allowed_client(self.mirror.peer_address(self)):
            self._refuse(HTTPStatus.FORBIDDEN, "the mirror answers only the local network", head)
            return False
        target = rest.partition(b" ")[0]
        token = b"/t/" + self.mirror.token.encode()
        posts = method == b"POST" and target == token + SEAT_ACTION_PATH
        if method not in _METHODS and not posts:
            self._refuse(HTTPStatus.METHOD_NOT_ALLOWED, "the mirror only shows the game", head,
                         {"Allow": "GET, HEAD"})
            return False
        if target != token and not target.startswith((token + b"/", token + b"?")):
            # No token, no second request: a stranger guessing pays a connection a guess.
            self._refuse(HTTPStatus.NOT_FOUND, "not found", head)
            return False
        if posts and not self._takes_body(block):
            return False
        self.mirror.connections.prove(self.transport)
        return True

    def _takes_body(self, block: bytes) -> bool:
        """A seat's POST: one Content-Length, no larger than SEAT_BODY_BYTES, and no other
        framing (a body whose end two readers could see differently is refused)."""
        lengths, framed = [], False
        for line in block.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                lengths.append(value.strip())
            framed = framed or name == b"transfer-encoding"
        if framed or len(lengths) != 1 or not lengths[0].isdigit():
            self._refuse(HTTPStatus.LENGTH_REQUIRED, "a seat's action needs one Content-Length",
                         False)
            return False
        length = int(lengths[0])
        if length > SEAT_BODY_BYTES:
            self._refuse(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                         f"a seat's action may take {SEAT_BODY_BYTES} bytes", False)
            return False
        self._body_left = length
        return True

    def _refuse(self, status: HTTPStatus, text: str, head: bool,
                extra: dict[str, str] | None = None) -> None:
        """Answer, stop writing, forget what still comes, and let go after a short linger."""
        self._passing = False
        self._head.clear()
        transport = self.transport
        if transport is None:
            return
        body = (text + "\n").encode()
        headers = {"Content-Type": "text/plain; charset=utf-8",
                   "Content-Length": str(len(body)), "Connection": "close",
                   "Server": SERVER_NAME, **SECURITY_HEADERS, **(extra or {})}
        answer = f"HTTP/1.1 {status.value} {status.phrase}\r\n" + "".join(
            f"{name}: {value}\r\n" for name, value in headers.items()) + "\r\n"
        transport.write(answer.encode("latin-1") + (b"" if head else body))
        with contextlib.suppress(OSError, RuntimeError):
            if transport.can_write_eof():
                transport.write_eof()
            transport.pause_reading()  # what still comes waits in the kernel, not copied here
        asyncio.get_running_loop().call_later(LINGER_S, reset, transport)
        self._let_go_of_http(None)  # aiohttp lets go of its side (and its handler) now

    def abort(self) -> None:
        if self.transport is not None:
            reset(self.transport)

    def close(self) -> None:
        """Let go: politely when everything written was taken, at once otherwise."""
        if self.transport is None:
            return
        if self.transport.get_write_buffer_size():
            reset(self.transport)
        else:
            self.transport.close()
