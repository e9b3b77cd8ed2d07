"""Facts about the machine the companion runs on, read from the kernel's files and the data
folder's records, each in a small function that answers None (or nothing) when its source
cannot be read: the system health checks (system_health.py) turn them into players' words.

Pure but for the files and the command output handed in: no Kivy, no SQLite.
"""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from .start_record import RECORD_NAME, read_runs

COMMAND_TIMEOUT_S = 5.0


class Ran(NamedTuple):
    """What a command answered: its exit code and its output."""

    code: int
    out: str


def run_command(command: Sequence[str]) -> Ran | None:
    """Run a short command; None when it is not on this machine (or hangs)."""
    try:
        done = subprocess.run(list(command), capture_output=True, text=True,
                              timeout=COMMAND_TIMEOUT_S, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return Ran(done.returncode, done.stdout)


# --- network ---

def addresses_from_ip(json_text: str) -> list[str] | None:
    """The IPv4 addresses `ip -j -4 addr` lists, loopback left out; None when the output is
    not what `ip` writes."""
    try:
        interfaces = json.loads(json_text)
        found = [str(info["local"]) for interface in interfaces
                 if interface.get("ifname") != "lo"
                 for info in interface.get("addr_info", [])
                 if info.get("family", "inet") == "inet" and "local" in info]
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    return [address for address in found if not address.startswith("127.")]


def socket_addresses() -> list[str]:
    """This machine's IPv4 addresses as the socket module finds them (where `ip` is missing):
    the address its route out would use, and those its name resolves to; no loopback."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # a documentation address: nothing is sent
            found.append(str(probe.getsockname()[0]))
    except OSError:
        pass  # no route out: no network
    with contextlib.suppress(OSError):
        found += socket.gethostbyname_ex(socket.gethostname())[2]
    unique = list(dict.fromkeys(found))
    return [address for address in unique if not address.startswith(("127.", "0."))]


# --- the kernel's files ---

def read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except (OSError, ValueError):
        return None


def uptime_seconds(proc: Path) -> float | None:
    text = read_text(proc / "uptime")
    try:
        return float(text.split()[0]) if text else None
    except (ValueError, IndexError):
        return None


def hottest_zone(sys_root: Path) -> float | None:
    """The highest temperature the thermal zones report, in °C (the CPU's on a Pi)."""
    temperatures = []
    for zone in sorted((sys_root / "class" / "thermal").glob("thermal_zone*")):
        text = read_text(zone / "temp")
        try:
            millidegrees = int(text.strip()) if text else None
        except ValueError:
            continue
        # A zone without a sensor answers an error or a placeholder far out of range.
        if millidegrees is not None and -40_000 < millidegrees < 150_000:
            temperatures.append(millidegrees / 1000)
    return max(temperatures) if temperatures else None


@dataclass(frozen=True)
class Throttling:
    """What `vcgencmd get_throttled` says of the Pi's power and speed."""

    under_voltage_now: bool
    slowed_now: bool
    under_voltage_since_boot: bool
    slowed_since_boot: bool


def throttling(answer: str) -> Throttling | None:
    """`throttled=0x50005` read (bits 0-3 now, 16-19 since boot: under-voltage, frequency
    capped, throttled, soft temperature limit); None for another answer."""
    name, _, value = answer.strip().partition("=")
    try:
        bits = int(value, 16) if name == "throttled" else None
    except ValueError:
        bits = None
    if bits is None:
        return None
    return Throttling(under_voltage_now=bool(bits & 0x1), slowed_now=bool(bits & 0xE),
                      under_voltage_since_boot=bool(bits & 0x10000),
                      slowed_since_boot=bool(bits & 0xE0000))


ABS_X, ABS_Y, ABS_MT_POSITION_X = 0x00, 0x01, 0x35
BTN_TOUCH = 0x14A
INPUT_PROP_POINTER, INPUT_PROP_DIRECT = 0, 1


def bitmap_bits(words: str, word_bits: int) -> set[int]:
    """The bits set in a bitmap as /proc/bus/input/devices writes it: words of the kernel's
    `long`, the most significant first, separated by spaces."""
    found: set[int] = set()
    for index, word in enumerate(reversed(words.split())):
        try:
            value = int(word, 16)
        except ValueError:
            continue
        found |= {index * word_bits + bit for bit in range(value.bit_length())
                  if value >> bit & 1}
    return found


def has_bit(words: str, bit: int) -> bool:
    """The bit is set, whether the kernel's words are 32 or 64 bits wide (a Pi may run a
    32-bit or a 64-bit kernel; the file does not say which)."""
    return any(bit in bitmap_bits(words, width) for width in (32, 64))


def touch_devices(devices_text: str) -> list[str]:
    """The names of the touch panels among /proc/bus/input/devices' entries: multitouch
    positions, or a position with a touch key; a touchpad (a pointer, not on the screen) is
    not one."""
    found = []
    for entry in devices_text.split("\n\n"):
        name, bits = "", {}
        for line in entry.splitlines():
            if line.startswith("N: Name="):
                name = line[len("N: Name="):].strip().strip('"')
            elif line.startswith("B: ") and "=" in line:
                key, _, value = line[3:].partition("=")
                bits[key] = value
        position = bits.get("ABS", "")
        multitouch = has_bit(position, ABS_MT_POSITION_X)
        single = (has_bit(position, ABS_X) and has_bit(position, ABS_Y)
                  and has_bit(bits.get("KEY", ""), BTN_TOUCH))
        prop = bits.get("PROP", "")
        touchpad = has_bit(prop, INPUT_PROP_POINTER) and not has_bit(prop, INPUT_PROP_DIRECT)
        if (multitouch or single) and not touchpad:
            found.append(name or "?")
    return found


# --- the data folder's records ---

def run_started(run: str) -> datetime | None:
    """When a run of the start record began: its id starts with the time in hex nanoseconds."""
    try:
        return datetime.fromtimestamp(int(run.split(".")[0], 16) / 1e9, UTC)
    except (ValueError, OverflowError, OSError):
        return None


def early_deaths_since(data_folder: Path, since: datetime, boot: str,
                       running: set[int]) -> list[datetime]:
    """When the runs in the start record that died early (not alive a minute, never stopped)
    began, those since `since`, oldest first. A run of this `boot` whose process is
    `running` (this app, in its first minute) has not died."""
    text = read_text(data_folder / RECORD_NAME)
    deaths = []
    for run in read_runs(text or ""):
        if run.alive or run.stopped or (run.boot == boot and run.pid in running):
            continue
        began = run_started(run.run)
        if began is not None and began >= since:
            deaths.append(began)
    return deaths
