"""Signed releases: tasks.py's finish_release writes and signs them, deploy/common.sh's
verify_release (install.sh --require-signature) and update-from-stick.sh check them, with keys
made here; install.sh's copy onto the card below the read-only root; the stick's folder name."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import tasks
from tests.release_keys import make_key

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
COMMON = DEPLOY / "common.sh"
INSTALL = DEPLOY / "install.sh"

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is missing")


def bash(script: Path, code: str, **env: str) -> subprocess.CompletedProcess[str]:
    program = f'set -euo pipefail; shopt -s inherit_errexit; source "{script}"; {code}'
    return subprocess.run(["bash", "-c", program], capture_output=True, text=True,
                          env={**os.environ, **env})


@pytest.fixture
def keys(tmp_path: Path) -> Path:
    """The trusted keys folder with one key; its private half is tmp_path/private/good.key."""
    key = make_key(tmp_path / "private", "good")
    trusted = tmp_path / "trusted"
    trusted.mkdir()
    shutil.copy(key.with_suffix(".pub"), trusted)
    return trusted


def release(tmp_path: Path, key: Path | None, name: str = "update") -> Path:
    """A small wheelhouse (a wheel and a dependency) and checkout, finished as a release."""
    house = tmp_path / name / "companion-update"
    house.mkdir(parents=True)
    (house / "spirit_island_companion-1.2.3-py3-none-any.whl").write_bytes(b"the app")
    (house / "kivy-2.3.1-cp311-cp311-manylinux_2_17_aarch64.whl").write_bytes(b"a dependency")
    checkout = tmp_path / f"{name}-checkout"
    (checkout / "deploy").mkdir(parents=True)
    (checkout / "deploy/install.sh").write_text(
        '#!/bin/bash\necho "install.sh ran with: $*" >"$COMPANION_TEST_OUT"\n')
    (checkout / "tests").mkdir()
    (checkout / "tests/left_out.py").write_text("not carried\n")
    assert tasks.finish_release(house, checkout, key) == "1.2.3"
    return house


def verify(folder: Path, keys: Path) -> subprocess.CompletedProcess[str]:
    return bash(COMMON, f'verify_release "{folder}" "{keys}"')


def test_a_release_lists_every_file_with_its_hash_and_carries_its_checkout(
        tmp_path: Path) -> None:
    house = release(tmp_path, None)
    listed = [line.split("  ", 1)[1] for line in (house / "SHA256SUMS").read_text().splitlines()]
    assert listed == ["VERSION", "checkout/deploy/install.sh",
                      "kivy-2.3.1-cp311-cp311-manylinux_2_17_aarch64.whl",
                      "spirit_island_companion-1.2.3-py3-none-any.whl"]
    assert (house / "VERSION").read_text() == "1.2.3\n"
    assert not (house / "SHA256SUMS.sig").exists()
    result = subprocess.run(["sha256sum", "--check", "--quiet", "SHA256SUMS"], cwd=house)
    assert result.returncode == 0


def test_a_signed_release_is_accepted(tmp_path: Path, keys: Path) -> None:
    house = release(tmp_path, tmp_path / "private/good.key")
    result = verify(house, keys)
    assert result.returncode == 0, result.stderr
    assert "signature and every file" in result.stderr and "good.pub" in result.stderr


def test_an_unsigned_release_is_refused(tmp_path: Path, keys: Path) -> None:
    result = verify(release(tmp_path, None), keys)
    assert result.returncode != 0 and "is not signed" in result.stderr


def test_a_release_signed_with_another_key_is_refused(tmp_path: Path, keys: Path) -> None:
    house = release(tmp_path, make_key(tmp_path / "elsewhere", "stranger"))
    result = verify(house, keys)
    assert result.returncode != 0 and "matches none of the trusted keys" in result.stderr


def test_a_file_changed_after_signing_is_refused(tmp_path: Path, keys: Path) -> None:
    house = release(tmp_path, tmp_path / "private/good.key")
    (house / "checkout/deploy/install.sh").write_text("#!/bin/bash\nrm -rf /\n")
    result = verify(house, keys)
    assert result.returncode != 0 and "differ from what was signed" in result.stderr
    assert "install.sh: FAILED" in result.stderr


def test_a_file_added_after_signing_is_refused(tmp_path: Path, keys: Path) -> None:
    house = release(tmp_path, tmp_path / "private/good.key")
    (house / "evil-9.9-py3-none-any.whl").write_bytes(b"picked up by pip")
    result = verify(house, keys)
    assert result.returncode != 0 and "evil-9.9-py3-none-any.whl" in result.stderr


def test_a_signed_list_naming_a_file_outside_the_folder_is_refused(tmp_path: Path,
                                                                   keys: Path) -> None:
    house = release(tmp_path, None)
    with (house / "SHA256SUMS").open("a") as sums:
        sums.write("0" * 64 + "  ../../etc/shadow\n")
    subprocess.run(["openssl", "pkeyutl", "-sign", "-inkey", str(tmp_path / "private/good.key"),
                    "-rawin", "-in", str(house / "SHA256SUMS"), "-out",
                    str(house / "SHA256SUMS.sig")], check=True)
    result = verify(house, keys)
    assert result.returncode != 0 and "outside the folder" in result.stderr


def test_without_trusted_keys_nothing_is_accepted(tmp_path: Path) -> None:
    house = release(tmp_path, make_key(tmp_path / "private", "good"))
    result = verify(house, tmp_path / "empty")
    assert result.returncode != 0 and "no trusted signing keys" in result.stderr


def test_the_installer_refuses_a_bad_release_with_code_3_before_changing_anything(
        tmp_path: Path, keys: Path) -> None:
    house = release(tmp_path, make_key(tmp_path / "elsewhere", "stranger"))
    # Anything past the check would call these: they must not run.
    result = bash(INSTALL, 'install_packages() { echo CHANGED; }; make_user() { echo CHANGED; }; '
                  f'do_install "" "" "{house}" 1 90 1', COMPANION_SIGNING_KEYS=str(keys))
    assert result.returncode == 3
    assert "was not installed; nothing was changed" in result.stderr
    assert "CHANGED" not in result.stdout


def test_require_signature_needs_a_source() -> None:
    result = subprocess.run([str(INSTALL), "--require-signature"], capture_output=True,
                            text=True)
    assert result.returncode != 0 and "--require-signature needs --source" in result.stderr


# --- the update unit's program ------------------------------------------------------------------


def run_update(tmp_path: Path, keys: Path, folder: Path) -> subprocess.CompletedProcess[str]:
    request = tmp_path / "update-request"
    request.write_text(f"{folder}\n")
    staging = tmp_path / "staging"
    staging.mkdir(exist_ok=True)
    return subprocess.run(
        ["bash", str(DEPLOY / "update-from-stick.sh"), str(request)], capture_output=True,
        text=True, env={**os.environ, "COMPANION_SIGNING_KEYS": str(keys),
                        "COMPANION_STAGING": str(staging),
                        "COMPANION_TEST_OUT": str(tmp_path / "ran")})


def test_the_update_unit_copies_the_signed_files_and_runs_their_installer(
        tmp_path: Path, keys: Path) -> None:
    house = release(tmp_path, tmp_path / "private/good.key")
    (house / "._spirit_island_companion-1.2.3-py3-none-any.whl").write_bytes(b"macOS litter")
    result = run_update(tmp_path, keys, house)
    assert result.returncode == 0, result.stderr
    ran = (tmp_path / "ran").read_text()
    assert ran.startswith("install.sh ran with: --source ")
    assert ran.rstrip().endswith("--require-signature")
    # It ran from a copy of root's, which is gone afterwards, and the request is used up.
    assert str(tmp_path / "staging") in ran and not list((tmp_path / "staging").iterdir())
    assert not (tmp_path / "update-request").exists()


@pytest.mark.parametrize("damage", ["tampered", "unsigned"])
def test_the_update_unit_refuses_a_damaged_update_and_runs_nothing(
        tmp_path: Path, keys: Path, damage: str) -> None:
    house = release(tmp_path, tmp_path / "private/good.key")
    if damage == "tampered":
        (house / "spirit_island_companion-1.2.3-py3-none-any.whl").write_bytes(b"changed")
    else:
        (house / "SHA256SUMS.sig").unlink()
    result = run_update(tmp_path, keys, house)
    assert result.returncode != 0
    assert "refused" in result.stderr
    assert not (tmp_path / "ran").exists()


def test_the_update_unit_takes_only_a_companion_update_folder(tmp_path: Path,
                                                              keys: Path) -> None:
    house = release(tmp_path, tmp_path / "private/good.key")
    elsewhere = house.rename(house.with_name("other"))
    result = run_update(tmp_path, keys, elsewhere)
    assert result.returncode != 0 and "is not a companion-update folder" in result.stderr


# --- the read-only root: the result copied onto the card below --------------------------------


def test_the_card_below_gets_the_new_releases_and_links_and_loses_the_pruned(
        tmp_path: Path) -> None:
    prefix, lower = tmp_path / "opt", tmp_path / "lower"
    for name in ("old", "new"):
        (prefix / "releases" / name).mkdir(parents=True)
        (prefix / "releases" / name / ".companion-release").write_text(name + "\n")
    (prefix / "current").symlink_to("releases/new")
    (prefix / "previous").symlink_to("releases/old")
    below = lower / str(prefix).lstrip("/")
    (below / "releases/pruned").mkdir(parents=True)
    (below / "releases/pruned/.companion-release").write_text("pruned\n")
    (below / "releases/old").mkdir()
    (below / "releases/old/.companion-release").write_text("old\n")
    (below / "current").symlink_to("releases/old")
    result = bash(INSTALL, "persisted_paths() { :; }; STICKS=/sticks; mirror_onto_card",
                  COMPANION_PREFIX=str(prefix), COMPANION_LOWER_ROOT=str(lower))
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (below / "releases").iterdir()) == ["new", "old"]
    assert os.readlink(below / "current") == "releases/new"
    assert os.readlink(below / "previous") == "releases/old"
    assert "copied release new onto the card" in result.stderr


def test_a_file_gone_above_is_removed_below_and_a_folder_brought_up_to_date(tmp_path: Path) -> None:
    above, lower = tmp_path / "etc", tmp_path / "lower"
    (above / "keys").mkdir(parents=True)
    (above / "keys/new.pub").write_text("new\n")
    below = lower / str(above).lstrip("/")
    (below / "keys").mkdir(parents=True)
    (below / "keys/old.pub").write_text("old\n")
    (below / "gone.rules").write_text("x\n")
    result = bash(INSTALL, f'mirror_path "{above}/keys"; mirror_path "{above}/gone.rules"',
                  COMPANION_LOWER_ROOT=str(lower))
    assert result.returncode == 0, result.stderr
    assert [p.name for p in (below / "keys").iterdir()] == ["new.pub"]
    assert not (below / "gone.rules").exists()


def test_what_is_the_same_below_is_left_alone_and_what_changed_is_replaced(
        tmp_path: Path) -> None:
    """A file replaced on the card while a program still holds it keeps the card writable
    (update-from-stick.sh runs from the helpers' folder while its installer writes there)."""
    above, lower = tmp_path / "helpers", tmp_path / "lower"
    above.mkdir()
    (above / "update-from-stick.sh").write_text("#!/bin/bash\n")
    (above / "stick-mount.sh").write_text("new\n")
    below = lower / str(above).lstrip("/")
    below.mkdir(parents=True)
    (below / "update-from-stick.sh").write_text("#!/bin/bash\n")
    (below / "stick-mount.sh").write_text("old\n")
    for path in (above, below):
        (path / "update-from-stick.sh").chmod(0o755)
    held = (below / "update-from-stick.sh").stat().st_ino
    result = bash(INSTALL, f'mirror_path "{above}"', COMPANION_LOWER_ROOT=str(lower))
    assert result.returncode == 0, result.stderr
    assert (below / "update-from-stick.sh").stat().st_ino == held  # the same file, left alone
    assert (below / "stick-mount.sh").read_text() == "new\n"
    (above / "stick-mount.sh").chmod(0o700)  # a mode is a change too
    assert bash(INSTALL, f'mirror_path "{above}"', COMPANION_LOWER_ROOT=str(lower)).returncode == 0
    assert (below / "stick-mount.sh").stat().st_mode & 0o777 == 0o700
    assert (below / "update-from-stick.sh").stat().st_ino == held


@pytest.mark.parametrize("label, folder", [("FAMILY", "FAMILY"), ("My Stick!", "My Stick"),
                                           ("../..", "sdb1"), ("", "sdb1")])
def test_a_stick_is_mounted_under_its_label_made_safe(label: str, folder: str) -> None:
    result = bash(DEPLOY / "stick-mount.sh", f'folder_name "{label}" sdb1')
    assert result.stdout == folder


def test_nothing_on_a_stick_can_be_run() -> None:
    for fstype in ("vfat", "exfat", "ntfs3"):
        result = bash(DEPLOY / "stick-mount.sh", f"USER_NAME=root; mount_options {fstype}")
        assert {"noexec", "nosuid", "nodev"} <= set(result.stdout.split(",")), fstype
    assert bash(DEPLOY / "stick-mount.sh", "USER_NAME=root; mount_options ext4").returncode != 0
