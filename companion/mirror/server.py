"""The mirror's HTTP server: the page, the state, its live stream and the rules search, under
/t/<token>, for the local network only, and nothing that changes anything (every method but GET
and HEAD is refused).

aiohttp speaks HTTP, on an asyncio loop in a thread of its own: a phone costs a coroutine, not a
thread. In front of each connection a guard keeps what a stranger on the Wi-Fi can take small:
connections are capped (overall and per address), a request's header block is capped in bytes
and in time, and a phone that stops reading is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import socket
import struct
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from aiohttp import web

from . import DEFAULT_PORT
from .access import allowed_client, check_token, lan_addresses
from .feed import Frame, MirrorFeed, language_of

log = logging.getLogger(__name__)

PAGE_FILE = Path(__file__).with_name("page.html")
KEEPALIVE_S = 15.0
"""A comment line this often keeps an idle stream open and finds phones that went away."""
RULES_TIMEOUT_S = 10.0
MAX_QUERY_CHARS = 200
SERVER_NAME = "companion-mirror"
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the address holds the token
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'none'; script-src 'unsafe-inline'; "
                               "style-src 'unsafe-inline'; connect-src 'self'; img-src data:",
}
_PATH = re.compile(r"^/t/(?P<token>[^/]+)(?P<rest>/.*)?$")
_METHODS = (b"GET", b"HEAD")
MESSAGES_KEPT = 32
HANDOVER_FRAMES = 256
"""States the publisher may get ahead of the loop before a stream is given up."""
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


class RulesLookup:
    """The rules search for the phones: the same corpus and index as the touchscreen's, opened
    by one thread of its own (an SQLite connection stays on the thread that opened it)."""

    def __init__(self, open_index: Callable[[], Any] | None = None) -> None:
        self._open_index = open_index or _open_rules_index
        self._index: Any = None
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mirror-rules")

    def search(self, query: str, lang: str) -> list[dict[str, str]]:
        hits: list[dict[str, str]] = self._ask(
            lambda index: [hit.to_dict() for hit in index.search(query, lang)])
        return hits

    def entry(self, entry_id: str, lang: str) -> dict[str, Any] | None:
        def find(index: Any) -> dict[str, Any] | None:
            found = index.entry(entry_id, lang)
            return None if found is None else {"id": found.id, "title": found.title,
                                               "body": found.body}
        found: dict[str, Any] | None = self._ask(find)
        return found

    def _ask(self, question: Callable[[Any], Any]) -> Any:
        def run() -> Any:
            if self._index is None:
                self._index = self._open_index()
            return question(self._index)
        return self._worker.submit(run).result(timeout=RULES_TIMEOUT_S)

    def close(self) -> None:
        self._worker.shutdown(wait=False, cancel_futures=True)


def _open_rules_index() -> Any:
    from ..rules.search import RulesIndex

    return RulesIndex.open()


def _peer_of(connection: Connection) -> str:
    return connection.remote


class MirrorServer:
    """Listens on loopback and the LAN addresses (or on `host`), one socket each, served by one
    asyncio loop in a thread of its own; `start` and `stop` return once it is done."""

    def __init__(self, feed: MirrorFeed, token: str, port: int = DEFAULT_PORT,
                 host: str | None = None, rules: RulesLookup | None = None,
                 peer_address: Callable[[Connection], str] = _peer_of,
                 limits: Limits | None = None) -> None:
        self.token = check_token(token)
        self.feed = feed
        self.requested_port = port
        self.host = host
        self.rules = rules or RulesLookup()
        self.peer_address = peer_address
        """Where a request comes from (tests put a public address here)."""
        self.limits = limits or Limits()
        self.page = PAGE_FILE.read_bytes()
        self.port = 0
        self.addresses: list[str] = []
        self.connections = Connections(self.limits)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._listeners: list[asyncio.base_events.Server] = []
        self._stopping = False
        self._wakes: Wakes | None = None
        self._messages: dict[tuple[int, str], bytes] = {}
        """Recent states in words, by sequence number and language (loop thread only)."""

    # --- switching on and off ---------------------------------------------------------------

    def start(self) -> None:
        """Open the sockets (raises OSError when the port is taken on the main address)."""
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="mirror", daemon=True)
        thread.start()
        self._loop, self._thread, self._stopping = loop, thread, False
        self._wakes = Wakes(loop)
        try:
            asyncio.run_coroutine_threadsafe(self._listen(), loop).result(timeout=30)
        except BaseException:
            self._end_loop()
            raise

    async def _listen(self) -> None:
        loop = asyncio.get_running_loop()
        http = web.Server(self._answer, loop=loop, handler_cancellation=True,
                          keepalive_timeout=self.limits.request_deadline_s,
                          max_line_size=self.limits.header_bytes,
                          max_field_size=self.limits.header_bytes, max_headers=64,
                          access_log=None, logger=log)

        def protocol() -> Connection:
            return Connection(self, http)

        hosts = [self.host] if self.host else ["127.0.0.1", *lan_addresses()]
        port = self.requested_port
        for index, host in enumerate(hosts):
            try:
                listener = await loop.create_server(protocol, host, port, reuse_address=True,
                                                    backlog=self.limits.backlog)
            except OSError:
                if index == 0:
                    raise
                log.warning("the mirror could not listen on %s:%d", host, port)
                continue
            port = listener.sockets[0].getsockname()[1]  # port 0: the first picks for all
            self._listeners.append(listener)
            self.addresses.append(host)
        self.port = port

    def stop(self) -> None:
        """Close every socket and end every phone's stream: nothing listens afterwards."""
        loop = self._loop
        if loop is None:
            return
        self._stopping = True
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(self._close(), loop).result(timeout=5)
        self.feed.drop_clients()
        self._end_loop()
        self.addresses.clear()

    async def _close(self) -> None:
        for listener in self._listeners:
            listener.close()
        self._listeners.clear()
        self.connections.close_all()
        # The handlers see their connections gone and end (handler_cancellation).
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        if tasks:
            await asyncio.wait(tasks, timeout=2)

    def _end_loop(self) -> None:
        loop, thread = self._loop, self._thread
        self._loop = self._thread = None
        if loop is None or thread is None:
            return
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=5)
        if not thread.is_alive():
            loop.close()

    @property
    def running(self) -> bool:
        return self._loop is not None

    def renew_token(self, token: str) -> None:
        """A new address: phones that had the old one stop following."""
        self.token = check_token(token)
        self.feed.drop_clients()

    def urls(self) -> list[str]:
        """The page's addresses, a phone's best first (the LAN address, loopback last)."""
        lan = [a for a in self.addresses if not a.startswith("127.") and a != "::1"]
        lan.sort(key=lambda address: ":" in address)  # IPv4 first: every phone has it
        ordered = lan + [a for a in self.addresses if a not in lan]
        return [self.url_for(address) for address in ordered]

    def url_for(self, address: str) -> str:
        host = f"[{address}]" if ":" in address else address
        return f"http://{host}:{self.port}/t/{self.token}"

    def connection_count(self) -> int:
        return self.connections.count()

    # --- answering (on the loop's thread) ---------------------------------------------------

    async def _answer(self, request: web.BaseRequest) -> web.StreamResponse:
        try:
            return await self._route(request)
        except (ConnectionError, TimeoutError) as why:
            # One line, not a traceback: phones leave mid-answer all the time.
            log.info("the mirror let %s go mid-answer (%s)", request.remote,
                     type(why).__name__)
            _abort(request)
            raise asyncio.CancelledError from None  # aiohttp: the client is gone, say nothing

    async def _route(self, request: web.BaseRequest) -> web.StreamResponse:
        head = request.method == "HEAD"
        if request.method not in ("GET", "HEAD"):  # the guard answers these already
            return await self._text(request, HTTPStatus.METHOD_NOT_ALLOWED,
                                    "the mirror only shows the game", {"Allow": "GET, HEAD"})
        url = urlsplit(request.raw_path)
        match = _PATH.match(url.path)
        if match is None or match["token"] != self.token:
            return await self._text(request, HTTPStatus.NOT_FOUND, "not found")
        self.connections.prove(request.transport)
        rest = match["rest"] or "/"
        query = parse_qs(url.query)
        lang = language_of(query.get("lang", [""])[0])
        if rest == "/":
            return await self._send(request, HTTPStatus.OK, "text/html; charset=utf-8",
                                    self.page)
        if rest == "/state":
            feed = self.feed
            return await self._send(request, HTTPStatus.OK, "application/json; charset=utf-8",
                                    feed.message(feed.current(), lang))
        if rest == "/events":
            return await self._stream(request, lang, head)
        if rest == "/rules":
            text = query.get("q", [""])[0][:MAX_QUERY_CHARS]
            return await self._rules(request, lambda: {"hits": self.rules.search(text, lang)})
        if rest.startswith("/rules/"):
            entry_id = rest.removeprefix("/rules/")
            return await self._rules(request,
                                     lambda: {"entry": self.rules.entry(entry_id, lang)})
        return await self._text(request, HTTPStatus.NOT_FOUND, "not found")

    async def _rules(self, request: web.BaseRequest,
                     answer: Callable[[], dict[str, Any]]) -> web.StreamResponse:
        try:
            found = await asyncio.get_running_loop().run_in_executor(None, answer)
        except (TimeoutError, RuntimeError) as error:
            log.warning("the rules search did not answer: %s", error or type(error).__name__)
            return await self._text(request, HTTPStatus.SERVICE_UNAVAILABLE,
                                    "the rules search is not ready")
        body = json.dumps(found, ensure_ascii=False).encode("utf-8")
        return await self._send(request, HTTPStatus.OK, "application/json; charset=utf-8", body)

    async def _text(self, request: web.BaseRequest, status: HTTPStatus, text: str,
                    extra: dict[str, str] | None = None) -> web.StreamResponse:
        return await self._send(request, status, "text/plain; charset=utf-8",
                                (text + "\n").encode(), extra)

    async def _send(self, request: web.BaseRequest, status: HTTPStatus, content_type: str,
                    body: bytes, extra: dict[str, str] | None = None) -> web.StreamResponse:
        """The whole answer, within the send deadline (HEAD: the headers alone)."""
        headers = {"Content-Type": content_type, "Server": SERVER_NAME, **SECURITY_HEADERS,
                   **(extra or {})}
        response = web.Response(status=status, body=body, headers=headers)
        await self._within_deadline(response.prepare(request))
        await self._within_deadline(response.write_eof())
        return response

    async def _within_deadline(self, step: Awaitable[Any]) -> None:
        async with asyncio.timeout(self.limits.send_deadline_s):
            await step

    async def _stream(self, request: web.BaseRequest, lang: str,
                      head: bool) -> web.StreamResponse:
        """Server-Sent Events: the whole state now, then after every publish, until the phone
        goes away, falls behind, or the mirror is switched off (or gets a new token)."""
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream; charset=utf-8", "Server": SERVER_NAME,
            **SECURITY_HEADERS})
        response.force_close()
        await self._within_deadline(response.prepare(request))
        if head:
            return response
        loop = asyncio.get_running_loop()
        woken = asyncio.Event()
        token = self.token

        def on_loop() -> None:
            woken.set()
            if client.dropped.is_set():
                if self._stopping or self.token != token:
                    _close(request)  # the phone reads to the end of its stream
                else:
                    _abort(request)  # it fell behind: let go at once, buffers and all

        feed = self.feed
        wakes = self._wakes
        assert wakes is not None  # set by start(), before any connection
        # The queue only hands frames to this loop, which takes them all at each wake: a
        # phone that falls behind shows in its socket (send_backlog, send_deadline_s), and a
        # busy moment of the loop must not count against it.
        client = feed.subscribe(lambda: wakes.wake(on_loop), queue_size=HANDOVER_FRAMES)
        try:
            frame = feed.current()
            await self._write(request, response,
                              b"retry: 1000\n\n" + _event(frame, self._message(frame, lang)))
            last_write = loop.time()
            while not client.dropped.is_set():
                behind = self._behind_by(request)
                wait = KEEPALIVE_S - (loop.time() - last_write)
                if behind is not None:
                    wait = min(wait, behind)
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(max(wait, 0.0)):
                        await woken.wait()
                woken.clear()
                if self._behind_by(request) == 0.0:
                    log.info("a phone at %s stopped reading and was dropped", request.remote)
                    _abort(request)
                    break
                events = []  # every state since the last wake, in one write
                while (next_frame := client.next(timeout=0)) is not None:
                    if next_frame.seq > frame.seq:
                        frame = next_frame
                        events.append(_event(frame, self._message(frame, lang)))
                if not events and loop.time() - last_write >= KEEPALIVE_S:
                    events.append(b": still here\n\n")
                if events:
                    await self._write(request, response, b"".join(events))
                    last_write = loop.time()
        finally:
            feed.unsubscribe(client)
        return response

    def _message(self, frame: Frame, lang: str) -> bytes:
        """The feed's words for `frame`, made once per language however many phones get it
        (the feed keeps only the latest state's; a phone may be a state or two behind)."""
        key = (frame.seq, lang)  # one feed per server: its numbers name its frames
        message = self._messages.get(key)
        if message is None:
            message = self._messages[key] = self.feed.message(frame, lang)
            while len(self._messages) > MESSAGES_KEPT:
                del self._messages[next(iter(self._messages))]
        return message

    async def _write(self, request: web.BaseRequest, response: web.StreamResponse,
                     data: bytes) -> None:
        transport = request.transport
        if transport is None or transport.is_closing():
            raise ConnectionResetError("the phone is gone")
        if transport.get_write_buffer_size() > self.limits.send_backlog:
            raise TimeoutError("the phone fell behind")
        await self._within_deadline(response.write(data))

    def _behind_by(self, request: web.BaseRequest) -> float | None:
        """None while everything sent has reached the kernel; otherwise the seconds left of
        the send deadline (0.0: it is over)."""
        connection = self.connections.of(request.transport)
        if connection is None:
            return None
        return connection.time_left_to_send(self.limits.send_deadline_s)


class Wakes:
    """Hands the publisher's wake-ups to the loop: one hop per publish, not one per phone (each
    hop is a write to the loop's self-pipe)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._lock = threading.Lock()
        self._due: list[Callable[[], None]] = []

    def wake(self, callback: Callable[[], None]) -> None:
        """From any thread: run `callback` on the loop soon."""
        with self._lock:
            self._due.append(callback)
            if len(self._due) > 1:
                return  # a hop is on its way and takes this one along
        with contextlib.suppress(RuntimeError):  # the loop is already closed
            self._loop.call_soon_threadsafe(self._run)

    def _run(self) -> None:
        with self._lock:
            due, self._due = self._due, []
        for callback in due:
            callback()


def _event(frame: Frame, data: bytes) -> bytes:
    return b"id: %d\nevent: state\ndata: %s\n\n" % (frame.seq, data)


def _abort(request: web.BaseRequest) -> None:
    if request.transport is not None:
        reset(request.transport)


def reset(transport: asyncio.Transport) -> None:
    """End a connection at once with a reset: the kernel drops what it still holds for the
    client too (a plain close would keep it, and the FIN behind it, for a client that does
    not read)."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()


def _close(request: web.BaseRequest) -> None:
    if request.transport is not None:
        request.transport.close()


# --- the guard in front of every connection -------------------------------------------------


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
        if method not in _METHODS:
            self._refuse(HTTPStatus.METHOD_NOT_ALLOWED, "the mirror only shows the game", head,
                         {"Allow": "GET, HEAD"})
            return False
        target = rest.partition(b" ")[0]
        token = b"/t/" + self.mirror.token.encode()
        if target != token and not target.startswith((token + b"/", token + b"?")):
            # No token, no second request: a stranger guessing pays a connection a guess.
            self._refuse(HTTPStatus.NOT_FOUND, "not found", head)
            return False
        self.mirror.connections.prove(self.transport)
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
