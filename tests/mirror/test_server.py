"""The mirror's server: the local network only, the right token only, nothing but looking,
and nothing listening once it is off."""

from __future__ import annotations

import http.client
import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from companion.bootstrap import build_service
from companion.driver import ScriptDriver, StateSnapshot
from companion.mirror.feed import MirrorFeed
from companion.mirror.rules_lookup import RulesLookup
from companion.mirror.server import MirrorServer
from tests.listening import listening_ports

TOKEN = "tok-en_123456"


class FakeRules(RulesLookup):
    def __init__(self) -> None:
        super().__init__(open_index=lambda: None)

    def search(self, query: str, lang: str) -> list[dict[str, str]]:
        return [{"id": "fear", "title": f"{query} in {lang}", "snippet": "…"}]


@pytest.fixture
def feed() -> MirrorFeed:
    return MirrorFeed()


@pytest.fixture
def server(feed: MirrorFeed) -> Iterator[MirrorServer]:
    mirror = MirrorServer(feed, TOKEN, port=0, host="127.0.0.1", rules=FakeRules())
    mirror.start()
    yield mirror
    mirror.stop()


def request(server: MirrorServer, method: str, path: str) -> tuple[int, bytes, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request(method, path)
        response = conn.getresponse()
        return response.status, response.read(), response.headers
    finally:
        conn.close()


def phones_part(driver: ScriptDriver) -> dict[str, Any]:
    """The driver's state as the phones are sent it: what the table sees of it."""
    snapshot, state = StateSnapshot.of(driver.service), driver.state()
    assert snapshot is not None and state is not None
    return snapshot.public_view(state)


def played(moves: list[dict[str, Any]]) -> ScriptDriver:
    service, _ = build_service(None)
    driver = ScriptDriver(service)
    for move in moves:
        assert driver.handle(move)["ok"]
    return driver


def test_the_page_and_the_state_are_served_under_the_token(server: MirrorServer,
                                                           feed: MirrorFeed) -> None:
    driver = played([{"cmd": "new_game", "players": 2, "seed": 4}])
    feed.publish(StateSnapshot.of(driver.service))
    status, body, headers = request(server, "GET", f"/t/{TOKEN}")
    assert status == 200 and body.startswith(b"<!DOCTYPE html>")
    assert len(body) < 100_000
    assert headers["Cache-Control"] == "no-store" and headers["Referrer-Policy"] == "no-referrer"
    status, body, _ = request(server, "GET", f"/t/{TOKEN}/state?lang=de")
    message = json.loads(body)
    assert status == 200 and message["seq"] == 1 and message["lang"] == "de"
    driver.set_language("de")
    assert message["state"] == phones_part(driver)


def test_the_page_needs_nothing_from_elsewhere(server: MirrorServer) -> None:
    _, body, _ = request(server, "GET", f"/t/{TOKEN}/")
    page = body.decode()
    for outside in ("http://", "https://", "//cdn", "<link", "src="):
        assert outside not in page


def test_a_head_request_gets_the_headers_without_a_body(server: MirrorServer) -> None:
    status, body, headers = request(server, "HEAD", f"/t/{TOKEN}")
    assert status == 200 and body == b"" and int(headers["Content-Length"]) > 1000


@pytest.mark.parametrize("path", [f"/t/{TOKEN}x", f"/t/{TOKEN[:-1]}/state", "/t/", "/",
                                  "/state", f"/t/{TOKEN}/nothing", f"/x/{TOKEN}"])
def test_a_wrong_token_or_path_gets_404(server: MirrorServer, path: str) -> None:
    status, body, _ = request(server, "GET", path)
    assert status == 404 and TOKEN.encode() not in body


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE",
                                    "PROPFIND", "BREW"])
def test_every_method_but_get_and_head_gets_405(server: MirrorServer, method: str) -> None:
    for path in (f"/t/{TOKEN}", f"/t/{TOKEN}/state", "/anything"):
        status, _, headers = request(server, method, path)
        assert status == 405 and headers["Allow"] == "GET, HEAD"


def test_a_public_address_gets_403_even_with_the_right_token(feed: MirrorFeed) -> None:
    mirror = MirrorServer(feed, TOKEN, port=0, host="127.0.0.1", rules=FakeRules(),
                          peer_address=lambda _handler: "203.0.113.9")
    mirror.start()
    try:
        for method, path in (("GET", f"/t/{TOKEN}"), ("GET", f"/t/{TOKEN}/events"),
                             ("POST", f"/t/{TOKEN}"), ("GET", "/t/wrong")):
            status, body, _ = request(mirror, method, path)
            assert status == 403 and b"local network" in body
    finally:
        mirror.stop()


def test_nothing_listens_once_the_mirror_is_switched_off(feed: MirrorFeed) -> None:
    mirror = MirrorServer(feed, TOKEN, port=0, host="127.0.0.1", rules=FakeRules())
    mirror.start()
    port = mirror.port
    assert port in listening_ports()
    mirror.stop()
    # Its own sockets: another program may take the freed port at once.
    assert not mirror.running and port not in listening_ports()


def test_the_rules_search_answers_in_the_phones_language(server: MirrorServer) -> None:
    status, body, _ = request(server, "GET", f"/t/{TOKEN}/rules?q=fear&lang=fr")
    assert status == 200 and json.loads(body)["hits"][0]["title"] == "fear in fr"


class Stream:
    """A Server-Sent Events reader over a plain socket."""

    def __init__(self, server: MirrorServer, path: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        self.file = self.sock.makefile("rb")
        while self.file.readline() not in (b"\r\n", b""):
            pass  # the headers

    def next_state(self) -> dict[str, Any]:
        while True:
            line = self.file.readline()
            assert line, "the stream ended"
            if line.startswith(b"data: "):
                return json.loads(line[6:])  # type: ignore[no-any-return]

    def close(self) -> None:
        self.file.close()
        self.sock.close()


def test_the_stream_sends_the_whole_state_now_and_after_every_publish(
        server: MirrorServer, feed: MirrorFeed) -> None:
    driver = played([{"cmd": "new_game", "players": 2, "seed": 4}])
    feed.publish(StateSnapshot.of(driver.service))
    stream = Stream(server, f"/t/{TOKEN}/events?lang=en")
    try:
        assert stream.next_state()["seq"] == 1
        assert driver.handle({"cmd": "next"})["ok"]
        feed.publish(StateSnapshot.of(driver.service))
        second = stream.next_state()
        assert second["seq"] == 2 and second["state"] == phones_part(driver)
        assert driver.handle({"cmd": "undo"})["ok"]
        feed.publish(StateSnapshot.of(driver.service))
        undone = stream.next_state()
        assert undone["seq"] == 3 and undone["state"]["round"] == 0
    finally:
        stream.close()


def test_a_new_token_ends_the_old_streams_and_the_old_address(server: MirrorServer,
                                                               feed: MirrorFeed) -> None:
    stream = Stream(server, f"/t/{TOKEN}/events")
    try:
        assert stream.next_state()["state"] is None
        server.renew_token("fresh-token1")
        assert b"data:" not in stream.file.read()  # read to its end: the stream ended
    finally:
        stream.close()
    assert request(server, "GET", f"/t/{TOKEN}")[0] == 404
    assert request(server, "GET", "/t/fresh-token1")[0] == 200


def test_a_phone_that_stops_reading_is_dropped_without_holding_up_a_publish() -> None:
    feed = MirrorFeed(queue_size=3)
    stalled = feed.subscribe()
    reading = feed.subscribe()
    for _ in range(3):
        feed.publish(None)
        assert reading.next(timeout=1) is not None
    assert feed.client_count() == 2
    feed.publish(None)  # the stalled phone's queue is full: it goes, the publish goes on
    assert stalled.dropped.is_set() and not reading.dropped.is_set()
    assert feed.client_count() == 1
    assert reading.next(timeout=1) is not None and stalled.next(timeout=1) is None
