#!/usr/bin/env python3
"""The project's task runner: needs nothing but python3 (standard library only).

    python3 tasks.py run [ARGS...]   set up, then start the companion (ARGS go to `companion`)
    python3 tasks.py test [--quick]  set up, then lint, type-check and run the whole test suite
    python3 tasks.py bench           set up, then print the model, store and UI benchmarks
    python3 tasks.py screenshots     set up, then photograph every screen into screenshots/
    python3 tasks.py setup           only create or refresh the virtual environment

Set-up is idempotent: Debian packages the tests need are installed when missing (as root, or
through sudo), the virtual environment lives in .venv and is refreshed when pyproject.toml
changes.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / "bin"
STAMP = VENV / ".installed-from"
# Debian packages: venv support for the system python; for the app's window in the UI tests and
# screenshots a virtual X server (Xvfb) with Mesa's software OpenGL, which Kivy's SDL2 opens.
# A C compiler builds the power-cut test's small fsync shim (tests/integration/power_cut_shim.c);
# xwd (x11-apps) photographs the display of an installed app started from outside.
APT_PACKAGES = ["python3-venv", "xvfb", "xauth", "libgl1", "libgl1-mesa-dri", "libegl1",
                "libmtdev1", "gcc", "libc6-dev", "x11-apps"]
# Card-reader clients the emulator's tests run, installed without their dependencies: those
# would pull in Blinka's hardware layer (pyftdi, sysv_ipc, ...) and spidev, none of which the
# tests use (tests/reader/conftest.py stands in for the few CircuitPython names imported).
NO_DEPS_TEST_PACKAGES = ["adafruit-circuitpython-pn532==2.4.9", "pn532pi==1.7"]


def say(message: str) -> None:
    print(f"[tasks] {message}", file=sys.stderr, flush=True)


def sh(*cmd: str | Path, **kwargs: object) -> None:
    subprocess.run([str(c) for c in cmd], check=True, **kwargs)  # type: ignore[call-overload]


def missing_apt_packages() -> list[str]:
    if not shutil.which("dpkg-query"):
        return []
    missing = []
    for package in APT_PACKAGES:
        status = subprocess.run(
            ["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True
        )
        if "install ok installed" not in status.stdout:
            missing.append(package)
    return missing


def venv_works() -> bool:
    probe = subprocess.run(
        [sys.executable, "-c", "import venv, ensurepip"], capture_output=True
    )
    return probe.returncode == 0


def install_apt(packages: list[str]) -> None:
    if not packages or not shutil.which("apt-get"):
        return
    prefix: list[str] = []
    if os.geteuid() != 0:
        if not shutil.which("sudo"):
            say(f"please install these Debian packages as root: {' '.join(packages)}")
            return
        prefix = ["sudo"]
    say(f"installing Debian packages: {' '.join(packages)}")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    sh(*prefix, "apt-get", "update", "-qq", env=env)
    sh(*prefix, "apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages, env=env)


def setup() -> None:
    # The system python's venv needs python3-venv on Debian; a pyenv or venv python has it.
    needed = [p for p in missing_apt_packages() if p != "python3-venv" or not venv_works()]
    install_apt(needed)
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()
                            + " ".join(NO_DEPS_TEST_PACKAGES).encode()).hexdigest()
    if not STAMP.exists() or STAMP.read_text().strip() != wanted \
            or not (BIN / "companion").exists():
        install(wanted)
    compile_bytecode()


def install(wanted: str) -> None:
    if not (BIN / "python").exists():
        say("creating the virtual environment in .venv")
        sh(sys.executable, "-m", "venv", VENV)
    say("installing the companion and its test tools into .venv")
    sh(BIN / "python", "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    sh(BIN / "python", "-m", "pip", "install", "--quiet", "-e", f"{ROOT}[test]")
    sh(BIN / "python", "-m", "pip", "install", "--quiet", "--no-deps", *NO_DEPS_TEST_PACKAGES)
    STAMP.write_text(wanted)


def compile_bytecode() -> None:
    """Cache the app's bytecode now, as pip does for an installed package: an editable install
    leaves it to the first start, and a machine with PYTHONDONTWRITEBYTECODE never caches it,
    so every start would compile the whole app again. Files already cached are skipped."""
    sh(BIN / "python", "-m", "compileall", "-q", ROOT / "companion")


def run(args: list[str]) -> int:
    setup()
    return subprocess.call([str(BIN / "companion"), *args])


def test(args: list[str]) -> int:
    setup()
    quick = "--quick" in args
    rest = [a for a in args if a != "--quick"]
    steps: list[list[str]] = [
        [str(BIN / "ruff"), "check", "companion", "tests", "tasks.py"],
        [str(BIN / "mypy")],
        [str(BIN / "pytest"), *(["-m", "not slow"] if quick else []), *rest],
    ]
    for step in steps:
        say(" ".join(Path(step[0]).name if i == 0 else s for i, s in enumerate(step)))
        code = subprocess.call(step, cwd=ROOT)
        if code != 0:
            return code
    return 0


def bench(args: list[str]) -> int:
    setup()
    for module in ("tests.benchmarks.bench_model", "tests.benchmarks.bench_store",
                   "tests.benchmarks.bench_ui", "tests.benchmarks.bench_reader",
                   "tests.benchmarks.bench_rules"):
        code = subprocess.call([str(BIN / "python"), "-m", module, *args], cwd=ROOT)
        if code != 0:
            return code
    return 0


def screenshots(args: list[str]) -> int:
    setup()
    return subprocess.call([str(BIN / "python"), "-m", "tests.ui.tour", *(args or ["screenshots"])],
                           cwd=ROOT)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("run", "test", "bench", "setup", "screenshots"):
        print(__doc__)
        return 2
    task, args = argv[0], argv[1:]
    if task == "setup":
        setup()
        return 0
    return {"run": run, "test": test, "bench": bench, "screenshots": screenshots}[task](args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
