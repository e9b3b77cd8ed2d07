"""The USB sticks plugged in and mounted, from the kernel's table of mounts: a file system a
stick carries (FAT, exFAT, NTFS) mounted under a folder where desktops and automounters put
removable media."""

from __future__ import annotations

import os
import re
from pathlib import Path

MOUNTS = Path("/proc/mounts")
REMOVABLE_ROOTS = ("/media", "/run/media", "/mnt")
"""udisks mounts under /media/<user>/ (Debian) or /run/media/<user>/, usbmount under
/media/usb*, and a person by hand often under /mnt."""
STICK_FILE_SYSTEMS = frozenset({"vfat", "exfat", "ntfs", "ntfs3", "fuseblk"})
"""What a stick bought in a shop carries (fuseblk: NTFS or exFAT through FUSE)."""
_ESCAPED = re.compile(r"\\([0-7]{3})")


def mounted_sticks(mounts: Path = MOUNTS,
                   roots: tuple[str, ...] = REMOVABLE_ROOTS) -> list[Path]:
    """The folders where a stick is mounted, writable, in the order mounted; none when the
    table cannot be read."""
    try:
        lines = mounts.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    sticks: list[Path] = []
    for line in lines:
        fields = line.split()
        if len(fields) < 4 or fields[2] not in STICK_FILE_SYSTEMS:
            continue
        # The table writes a space in a folder's name as \040 (a stick named "MY STICK").
        folder = _ESCAPED.sub(lambda octal: chr(int(octal.group(1), 8)), fields[1])
        options = fields[3].split(",")
        inside = any(folder.startswith(root.rstrip("/") + "/") for root in roots)
        # A stick shows twice in a service's own mount namespace (the stick's mount propagated
        # to the folder's bind mount too): one stick, one entry.
        if inside and "ro" not in options and os.access(folder, os.W_OK) \
                and Path(folder) not in sticks:
            sticks.append(Path(folder))
    return sticks
