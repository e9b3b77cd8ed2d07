"""Environments for starting the driver as a process under the locales it meets in the field."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

# C.UTF-8: a systemd unit without LANG (Python then writes lone surrogates with
# surrogateescape); en_US.UTF-8: a desktop session (Python then raises on them).
LOCALES = ("C.UTF-8", "en_US.UTF-8")


@pytest.fixture(scope="session")
def locale_dir(tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """A LOCPATH holding en_US.UTF-8, compiled here when the system has none installed."""
    installed = subprocess.run(["locale", "-a"], capture_output=True, text=True).stdout
    if "en_US.utf8" in installed.split():
        return None
    localedef = shutil.which("localedef")
    if localedef is None:
        pytest.skip("no en_US.UTF-8 locale and no localedef to make one")
    folder = tmp_path_factory.mktemp("locales")
    made = subprocess.run([localedef, "-i", "en_US", "-f", "UTF-8",
                           str(folder / "en_US.UTF-8")], capture_output=True)
    if made.returncode not in (0, 1) or not (folder / "en_US.UTF-8").exists():
        pytest.skip("localedef could not make en_US.UTF-8")
    return folder


@pytest.fixture(params=LOCALES)
def locale_env(request: pytest.FixtureRequest) -> dict[str, str]:
    """The environment for a driver process under one locale, PYTHONIOENCODING unset."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("LC_") and k not in ("LANG", "LANGUAGE", "PYTHONIOENCODING",
                                                     "PYTHONUTF8", "LOCPATH")}
    env["LANG"] = request.param
    if request.param != "C.UTF-8":
        folder = request.getfixturevalue("locale_dir")
        if folder is not None:
            env["LOCPATH"] = str(folder)
    return env
