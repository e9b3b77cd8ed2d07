"""The Kivy the project pins still has a wheel for the Pi (64-bit ARM, the Python of Raspberry
Pi OS Bookworm): without one, the installer would have to build Kivy and SDL on the Pi."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def index_url() -> str:
    """The index pip asks: PIP_INDEX_URL, else pip's configuration, else PyPI."""
    if os.environ.get("PIP_INDEX_URL"):
        return os.environ["PIP_INDEX_URL"]
    configured = subprocess.run([sys.executable, "-m", "pip", "config", "get", "global.index-url"],
                                capture_output=True, text=True)
    return configured.stdout.strip() if configured.returncode == 0 else "https://pypi.org/simple"


def index_unreachable() -> str | None:
    """Why Kivy's page on the index cannot be read, or None when it can."""
    page = f"{index_url().rstrip('/')}/kivy/"
    try:
        with urllib.request.urlopen(page, timeout=30):
            return None
    except (OSError, ValueError) as error:
        return f"{page}: {error}"


def pinned_kivy() -> str:
    for requirement in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
            "dependencies"]:
        found = re.fullmatch(r"kivy==([\w.]+)", requirement.strip(), re.IGNORECASE)
        if found:
            return found.group(1)
    raise AssertionError("pyproject.toml does not pin Kivy to one version")


def test_the_pinned_kivy_has_an_aarch64_wheel_for_bookworms_python(tmp_path: Path) -> None:
    version = pinned_kivy()
    unreachable = index_unreachable()
    if unreachable is not None:
        pytest.skip(f"the package index cannot be reached from here ({unreachable})")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
         "--only-binary=:all:", "--platform", "manylinux2014_aarch64", "--python-version",
         "3.11", "--dest", str(tmp_path), f"kivy=={version}"],
        capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    wheels = [p.name for p in tmp_path.glob("*.whl")]
    assert len(wheels) == 1 and re.fullmatch(
        rf"[Kk]ivy-{re.escape(version)}-cp311-cp311-manylinux.*aarch64\.whl", wheels[0]), wheels
