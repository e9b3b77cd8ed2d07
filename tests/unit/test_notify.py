"""The notify module: READY and WATCHDOG reach systemd's socket; without one nothing happens."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.notify import SystemdNotifier


@pytest.fixture
def systemd_socket(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = str(tmp_path / "notify")
    listener.bind(path)
    listener.settimeout(5)
    yield listener, path
    listener.close()


def test_ready_and_watchdog_reach_the_socket(systemd_socket: tuple[socket.socket, str]) -> None:
    listener, path = systemd_socket
    notifier = SystemdNotifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "30000000"})
    assert notifier.ready("the table is on the screen")
    assert listener.recv(4096).decode().splitlines() == [
        "READY=1", "STATUS=the table is on the screen"]
    assert notifier.ping()
    assert listener.recv(4096) == b"WATCHDOG=1"
    assert notifier.ping_interval() == pytest.approx(10.0)


def test_an_abstract_socket_is_reached_too() -> None:
    name = f"companion-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind("\0" + name)
        listener.settimeout(5)
        assert SystemdNotifier({"NOTIFY_SOCKET": "@" + name}).ready()
        assert listener.recv(4096) == b"READY=1"


def test_without_systemd_every_call_does_nothing() -> None:
    notifier = SystemdNotifier({})
    assert not notifier.enabled
    assert notifier.ready() is False and notifier.ping() is False
    assert notifier.ping_interval() is None


def test_a_watchdog_meant_for_another_process_is_not_pinged(tmp_path: Path) -> None:
    environ = {"NOTIFY_SOCKET": str(tmp_path / "x"), "WATCHDOG_USEC": "30000000",
               "WATCHDOG_PID": str(os.getpid() + 1)}
    assert SystemdNotifier(environ).ping_interval() is None
    environ["WATCHDOG_PID"] = str(os.getpid())
    assert SystemdNotifier(environ).ping_interval() == pytest.approx(10.0)
    assert SystemdNotifier({**environ, "WATCHDOG_USEC": "soon"}).ping_interval() is None


def test_a_socket_nobody_listens_on_is_told_once_and_never_raises(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    notifier = SystemdNotifier({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert notifier.ping() is False
    assert notifier.ping() is False
    assert len([r for r in caplog.records if "could not notify" in r.getMessage()]) == 1
