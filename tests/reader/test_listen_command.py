"""`companion reader listen`: the bench check prints one JSON object per event, until Ctrl+C."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from companion.reader.emulator_pty import ReaderEmulator

NTAG = "04497622D93881"


def ignore_sigint() -> None:
    """Start a child as a background job of a non-interactive shell does: SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_listen_prints_one_json_line_per_event_and_stops_cleanly_on_ctrl_c(
    tmp_path: Path, stop: signal.Signals,
) -> None:
    device = ReaderEmulator("pn532", link=tmp_path / "reader")
    device.start()
    listener = subprocess.Popen(
        [sys.executable, "-m", "companion", "reader", "listen", "--port", device.port,
         "--family", "pn532"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=ignore_sigint)
    try:
        assert listener.stdout is not None
        lines = [json.loads(listener.stdout.readline())]
        device.lay(NTAG)
        lines.append(json.loads(listener.stdout.readline()))
        device.lift()
        lines.append(json.loads(listener.stdout.readline()))
        device.unplug()
        lines.append(json.loads(listener.stdout.readline()))
        listener.send_signal(stop)
        assert listener.wait(timeout=10) == 0
    finally:
        listener.kill()
        device.close()
    assert [line["event"] for line in lines] == ["connected", "present", "removed",
                                                 "disconnected"]
    assert lines[1] == {"event": "present", "uid": NTAG, "family": "pn532",
                        "port": device.port}
    assert "disconnected" in lines[3]["message"]
    assert "Traceback" not in (listener.stderr.read() if listener.stderr else "")


def test_listen_refuses_an_unknown_family_with_a_clear_message():
    done = subprocess.run([sys.executable, "-m", "companion", "reader", "listen", "--port",
                           "/dev/ttyUSB0", "--family", "rfm"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "invalid choice: 'rfm'" in done.stderr


def test_the_families_offered_on_the_command_line_are_the_readers_families():
    from companion.reader.cli import LISTEN_FAMILIES
    from companion.reader.serial_reader import FAMILY_CHOICES

    assert LISTEN_FAMILIES == FAMILY_CHOICES


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_emulate_stops_cleanly_on_ctrl_c_or_sigterm_even_when_sigint_was_ignored(
    stop: signal.Signals,
) -> None:
    emulator = subprocess.Popen(
        [sys.executable, "-m", "companion", "reader", "emulate", "pn532"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=ignore_sigint)
    try:
        assert emulator.stdout is not None and emulator.stdin is not None
        port = emulator.stdout.readline().strip()
        assert port.startswith("/dev/")
        emulator.stdin.write("lay 04497622D93881\n")
        emulator.stdin.flush()
        assert emulator.stdout.readline().startswith("ok")
        emulator.send_signal(stop)
        assert emulator.wait(timeout=10) == 0
    finally:
        emulator.kill()
    assert "Traceback" not in (emulator.stderr.read() if emulator.stderr else "")
