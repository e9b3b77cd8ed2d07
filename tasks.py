#!/usr/bin/env python3
"""The project's task runner: needs nothing but python3 (standard library only).

    python3 tasks.py run [ARGS...]   set up, then start the companion (ARGS go to `companion`)
    python3 tasks.py test [--quick] [--under-load]
                                     set up, then lint, type-check and run the whole test suite;
                                     --under-load keeps every core busy meanwhile (stress-ng,
                                     installed when missing) to show the suite holds on a
                                     loaded machine
    python3 tasks.py bench           set up, then print every benchmark (tests/benchmarks)
    python3 tasks.py screenshots [--docs]
                                     set up, then photograph every screen into screenshots/;
                                     --docs: only each game's table at 800x480 for the README,
                                     into docs/images/
    python3 tasks.py setup           only create or refresh the virtual environment
    python3 tasks.py wheelhouse DIR [--platform aarch64|x86_64] [--sign KEYFILE]
                                     put the companion's wheel and every dependency's wheel for
                                     the Pi (aarch64, default) in DIR, with the checkout
                                     (checkout/), VERSION and SHA256SUMS: `install.sh --source
                                     DIR`; --sign signs SHA256SUMS (SHA256SUMS.sig) with the
                                     release key, for updates from a stick (deploy/README.md)
    python3 tasks.py appliance-test  (minutes, as root) install.sh in a Debian arm64 chroot, then
                                     in a virtual machine when tests/appliance/vm.py is there

Set-up is idempotent: Debian packages the tests need are installed when missing (as root, or
through sudo), the virtual environment lives in .venv and is refreshed when pyproject.toml
changes.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / "bin"
STAMP = VENV / ".installed-from"
# Debian packages: venv support for the system python; for the app's window in the UI tests and
# screenshots a virtual X server (Xvfb) with Mesa's software OpenGL, which Kivy's SDL2 opens.
# A C compiler builds the power-cut test's small fsync shim (tests/integration/power_cut_shim.c);
# xwd (x11-apps) photographs the display of an installed app started from outside;
# shellcheck and systemd-analyze (package systemd) judge deploy/ (tests/deploy);
# zbarimg (zbar-tools) reads the mirror's QR codes back, and chromium with chromium-driver
# opens the mirror's page in the browser tests (tests/mirror);
# espeak-ng is the voice (companion/voice.py), and sox measures the WAVs it writes in the voice
# tests (tests/integration/test_voice_wav.py: not silent, short enough).
APT_PACKAGES = ["python3-venv", "xvfb", "xauth", "libgl1", "libgl1-mesa-dri", "libegl1",
                "libmtdev1", "gcc", "libc6-dev", "x11-apps", "shellcheck", "systemd",
                "zbar-tools", "chromium", "chromium-driver", "espeak-ng", "sox"]
# Any fixed time: the same source then gives a byte-identical wheel (deploy/install.sh uses the
# same one, as the wheel's hash names the release).
WHEEL_EPOCH = "315532800"
# Left out of the copy a wheel is built from (and of a release's checkout/): caches, the
# appliance test's disk images, and build/ leftovers that would end up in the wheel.
WHEEL_SOURCE_SKIP = shutil.ignore_patterns(
    ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache",
    ".mypy_cache", ".ruff_cache", ".hypothesis", "screenshots", "tests", ".appliance-cache")
WHEEL_ARCHES = ("aarch64", "x86_64")


def wheel_platforms(arch: str) -> list[str]:
    """pip's --platform options for Debian 12 (glibc 2.36): pip takes a platform tag literally,
    so every manylinux level from 2.17 (manylinux2014) up is named."""
    return [option for minor in range(17, 37)
            for option in ("--platform", f"manylinux_2_{minor}_{arch}")]
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
    rest = [a for a in args if a not in ("--quick", "--under-load")]
    if "--under-load" not in args:
        return run_tests(quick, rest)
    if not shutil.which("stress-ng"):
        install_apt(["stress-ng"])
    stress = shutil.which("stress-ng")
    if stress is None:
        say("--under-load needs stress-ng: apt-get install stress-ng")
        return 2
    say(f"keeping {os.cpu_count()} cores busy with stress-ng while the tests run")
    load = subprocess.Popen([stress, "--cpu", str(os.cpu_count() or 1), "--quiet"],
                            stdout=subprocess.DEVNULL)
    try:
        return run_tests(quick, rest)
    finally:
        load.terminate()
        load.wait()


PARALLEL = ["-n", "auto", "--dist", "worksteal", "--durations", "30"]
"""A worker per core (pytest-xdist; a worker with nothing left takes tests from another's
queue, so the long soaks do not end up in one), each worker's UI tests in its own window on an
Xvfb of its own; the slowest tests named at the end."""


def run_tests(quick: bool, rest: list[str]) -> int:
    steps: list[list[str]] = [
        [str(BIN / "ruff"), "check", "companion", "tests", "tasks.py"],
        [str(BIN / "mypy")],
        [str(BIN / "pytest"), "-m", "not slow" if quick else "not alone", *PARALLEL, *rest],
    ]
    if not quick:
        # The memory soaks' play takes another path when the machine is busy (a clean-clone
        # run beside the other worker counted 2,900 bindings more at one check than alone):
        # they run last, one after another, with nothing beside them.
        steps.append([str(BIN / "pytest"), "-m", "alone", "--durations", "5", *rest])
    ran = False
    for step in steps:
        say(" ".join(Path(step[0]).name if i == 0 else s for i, s in enumerate(step)))
        code = subprocess.call(step, cwd=ROOT)
        if code == NO_TESTS_COLLECTED and Path(step[0]).name == "pytest":
            continue  # tests named on the command line may all be of the other step
        if code != 0:
            return code
        ran = ran or Path(step[0]).name == "pytest"
    return 0 if ran else NO_TESTS_COLLECTED


NO_TESTS_COLLECTED = 5
"""pytest's exit code when the options select no test."""


def bench(args: list[str]) -> int:
    setup()
    for module in ("tests.benchmarks.bench_model", "tests.benchmarks.bench_store",
                   "tests.benchmarks.bench_leviathan",
                   "tests.benchmarks.bench_ui", "tests.benchmarks.bench_taps",
                   "tests.benchmarks.bench_every_table",
                   "tests.benchmarks.bench_reader",
                   "tests.benchmarks.bench_rules", "tests.benchmarks.bench_mirror",
                   "tests.benchmarks.bench_seats",
                   "tests.benchmarks.bench_soak"):
        code = subprocess.call([str(BIN / "python"), "-m", module, *args], cwd=ROOT)
        if code != 0:
            return code
    return 0


def screenshots(args: list[str]) -> int:
    setup()
    return subprocess.call([str(BIN / "python"), "-m", "tests.ui.tour", *(args or ["screenshots"])],
                           cwd=ROOT)


def build_wheel(dest: Path, checkout: Path = ROOT) -> Path:
    """The companion's wheel, built from a copy of the checkout so that no build/ folder is left
    behind or read back."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "src"
        shutil.copytree(checkout, source, ignore=WHEEL_SOURCE_SKIP, symlinks=True)
        out = Path(tmp) / "wheel"
        sh(BIN / "python", "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", out,
           source, env=dict(os.environ, SOURCE_DATE_EPOCH=WHEEL_EPOCH))
        (wheel,) = out.glob("spirit_island_companion-*.whl")
        for old in dest.glob("spirit_island_companion-*.whl"):
            old.unlink()
        return Path(shutil.copy2(wheel, dest))


RELEASE_CHECKOUT = "checkout"
"""The folder of a wheelhouse that carries the checkout: deploy/install.sh and what it installs."""
RELEASE_SUMS = "SHA256SUMS"
RELEASE_SIGNATURE = "SHA256SUMS.sig"
RELEASE_KEYS = ROOT / "deploy" / "signing-keys"
"""The public keys an installed table trusts (install.sh copies them to
/etc/companion/signing-keys)."""


def finish_release(dest: Path, checkout: Path = ROOT, key: Path | None = None) -> str:
    """Completes a wheelhouse as a release: the checkout beside the wheels, VERSION (the
    companion wheel's version), SHA256SUMS listing every other file, and with a key its
    Ed25519 signature (openssl, as install.sh checks it). Returns the version."""
    (wheel,) = dest.glob("spirit_island_companion-*.whl")
    version = wheel.name.split("-")[1]
    shutil.rmtree(dest / RELEASE_CHECKOUT, ignore_errors=True)
    shutil.copytree(checkout, dest / RELEASE_CHECKOUT, ignore=WHEEL_SOURCE_SKIP, symlinks=False)
    (dest / "VERSION").write_text(version + "\n")
    signature = dest / RELEASE_SIGNATURE
    signature.unlink(missing_ok=True)  # a signature of an earlier list would not match
    lines = []
    for path in sorted(p for p in dest.rglob("*") if p.is_file()):
        name = path.relative_to(dest).as_posix()
        if name == RELEASE_SUMS or re.search(r"[\\\n]", name):
            continue
        lines.append(f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {name}\n")
    (dest / RELEASE_SUMS).write_text("".join(lines))
    if key is not None:
        sh("openssl", "pkeyutl", "-sign", "-inkey", key, "-rawin", "-in", dest / RELEASE_SUMS,
           "-out", signature)
    return version


def key_is_trusted(key: Path) -> bool:
    """Whether the private key's public half is one of deploy/signing-keys: a release signed
    with any other would be refused by every table."""
    public = subprocess.run(["openssl", "pkey", "-in", str(key), "-pubout"], capture_output=True,
                            text=True, check=True).stdout.strip()
    return any(p.read_text().strip() == public for p in RELEASE_KEYS.glob("*.pub"))


def wheelhouse(args: list[str]) -> int:
    platform = "aarch64"
    key: Path | None = None
    if "--sign" in args:
        at = args.index("--sign")
        if at + 1 >= len(args) or not Path(args[at + 1]).is_file():
            say("--sign needs the release's private key file (Ed25519, PEM)")
            return 2
        key = Path(args[at + 1]).resolve()
        del args[at:at + 2]
    if "--platform" in args:
        at = args.index("--platform")
        if at + 1 >= len(args) or args[at + 1] not in WHEEL_ARCHES:
            say(f"--platform needs one of: {', '.join(WHEEL_ARCHES)}")
            return 2
        platform = args[at + 1]
        del args[at:at + 2]
    if len(args) != 1:
        say("usage: python3 tasks.py wheelhouse DIR [--platform aarch64|x86_64] [--sign KEY]")
        return 2
    dest = Path(args[0]).resolve()
    dest.mkdir(parents=True, exist_ok=True)
    setup()
    wheel = build_wheel(dest)
    say(f"built {wheel.name}; downloading its dependencies for {platform}, Python 3.11")
    # Binary wheels only: the Pi must not compile anything, and --platform demands it anyway.
    sh(BIN / "python", "-m", "pip", "download", "--quiet", "--only-binary=:all:",
       *wheel_platforms(platform), "--python-version", "3.11",
       "--implementation", "cp", "--abi", "cp311", "--dest", dest, wheel)
    version = finish_release(dest, key=key)
    say(f"wheelhouse ready: {dest} (version {version}, {len(list(dest.glob('*.whl')))} wheels"
        f"{', signed' if key else ', not signed'}); on the Pi: sudo {RELEASE_CHECKOUT}/deploy/"
        f"install.sh --source {dest}" + (" --require-signature" if key else ""))
    if key is not None and not key_is_trusted(key):
        say(f"warning: {key.name} is not the key of any public key in deploy/signing-keys: "
            "tables will refuse this release")
    return 0


def appliance_test(args: list[str]) -> int:
    setup()
    return subprocess.call([str(BIN / "python"), "-m", "tests.appliance", *args], cwd=ROOT)


TASKS = {"run": run, "test": test, "bench": bench, "screenshots": screenshots,
         "wheelhouse": wheelhouse, "appliance-test": appliance_test}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in (*TASKS, "setup"):
        print(__doc__)
        return 2
    task, args = argv[0], argv[1:]
    if task == "setup":
        setup()
        return 0
    return TASKS[task](args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
