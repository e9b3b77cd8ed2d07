"""The display's backlight, dimmed with the night theme where the panel lets the app set it.

Linux shows a panel's backlight as /sys/class/backlight/<name>/ with `brightness` and
`max_brightness`; the appliance's udev rule lets the `video` group write `brightness`. Anything
else (a desktop monitor, a file that cannot be written) leaves the light as it is: dimming is
a comfort, never a reason to stop.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)

SYSFS_BACKLIGHTS = Path("/sys/class/backlight")
NIGHT_FRACTION = 0.25
"""The night theme's brightness, as a share of the panel's brightest."""
BL_POWER_ON, BL_POWER_OFF = 0, 4
"""bl_power's values: FB_BLANK_UNBLANK and FB_BLANK_POWERDOWN."""


class Backlight:
    """One backlight folder in sysfs (or a stand-in folder with the same two files)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._bright: int | None = None  # the level before dimming, put back afterwards
        self._awake: int | None = None  # the level before the screen slept, put back on waking
        self._powered_down = False  # bl_power was set to off by `sleep`
        self._warned = False

    @classmethod
    def find(cls, environ: dict[str, str] | None = None,
             sysfs: Path = SYSFS_BACKLIGHTS) -> Backlight | None:
        """The panel named in COMPANION_BACKLIGHT, else the first one sysfs lists, else None."""
        environ = dict(os.environ) if environ is None else environ
        named = environ.get("COMPANION_BACKLIGHT", "").strip()
        if named:
            folder = Path(named) if "/" in named else sysfs / named
            return cls(folder) if (folder / "brightness").exists() else None
        try:
            folders = sorted(p for p in sysfs.iterdir() if (p / "brightness").exists())
        except OSError:
            return None
        return cls(folders[0]) if folders else None

    def _read(self, name: str) -> int:
        return int((self.folder / name).read_text().strip())

    def _levels(self) -> tuple[int, int] | None:
        """The light now and its brightest (None, and a warning, when they cannot be read)."""
        try:
            return self._read("brightness"), self._read("max_brightness")
        except (OSError, ValueError) as error:
            log.warning("the backlight %s cannot be read: %s", self.folder, error)
            return None

    def _write(self, level: int, name: str = "brightness") -> bool:
        try:
            (self.folder / name).write_text(f"{level}\n")
        except OSError as error:
            if not self._warned:
                log.warning("the backlight %s cannot be set: %s", self.folder, error)
                self._warned = True
            return False
        return True

    def dim(self, fraction: float = NIGHT_FRACTION) -> bool:
        """Turn the light down to `fraction` of its brightest (never fully off)."""
        levels = self._levels()
        if levels is None:
            return False
        current, brightest = levels
        if self._bright is None:
            self._bright = current
        return self._write(max(1, round(brightest * fraction)))

    def restore(self) -> bool:
        """Put back the level from before dimming (nothing to do if it was not dimmed)."""
        if self._bright is None:
            return True
        if self._write(self._bright):
            self._bright = None
            return True
        return False

    def fraction(self) -> float | None:
        """The light now, as a share of its brightest (None: it cannot be read)."""
        try:
            brightest = self._read("max_brightness")
            return self._read("brightness") / brightest if brightest > 0 else None
        except (OSError, ValueError):
            return None

    def sleep(self, fraction: float) -> bool:
        """Down to `fraction` of the brightest until `wake` (never brighter than it is now);
        0 switches the light off: brightness 0, and bl_power off where the panel has it and
        it can be written (some panels keep a glow at brightness 0)."""
        levels = self._levels()
        if levels is None:
            return False
        current, brightest = levels
        if self._awake is None:
            self._awake = current
        if fraction <= 0:
            if (self.folder / "bl_power").exists():
                self._powered_down = self._write(BL_POWER_OFF, "bl_power") or self._powered_down
            return self._write(0) or self._powered_down
        return self._write(min(self._awake, max(1, round(brightest * fraction))))

    def wake(self) -> bool:
        """The light as it was before `sleep` (nothing to do if it did not sleep)."""
        if self._powered_down and self._write(BL_POWER_ON, "bl_power"):
            self._powered_down = False
        if self._awake is None:
            return True
        if self._write(self._awake):
            self._awake = None
            return True
        return False
