"""The mirror's HTTP server (aiohttp), the tag sheet's PDF library (fpdf2) and what they need
have wheels for the Pi (64-bit ARM, CPython 3.11, manylinux): the installer never compiles
them there."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.packaging.test_pinned_kivy import ROOT, index_unreachable


def requirement_of(package: str) -> str:
    for requirement in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
            "dependencies"]:
        if re.match(rf"{re.escape(package)}\b", requirement.strip(), re.IGNORECASE):
            return str(requirement.strip())
    raise AssertionError(f"pyproject.toml does not name {package}")


def aarch64_wheels(requirement: str, folder: Path) -> dict[str, str]:
    """The wheels pip picks for the Pi, by lower-case project name."""
    unreachable = index_unreachable()
    if unreachable is not None:
        pytest.skip(f"the package index cannot be reached from here ({unreachable})")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:",
         "--platform", "manylinux_2_17_aarch64", "--python-version", "3.11",
         "--implementation", "cp", "--abi", "cp311", "--dest", str(folder), requirement],
        capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return {p.name.split("-")[0].lower(): p.name for p in folder.glob("*.whl")}


def test_aiohttp_and_its_dependencies_have_aarch64_wheels_for_python_3_11(
        tmp_path: Path) -> None:
    wheels = aarch64_wheels(requirement_of("aiohttp"), tmp_path)
    assert re.fullmatch(r"aiohttp-[\d.]+-cp311-cp311-manylinux.*aarch64.*\.whl",
                        wheels["aiohttp"]), wheels
    # Its compiled companions too (the rest are pure Python).
    for compiled in ("multidict", "yarl", "frozenlist", "propcache"):
        assert "aarch64" in wheels[compiled], wheels


def test_fpdf2_is_pure_python_and_its_compiled_dependencies_have_aarch64_wheels(
        tmp_path: Path) -> None:
    wheels = aarch64_wheels(requirement_of("fpdf2"), tmp_path)
    assert wheels["fpdf2"].endswith("-py3-none-any.whl"), wheels
    assert "aarch64" in wheels["pillow"], wheels
    # fonttools has an aarch64 wheel, and a pure one to fall back on.
    assert "aarch64" in wheels["fonttools"] or wheels["fonttools"].endswith("-none-any.whl")
    assert "defusedxml" in wheels
