"""The systemd unit and its Cage drop-in: systemd's own checker accepts them in a throw-away root
(and rejects broken copies), and the hardening keeps the exposure score at 5.0 or below."""

from __future__ import annotations

import ipaddress
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.mirror.access import ALLOWED_NETWORKS
from companion.mirror.guard import Limits

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
APP = "opt/companion/current/bin/companion"

pytestmark = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is missing (package systemd; python3 tasks.py setup installs it)",
)


def make_root(tmp_path: Path, *, cage: bool = False, unit_text: str | None = None,
              binaries: tuple[str, ...] = (APP, "usr/bin/cage")) -> Path:
    """A root holding only what verify looks at: the system's own units (for sysinit.target and
    friends), ours, and stand-ins for the programs ExecStart= names."""
    root = tmp_path / "root"
    shutil.copytree("/usr/lib/systemd/system", root / "usr/lib/systemd/system", symlinks=True)
    units = root / "etc/systemd/system"
    units.mkdir(parents=True)
    (units / "companion.service").write_text(
        unit_text if unit_text is not None else (DEPLOY / "companion.service").read_text())
    if cage:
        (units / "companion.service.d").mkdir()
        shutil.copy(DEPLOY / "cage.conf", units / "companion.service.d/cage.conf")
    for binary in binaries:
        path = root / binary
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("#!/bin/sh\n")
        path.chmod(0o755)
    return root


def verify(root: Path) -> tuple[int, str]:
    result = subprocess.run(["systemd-analyze", "verify", f"--root={root}", "companion.service"],
                            capture_output=True, text=True)
    return result.returncode, (result.stdout + result.stderr).strip()


@pytest.mark.parametrize("cage", [False, True], ids=["kmsdrm", "cage"])
def test_systemd_accepts_the_unit_without_a_single_remark(tmp_path: Path, cage: bool) -> None:
    assert verify(make_root(tmp_path, cage=cage)) == (0, "")


def test_a_missing_program_fails_verification(tmp_path: Path) -> None:
    code, output = verify(make_root(tmp_path, binaries=("usr/bin/cage",)))
    assert code != 0
    assert "/opt/companion/current/bin/companion" in output


def test_the_cage_drop_in_fails_verification_without_cage(tmp_path: Path) -> None:
    code, output = verify(make_root(tmp_path, cage=True, binaries=(APP,)))
    assert code != 0
    assert "/usr/bin/cage" in output


def test_a_misspelled_directive_is_reported(tmp_path: Path) -> None:
    broken = (DEPLOY / "companion.service").read_text().replace("WatchdogSec=", "WatchdogSek=")
    _, output = verify(make_root(tmp_path, unit_text=broken))
    assert "Unknown key 'WatchdogSek'" in output


def exposure(unit: Path) -> float:
    result = subprocess.run(["systemd-analyze", "security", "--offline=yes", str(unit)],
                            capture_output=True, text=True)
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert found, result.stdout + result.stderr
    return float(found.group(1))


def test_the_hardened_unit_scores_an_exposure_of_5_or_less() -> None:
    assert exposure(DEPLOY / "companion.service") <= 5.0


def test_the_exposure_check_notices_a_unit_without_hardening(tmp_path: Path) -> None:
    bare = tmp_path / "companion.service"
    bare.write_text("[Service]\nExecStart=/opt/companion/current/bin/companion\n")
    assert exposure(bare) > 5.0


def directives(text: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            found.setdefault(key, []).append(value)
    return found


def test_the_unit_logs_to_the_journal_under_its_own_name() -> None:
    unit = directives((DEPLOY / "companion.service").read_text())
    # PAMName= would file the app's output under a login session's scope.
    assert "PAMName" not in unit
    assert unit["StandardOutput"] == ["journal"] and unit["StandardError"] == ["journal"]
    assert unit["Type"] == ["notify"] and unit["User"] == ["companion"]
    assert unit["EnvironmentFile"] == ["-/etc/companion/environment"]


def test_the_cage_drop_in_runs_the_same_app_command_inside_cage() -> None:
    unit = directives((DEPLOY / "companion.service").read_text())
    cage = directives((DEPLOY / "cage.conf").read_text())
    assert cage["ExecStart"][0] == ""  # resets the unit's command instead of adding a second
    assert cage["ExecStart"][1] == "/usr/bin/cage -d -s -- " + unit["ExecStart"][0]
    assert cage["UnsetEnvironment"] == ["SDL_VIDEODRIVER"]
    assert cage["NotifyAccess"] == ["all"]


def test_the_unit_caps_files_tasks_memory_and_who_may_reach_the_mirror() -> None:
    unit = directives((DEPLOY / "companion.service").read_text())
    assert int(unit["LimitNOFILE"][0]) >= 4 * Limits().connections  # room for the app's own
    assert 32 <= int(unit["TasksMax"][0]) <= 512
    assert unit["MemoryMax"] == ["1G"]
    assert unit["IPAddressDeny"] == ["any"]
    allowed = unit["IPAddressAllow"][0].split()
    assert allowed[:3] == ["localhost", "link-local", "multicast"]
    # The same private ranges the mirror itself answers (companion/mirror/access.py).
    networks = [ipaddress.ip_network(net) for net in allowed[3:]]
    for net in ALLOWED_NETWORKS:
        assert net.is_loopback or net.is_link_local or any(net.subnet_of(wide)  # type: ignore[arg-type]
                                                            for wide in networks
                                                            if wide.version == net.version), net
