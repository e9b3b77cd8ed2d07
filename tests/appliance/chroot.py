"""The chroot half of the appliance test: deploy/install.sh run as root inside a Debian 12 arm64
root (through qemu-user), then what it left behind checked, update, rollback and uninstall.

Needs root, debootstrap and qemu-user-static with binfmt. The debootstrapped base is cached
outside the repository ($COMPANION_APPLIANCE_CACHE, else $XDG_CACHE_HOME/companion-appliance);
every run works on a fresh copy of it.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("COMPANION_APPLIANCE_CACHE")
             or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
             / "companion-appliance")
BASE = CACHE / "base-arm64"
ROOTFS = CACHE / "run-arm64"
MIRROR = os.environ.get("COMPANION_DEBIAN_MIRROR", "http://deb.debian.org/debian")
# What a fresh Raspberry Pi OS Lite already has that a minimal debootstrap lacks.
BASE_PACKAGES = "systemd,systemd-sysv,udev,ca-certificates,python3,python3-venv"
PI_CMDLINE = ("console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 "
              "fsck.repair=yes rootwait quiet init=/usr/lib/raspberrypi-sys-mods/firstboot\n")
GAME = '{"cmd":"new_game","players":1,"seed":1}\n{"cmd":"state"}\n'
HOST_CA = "/etc/ssl/certs/ca-certificates.crt"
CHROOT_CA = "/srv/host-ca-certificates.crt"
CHROOT_ENV = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
              "HOME": "/root", "LANG": "C.UTF-8", "PIP_CERT": CHROOT_CA}
# A proxy nobody listens on: a run that reaches for the network fails.
OFFLINE = {"http_proxy": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9"}


class Report:
    def __init__(self) -> None:
        self.results: list[tuple[str, bool]] = []

    def check(self, name: str, ok: bool, detail: str = "") -> bool:
        self.results.append((name, ok))
        line = f"{'PASS' if ok else 'FAIL'}  {name}"
        if not ok and detail:
            line += "\n      " + detail.strip().replace("\n", "\n      ")[-3000:]
        print(line, flush=True)
        return ok

    @property
    def failed(self) -> int:
        return sum(1 for _, ok in self.results if not ok)


def log(message: str) -> None:
    print(f"[appliance] {message}", flush=True)


def mounts_under(path: Path) -> list[str]:
    prefix = str(path.resolve())
    found = []
    for line in Path("/proc/self/mounts").read_text().splitlines():
        target = line.split()[1]
        if target == prefix or target.startswith(prefix + "/"):
            found.append(target)
    return found


def safe_rmtree(path: Path) -> None:
    # A bind-mounted /dev under the tree would be deleted on the host too.
    if mounts_under(path):
        raise RuntimeError(f"refusing to delete {path}: still mounted: {mounts_under(path)}")
    shutil.rmtree(path, ignore_errors=False)


def ensure_binfmt() -> None:
    binfmt = Path("/proc/sys/fs/binfmt_misc")
    if not (binfmt / "status").exists():
        subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(binfmt)], check=True)
    if not (binfmt / "qemu-aarch64").exists():
        subprocess.run(["update-binfmts", "--enable", "qemu-aarch64"], check=True)
    entry = (binfmt / "qemu-aarch64").read_text()
    if not entry.startswith("enabled"):
        raise RuntimeError("qemu-aarch64 is registered with binfmt_misc but disabled")


def ensure_base() -> None:
    if (BASE / "usr/bin/python3").exists():
        log(f"using the cached Debian 12 arm64 base in {BASE}")
        return
    partial = CACHE / "base-arm64.partial"
    if partial.exists():
        safe_rmtree(partial)
    CACHE.mkdir(parents=True, exist_ok=True)
    log(f"debootstrap of Debian 12 arm64 into {partial} (a few minutes, once)")
    subprocess.run(["debootstrap", "--arch=arm64", "--variant=minbase",
                    f"--include={BASE_PACKAGES}", "bookworm", str(partial), MIRROR], check=True)
    partial.rename(BASE)


def fresh_root() -> None:
    if ROOTFS.exists():
        safe_rmtree(ROOTFS)
    subprocess.run(["cp", "-a", "--reflink=auto", str(BASE), str(ROOTFS)], check=True)
    # Raspberry Pi OS-like enough: the firmware's boot files, and a resolver for apt and pip.
    firmware = ROOTFS / "boot/firmware"
    firmware.mkdir(parents=True, exist_ok=True)
    (firmware / "cmdline.txt").write_text(PI_CMDLINE)
    (firmware / "config.txt").write_text("[all]\nauto_initramfs=1\n")
    resolv = ROOTFS / "etc/resolv.conf"
    resolv.unlink(missing_ok=True)
    shutil.copy("/etc/resolv.conf", resolv)
    # The host's certificate authorities, for networks whose proxy signs HTTPS itself; pip in
    # the chroot is pointed at them through PIP_CERT.
    shutil.copy(HOST_CA, ROOTFS / CHROOT_CA.lstrip("/"))


@contextmanager
def mounted(root: Path) -> Iterator[None]:
    done: list[Path] = []
    try:
        for source, target, options in (("proc", "proc", ["-t", "proc"]),
                                        ("/sys", "sys", ["--bind"]),
                                        ("/dev", "dev", ["--bind"]),
                                        ("/dev/pts", "dev/pts", ["--bind"])):
            where = root / target
            where.mkdir(parents=True, exist_ok=True)
            subprocess.run(["mount", *options, source, str(where)], check=True)
            done.append(where)
        yield
    finally:
        for where in reversed(done):
            if subprocess.run(["umount", str(where)]).returncode != 0:
                subprocess.run(["umount", "-l", str(where)])


def in_root(*cmd: str, stdin: str = "", env: dict[str, str] | None = None,
            timeout: float = 1800) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["chroot", str(ROOTFS), *cmd], input=stdin, text=True,
                          capture_output=True, env={**CHROOT_ENV, **(env or {})},
                          timeout=timeout)


def install(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    started = time.monotonic()
    result = in_root("/srv/companion/deploy/install.sh", *args, env=env)
    log(f"install.sh {' '.join(args)}: exit {result.returncode} "
        f"after {time.monotonic() - started:.0f} s")
    return result


def link(path: str) -> str:
    target = ROOTFS / path.lstrip("/")
    return os.readlink(target) if target.is_symlink() else ""


def group_members(name: str) -> list[str]:
    for line in (ROOTFS / "etc/group").read_text().splitlines():
        fields = line.split(":")
        if fields[0] == name:
            return fields[3].split(",") if fields[3] else []
    return []


def passwd_entry(name: str) -> list[str]:
    for line in (ROOTFS / "etc/passwd").read_text().splitlines():
        if line.split(":")[0] == name:
            return line.split(":")
    return []


def plays_a_game(report: Report, name: str) -> None:
    result = in_root("runuser", "-u", "companion", "--", "/opt/companion/current/bin/companion",
                     "script", "--db", "/var/lib/companion/games.sqlite3", stdin=GAME,
                     timeout=600)
    try:
        answers = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    except ValueError:
        answers = []
    report.check(name, result.returncode == 0 and len(answers) == 2
                 and all(answer.get("ok") is True for answer in answers),
                 result.stdout[-1500:] + result.stderr[-1500:])


def verify_unit(report: Report, name: str) -> None:
    result = subprocess.run(["systemd-analyze", "verify", f"--root={ROOTFS}",
                             "companion.service"], capture_output=True, text=True)
    output = (result.stdout + result.stderr).strip()
    report.check(name, result.returncode == 0 and not output, output)


def copy_checkout(target: Path) -> None:
    sys.path.insert(0, str(ROOT))
    import tasks  # the repo's task runner: one list of what a wheel's source leaves out

    shutil.copytree(ROOT, target, ignore=tasks.WHEEL_SOURCE_SKIP, symlinks=True)


def build_wheelhouse(target: Path) -> None:
    """The offline source for the second release: dependencies for aarch64 from the real task,
    and a companion wheel from a copy of the checkout changed by one comment line, so its hash
    and hence the release differ from the first."""
    subprocess.run([sys.executable, str(ROOT / "tasks.py"), "wheelhouse", str(target),
                    "--platform", "aarch64"], check=True, cwd=ROOT)
    import tasks

    with tempfile.TemporaryDirectory() as tmp:
        changed = Path(tmp) / "checkout"
        shutil.copytree(ROOT, changed, ignore=tasks.WHEEL_SOURCE_SKIP, symlinks=True)
        init = changed / "companion/__init__.py"
        init.write_text(init.read_text() + "# appliance test: the second release\n")
        tasks.build_wheel(target, changed)


def scenario(report: Report) -> None:
    unit = ROOTFS / "etc/systemd/system/companion.service"
    cmdline = ROOTFS / "boot/firmware/cmdline.txt"

    result = in_root("/srv/companion/deploy/install.sh", env={"COMPANION_ARCH": "armhf"})
    report.check("refuses a 32-bit system", result.returncode != 0
                 and "64-bit Raspberry Pi OS" in result.stderr, result.stderr)
    result = install(env={"COMPANION_ROOT_FSTYPE": "overlay"})
    report.check("on an overlay without the card's root below it, refuses to install",
                 result.returncode != 0 and "not mounted at /media/root-ro" in result.stderr,
                 result.stderr)
    result = install("--uninstall", env={"COMPANION_ROOT_FSTYPE": "overlay"})
    report.check("refuses to uninstall from the read-only overlay", result.returncode != 0
                 and "readonly-root.sh --disable" in result.stderr, result.stderr)

    # 1. A fresh install from the checkout: apt packages, PyPI, wheel built in the chroot.
    result = install()
    if not report.check("install.sh from the checkout succeeds", result.returncode == 0,
                        result.stdout + result.stderr):
        return
    report.check("says systemd is not running and does not start the app",
                 "systemd is not running" in result.stderr, result.stderr)
    report.check("the unit is installed", unit.exists()
                 and unit.read_bytes() == (ROOT / "deploy/companion.service").read_bytes())
    report.check("the unit is enabled for multi-user.target",
                 link("/etc/systemd/system/multi-user.target.wants/companion.service")
                 .endswith("/etc/systemd/system/companion.service"))
    report.check("getty@tty1 no longer starts at boot",
                 not (ROOTFS / "etc/systemd/system/getty.target.wants/getty@tty1.service")
                 .is_symlink())
    report.check("the default boot target is multi-user",
                 link("/etc/systemd/system/default.target").endswith("multi-user.target"))
    verify_unit(report, "systemd-analyze verify --root= accepts the installed unit")
    user = passwd_entry("companion")
    report.check("system user companion: home /var/lib/companion, no login shell",
                 bool(user) and user[5] == "/var/lib/companion" and user[6].endswith("nologin")
                 and int(user[2]) < 1000, str(user))
    report.check("companion is in video, render, input, dialout",
                 all("companion" in group_members(g)
                     for g in ("video", "render", "input", "dialout")),
                 str({g: group_members(g) for g in ("video", "render", "input", "dialout")}))
    first = link("/opt/companion/current")
    report.check("/opt/companion/current -> releases/<version>-<hash>",
                 first.startswith("releases/0.") and (ROOTFS / "opt/companion/current/bin/"
                                                      "companion").exists(), first)
    words = cmdline.read_text().split()
    report.check("cmdline.txt: consoleblank=0 and the hidden cursor, once each, one line",
                 words.count("consoleblank=0") == 1
                 and words.count("vt.global_cursor_default=0") == 1
                 and cmdline.read_text().count("\n") == 1, cmdline.read_text())
    report.check("udev rules for the reader and the backlight are installed",
                 (ROOTFS / "etc/udev/rules.d/99-companion-rfid.rules").exists()
                 and (ROOTFS / "etc/udev/rules.d/99-companion-backlight.rules").exists())
    report.check("/etc/companion/environment has the rotation",
                 "COMPANION_ROTATION=0" in (ROOTFS / "etc/companion/environment").read_text())
    # Where each of these files of deploy/ is installed.
    installed = {ROOTFS / "etc/polkit-1/rules.d/50-companion.rules": "50-companion.rules",
                 ROOTFS / "etc/udev/rules.d/99-companion-usb-sticks.rules":
                     "99-companion-usb-sticks.rules",
                 ROOTFS / "etc/systemd/system/companion-update.service":
                     "companion-update.service",
                 ROOTFS / "etc/systemd/system/companion-stick@.service":
                     "companion-stick@.service",
                 ROOTFS / "etc/companion/signing-keys/companion-release.pub":
                     "signing-keys/companion-release.pub"}
    different = [str(f) for f, name in installed.items()
                 if not f.exists() or f.read_bytes() != (ROOT / "deploy" / name).read_bytes()]
    report.check("the power and update rule, the stick rule and units, the release key",
                 not different, f"missing or different: {different}")
    helpers = [ROOTFS / "usr/local/lib/companion" / name
               for name in ("common.sh", "stick-mount.sh", "update-from-stick.sh")]
    report.check("the stick and update programs, executable, and /media/companion",
                 all(h.exists() and os.access(h, os.X_OK) for h in helpers)
                 and (ROOTFS / "media/companion").is_dir())
    report.check("polkitd and openssl are installed", all(
        "install ok installed" in in_root("dpkg-query", "-W", "-f=${Status}", package).stdout
        for package in ("polkitd", "openssl")))
    data = (ROOTFS / "var/lib/companion").stat()
    report.check("/var/lib/companion belongs to companion, mode 0700",
                 data.st_uid == int(user[2]) and data.st_mode & 0o777 == 0o700 if user else False)
    schema = ROOTFS / "opt/companion/current/.companion-schema"
    report.check("the release records the games layout it knows (.companion-schema)",
                 schema.exists() and schema.read_text().strip().isdigit())
    version = in_root("/opt/companion/current/bin/companion", "--version")
    report.check("companion --version from the release", version.stdout.startswith("companion "),
                 version.stdout + version.stderr)
    plays_a_game(report, "the installed app plays a game as user companion")
    report.check("the game is saved in /var/lib/companion/games.sqlite3",
                 (ROOTFS / "var/lib/companion/games.sqlite3").exists())

    # 2. The same source again: nothing to build, nothing switched.
    result = install()
    report.check("re-running with the same source is a no-op", result.returncode == 0
                 and "already current" in result.stderr
                 and link("/opt/companion/current") == first
                 and len(list((ROOTFS / "opt/companion/releases").iterdir())) == 1,
                 result.stderr)
    report.check("cmdline.txt still has each word once after the second run",
                 cmdline.read_text().split() == words, cmdline.read_text())

    # 3. Two runs at once: the second is refused while the first holds the lock.
    lock_path = ROOTFS / "run/lock/companion-install.lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with lock_path.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        result = install()
    report.check("a second install.sh at the same time is refused", result.returncode != 0
                 and "another install.sh is running" in result.stderr, result.stderr)

    # 4. An update from a wheelhouse, offline, which also turns the screen.
    result = install("--source", "/srv/wheelhouse", "--rotate", "90", env=OFFLINE)
    second = link("/opt/companion/current")
    report.check("an offline update from a wheelhouse installs a second release",
                 result.returncode == 0 and second != first and second.startswith("releases/"),
                 result.stdout + result.stderr)
    report.check("previous points at the first release", link("/opt/companion/previous") == first,
                 link("/opt/companion/previous"))
    report.check("--rotate 90 is in /etc/companion/environment",
                 "COMPANION_ROTATION=90" in (ROOTFS / "etc/companion/environment").read_text())
    plays_a_game(report, "the second release plays a game")

    # 5. Back and forth.
    result = install("--rollback")
    report.check("--rollback makes the first release current again", result.returncode == 0
                 and link("/opt/companion/current") == first
                 and link("/opt/companion/previous") == second, result.stderr)
    plays_a_game(report, "the rolled-back release plays a game")
    result = install("--rollback")
    report.check("--rollback again returns to the second release", result.returncode == 0
                 and link("/opt/companion/current") == second, result.stderr)

    # 6. Old releases beyond three are removed; current and previous never.
    releases = ROOTFS / "opt/companion/releases"
    for age, name in enumerate(("0.0.1-old1", "0.0.1-old2", "0.0.1-old3")):
        (releases / name).mkdir()
        marker = releases / name / ".companion-release"
        marker.write_text(name + "\n")
        stamp = time.time() - 86400 * (10 - age)
        os.utime(marker, (stamp, stamp))
    result = install("--source", "/srv/wheelhouse", env=OFFLINE)
    left = sorted(p.name for p in releases.iterdir() if not p.name.startswith("."))
    report.check("keeps three releases: current, previous and the newest other",
                 result.returncode == 0 and len(left) == 3 and "0.0.1-old3" in left
                 and Path(first).name in left and Path(second).name in left, str(left))

    # 7. The Cage mode and back.
    result = install("--display", "cage")
    dropin = ROOTFS / "etc/systemd/system/companion.service.d/cage.conf"
    report.check("--display cage installs cage, seatd and Xwayland and the drop-in",
                 result.returncode == 0 and dropin.exists()
                 and (ROOTFS / "usr/bin/cage").exists() and (ROOTFS / "usr/bin/Xwayland").exists(),
                 result.stdout + result.stderr)
    verify_unit(report, "systemd-analyze verify --root= accepts the unit with the Cage drop-in")
    result = install()
    report.check("without --display the Cage mode is kept", result.returncode == 0
                 and dropin.exists(), result.stderr)
    result = install("--display", "kmsdrm")
    report.check("--display kmsdrm removes the drop-in", result.returncode == 0
                 and not dropin.exists(), result.stderr)

    # 8. Uninstall keeps the games; purge does not.
    result = install("--uninstall")
    report.check("--uninstall removes unit, rules, releases and the user",
                 result.returncode == 0 and not unit.exists()
                 and not (ROOTFS / "etc/systemd/system/multi-user.target.wants/"
                          "companion.service").is_symlink()
                 and not (ROOTFS / "opt/companion").exists()
                 and not (ROOTFS / "etc/udev/rules.d/99-companion-rfid.rules").exists()
                 and not any(f.exists() for f in (*installed, *helpers))
                 and not passwd_entry("companion"), result.stdout + result.stderr)
    report.check("--uninstall keeps the games in /var/lib/companion",
                 (ROOTFS / "var/lib/companion/games.sqlite3").exists())
    report.check("--uninstall takes its words off the kernel command line and gives tty1 back",
                 cmdline.read_text() == PI_CMDLINE
                 and (ROOTFS / "etc/systemd/system/getty.target.wants/getty@tty1.service")
                 .is_symlink(), cmdline.read_text())
    result = install("--purge")
    report.check("--purge deletes /var/lib/companion", result.returncode == 0
                 and not (ROOTFS / "var/lib/companion").exists(), result.stderr)


def run() -> int:
    if os.geteuid() != 0:
        print("FAIL  the chroot test needs root (chroot, mount, debootstrap)")
        return 1
    for tool in ("debootstrap", "chroot", "update-binfmts", "systemd-analyze"):
        if not shutil.which(tool):
            print(f"FAIL  {tool} is missing (apt-get install debootstrap qemu-user-static "
                  "binfmt-support systemd)")
            return 1
    started = time.monotonic()
    report = Report()
    ensure_binfmt()
    ensure_base()
    fresh_root()
    copy_checkout(ROOTFS / "srv/companion")
    build_wheelhouse(ROOTFS / "srv/wheelhouse")
    with mounted(ROOTFS):
        try:
            scenario(report)
        except subprocess.TimeoutExpired as error:
            report.check("every step finishes in time", False, str(error))
    report.check("nothing stays mounted in the chroot", not mounts_under(ROOTFS),
                 str(mounts_under(ROOTFS)))
    minutes = (time.monotonic() - started) / 60
    print(f"chroot: {len(report.results) - report.failed} passed, {report.failed} failed, "
          f"{minutes:.1f} min", flush=True)
    return 1 if report.failed or not report.results else 0
