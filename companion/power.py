"""Turning the table's Raspberry Pi off, or restarting it, from the touchscreen.

The app runs as the unprivileged `companion` user: `systemctl poweroff` (or `reboot`) then asks
systemd-logind, which allows it through the appliance's polkit rule (deploy/). The games are
flushed first, so the card holds one complete games file when the power goes. Offered only on
the appliance, whose unit sets COMPANION_APPLIANCE=1: on a desktop, even one with systemd, the
companion must never turn the computer off. Pure: no Kivy.
"""

from __future__ import annotations

import logging
import os
import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from .i18n import N_, _

log = logging.getLogger(__name__)

APPLIANCE_VARIABLE = "COMPANION_APPLIANCE"
"""Set to 1 by companion.service: this is the table's own Pi."""
SYSTEMD_RUNNING = Path("/run/systemd/system")
"""Exists while systemd is the init system (sd_booted() looks for the same folder)."""
COMMAND_SECONDS = 30.0
"""How long systemctl may take to hand the job to logind (it returns once the job is queued)."""

NOT_THE_APPLIANCE = N_("Turn off and Restart are for the table's Raspberry Pi; this computer is "
                       "turned off its own way.")
NO_SYSTEMD = N_("Turn off and Restart cannot be used here: this computer does not let the "
                "table turn it off. Turn it off its own way.")
TURN_OFF_FAILED = N_("The table could not be turned off ({reason}). Nothing is lost: the games "
                     "are kept. Pull the plug only once the screen is dark, or ask whoever set "
                     "the table up.")
RESTART_FAILED = N_("The table could not be restarted ({reason}). Nothing is lost: the games "
                    "are kept; the table goes on as before.")
NOT_ALLOWED = N_("the system did not allow it")
NO_SYSTEMCTL = N_("the system's power control is missing")
TOO_SLOW = N_("the system did not answer")

Runner = Callable[[Sequence[str]], "subprocess.CompletedProcess[str]"]
"""Runs a command and returns how it ended (subprocess.run's answer)."""


def run_command(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(command), capture_output=True, text=True, check=False,
                          timeout=COMMAND_SECONDS)


class PowerFailed(Exception):
    """The system refused or did not answer; str() says so to the players (translated)."""


class PowerControl:
    """Turn off and Restart: each flushes the games through `flush`, then asks systemd."""

    def __init__(self, flush: Callable[[], None], runner: Runner = run_command,
                 environ: Mapping[str, str] | None = None,
                 systemd_folder: Path = SYSTEMD_RUNNING) -> None:
        self.flush = flush
        self.runner = runner
        self.environ = os.environ if environ is None else environ
        self.systemd_folder = systemd_folder

    def unavailable_because(self) -> str | None:
        """None when the table can be turned off from its screen; else why not, translated."""
        if self.environ.get(APPLIANCE_VARIABLE, "").strip() != "1":
            return _(NOT_THE_APPLIANCE)
        if not self.systemd_folder.is_dir():
            return _(NO_SYSTEMD)
        return None

    def turn_off(self) -> None:
        """Flush the games, then power the Pi off. PowerFailed (translated) when it cannot:
        the games stay open and the app goes on."""
        self._ask("poweroff", TURN_OFF_FAILED)

    def restart(self) -> None:
        """Flush the games, then reboot the Pi. PowerFailed (translated) when it cannot."""
        self._ask("reboot", RESTART_FAILED)

    def _ask(self, verb: str, failed: str) -> None:
        why_not = self.unavailable_because()
        if why_not is not None:
            raise PowerFailed(why_not)
        self.flush()
        command = ["systemctl", verb]
        try:
            result = self.runner(command)
        except FileNotFoundError:
            log.error("%s: systemctl is not installed", " ".join(command))
            raise PowerFailed(_(failed).format(reason=_(NO_SYSTEMCTL))) from None
        except subprocess.TimeoutExpired:
            log.error("%s: no answer within %.0f s", " ".join(command), COMMAND_SECONDS)
            raise PowerFailed(_(failed).format(reason=_(TOO_SLOW))) from None
        except OSError as error:
            log.error("%s could not be run: %s", " ".join(command), error)
            raise PowerFailed(_(failed).format(reason=_(NOT_ALLOWED))) from None
        if result.returncode != 0:
            # Polkit's refusal ("Access denied", "Interactive authentication required") is
            # for the log; the players are told it was not allowed.
            log.error("%s failed (%d): %s", " ".join(command), result.returncode,
                      (result.stderr or result.stdout or "").strip())
            raise PowerFailed(_(failed).format(reason=_(NOT_ALLOWED)))
        log.info("%s asked of systemd: the app stops when it is told to", " ".join(command))
