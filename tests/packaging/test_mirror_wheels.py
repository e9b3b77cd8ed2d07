"""The mirror's HTTP server (aiohttp) and what it needs have wheels for the Pi (64-bit ARM,
CPython 3.11, manylinux): the installer never compiles them there."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.packaging.test_pinned_kivy import ROOT, index_unreachable


def aiohttp_requirement() -> str:
    for requirement in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
            "dependencies"]:
        if re.match(r"aiohttp\b", requirement.strip(), re.IGNORECASE):
            return str(requirement.strip())
    raise AssertionError("pyproject.toml does not name aiohttp")


def test_aiohttp_and_its_dependencies_have_aarch64_wheels_for_python_3_11(
        tmp_path: Path) -> None:
    requirement = aiohttp_requirement()
    unreachable = index_unreachable()
    if unreachable is not None:
        pytest.skip(f"the package index cannot be reached from here ({unreachable})")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:",
         "--platform", "manylinux_2_17_aarch64", "--python-version", "3.11",
         "--implementation", "cp", "--abi", "cp311", "--dest", str(tmp_path), requirement],
        capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    wheels = {p.name.split("-")[0].lower(): p.name for p in tmp_path.glob("*.whl")}
    assert re.fullmatch(r"aiohttp-[\d.]+-cp311-cp311-manylinux.*aarch64.*\.whl",
                        wheels["aiohttp"]), wheels
    # Its compiled companions too (the rest are pure Python).
    for compiled in ("multidict", "yarl", "frozenlist", "propcache"):
        assert "aarch64" in wheels[compiled], wheels
