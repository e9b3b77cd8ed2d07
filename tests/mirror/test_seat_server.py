"""A seat's requests over the Wi-Fi (issue 31): a POST with the seat's secret in a header, from
the page's own origin, a few a second, reaches the table's service and is answered once done;
anything else (no secret, a revoked one, another origin, a body too big or badly framed, a
request that is not the seat's own) changes nothing."""

from __future__ import annotations

import http.client
import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.mirror.guard import SEAT_BODY_BYTES
from companion.mirror.seats import BURST, SEAT_TOKEN_BYTES
from companion.mirror.server import SEAT_HEADER, MirrorServer
from tests.seat_table import Table

TOKEN = "tok-en_123456"
GLOW = {"cmd": "new_game", "game": "glow", "players": 3, "board": "sea",
        "names": ["Ana", "Ben", "Cy"]}


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Table, MirrorServer]]:
    table = Table(tmp_path / "games.db")
    assert table.send(GLOW)["ok"]
    server = MirrorServer(table.feed, TOKEN, port=0, host="127.0.0.1", seats=table.desk)
    server.start()
    yield table, server
    server.stop()
    table.close()


def secret(table: Table, player: int) -> str:
    return next(token for seat, token, _held in table.desk.seats() if seat.player == player)


def post(server: MirrorServer, body: Any, token: str | None, origin: str | None = "same",
         raw: bytes | None = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers[SEAT_HEADER] = token
    if origin is not None:
        headers["Origin"] = f"http://127.0.0.1:{server.port}" if origin == "same" else origin
    try:
        conn.request("POST", f"/t/{TOKEN}/seat/act",
                     raw if raw is not None else json.dumps(body).encode(), headers)
        response = conn.getresponse()
        data = response.read()
        return response.status, json.loads(data) if data.startswith(b"{") else data.decode()
    finally:
        conn.close()


def me(server: MirrorServer, token: str, lang: str = "en") -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("GET", f"/t/{TOKEN}/seat/me?lang={lang}", headers={SEAT_HEADER: token})
        response = conn.getresponse()
        data = response.read()
        return response.status, json.loads(data) if response.status == 200 else data
    finally:
        conn.close()


def scores(table: Table) -> list[int]:
    state = table.driver.state()
    assert state is not None
    return [player["score"] for player in state["players"]]


def test_a_seat_sees_its_buttons_and_its_action_is_done_once_and_answered(table) -> None:
    table, server = table
    token = secret(table, 1)
    assert len(token) >= SEAT_TOKEN_BYTES * 4 // 3 and token != TOKEN
    status, page = me(server, token, "de")
    assert status == 200 and page["seat"]["label"] == "Ben"
    assert page["version"] == table.service.seat_version()
    labels = [action["label"] for action in page["actions"]]
    assert "Punkte +5" in labels
    plus_five = next(a["request"] for a in page["actions"] if a["label"] == "Punkte +5")
    before = scores(table)
    status, answer = post(server, {"request": plus_five, "version": page["version"]}, token)
    assert status == 200 and answer == {"ok": True, "seat": "Ben"}
    assert scores(table) == [before[0], before[1] + 5, before[2]]
    assert table.desk.seats()[1][2] is True  # the table sees who holds a seat
    # The same request again, on the moment the phone saw: still the same moment, done again.
    status, answer = post(server, {"request": plus_five, "version": page["version"]}, token)
    assert answer["ok"] and scores(table)[1] == before[1] + 10
    # Its own figures, in its own language, as the table now has them.
    figures = {figure["label"]: figure["value"] for figure in me(server, token, "fr")[1]["figures"]}
    assert figures["Score"] == before[1] + 10 and "Jetons de relance" in figures, figures


def test_what_is_not_a_seats_own_is_refused_in_words_and_changes_nothing(table) -> None:
    table, server = table
    token = secret(table, 0)
    version = table.service.seat_version()
    before, logged = scores(table), table.service.log_length
    for request in ({"cmd": "score", "amount": 3, "player": 2}, {"cmd": "next"},
                    {"cmd": "undo"}, {"cmd": "abandon"}, {"cmd": "export"}):
        status, answer = post(server, {"request": request, "version": version}, token)
        assert status == 200 and answer["ok"] is False and answer["error"], request
    status, answer = post(server, {"request": {"cmd": "score", "amount": 3},
                                   "version": "game 1, day 9, night"}, token)
    assert answer["ok"] is False and "moved on" in answer["error"]
    assert scores(table) == before and table.service.log_length == logged


@pytest.mark.parametrize("case", ["no secret", "wrong secret", "other origin", "no origin",
                                  "not json", "no version", "too big"])
def test_a_request_without_the_seat_s_secret_and_page_changes_nothing(table, case) -> None:
    table, server = table
    token = secret(table, 0)
    body = {"request": {"cmd": "score", "amount": 1}, "version": table.service.seat_version()}
    expected = {"no secret": 404, "wrong secret": 404, "other origin": 403, "no origin": 403,
                "not json": 400, "no version": 400, "too big": 413}[case]
    before = scores(table)
    status, _ = post(server, body if case != "no version" else {"request": body["request"]},
                     None if case == "no secret" else
                     token[:-2] + "xx" if case == "wrong secret" else token,
                     origin="http://evil.example" if case == "other origin"
                     else None if case == "no origin" else "same",
                     raw=b"score +1" if case == "not json"
                     else b" " * (SEAT_BODY_BYTES + 1) if case == "too big" else None)
    assert status == expected
    assert scores(table) == before


def test_a_revoked_seat_and_every_seat_of_an_earlier_game_get_404(table) -> None:
    table, server = table
    old = secret(table, 2)
    table.desk.revoke(2)
    assert me(server, old)[0] == 404
    assert post(server, {"request": {"cmd": "score", "amount": 1},
                         "version": table.service.seat_version()}, old)[0] == 404
    fresh = secret(table, 2)
    assert fresh != old and me(server, fresh)[0] == 200
    others = [secret(table, 0), fresh]
    assert table.send({**GLOW, "names": ["Di", "Ed"], "players": 2})["ok"]  # a new game
    for token in others:
        assert me(server, token)[0] == 404
    assert [seat.label for seat, _token, held in table.desk.seats()] == ["Di", "Ed"]
    assert not any(held for _seat, _token, held in table.desk.seats())


def test_a_seat_sends_a_few_a_second_and_no_more(table) -> None:
    table, server = table
    token = secret(table, 0)
    body = {"request": {"cmd": "score", "amount": 1}, "version": table.service.seat_version()}
    statuses = [post(server, body, token)[0] for _ in range(BURST + 4)]
    assert statuses[:BURST] == [200] * BURST and 429 in statuses[BURST:]
    assert post(server, body, secret(table, 1))[0] == 200  # another seat is not held back


def test_a_post_anywhere_else_or_with_chunks_is_refused_before_it_is_read(table) -> None:
    table, server = table
    token = secret(table, 0)
    for head in (f"POST /t/{TOKEN}/state HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{{}}",
                 f"POST /t/{TOKEN}/seat/act HTTP/1.1\r\nHost: x\r\n{SEAT_HEADER}: {token}\r\n"
                 "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
                 f"POST /t/{TOKEN}/seat/act HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n"
                 "Content-Length: 3\r\n\r\n{}"):
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            sock.sendall(head.encode())
            answer = sock.recv(4096)
        assert answer.split(b" ")[1] in (b"405", b"411"), answer[:80]


def test_keep_alive_serves_a_get_after_a_seat_s_post_on_the_same_connection(table) -> None:
    table, server = table
    token = secret(table, 0)
    body = json.dumps({"request": {"cmd": "score", "amount": 1},
                       "version": table.service.seat_version()}).encode()
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("POST", f"/t/{TOKEN}/seat/act", body, {
            SEAT_HEADER: token, "Origin": f"http://127.0.0.1:{server.port}",
            "Content-Type": "application/json"})
        first = conn.getresponse()
        assert first.status == 200 and json.loads(first.read())["ok"]
        conn.request("GET", f"/t/{TOKEN}/state")
        second = conn.getresponse()
        assert second.status == 200 and json.loads(second.read())["state"]["title"] == "glow"
    finally:
        conn.close()
