"""The app as a person installs it: a built wheel in a fresh virtual environment, started
outside the checkout, opens the Home screen (its layouts and data ship inside the wheel)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tomllib
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import companion
from companion.ui.theme import THEMES
from tests.ui.harness import start_xvfb

from .screen import screenshot

pytestmark = pytest.mark.ui

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "screenshots"


def hex_rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--wheel-dir", str(out), str(ROOT)], check=True, timeout=600)
    (built,) = out.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel and its dependencies (pip's cache serves
    what the project's own environment downloaded already)."""
    env_dir = tmp_path_factory.mktemp("fresh") / "venv"
    venv.create(env_dir, with_pip=True)
    subprocess.run([str(env_dir / "bin" / "python"), "-m", "pip", "install", "--quiet",
                    str(wheel)], check=True, timeout=900)
    return env_dir


def test_every_folder_with_code_is_a_listed_package() -> None:
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())
                 ["tool"]["setuptools"]["packages"])
    found = {".".join(init.parent.relative_to(ROOT).parts)
             for init in (ROOT / "companion").rglob("__init__.py")}
    assert listed == found | {"companion.layouts"}


def test_the_wheel_carries_the_layouts_catalogues_and_rules(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    layouts = {f"companion/layouts/{p.relative_to(ROOT / 'layouts')}"
               for p in (ROOT / "layouts").rglob("*.kv")}
    assert layouts and layouts <= names, sorted(layouts - names)
    for folder in ("companion/locale", "companion/rules/data"):
        wanted = {f"{folder}/{p.relative_to(ROOT / folder)}"
                  for p in (ROOT / folder).rglob("*") if p.suffix in (".po", ".pot", ".toml")}
        assert wanted and wanted <= names, sorted(wanted - names)


def test_the_installed_command_tells_its_version(installed: Path, tmp_path: Path) -> None:
    done = subprocess.run([str(installed / "bin" / "companion"), "--version"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"companion {project}" == f"companion {companion.__version__}"


@pytest.fixture
def display() -> Iterator[str]:
    process, name = start_xvfb("800x480x24")
    yield name
    process.terminate()
    process.wait(timeout=10)


def test_the_installed_app_opens_home_outside_the_checkout(installed: Path, tmp_path: Path,
                                                           display: str) -> None:
    where = subprocess.run([str(installed / "bin" / "python"), "-c",
                            "from companion.resources import layouts_dir; print(layouts_dir())"],
                           cwd=tmp_path, capture_output=True, text=True, check=True)
    assert Path(where.stdout.strip()).is_relative_to(installed), where.stdout
    # The app says READY over the notify socket once Home's first frame is drawn and the games
    # file is open, as it tells systemd on the Pi.
    notify_path = tmp_path / "notify.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(notify_path))
    listener.settimeout(120)
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("KIVY", "SDL_", "PYTHON"))}
    env.update(DISPLAY=display, NOTIFY_SOCKET=str(notify_path), HOME=str(tmp_path))
    app = subprocess.Popen([str(installed / "bin" / "companion"), "--db",
                            str(tmp_path / "data" / "games.sqlite3")],
                           cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True)
    try:
        try:
            message = listener.recv(4096).decode()
        except TimeoutError:
            app.kill()
            pytest.fail(f"no READY from the installed app: {app.communicate()[1]}")
        assert "READY=1" in message.splitlines(), message
        picture = screenshot(display)
    finally:
        app.terminate()
        _, errors = app.communicate(timeout=60)
        listener.close()
    picture.save_png(SCREENSHOTS / "installed-wheel-home.png")
    assert app.returncode == 0, errors
    assert "Traceback" not in errors and "CRITICAL" not in errors, errors
    # Home in the dark theme: the background, the grid of grey buttons, the title in white.
    dark = THEMES["dark"]
    assert picture.share(hex_rgb(dark["background"])) > 0.3
    assert picture.share(hex_rgb(dark["button"])) > 0.1
    title_band = picture.colours(top=10, bottom=70)
    assert any(min(pixel) > 230 for pixel in title_band), "no title text at the top"
