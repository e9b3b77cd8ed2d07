"""The mirror's HTTP server: the page, the state, its live stream and the rules search, under
/t/<token>, for the local network only, and nothing that changes anything (every method but GET
and HEAD is refused) but a seat's action: a POST from the page of a seat the table handed out
(seats.py), with the seat's secret in a header, from the page's own origin, a few a second.

aiohttp speaks HTTP, on an asyncio loop in a thread of its own: a phone costs a coroutine, not a
thread. In front of each connection a guard (guard.py) keeps what a stranger on the Wi-Fi can
take small: connections are capped (overall and per address), a request's header block is capped
in bytes and in time, and a phone that stops reading is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import threading
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from aiohttp import web

from .. import i18n
from . import DEFAULT_PORT
from .access import check_token, lan_addresses
from .feed import Frame, MirrorFeed, language_of
from .guard import (
    SEAT_ACTION_PATH,
    SECURITY_HEADERS,
    SERVER_NAME,
    Connection,
    Connections,
    Limits,
    reset,
)
from .rules_lookup import RulesLookup
from .seats import SeatDesk

log = logging.getLogger(__name__)

PAGE_FILE = Path(__file__).with_name("page.html")
KEEPALIVE_S = 15.0
"""A comment line this often keeps an idle stream open and finds phones that went away."""
MAX_QUERY_CHARS = 200
_PATH = re.compile(r"^/t/(?P<token>[^/]+)(?P<rest>/.*)?$")
MESSAGES_KEPT = 32
HANDOVER_FRAMES = 256
"""States the publisher may get ahead of the loop before a stream is given up."""
SEAT_HEADER = "X-Seat-Token"
"""The header a seat's page sends its secret in (never in the address, which browsers keep)."""


def _peer_of(connection: Connection) -> str:
    return connection.remote


class MirrorServer:
    """Listens on loopback and the LAN addresses (or on `host`), one socket each, served by one
    asyncio loop in a thread of its own; `start` and `stop` return once it is done."""

    def __init__(self, feed: MirrorFeed, token: str, port: int = DEFAULT_PORT,
                 host: str | None = None, rules: RulesLookup | None = None,
                 peer_address: Callable[[Connection], str] = _peer_of,
                 limits: Limits | None = None, seats: SeatDesk | None = None) -> None:
        self.token = check_token(token)
        self.feed = feed
        self.seats = seats
        """The seats the table handed out (None: this mirror only shows)."""
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
        url = urlsplit(request.raw_path)
        match = _PATH.match(url.path)
        rest = (match["rest"] or "/") if match is not None else ""
        seat_action = request.method == "POST" and rest == SEAT_ACTION_PATH.decode()
        if request.method not in ("GET", "HEAD") and not seat_action:  # the guard's already
            return await self._text(request, HTTPStatus.METHOD_NOT_ALLOWED,
                                    "the mirror only shows the game", {"Allow": "GET, HEAD"})
        if match is None or match["token"] != self.token:
            return await self._text(request, HTTPStatus.NOT_FOUND, "not found")
        self.connections.prove(request.transport)
        query = parse_qs(url.query)
        lang = language_of(query.get("lang", [""])[0])
        if seat_action:
            return await self._seat_action(request)
        if rest == "/seat/me":
            return await self._seat_page_data(request, lang)
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

    # --- seats ------------------------------------------------------------------------------

    def _seat_of(self, request: web.BaseRequest) -> Any:
        secret = request.headers.get(SEAT_HEADER, "")
        return self.seats.seat_of(secret) if self.seats is not None and secret else None

    async def _seat_page_data(self, request: web.BaseRequest, lang: str) -> web.StreamResponse:
        """Who the seat is, the moment its requests must be made in and its buttons, in the
        phone's language (404 for a secret revoked, of an earlier game, or never given)."""
        seat = self._seat_of(request)
        if seat is None:
            return await self._text(request, HTTPStatus.NOT_FOUND, "not found")
        assert self.seats is not None
        version, actions = self.seats.offered(seat)
        words = i18n.translations(lang)
        body = {"seat": {"player": seat.player, "label": seat.shown(words.gettext),
                         "colour": seat.colour},
                "version": version, "lang": lang,
                "actions": [{"label": action.shown(words.gettext), "request": action.request}
                            for action in actions],
                "figures": [{"label": words.gettext(figure.label), "value": figure.value}
                            for figure in self.seats.figures_of(seat)]}
        return await self._json(request, HTTPStatus.OK, body)

    async def _seat_action(self, request: web.BaseRequest) -> web.StreamResponse:
        """A seat's action: {"request": {"cmd": …, …}, "version": "…"}, answered {"ok": …}
        once the table has carried it out (or refused it, saying why)."""
        seat = self._seat_of(request)
        if seat is None:
            return await self._text(request, HTTPStatus.NOT_FOUND, "not found")
        assert self.seats is not None
        host = request.headers.get("Host", "")
        if not host or request.headers.get("Origin") != f"http://{host}":
            return await self._text(request, HTTPStatus.FORBIDDEN,
                                    "a seat's action comes from its own page only")
        if not self.seats.allow(seat):
            return await self._text(request, HTTPStatus.TOO_MANY_REQUESTS,
                                    "too many actions at once: wait a moment",
                                    {"Retry-After": "1"})
        try:
            async with asyncio.timeout(self.limits.request_deadline_s):
                data = json.loads(await request.read())
        except (ValueError, UnicodeDecodeError):
            data = None
        if not isinstance(data, dict) or not isinstance(data.get("request"), dict) or \
                not isinstance(data.get("version"), str):
            return await self._text(request, HTTPStatus.BAD_REQUEST,
                                    'a seat\'s action is {"request": {"cmd": …}, "version": …}')
        loop = asyncio.get_running_loop()
        answer = await loop.run_in_executor(None, self.seats.act, seat, data["request"],
                                            data["version"])
        reply = {"ok": bool(answer.get("ok")), "seat": seat.label}
        if not reply["ok"]:
            reply["error"] = str(answer.get("error", ""))
        return await self._json(request, HTTPStatus.OK, reply)

    async def _json(self, request: web.BaseRequest, status: HTTPStatus,
                    body: dict[str, Any]) -> web.StreamResponse:
        return await self._send(request, status, "application/json; charset=utf-8",
                                json.dumps(body, ensure_ascii=False).encode("utf-8"))

    async def _rules(self, request: web.BaseRequest,
                     answer: Callable[[], dict[str, Any]]) -> web.StreamResponse:
        try:
            found = await asyncio.get_running_loop().run_in_executor(None, answer)
        except (TimeoutError, RuntimeError) as error:
            log.warning("the rules search did not answer: %s", error or type(error).__name__)
            return await self._text(request, HTTPStatus.SERVICE_UNAVAILABLE,
                                    "the rules search is not ready")
        return await self._json(request, HTTPStatus.OK, found)

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


def _close(request: web.BaseRequest) -> None:
    if request.transport is not None:
        request.transport.close()
