"""companion/updates.py: the updates a stick offers, their signature checked with openssl
against trusted keys made here, and the hand-over to the update unit (its runner recorded)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from companion.updates import (
    REQUEST_FILE,
    UPDATE_FOLDER,
    Update,
    UpdateRefused,
    find_updates,
    run_command,
    signature_matches,
    start_update,
    update_unavailable_because,
)
from tests.release_keys import make_key

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is missing")

APPLIANCE = {"COMPANION_APPLIANCE": "1"}


def make_update(stick: Path, key: Path | None, version: str = "9.9.9") -> Path:
    folder = stick / UPDATE_FOLDER
    folder.mkdir(parents=True)
    (folder / "VERSION").write_text(version + "\n")
    (folder / "SHA256SUMS").write_text("0" * 64 + "  VERSION\n")
    if key is not None:
        subprocess.run(["openssl", "pkeyutl", "-sign", "-inkey", str(key), "-rawin", "-in",
                        str(folder / "SHA256SUMS"), "-out", str(folder / "SHA256SUMS.sig")],
                       check=True)
    return folder


@pytest.fixture
def keys(tmp_path: Path) -> Path:
    """The trusted keys folder, holding one project key; its private half is beside it."""
    trusted = tmp_path / "trusted"
    key = make_key(tmp_path / "private", "project")
    trusted.mkdir()
    shutil.copy(key.with_suffix(".pub"), trusted)
    return trusted


def project_key(keys: Path) -> Path:
    return keys.parent / "private/project.key"


class Recorder:
    """Stands in for subprocess: systemctl answers as told; openssl really runs."""

    def __init__(self, systemctl_code: int = 0) -> None:
        self.commands: list[list[str]] = []
        self.systemctl_code = systemctl_code

    def __call__(self, command: Sequence[str]) -> subprocess.CompletedProcess[str]:
        self.commands.append(list(command))
        if command[0] == "systemctl":
            return subprocess.CompletedProcess(list(command), self.systemctl_code, "",
                                               "Access denied" if self.systemctl_code else "")
        return run_command(command)


def test_a_signed_update_on_a_stick_is_offered_with_its_version(tmp_path: Path,
                                                                keys: Path) -> None:
    folder = make_update(tmp_path / "STICK", project_key(keys), "1.2.3")
    (found,) = find_updates([tmp_path / "EMPTY", tmp_path / "STICK"], keys,
                            running_version="1.0.0")
    assert found == Update(folder, "1.2.3", True, None)


def test_an_unsigned_update_is_shown_but_refused_in_words(tmp_path: Path, keys: Path) -> None:
    make_update(tmp_path / "STICK", None)
    (found,) = find_updates([tmp_path / "STICK"], keys)
    assert not found.signed and found.version == "9.9.9"
    assert found.why_not and "not signed" in found.why_not


def test_an_update_signed_with_another_key_is_refused(tmp_path: Path, keys: Path) -> None:
    stranger = make_key(tmp_path / "elsewhere", "stranger")
    make_update(tmp_path / "STICK", stranger)
    (found,) = find_updates([tmp_path / "STICK"], keys)
    assert not found.signed and found.why_not


def test_a_list_changed_after_signing_breaks_the_signature(tmp_path: Path, keys: Path) -> None:
    folder = make_update(tmp_path / "STICK", project_key(keys))
    assert signature_matches(folder, keys)
    with (folder / "SHA256SUMS").open("a") as sums:
        sums.write("1" * 64 + "  extra.whl\n")
    assert not signature_matches(folder, keys)


def test_without_trusted_keys_nothing_counts_as_signed(tmp_path: Path, keys: Path) -> None:
    folder = make_update(tmp_path / "STICK", project_key(keys))
    assert not signature_matches(folder, tmp_path / "no-keys")


def test_the_running_version_is_not_offered_again(tmp_path: Path, keys: Path) -> None:
    make_update(tmp_path / "STICK", project_key(keys), "1.0.0")
    (found,) = find_updates([tmp_path / "STICK"], keys, running_version="1.0.0")
    assert found.signed and found.why_not == "This version is already running."


def test_an_update_without_a_version_is_incomplete(tmp_path: Path, keys: Path) -> None:
    folder = make_update(tmp_path / "STICK", project_key(keys))
    (folder / "VERSION").unlink()
    (found,) = find_updates([tmp_path / "STICK"], keys)
    assert not found.signed and found.why_not and "incomplete" in found.why_not


def test_starting_writes_the_request_and_starts_only_the_update_unit(tmp_path: Path,
                                                                     keys: Path) -> None:
    make_update(tmp_path / "STICK", project_key(keys))
    (update,) = find_updates([tmp_path / "STICK"], keys)
    request = tmp_path / "run/update-request"
    request.parent.mkdir()
    runner = Recorder()
    start_update(update, keys, request, runner, APPLIANCE, systemd_dir=tmp_path)
    assert request.read_text() == f"{update.folder}\n"
    assert runner.commands[-1] == ["systemctl", "start", "--no-block",
                                   "companion-update.service"]


def test_a_stick_changed_since_it_was_looked_at_is_refused(tmp_path: Path, keys: Path) -> None:
    folder = make_update(tmp_path / "STICK", project_key(keys))
    (update,) = find_updates([tmp_path / "STICK"], keys)
    (folder / "SHA256SUMS.sig").write_bytes(b"\0" * 64)
    request = tmp_path / "update-request"
    runner = Recorder()
    with pytest.raises(UpdateRefused, match="not signed"):
        start_update(update, keys, request, runner, APPLIANCE, systemd_dir=tmp_path)
    assert not request.exists()
    assert not [c for c in runner.commands if c[0] == "systemctl"]


def test_a_refused_start_says_why_and_leaves_no_request(tmp_path: Path, keys: Path) -> None:
    make_update(tmp_path / "STICK", project_key(keys))
    (update,) = find_updates([tmp_path / "STICK"], keys)
    request = tmp_path / "update-request"
    with pytest.raises(UpdateRefused, match="Access denied"):
        start_update(update, keys, request, Recorder(systemctl_code=1), APPLIANCE,
                     systemd_dir=tmp_path)
    assert not request.exists()


def test_an_update_that_cannot_be_installed_is_not_started(tmp_path: Path, keys: Path) -> None:
    make_update(tmp_path / "STICK", None)
    (update,) = find_updates([tmp_path / "STICK"], keys)
    runner = Recorder()
    with pytest.raises(UpdateRefused, match="not signed"):
        start_update(update, keys, tmp_path / "update-request", runner, APPLIANCE,
                     systemd_dir=tmp_path)
    assert runner.commands == []


def test_updates_are_offered_only_on_the_appliance_under_systemd(tmp_path: Path) -> None:
    assert update_unavailable_because(APPLIANCE, systemd_dir=tmp_path) is None
    assert update_unavailable_because({}, systemd_dir=tmp_path)
    assert update_unavailable_because(APPLIANCE, systemd_dir=tmp_path / "none")


def test_the_request_file_is_in_the_apps_runtime_folder() -> None:
    # companion.service's RuntimeDirectory=companion makes /run/companion the app's own.
    unit = (Path(__file__).resolve().parents[2] / "deploy/companion.service").read_text()
    assert "RuntimeDirectory=companion\n" in unit
    assert REQUEST_FILE.parent == Path("/run/companion")
    assert f"ExecStart=/usr/local/lib/companion/update-from-stick.sh {REQUEST_FILE}" in (
        Path(__file__).resolve().parents[2] / "deploy/companion-update.service").read_text()
