"""What prepare_kivy tells Kivy before its window opens: on the appliance (SDL's KMS/DRM
driver) no minimum size, which leaves the screen black there, and exactly one touch-panel input;
under a desktop the window's minimum size and no panel input at all."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# A config.ini as Raspberry Pi guides leave it: the default probesysfs line plus a second one.
GUIDE_CONFIG = """[input]
mouse = mouse
%(name)s = probesysfs
mtdev_%(name)s = probesysfs,provider=mtdev
hid_%(name)s = probesysfs,provider=hidinput
"""


def kivy_settings(tmp_path: Path, **environ: str) -> dict[str, dict[str, str]]:
    home = tmp_path / "kivy"
    home.mkdir()
    (home / "config.ini").write_text(GUIDE_CONFIG)
    code = ("import json\nfrom pathlib import Path\n"
            "from companion.ui.launch import prepare_kivy\n"
            f"prepare_kivy(Path({str(home)!r}))\n"
            "from kivy.config import Config\n"
            "print(json.dumps({s: dict(Config.items(s)) for s in ('graphics', 'input')}))\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY", "SDL_"))}
    env.update(environ)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    settings: dict[str, dict[str, str]] = json.loads(done.stdout.splitlines()[-1])
    return settings


def probesysfs_entries(settings: dict[str, dict[str, str]]) -> list[str]:
    return [value for value in settings["input"].values()
            if value.split(",")[0].strip() == "probesysfs"]


def test_kmsdrm_gets_no_minimum_size_one_panel_input_and_no_cursor(tmp_path: Path) -> None:
    settings = kivy_settings(tmp_path, SDL_VIDEODRIVER="kmsdrm")
    graphics = settings["graphics"]
    assert graphics.get("minimum_width", "0") == "0"
    assert graphics.get("minimum_height", "0") == "0"
    assert probesysfs_entries(settings) == ["probesysfs,provider=mtdev"]
    assert graphics["show_cursor"] == "0" and graphics["fullscreen"] == "auto"


def test_a_desktop_gets_the_minimum_size_and_no_panel_input(tmp_path: Path) -> None:
    settings = kivy_settings(tmp_path)
    assert settings["graphics"]["minimum_width"] == "480"
    assert settings["graphics"]["minimum_height"] == "320"
    assert probesysfs_entries(settings) == []
    assert settings["input"]["mouse"] == "mouse,disable_multitouch"


@pytest.mark.parametrize(("given", "rotation"), [("90", "90"), ("270", "270"), ("", "0"),
                                                 ("45", "0"), ("portrait", "0")])
def test_the_installers_rotation_is_the_screens_default(tmp_path: Path, given: str,
                                                        rotation: str) -> None:
    settings = kivy_settings(tmp_path, COMPANION_ROTATION=given)
    assert settings["graphics"]["rotation"] == rotation
