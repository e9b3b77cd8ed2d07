"""What a stranger on the Wi-Fi can take from the mirror (issue 25): connections are capped
overall and per address and strangers make room for phones, a request's header block is capped
in bytes and in time, a phone that stops reading is let go, a hang-up leaves no traceback, and
a burst of phones finds room in the listen queue."""

from __future__ import annotations

import contextlib
import logging
import shutil
import socket
import struct
import subprocess
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from companion.driver import StateSnapshot
from companion.mirror.feed import MirrorFeed
from companion.mirror.guard import Limits
from companion.mirror.server import MirrorServer
from tests.mirror.test_server import TOKEN, FakeRules, played

WAIT_S = 10.0
"""The longest any condition is waited for: far beyond what the server needs."""
TCP_ESTABLISHED = 1


def wait_until(condition: Callable[[], bool], timeout: float = WAIT_S) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


@pytest.fixture
def feed() -> MirrorFeed:
    return MirrorFeed()


@pytest.fixture
def serve(feed: MirrorFeed) -> Iterator[Callable[..., MirrorServer]]:
    started: list[MirrorServer] = []

    def start(**limits: float) -> MirrorServer:
        mirror = MirrorServer(feed, TOKEN, port=0, host="127.0.0.1", rules=FakeRules(),
                              limits=Limits(**limits))  # type: ignore[arg-type]
        mirror.start()
        started.append(mirror)
        return mirror

    yield start
    for mirror in started:
        mirror.stop()


def connect(server: MirrorServer, source: str = "127.0.0.1",
            receive_buffer: int | None = None) -> socket.socket:
    """A client from `source` (all of 127/8 is this machine: a stand-in for another phone)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.bind((source, 0))
    sock.settimeout(WAIT_S)
    # Refused at once (over a cap), and on a loaded machine the server's reset can come before
    # connect() has looked at the handshake: the socket then reads as closed, as a refusal should.
    with contextlib.suppress(ConnectionResetError):
        sock.connect(("127.0.0.1", server.port))
    return sock


def read_until_closed(sock: socket.socket, timeout: float = WAIT_S) -> tuple[bytes, bool]:
    """What the server sent, and whether it ended the connection within `timeout`."""
    received = b""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            break
        except ConnectionResetError:
            return received, True
        if not chunk:
            return received, True
        received += chunk
    return received, False


def is_open(sock: socket.socket) -> bool:
    """Whether the server still holds the connection (looked at without waiting)."""
    timeout = sock.gettimeout()
    sock.setblocking(False)  # with a timeout Python would wait for data first
    try:
        chunk = sock.recv(1, socket.MSG_PEEK)
    except BlockingIOError:  # nothing to read now: still open
        return True
    except OSError:  # reset, or never connected (refused while connecting)
        return False
    finally:
        sock.settimeout(timeout)
    return bool(chunk)


def tcp_state(sock: socket.socket) -> int:
    """The kernel's view of the connection (Linux TCP_INFO): 1 while established."""
    return int(struct.unpack("B", sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[:1])[0])


def publish_game(feed: MirrorFeed) -> Callable[[], None]:
    driver = played([{"cmd": "new_game", "players": 2, "seed": 4}])
    return lambda: None if feed.publish(StateSnapshot.of(driver.service)) else None


# --- 10. header blocks: bytes and time --------------------------------------------------------


def test_a_header_block_over_8_kb_in_all_gets_431_though_each_line_is_short(serve) -> None:
    server = serve()
    sock = connect(server)
    lines = "".join(f"X-Filler-{i}: {'a' * 500}\r\n" for i in range(20))  # 10 KB
    sock.sendall(f"GET /t/{TOKEN} HTTP/1.1\r\nHost: x\r\n{lines}\r\n".encode())
    answer, closed = read_until_closed(sock)
    sock.close()
    assert answer.startswith(b"HTTP/1.1 431 ") and b"8192 bytes" in answer and closed


def test_an_unfinished_header_block_is_cut_at_8_kb_without_waiting_for_its_end(serve) -> None:
    server = serve()
    sock = connect(server)
    sock.sendall(f"GET /t/{TOKEN} HTTP/1.1\r\nX-Long: {'b' * 9000}".encode())
    answer, closed = read_until_closed(sock)
    sock.close()
    assert answer.startswith(b"HTTP/1.1 431 ") and closed


def test_a_request_that_trickles_in_is_cut_at_its_deadline(serve) -> None:
    server = serve(request_deadline_s=1.0)
    sock = connect(server)
    sock.sendall(f"GET /t/{TOKEN} HTTP/1.1\r\n".encode())
    started = time.monotonic()
    cut = False
    for _ in range(80):  # a byte every 0.1 s for 8 s: each byte would restart a timeout
        try:
            sock.sendall(b"X")
        except (BrokenPipeError, ConnectionResetError):
            cut = True
            break
        if wait_until(lambda: not is_open(sock), timeout=0.1):
            cut = True
            break
    sock.close()
    assert cut and time.monotonic() - started < 5.0


def test_a_connection_that_never_asks_is_closed_at_the_request_deadline(serve) -> None:
    server = serve(request_deadline_s=1.0)
    sock = connect(server)
    _, closed = read_until_closed(sock, timeout=6.0)
    sock.close()
    assert closed


def test_keep_alive_still_serves_a_second_request_on_the_same_connection(serve) -> None:
    server = serve()
    sock = connect(server)
    request = f"GET /t/{TOKEN}/state HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    sock.sendall(request * 2)
    received = b""
    deadline = time.monotonic() + WAIT_S
    while received.count(b"HTTP/1.1 200 ") < 2 and time.monotonic() < deadline:
        received += sock.recv(65536)
    sock.close()
    assert received.count(b"HTTP/1.1 200 ") == 2


# --- 10 and 11. how many connections -----------------------------------------------------------


def test_one_address_gets_only_its_share_of_connections_and_others_are_still_served(
        serve) -> None:
    server = serve(per_address=3, connections=50)
    mine = [connect(server, "127.0.0.2") for _ in range(6)]
    assert wait_until(lambda: sum(is_open(sock) for sock in mine) == 3)
    assert all(is_open(sock) for sock in mine[:3])  # the first three stay; the rest are refused
    phone = connect(server, "127.0.0.3")
    phone.sendall(f"GET /t/{TOKEN}/state HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert phone.recv(65536).startswith(b"HTTP/1.1 200 ")
    for sock in [*mine, phone]:
        sock.close()


def test_at_the_overall_cap_strangers_make_room_for_a_phone_and_never_push_it_out(
        serve, feed: MirrorFeed) -> None:
    server = serve(per_address=3, connections=8)
    publish = publish_game(feed)
    publish()
    strangers = [connect(server, f"127.0.0.{2 + i % 3}") for i in range(9)]
    assert wait_until(lambda: sum(is_open(sock) for sock in strangers) == 8)
    assert not is_open(strangers[0])  # the oldest made room for the ninth
    phone = connect(server, "127.0.0.9")
    phone.sendall(f"GET /t/{TOKEN}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert b"data: " in _read_until(phone, b"data: ")
    more = [connect(server, f"127.0.0.{5 + i % 2}") for i in range(6)]
    publish()
    assert b"id: 2" in _read_until(phone, b"id: 2")
    assert wait_until(lambda: sum(is_open(s) for s in strangers + more) == 7)
    assert server.connection_count() == 8
    for sock in [*strangers, *more, phone]:
        sock.close()


def _read_until(sock: socket.socket, wanted: bytes) -> bytes:
    received = b""
    deadline = time.monotonic() + WAIT_S
    while wanted not in received and time.monotonic() < deadline:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        chunk = sock.recv(65536)
        if not chunk:
            break
        received += chunk
    return received


# --- 12. a phone that stops reading ------------------------------------------------------------


def _stalled_phone(server: MirrorServer) -> socket.socket:
    sock = connect(server, "127.0.0.5", receive_buffer=4096)
    sock.sendall(f"GET /t/{TOKEN}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    _read_until(sock, b"data: ")
    return sock  # and from now on it reads nothing


def test_a_phone_that_stops_reading_is_let_go_when_it_falls_behind(
        serve, feed: MirrorFeed) -> None:
    server = serve(send_backlog=32 * 1024, send_buffer=4096)
    publish = publish_game(feed)
    publish()
    stalled = _stalled_phone(server)
    published = 0
    while published < 200:  # about 4 KB each: far more than the socket takes
        publish()
        published += 1
        if wait_until(lambda: tcp_state(stalled) != TCP_ESTABLISHED, timeout=0.02):
            break
    assert tcp_state(stalled) != TCP_ESTABLISHED and published < 200
    assert wait_until(lambda: feed.client_count() == 0)
    stalled.close()


def test_a_phone_that_leaves_states_unread_past_the_send_deadline_is_let_go(
        serve, feed: MirrorFeed) -> None:
    server = serve(send_deadline_s=1.0, send_buffer=4096)
    publish = publish_game(feed)
    publish()
    stalled = _stalled_phone(server)
    for _ in range(12):  # fewer than any queue holds: only the deadline can end it
        publish()
    assert wait_until(lambda: tcp_state(stalled) != TCP_ESTABLISHED)
    stalled.close()


def test_a_phone_that_reads_keeps_following_while_another_stalls(
        serve, feed: MirrorFeed) -> None:
    server = serve(send_deadline_s=1.0, send_buffer=4096)
    publish = publish_game(feed)
    publish()
    stalled = _stalled_phone(server)
    reading = connect(server, "127.0.0.6")
    reading.sendall(f"GET /t/{TOKEN}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    for seq in range(2, 40):
        publish()
        assert f"id: {seq}\n".encode() in _read_until(reading, f"id: {seq}\n".encode())
    assert wait_until(lambda: tcp_state(stalled) != TCP_ESTABLISHED)
    assert tcp_state(reading) == TCP_ESTABLISHED
    stalled.close()
    reading.close()


# --- 15. hang-ups, backlog ----------------------------------------------------------------------


def held_by_server(port: int) -> int:
    """Connections the server's side still holds, as the kernel lists them (ss)."""
    listing = subprocess.run(["ss", "-tnH", "state", "established", f"sport = :{port}"],
                             capture_output=True, text=True, check=True).stdout
    return len(listing.splitlines())


class SlowRules(FakeRules):
    def __init__(self) -> None:
        super().__init__()
        self.asked = threading.Event()
        self.release = threading.Event()
        self.answered = threading.Event()

    def search(self, query: str, lang: str) -> list[dict[str, str]]:
        self.asked.set()
        self.release.wait(WAIT_S)
        try:
            return super().search(query, lang)
        finally:
            self.answered.set()


def _hang_up(sock: socket.socket) -> None:
    """Close at once with a reset, as a phone whose browser tab is killed."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


@pytest.mark.skipif(shutil.which("ss") is None, reason="ss (iproute2) is missing")
def test_a_client_that_hangs_up_mid_request_leaves_no_traceback(
        feed: MirrorFeed, capfd: pytest.CaptureFixture[str],
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    rules = SlowRules()
    server = MirrorServer(feed, TOKEN, port=0, host="127.0.0.1", rules=rules)
    server.start()
    try:
        halfway = connect(server)
        halfway.sendall(f"GET /t/{TOKEN} HTTP/1.1\r\nHost: x\r\nAcc".encode())
        assert wait_until(lambda: held_by_server(server.port) == 1)
        asking = connect(server)
        asking.sendall(f"GET /t/{TOKEN}/rules?q=fear HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert rules.asked.wait(WAIT_S)
        _hang_up(asking)  # while the answer is being looked up
        _hang_up(halfway)  # in the middle of its headers
        rules.release.set()
        assert rules.answered.wait(WAIT_S)
        assert wait_until(lambda: held_by_server(server.port) == 0)
        page = connect(server)  # and the next phone is served as before
        page.sendall(f"GET /t/{TOKEN} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert page.recv(65536).startswith(b"HTTP/1.1 200 ")
        page.close()
    finally:
        server.stop()
        server.rules.close()
    assert "Traceback" not in capfd.readouterr().err
    for record in caplog.records:
        assert record.exc_info is None and "\n" not in record.getMessage(), record.getMessage()


@pytest.mark.skipif(shutil.which("ss") is None, reason="ss (iproute2) is missing")
def test_the_listen_queue_takes_a_burst_of_phones(serve) -> None:
    server = serve()
    listing = subprocess.run(["ss", "-ltnH", f"sport = :{server.port}"], capture_output=True,
                             text=True, check=True).stdout.split()
    # For a listening socket ss shows the backlog as Send-Q (the third column).
    assert int(listing[2]) >= 128
