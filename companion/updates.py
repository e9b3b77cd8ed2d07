"""Updates from a USB stick: a signed release (`python3 tasks.py wheelhouse DIR --sign KEY`) in a
folder `companion-update/` at the top of a stick.

The app runs as the unprivileged `companion` user, so it only finds and checks what a stick
offers and asks for it: `start_update` writes the folder's path to a request file and starts
`companion-update.service`, which the polkit rule lets this user start (deploy/). That unit, as
root, copies the signed files off the stick, checks them again, every file's hash included, and
installs them with deploy/install.sh's health check and automatic roll-back.

The signature is checked the way install.sh checks it: `openssl pkeyutl -verify` of
SHA256SUMS against each trusted public key. Here only the signature is checked, which is quick;
hashing every file of a stick would hold up the screen for seconds.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from . import __version__
from .i18n import N_, _

UPDATE_FOLDER = "companion-update"
"""The folder at the top of a stick that holds an update."""
TRUSTED_KEYS = Path("/etc/companion/signing-keys")
"""The public keys (*.pub) an update must be signed with; install.sh puts them there."""
REQUEST_FILE = Path("/run/companion/update-request")
"""Where the app names the folder to install (the unit's RuntimeDirectory=, the app's own)."""
UPDATE_UNIT = "companion-update.service"
SUMS = "SHA256SUMS"
SIGNATURE = "SHA256SUMS.sig"
VERSION_FILE = "VERSION"
NOT_SIGNED = N_("The update on the stick is not signed by the makers of the companion, or was "
                "changed since, so it is not installed.")

Runner = Callable[[Sequence[str]], "subprocess.CompletedProcess[str]"]


def run_command(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(command), capture_output=True, text=True, timeout=60,
                          check=False)


class UpdateRefused(Exception):
    """An update that cannot be started; str() says why in the players' language."""


@dataclass(frozen=True)
class Update:
    folder: Path
    version: str
    signed: bool
    """SHA256SUMS's signature matches one of the trusted keys."""
    why_not: str | None
    """Why it cannot be installed (translated), or None when it can."""


def find_updates(sticks: list[Path], keys: Path = TRUSTED_KEYS,
                 runner: Runner = run_command,
                 running_version: str = __version__) -> list[Update]:
    """The updates on the sticks (`usb_sticks.mounted_sticks()`), in the sticks' order."""
    updates = []
    for stick in sticks:
        folder = stick / UPDATE_FOLDER
        if folder.is_dir():
            updates.append(describe(folder, keys, runner, running_version))
    return updates


def describe(folder: Path, keys: Path, runner: Runner, running_version: str) -> Update:
    version = read_version(folder)
    if not version:
        return Update(folder, "", False, _("The update on the stick is incomplete: it does "
                                           "not say its version. Copy it onto the stick again."))
    signed = signature_matches(folder, keys, runner)
    if not signed:
        return Update(folder, version, False, _(NOT_SIGNED))
    if version == running_version:
        return Update(folder, version, True, _("This version is already running."))
    return Update(folder, version, True, None)


def read_version(folder: Path) -> str:
    try:
        lines = (folder / VERSION_FILE).read_text(encoding="utf-8").split()
    except (OSError, UnicodeDecodeError):
        return ""
    return lines[0] if lines else ""


def signature_matches(folder: Path, keys: Path, runner: Runner = run_command) -> bool:
    """Whether SHA256SUMS.sig is SHA256SUMS signed with one of the keys (install.sh's check)."""
    sums, signature = folder / SUMS, folder / SIGNATURE
    if not (sums.is_file() and signature.is_file()):
        return False
    try:
        trusted = sorted(keys.glob("*.pub"))
    except OSError:
        return False
    for key in trusted:
        try:
            result = runner(["openssl", "pkeyutl", "-verify", "-pubin", "-inkey", str(key),
                             "-rawin", "-in", str(sums), "-sigfile", str(signature)])
        except (OSError, subprocess.SubprocessError):
            return False  # no openssl: nothing can be shown as signed
        if result.returncode == 0:
            return True
    return False


def update_unavailable_because(environ: dict[str, str] | None = None,
                               systemd_dir: Path = Path("/run/systemd/system")) -> str | None:
    """None where an update can be started (the appliance, under systemd); else why not."""
    env = os.environ if environ is None else environ
    if env.get("COMPANION_APPLIANCE") != "1" or not systemd_dir.is_dir():
        return _("Updates from a stick are installed on the table itself; here, install the "
                 "new version as you installed this one.")
    return None


def start_update(update: Update, keys: Path = TRUSTED_KEYS,
                 request_file: Path = REQUEST_FILE, runner: Runner = run_command,
                 environ: dict[str, str] | None = None,
                 systemd_dir: Path = Path("/run/systemd/system")) -> None:
    """Hands the update to companion-update.service, which installs it as root and restarts the
    app; raises UpdateRefused (translated) when it cannot be started."""
    why = update_unavailable_because(environ, systemd_dir) or update.why_not
    if why:
        raise UpdateRefused(why)
    # The stick may have changed since it was looked at.
    if not signature_matches(update.folder, keys, runner):
        raise UpdateRefused(_(NOT_SIGNED))
    try:
        waiting = request_file.with_name(request_file.name + ".new")
        waiting.write_text(f"{update.folder}\n", encoding="utf-8")
        waiting.replace(request_file)
    except OSError as error:
        raise UpdateRefused(_("The update could not be handed over: {why}").format(
            why=error.strerror or error)) from error
    try:
        result = runner(["systemctl", "start", "--no-block", UPDATE_UNIT])
    except (OSError, subprocess.SubprocessError) as error:
        result = subprocess.CompletedProcess([], 1, "", str(error))
    if result.returncode != 0:
        request_file.unlink(missing_ok=True)
        raise UpdateRefused(_("The update could not be started: {why}").format(
            why=(result.stderr or result.stdout).strip() or result.returncode))
