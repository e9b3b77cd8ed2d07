"""The display the app draws on: straight to the screen (the appliance) or in a desktop's
window, and which way round the panel is mounted. Read from the environment only, so that the
launch (before Kivy is imported) and the running app and its settings share one answer."""

from __future__ import annotations

import logging
import os

ROTATIONS = (0, 90, 180, 270)


def draws_on_screen() -> bool:
    """Whether SDL draws straight to the screen (KMS/DRM, no desktop): the appliance."""
    return os.environ.get("SDL_VIDEODRIVER", "") == "kmsdrm"


def default_rotation() -> int:
    """The screen's rotation in degrees from COMPANION_ROTATION (the installer writes it for a
    panel mounted the other way round); 0 when unset or not one of 0, 90, 180, 270."""
    value = os.environ.get("COMPANION_ROTATION", "").strip()
    try:
        rotation = int(value) if value else 0
    except ValueError:
        rotation = -1
    if rotation not in ROTATIONS:
        logging.getLogger(__name__).warning(
            "COMPANION_ROTATION=%r is not one of 0, 90, 180, 270; the screen is not rotated",
            value)
        return 0
    return rotation


def screen_rotation(setting: str) -> int:
    """The rotation the setting asks for; "" (never chosen) takes the installer's default."""
    try:
        rotation = int(setting)
    except ValueError:
        return default_rotation()
    return rotation if rotation in ROTATIONS else default_rotation()
