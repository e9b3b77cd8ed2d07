"""The mirror's HTTP server (standard library only): the page, the state, its live stream and
the rules search, under /t/<token>, for the local network only, and nothing that changes
anything (every method but GET and HEAD is refused).
"""

from __future__ import annotations

import json
import logging
import re
import socket
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from . import DEFAULT_PORT
from .access import allowed_client, lan_addresses
from .feed import MirrorFeed, language_of

log = logging.getLogger(__name__)

PAGE_FILE = Path(__file__).with_name("page.html")
KEEPALIVE_S = 15.0
"""A comment line this often keeps an idle stream open and finds phones that went away."""
SOCKET_TIMEOUT_S = 20.0
"""A phone that takes longer than this to take a write is let go (its thread ends)."""
RULES_TIMEOUT_S = 10.0
MAX_QUERY_CHARS = 200
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the address holds the token
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'none'; script-src 'unsafe-inline'; "
                               "style-src 'unsafe-inline'; connect-src 'self'; img-src data:",
}
_PATH = re.compile(r"^/t/(?P<token>[^/]+)(?P<rest>/.*)?$")


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


def _peer_of(handler: BaseHTTPRequestHandler) -> str:
    return str(handler.client_address[0])


class MirrorServer:
    """Listens on loopback and the LAN addresses (or on `host`), one socket each."""

    def __init__(self, feed: MirrorFeed, token: str, port: int = DEFAULT_PORT,
                 host: str | None = None, rules: RulesLookup | None = None,
                 peer_address: Callable[[BaseHTTPRequestHandler], str] = _peer_of) -> None:
        self.feed = feed
        self.token = token
        self.requested_port = port
        self.host = host
        self.rules = rules or RulesLookup()
        self.peer_address = peer_address
        """Where a request comes from (tests put a public address here)."""
        self.page = PAGE_FILE.read_bytes()
        self.port = 0
        self.addresses: list[str] = []
        self._servers: list[ThreadingHTTPServer] = []
        self._threads: list[threading.Thread] = []

    # --- switching on and off ---------------------------------------------------------------

    def start(self) -> None:
        """Open the sockets (raises OSError when the port is taken on the main address)."""
        hosts = [self.host] if self.host else ["127.0.0.1", *lan_addresses()]
        port = self.requested_port
        for index, host in enumerate(hosts):
            try:
                server = _bind(host, port, self)
            except OSError:
                if index == 0:
                    self.stop()
                    raise
                log.warning("the mirror could not listen on %s:%d", host, port)
                continue
            port = server.server_address[1]  # port 0: the first socket picks one for all
            self._servers.append(server)
            self.addresses.append(host)
            thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2},
                                      name=f"mirror-{host}", daemon=True)
            thread.start()
            self._threads.append(thread)
        self.port = port

    def stop(self) -> None:
        """Close every socket and end every phone's stream: nothing listens afterwards."""
        for server in self._servers:
            server.shutdown()
            server.server_close()
        self.feed.drop_clients()
        for thread in self._threads:
            thread.join(timeout=2)
        self._servers.clear()
        self._threads.clear()
        self.addresses.clear()

    @property
    def running(self) -> bool:
        return bool(self._servers)

    def renew_token(self, token: str) -> None:
        """A new address: phones that had the old one stop following."""
        self.token = token
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


def _bind(host: str, port: int, mirror: MirrorServer) -> ThreadingHTTPServer:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET

    class Server(ThreadingHTTPServer):
        address_family = family
        daemon_threads = True
        allow_reuse_address = True

    server = Server((host, port), MirrorHandler)
    server.mirror = mirror  # type: ignore[attr-defined]
    return server


class MirrorHandler(BaseHTTPRequestHandler):
    server_version = "companion-mirror"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    timeout = SOCKET_TIMEOUT_S

    @property
    def mirror(self) -> MirrorServer:
        return self.server.mirror  # type: ignore[attr-defined, no-any-return]

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base's name)
        log.debug("%s " + format, self.client_address[0], *args)

    def __getattr__(self, name: str) -> Any:
        """Every method but GET and HEAD (the base class asks for do_<METHOD>): 405."""
        if name.startswith("do_"):
            return self._refuse_method
        raise AttributeError(name)

    def _refuse_method(self) -> None:
        if self._allowed():
            self._send_text(HTTPStatus.METHOD_NOT_ALLOWED, "the mirror only shows the game",
                            extra={"Allow": "GET, HEAD"})

    def do_HEAD(self) -> None:
        self._route(head=True)

    def do_GET(self) -> None:
        self._route(head=False)

    # --- routing ----------------------------------------------------------------------------

    def _allowed(self) -> bool:
        if allowed_client(self.mirror.peer_address(self)):
            return True
        self._send_text(HTTPStatus.FORBIDDEN, "the mirror answers only the local network")
        return False

    def _route(self, head: bool) -> None:
        if not self._allowed():
            return
        url = urlsplit(self.path)
        match = _PATH.match(url.path)
        if match is None or match["token"] != self.mirror.token:
            self._send_text(HTTPStatus.NOT_FOUND, "not found")
            return
        rest = match["rest"] or "/"
        query = parse_qs(url.query)
        lang = language_of(query.get("lang", [""])[0])
        if rest == "/":
            self._send(HTTPStatus.OK, "text/html; charset=utf-8", self.mirror.page, head)
        elif rest == "/state":
            feed = self.mirror.feed
            self._send(HTTPStatus.OK, "application/json; charset=utf-8",
                       feed.message(feed.current(), lang), head)
        elif rest == "/events":
            self._stream(lang, head)
        elif rest == "/rules":
            text = query.get("q", [""])[0][:MAX_QUERY_CHARS]
            self._rules(lambda: {"hits": self.mirror.rules.search(text, lang)}, head)
        elif rest.startswith("/rules/"):
            entry_id = rest.removeprefix("/rules/")
            self._rules(lambda: {"entry": self.mirror.rules.entry(entry_id, lang)}, head)
        else:
            self._send_text(HTTPStatus.NOT_FOUND, "not found")

    def _rules(self, answer: Callable[[], dict[str, Any]], head: bool) -> None:
        try:
            body = json.dumps(answer(), ensure_ascii=False).encode("utf-8")
        except (FutureTimeout, RuntimeError) as error:
            log.warning("the rules search did not answer: %s", error)
            self._send_text(HTTPStatus.SERVICE_UNAVAILABLE, "the rules search is not ready")
            return
        self._send(HTTPStatus.OK, "application/json; charset=utf-8", body, head)

    # --- answers ----------------------------------------------------------------------------

    def _send(self, status: HTTPStatus, content_type: str, body: bytes, head: bool,
              extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in {**SECURITY_HEADERS, **(extra or {})}.items():
            self.send_header(name, value)
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _send_text(self, status: HTTPStatus, text: str,
                   extra: dict[str, str] | None = None) -> None:
        self._send(status, "text/plain; charset=utf-8", (text + "\n").encode(),
                   self.command == "HEAD", extra)

    def _stream(self, lang: str, head: bool) -> None:
        """Server-Sent Events: the whole state now, then after every publish, until the phone
        goes away, falls behind, or the mirror is switched off."""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        if head:
            return
        feed = self.mirror.feed
        client = feed.subscribe()
        try:
            frame = feed.current()
            self.wfile.write(b"retry: 1000\n\n" + _event(frame.seq, feed.message(frame, lang)))
            self.wfile.flush()
            while True:
                next_frame = client.next(timeout=KEEPALIVE_S)
                if client.dropped.is_set():
                    return
                if next_frame is None:
                    self.wfile.write(b": still here\n\n")
                elif next_frame.seq > frame.seq:
                    frame = next_frame
                    self.wfile.write(_event(frame.seq, feed.message(frame, lang)))
                self.wfile.flush()
        except OSError:  # the phone went away (or stalled past the socket's timeout)
            return
        finally:
            feed.unsubscribe(client)


def _event(seq: int, data: bytes) -> bytes:
    return b"id: %d\nevent: state\ndata: %s\n\n" % (seq, data)
