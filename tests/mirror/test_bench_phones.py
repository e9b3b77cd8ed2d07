"""The benchmark's simulated phones read the event stream as a browser does: a state has
arrived when its data line is complete, however the bytes were split on the way."""

from __future__ import annotations

import socket

from tests.benchmarks.phones import Phone

STREAM = (b"HTTP/1.0 200 OK\r\nContent-Type: text/event-stream\r\n\r\nretry: 1000\n\n"
          b"id: 7\nevent: state\ndata: {\"seq\": 7}\n\n"
          b": still here\n\n"
          b"id: 8\nevent: state\ndata: {\"seq\": 8, \"state\": {\"round\": 2}}\n\n")


def phone() -> Phone:
    left, right = socket.socketpair()
    right.close()
    return Phone(left)


def test_a_state_arrives_when_its_data_line_is_complete_not_when_its_id_is_read() -> None:
    reader = phone()
    cut = STREAM.index(b"data: {\"seq\": 8") + 10  # the second state's data line, half read
    reader.take(STREAM[:cut], now_ns=100)
    assert reader.arrived == [(7, 100)]
    reader.take(STREAM[cut:], now_ns=250)
    assert reader.arrived == [(7, 100), (8, 250)]
    reader.sock.close()


def test_a_stream_read_a_byte_at_a_time_gives_the_same_states_in_order() -> None:
    reader = phone()
    for at, byte in enumerate(STREAM):
        reader.take(bytes([byte]), now_ns=at)
    assert [seq for seq, _ in reader.arrived] == [7, 8]
    assert [at for _, at in reader.arrived] == [
        STREAM.index(b"\n", STREAM.index(b"data: {\"seq\": " + seq)) for seq in (b"7", b"8")]
    reader.sock.close()


def test_comments_and_headers_are_not_taken_for_states() -> None:
    reader = phone()
    reader.take(b"HTTP/1.0 200 OK\r\n\r\n: still here\n\nretry: 1000\n\n", now_ns=1)
    assert reader.arrived == [] and reader.pending_seq is None
    reader.sock.close()
