"""Fake machines for the system health checks: a folder standing in for /proc, /sys, /dev and
the data folder, a runner answering ip and vcgencmd as a Pi would, in three states (all well,
warnings, problems). The unit tests and the System screen's UI test build them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from companion.system_facts import Ran
from companion.system_health import Machine

NOW = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
INSTALLED = datetime(2026, 11, 1, tzinfo=UTC)
BOOT = "7c1c2f5e-boot"

TOUCHSCREEN = """I: Bus=0018 Vendor=0000 Product=0000 Version=0000
N: Name="raspberrypi-ts"
P: Phys=
H: Handlers=mouse0 event0
B: PROP=2
B: EV=b
B: KEY=400 0 0 0 0 0 0 0 0 0 0
B: ABS=2608000 3
"""
KEYBOARD = """I: Bus=0003 Vendor=046d Product=c31c Version=0110
N: Name="Logitech USB Keyboard"
H: Handlers=sysrq kbd event1
B: PROP=0
B: EV=120013
B: KEY=1000000000007 ff9f207ac14057ff febeffdfffefffff fffffffffffffffe
"""
TOUCHPAD = """I: Bus=0018 Vendor=06cb Product=7e7e Version=0100
N: Name="SYNA7DB5:01 06CB:7E7E Touchpad"
B: PROP=5
B: EV=1b
B: KEY=e520 10000 0 0 0 0
B: ABS=2e0800000000003
"""


def ip_answer(*addresses: str) -> str:
    interfaces = [{"ifindex": 1, "ifname": "lo", "addr_info": [
        {"family": "inet", "local": "127.0.0.1", "prefixlen": 8, "scope": "host"}]}]
    interfaces += [{"ifindex": 2 + index, "ifname": f"eth{index}", "addr_info": [
        {"family": "inet", "local": address, "prefixlen": 24, "scope": "global"}]}
        for index, address in enumerate(addresses)]
    return json.dumps(interfaces)


@dataclass
class FakeRunner:
    """Answers commands from a table; a command not in it is not on the machine."""

    answers: dict[str, Ran | None] = field(default_factory=dict)
    ran: list[list[str]] = field(default_factory=list)

    def __call__(self, command: Sequence[str]) -> Ran | None:
        self.ran.append(list(command))
        return self.answers.get(command[0])


@dataclass
class FakeMachine:
    """The fake machine's folder and its parts, to change one fact at a time."""

    root: Path
    runner: FakeRunner
    free: int = 12_400_000_000
    alive: set[int] = field(default_factory=set)
    environment: dict[str, str] = field(default_factory=dict)
    now: datetime = NOW

    @property
    def proc(self) -> Path:
        return self.root / "proc"

    @property
    def sys(self) -> Path:
        return self.root / "sys"

    @property
    def dev(self) -> Path:
        return self.root / "dev"

    @property
    def data(self) -> Path:
        return self.root / "data"

    def write(self, path: Path, text: str) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def temperature(self, *millidegrees: int) -> None:
        for index, value in enumerate(millidegrees):
            self.write(self.sys / "class" / "thermal" / f"thermal_zone{index}" / "temp",
                       f"{value}\n")

    def input_devices(self, *entries: str) -> None:
        self.write(self.proc / "bus" / "input" / "devices", "\n".join(entries) + "\n")

    def reader_port(self, port: str) -> None:
        self.write(self.data / "companion.ini", f"[companion]\nlanguage = English\n"
                   f"[reader]\nport = {port}\nfamily = auto\n")

    def backed_up(self, *times: datetime) -> None:
        self.write(self.data / "backups.log", "".join(
            f"{when.isoformat()} /media/stick/companion-backup-{index}.sqlite3\n"
            for index, when in enumerate(times)))

    def starts(self, *runs: tuple[datetime, int, str]) -> None:
        """Runs of the start record: (began, pid, how it ended: "alive", "stop" or "")."""
        lines = []
        for began, pid, end in runs:
            run = f"{int(began.timestamp() * 1e9):x}.{pid}"
            lines.append(f"start {run} {pid} {BOOT}")
            if end:
                lines.append(f"{end} {run}")
        self.write(self.data / "starts.log", "\n" + "\n".join(lines) + "\n")

    def throttled(self, bits: int | None) -> None:
        self.runner.answers["vcgencmd"] = None if bits is None else Ran(
            0, f"throttled=0x{bits:x}\n")

    def network(self, *addresses: str) -> None:
        self.runner.answers["ip"] = Ran(0, ip_answer(*addresses))

    def machine(self) -> Machine:
        return Machine(data_folder=self.data, settings_path=self.data / "companion.ini",
                       db_path=self.data / "games.sqlite3", proc=self.proc, sys=self.sys,
                       dev=self.dev, etc=self.root / "etc", run=self.runner,
                       environment=self.environment,
                       now=lambda: self.now, free_bytes=lambda _folder: self.free,
                       own_addresses=lambda: [], running=lambda pid: pid in self.alive,
                       installed_at=INSTALLED, version="9.8.7")


def all_well(root: Path) -> FakeMachine:
    """A Pi with nothing wrong: networked, cool, a reader plugged in, backed up yesterday."""
    fake = FakeMachine(root, FakeRunner())
    fake.write(fake.proc / "uptime", "277200.52 1000.0\n")
    fake.write(fake.proc / "sys" / "kernel" / "random" / "boot_id", BOOT + "\n")
    fake.input_devices(KEYBOARD, TOUCHSCREEN)
    fake.temperature(51234)
    fake.write(fake.dev / "serial0", "")
    fake.reader_port("/dev/serial0")
    fake.backed_up(NOW - timedelta(days=9), NOW - timedelta(days=1))
    fake.starts((NOW - timedelta(days=2), 400, "alive"), (NOW - timedelta(days=2), 401, "stop"))
    fake.throttled(0)
    fake.network("192.168.1.20")
    fake.environment["COMPANION_APPLIANCE"] = "1"
    return fake


def with_warnings(root: Path) -> FakeMachine:
    """Everything that deserves a look but still works."""
    fake = all_well(root)
    fake.network()
    fake.free = 320_000_000
    fake.temperature(72400)
    fake.throttled(0x50000)
    fake.now = INSTALLED - timedelta(days=3)  # the clock went back
    fake.backed_up(INSTALLED - timedelta(days=30))
    fake.starts((fake.now - timedelta(hours=5), 402, ""))
    return fake


def with_problems(root: Path) -> FakeMachine:
    """Everything that stops a game night."""
    fake = with_warnings(root)
    fake.free = 80_000_000
    fake.temperature(83100)
    fake.throttled(0x50005)
    fake.input_devices(KEYBOARD)
    fake.reader_port("/dev/ttyUSB0")
    return fake


STATES = {"ok": all_well, "warnings": with_warnings, "problems": with_problems}
