"""deploy/install.sh and deploy/readonly-root.sh: shellcheck, the refusals, and the file edits
they make, run on temporary files (the scripts are sourced, so nothing on this machine changes)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from companion.bootstrap import wired_service
from companion.games.spirit_island.view import state_view
from companion.store import GameStore
from companion.store_lock import WriterLock
from companion.store_schema import SCHEMA_VERSION

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
INSTALL = DEPLOY / "install.sh"
READONLY = DEPLOY / "readonly-root.sh"
PI_OS = ('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\n'
         'VERSION_ID="12"\nVERSION="12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\n')
UBUNTU = ('PRETTY_NAME="Ubuntu 24.04 LTS"\nID=ubuntu\nID_LIKE=debian\nVERSION_ID="24.04"\n'
          'VERSION_CODENAME=noble\n')
BULLSEYE = 'PRETTY_NAME="Raspbian GNU/Linux 11 (bullseye)"\nID=raspbian\nVERSION_ID="11"\n' \
           'VERSION_CODENAME=bullseye\n'
PI_CMDLINE = "console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootwait quiet"


def bash(script: Path, code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Sources a script (its main does not run) and runs code with its functions."""
    program = f'set -euo pipefail; shopt -s inherit_errexit; source "{script}"; {code}'
    return subprocess.run(["bash", "-c", program], capture_output=True, text=True,
                          env={**os.environ, **env})


@pytest.mark.skipif(shutil.which("shellcheck") is None,
                    reason="shellcheck is missing (python3 tasks.py setup installs it)")
def test_the_deploy_scripts_pass_shellcheck() -> None:
    result = subprocess.run(["shellcheck", "-x", "install.sh", "readonly-root.sh", "common.sh",
                             "stick-mount.sh", "update-from-stick.sh"],
                            cwd=DEPLOY, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("script", [INSTALL, READONLY])
def test_help_explains_the_options_and_changes_nothing(script: Path) -> None:
    result = subprocess.run([str(script), "--help"], capture_output=True, text=True)
    assert result.returncode == 0
    assert "Usage: sudo deploy/" in result.stdout


@pytest.mark.parametrize("args, message", [
    (["--rotate", "45"], "--rotate: '45' is not 0, 90, 180 or 270"),
    (["--display", "x11"], "--display: 'x11' is not kmsdrm or cage"),
    (["--source", "/nonexistent/wheelhouse"], "no such directory"),
    (["--frobnicate"], "unknown option: --frobnicate"),
    (["--health-timeout", "soon"], "--health-timeout needs whole seconds"),
])
def test_bad_options_are_refused_before_anything_happens(args: list[str], message: str) -> None:
    result = subprocess.run([str(INSTALL), *args], capture_output=True, text=True)
    assert result.returncode != 0
    assert message in result.stderr


@pytest.mark.parametrize("arch, machine, release, message", [
    ("armhf", "armv7l", PI_OS, "Kivy has no 32-bit ARM wheel"),
    ("arm64", "armv7l", PI_OS, "Kivy has no 32-bit ARM wheel"),  # 64-bit kernel reporting v7
    ("i386", "i686", PI_OS, "32-bit system"),
    ("riscv64", "riscv64", PI_OS, "unsupported architecture 'riscv64'"),
    ("arm64", "aarch64", UBUNTU, "unsupported operating system 'Ubuntu 24.04 LTS'"),
    ("arm64", "aarch64", BULLSEYE, "unsupported operating system 'Raspbian GNU/Linux 11"),
])
def test_the_installer_refuses_systems_it_cannot_serve(
        tmp_path: Path, arch: str, machine: str, release: str, message: str) -> None:
    os_release = tmp_path / "os-release"
    os_release.write_text(release)
    result = subprocess.run([str(INSTALL)], capture_output=True, text=True, env={
        **os.environ, "COMPANION_ARCH": arch, "COMPANION_MACHINE": machine,
        "COMPANION_OS_RELEASE": str(os_release)})
    assert result.returncode != 0
    assert message in result.stderr


@pytest.mark.parametrize("arch, machine", [("arm64", "aarch64"), ("amd64", "x86_64")])
def test_the_installer_accepts_64_bit_debian_12(tmp_path: Path, arch: str, machine: str) -> None:
    os_release = tmp_path / "os-release"
    os_release.write_text(PI_OS)
    result = bash(INSTALL, "check_platform && echo accepted", COMPANION_ARCH=arch,
                  COMPANION_MACHINE=machine, COMPANION_OS_RELEASE=str(os_release))
    assert result.stdout.strip() == "accepted", result.stderr


@pytest.mark.parametrize("action", ["uninstall", "purge"])
def test_the_installer_refuses_to_remove_the_app_from_the_read_only_overlay(action: str) -> None:
    result = bash(INSTALL, f"check_writable_root {action}", COMPANION_ROOT_FSTYPE="overlay")
    assert result.returncode != 0
    assert "readonly-root.sh --disable" in result.stderr


@pytest.mark.parametrize("action", ["install", "rollback"])
def test_on_the_overlay_an_install_goes_ahead_to_be_written_onto_the_card_below(
        action: str) -> None:
    # "/" stands in for the card's root, which overlayroot mounts at /media/root-ro.
    result = bash(INSTALL, f'check_writable_root {action}; echo "overlay=$ON_OVERLAY"',
                  COMPANION_ROOT_FSTYPE="overlay", COMPANION_LOWER_ROOT="/")
    assert result.stdout.strip() == "overlay=1", result.stderr


def test_on_the_overlay_without_the_card_below_an_install_is_refused(tmp_path: Path) -> None:
    result = bash(INSTALL, "check_writable_root install", COMPANION_ROOT_FSTYPE="overlay",
                  COMPANION_LOWER_ROOT=str(tmp_path))
    assert result.returncode != 0
    assert f"not mounted at {tmp_path}" in result.stderr


def test_an_ordinary_root_is_no_overlay() -> None:
    result = bash(INSTALL, 'check_writable_root uninstall; echo "overlay=$ON_OVERLAY"',
                  COMPANION_ROOT_FSTYPE="ext4")
    assert result.stdout.strip() == "overlay=0", result.stderr


def test_cmdline_words_are_added_once_however_often_the_installer_runs(tmp_path: Path) -> None:
    cmdline = tmp_path / "cmdline.txt"
    cmdline.write_text(PI_CMDLINE + "\n")
    edit = f'cmdline_set "{cmdline}" consoleblank=0 vt.global_cursor_default=0'
    first = bash(INSTALL, edit)
    after_first = cmdline.read_text()
    second = bash(INSTALL, edit)
    assert first.stdout.strip() == "changed" and second.stdout.strip() == ""
    assert cmdline.read_text() == after_first
    assert after_first == PI_CMDLINE + " consoleblank=0 vt.global_cursor_default=0\n"


def test_a_word_with_another_value_is_replaced_not_doubled(tmp_path: Path) -> None:
    cmdline = tmp_path / "cmdline.txt"
    cmdline.write_text("consoleblank=600 " + PI_CMDLINE + "\n")
    bash(INSTALL, f'cmdline_set "{cmdline}" consoleblank=0')
    assert cmdline.read_text() == "consoleblank=0 " + PI_CMDLINE + "\n"


def test_removing_words_gives_back_the_original_line(tmp_path: Path) -> None:
    cmdline = tmp_path / "cmdline.txt"
    cmdline.write_text(PI_CMDLINE + "\n")
    bash(INSTALL, f'cmdline_set "{cmdline}" consoleblank=0 overlayroot=tmpfs:recurse=0')
    bash(INSTALL, f'cmdline_remove "{cmdline}" consoleblank overlayroot')
    assert cmdline.read_text() == PI_CMDLINE + "\n"


def test_a_cmdline_of_two_lines_is_refused_untouched(tmp_path: Path) -> None:
    cmdline = tmp_path / "cmdline.txt"
    cmdline.write_text(PI_CMDLINE + "\nsecond line\n")
    result = bash(INSTALL, f'cmdline_set "{cmdline}" consoleblank=0')
    assert result.returncode != 0 and "must be one line" in result.stderr
    assert cmdline.read_text() == PI_CMDLINE + "\nsecond line\n"


def test_the_rotation_is_set_in_the_environment_file_keeping_other_lines(tmp_path: Path) -> None:
    env = tmp_path / "environment"
    env.write_text("# mine\nCOMPANION_BACKLIGHT=/sys/class/backlight/10-0045\n"
                   "COMPANION_ROTATION=0\n")
    bash(INSTALL, f'env_set "{env}" COMPANION_ROTATION 90')
    again = bash(INSTALL, f'env_set "{env}" COMPANION_ROTATION 90; '
                          f'env_get "{env}" COMPANION_ROTATION')
    assert again.stdout == "90"
    assert env.read_text() == ("# mine\nCOMPANION_BACKLIGHT=/sys/class/backlight/10-0045\n"
                               "COMPANION_ROTATION=90\n")


FSTAB = ("proc            /proc           proc    defaults          0       0\n"
         "PARTUUID=4e639091-01  /boot/firmware  vfat    defaults          0       2\n"
         "PARTUUID=4e639091-02  /               ext4    defaults,noatime  0       1\n"
         "# /dev/sda1 /var/lib/companion ext4 defaults 0 2\n")
DATA_LINE = ("LABEL=companion-data /var/lib/companion ext4 "
             "defaults,noatime,commit=5,errors=remount-ro,nofail 0 2\n")


def test_the_data_partition_gets_one_fstab_line_however_often_enabled(tmp_path: Path) -> None:
    fstab = tmp_path / "fstab"
    fstab.write_text(FSTAB)
    first = bash(READONLY, f'fstab_set "{fstab}" companion-data')
    second = bash(READONLY, f'fstab_set "{fstab}" companion-data')
    assert first.stdout.strip() == "changed" and second.stdout.strip() == ""
    assert fstab.read_text() == FSTAB + DATA_LINE  # the commented line stays a comment


def test_an_older_line_for_the_data_folder_is_replaced(tmp_path: Path) -> None:
    fstab = tmp_path / "fstab"
    fstab.write_text(FSTAB + "/dev/sda1 /var/lib/companion ext4 defaults 0 2\n")
    bash(READONLY, f'fstab_set "{fstab}" companion-data')
    assert fstab.read_text() == FSTAB + DATA_LINE


def test_the_overlay_word_leaves_the_data_partition_alone() -> None:
    # Plain overlayroot=tmpfs overlays every mount, the data partition included.
    result = bash(READONLY, 'echo "$OVERLAY_WORD"')
    assert result.stdout.strip() == "overlayroot=tmpfs:recurse=0"


def test_readonly_root_refuses_a_path_that_is_not_a_partition(tmp_path: Path) -> None:
    not_a_disk = tmp_path / "disk.img"
    not_a_disk.write_bytes(b"\0" * 1024)
    result = bash(READONLY, f'prepare_partition "{not_a_disk}" companion-data 0')
    assert result.returncode != 0 and "is not a block device" in result.stderr


def test_readonly_root_needs_to_be_told_what_to_do() -> None:
    result = subprocess.run([str(READONLY)], capture_output=True, text=True)
    assert result.returncode != 0 and "--enable, --disable or --status" in result.stderr


def test_no_function_in_the_scripts_shadows_a_command() -> None:
    # A function called `install` once made install.sh's own `install -d` call itself forever.
    names = {line.split("(")[0] for script in DEPLOY.glob("*.sh")
             for line in script.read_text().splitlines() if line.endswith("() {")}
    assert names and not {name for name in names if shutil.which(name)}


# --- the games across releases: a copy per release, put back on a roll-back -------------------


class Installed:
    """Two releases in a temporary prefix, P (this version's games layout) and C (one migration
    more), and a data folder with real games; install.sh's own functions run over them."""

    def __init__(self, root: Path) -> None:
        self.prefix = root / "opt"
        self.data = root / "data"
        self.games = self.data / "games.sqlite3"
        self.data.mkdir()
        for name, schema in (("P", SCHEMA_VERSION), ("C", SCHEMA_VERSION + 1)):
            release = self.prefix / "releases" / name
            release.mkdir(parents=True)
            (release / ".companion-schema").write_text(f"{schema}\n")
            (release / ".companion-release").write_text(f"{name}\n")
        (self.prefix / "current").symlink_to("releases/P")

    def run(self, code: str, **env: str) -> subprocess.CompletedProcess[str]:
        # No systemd here: nothing to stop or start, as in a chroot.
        return bash(INSTALL, f"systemd_running() {{ false; }}; {code}",
                    COMPANION_PREFIX=str(self.prefix), COMPANION_DATA=str(self.data), **env)

    def current(self) -> str:
        return os.readlink(self.prefix / "current")

    def fear(self) -> int:
        store, _ = GameStore.open(self.games)
        service = wired_service(store, seed_source=lambda: 1)
        service.resume_latest()
        assert service.state is not None
        store.close()
        return int(state_view(service.state)["fear"]["generated"])

    def play_fear(self, amount: int) -> None:
        store, _ = GameStore.open(self.games)
        service = wired_service(store, seed_source=lambda: 1)
        if not service.resume_latest():
            service.handle(service.parse({"cmd": "new_game", "players": 2, "seed": 3}))
        service.handle(service.parse({"cmd": "fear", "amount": amount}))
        store.close()

    def migrate_as_release_c(self) -> None:
        with sqlite3.connect(self.games) as raw:
            raw.execute("CREATE TABLE future (x INTEGER)")
            raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        raw.close()

    def user_version(self, path: Path) -> int:
        with sqlite3.connect(path) as raw:
            version = int(raw.execute("PRAGMA user_version").fetchone()[0])
        raw.close()
        return version


def updated_to_c_and_played(tmp_path: Path) -> Installed:
    """P's games (fear 2), then the update to C, which migrates them and plays on (fear 5)."""
    installed = Installed(tmp_path)
    installed.play_fear(2)
    update = installed.run('keep_games_for P C && switch_to C')
    assert update.returncode == 0, update.stderr
    assert "kept a copy of the games as release P leaves them" in update.stderr
    installed.play_fear(3)
    installed.migrate_as_release_c()
    return installed


def test_a_roll_back_across_a_new_migration_brings_back_the_games_as_that_release_left_them(
        tmp_path: Path) -> None:
    installed = updated_to_c_and_played(tmp_path)
    back = installed.run("rollback 0 5")
    assert back.returncode == 0, back.stderr
    assert installed.current() == "releases/P"
    assert "the games are back as release P left them" in back.stderr
    assert installed.user_version(installed.games) == SCHEMA_VERSION
    assert installed.fear() == 2  # P's games, which P can write again
    installed.play_fear(1)
    kept = installed.data / "games-by-release" / "C.sqlite3"
    assert installed.user_version(kept) == SCHEMA_VERSION + 1
    forth = installed.run("rollback 0 5")  # and forward again: C's games come back
    assert forth.returncode == 0, forth.stderr
    assert installed.current() == "releases/C"
    assert installed.user_version(installed.games) == SCHEMA_VERSION + 1
    store, notices = GameStore.open(installed.games)  # this version reads C's file only
    assert store.read_only_because == "newer" and store.games()[0]["log_length"] == 3
    store.close()
    again = installed.run("rollback 0 5")
    assert again.returncode == 0, again.stderr
    assert installed.fear() == 3  # P's games with what was played on P since


def test_a_roll_back_across_a_migration_without_a_copy_is_refused_and_changes_nothing(
        tmp_path: Path) -> None:
    installed = updated_to_c_and_played(tmp_path)
    (installed.data / "games-by-release" / "P.sqlite3").unlink()
    found = installed.games.read_bytes()
    back = installed.run("rollback 0 5")
    assert back.returncode != 0
    assert "cannot go back to release P: the games file has the layout of a newer release" \
        in back.stderr
    assert installed.current() == "releases/C" and installed.games.read_bytes() == found


def test_a_roll_back_waits_for_no_companion_but_refuses_while_one_writes_the_games(
        tmp_path: Path) -> None:
    installed = updated_to_c_and_played(tmp_path)
    found = installed.games.read_bytes()
    writer = WriterLock.take(installed.games)  # a companion that has the games open
    assert writer is not None
    try:
        back = installed.run("rollback 0 5", COMPANION_LOCK_WAIT="0.5")
    finally:
        writer.release()
    assert back.returncode != 0
    assert f"the games are open in another companion, pid {os.getpid()}" in back.stderr
    assert installed.current() == "releases/C" and installed.games.read_bytes() == found


def test_a_roll_back_between_releases_of_one_layout_leaves_the_games_alone(
        tmp_path: Path) -> None:
    installed = Installed(tmp_path)
    (installed.prefix / "releases/C/.companion-schema").write_text(f"{SCHEMA_VERSION}\n")
    installed.play_fear(2)
    update = installed.run('keep_games_for P C && switch_to C')
    assert update.returncode == 0 and "kept a copy" not in update.stderr, update.stderr
    installed.play_fear(1)
    found = installed.games.read_bytes()
    back = installed.run("rollback 0 5")
    assert back.returncode == 0, back.stderr
    assert installed.current() == "releases/P" and installed.games.read_bytes() == found
    assert not (installed.data / "games-by-release").exists()


def test_pruning_a_release_removes_its_copy_of_the_games(tmp_path: Path) -> None:
    installed = updated_to_c_and_played(tmp_path)
    copies = installed.data / "games-by-release"
    for name in ("A", "B", "D"):
        (installed.prefix / "releases" / name).mkdir()
        (installed.prefix / "releases" / name / ".companion-release").write_text(name)
        (copies / f"{name}.sqlite3").write_bytes(b"")
    pruned = installed.run("prune_releases")
    assert pruned.returncode == 0, pruned.stderr
    left = sorted(p.name for p in (installed.prefix / "releases").iterdir())
    assert sorted(p.stem for p in copies.iterdir()) == [n for n in left if n != "C"]


def test_the_installers_own_roll_back_after_a_failed_update_brings_back_the_older_games(
        tmp_path: Path) -> None:
    installed = updated_to_c_and_played(tmp_path)
    calls = tmp_path / "systemctl-calls"
    # systemd stood in for: C never reports ready, P does once it is back.
    result = bash(INSTALL, f'''
        systemd_running() {{ true; }}
        systemctl() {{ echo "$*" >>"{calls}"; }}
        healthy() {{ [[ "$(current_release)" == P ]]; }}
        restart_and_check 5 P''', COMPANION_PREFIX=str(installed.prefix),
                  COMPANION_DATA=str(installed.data))
    assert result.returncode != 0
    assert "release C did not start and release P is running again" in result.stderr
    assert "the games are back as release P left them" in result.stderr
    assert installed.current() == "releases/P" and installed.fear() == 2
    stopped = calls.read_text().splitlines().index("stop companion.service")
    assert "restart --no-block companion.service" in calls.read_text().splitlines()[stopped:]


def fake_systemd(tmp_path: Path, states: list[str], restarts: list[int]) -> str:
    """Shell functions standing in for systemctl and sleep: `is-active` answers the states in
    turn and `show -p NRestarts` the restart counts (each repeating its last), no waiting."""
    for name, answers in (("states", states), ("restarts", restarts)):
        (tmp_path / name).write_text("\n".join(map(str, answers)) + "\n")
    return f'''
        sleep() {{ :; }}
        next_of() {{  # the first line of a file, kept when it is the last
            local file="{tmp_path}/$1" first
            first=$(head -n 1 "$file")
            if [[ $(wc -l <"$file") -gt 1 ]]; then sed -i 1d "$file"; fi
            printf '%s\\n' "$first"
        }}
        systemctl() {{
            case "$1" in
                is-active) next_of states ;;
                show) next_of restarts ;;
            esac
        }}'''


def test_a_release_restarted_twice_at_start_fails_its_health_check_at_once(
        tmp_path: Path) -> None:
    # activating for ever, as a crash loop looks between its restarts; the timeout is far off
    result = bash(INSTALL, fake_systemd(tmp_path, ["activating"], [0, 0, 1, 2, 3])
                  + "\nif healthy 100000; then echo healthy; else echo ill; fi")
    assert result.stdout.strip() == "ill", result.stderr
    assert "failed at start and was restarted 2 times" in result.stderr


def test_a_release_slow_to_start_without_restarts_is_healthy(tmp_path: Path) -> None:
    result = bash(INSTALL, fake_systemd(tmp_path, ["activating"] * 30 + ["active"], [0])
                  + "\nif healthy 100; then echo healthy; else echo ill; fi")
    assert result.stdout.strip() == "healthy", result.stderr
