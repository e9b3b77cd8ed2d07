"""A picture of a whole X display, taken from outside the app (`xwd`), as RGB rows.

The installed app is a black box to these tests: nothing of it is imported, so the screenshot
comes from the X server. PNG files are written with the standard library, to be looked at.
"""

from __future__ import annotations

import struct
import subprocess
import zlib
from collections import Counter
from pathlib import Path

Pixel = tuple[int, int, int]


class Picture:
    def __init__(self, width: int, height: int, rows: list[list[Pixel]]) -> None:
        self.width, self.height, self.rows = width, height, rows

    def colours(self, top: int = 0, bottom: int | None = None) -> Counter[Pixel]:
        """How many pixels of each colour, in the rows from `top` to `bottom`."""
        counts: Counter[Pixel] = Counter()
        for row in self.rows[top:bottom]:
            counts.update(row)
        return counts

    def share(self, colour: Pixel, tolerance: int = 6) -> float:
        """The share of the picture within `tolerance` of `colour` in every channel."""
        near = sum(count for pixel, count in self.colours().items()
                   if all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True)))
        return near / (self.width * self.height)

    def save_png(self, path: Path) -> None:
        raw = b"".join(b"\0" + bytes(v for pixel in row for v in pixel) for row in self.rows)
        def chunk(kind: bytes, data: bytes) -> bytes:
            body = kind + data
            return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                         + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def screenshot(display: str) -> Picture:
    """The root window of `display` (xwd's ZPixmap dump, 24 or 32 bits a pixel)."""
    dump = subprocess.run(["xwd", "-root", "-silent", "-display", display],
                          capture_output=True, check=True, timeout=30).stdout
    return parse_xwd(dump)


def parse_xwd(dump: bytes) -> Picture:
    fields = struct.unpack(">25I", dump[:100])
    header_size, version, pixmap_format = fields[0], fields[1], fields[2]
    width, height, byte_order, bits_per_pixel, bytes_per_line = (
        fields[4], fields[5], fields[7], fields[11], fields[12])
    red_mask, green_mask, blue_mask, colour_entries = fields[14], fields[15], fields[16], fields[19]
    if version != 7 or pixmap_format != 2 or bits_per_pixel not in (24, 32):
        raise ValueError(f"an xwd dump this reader does not know: version {version}, format "
                         f"{pixmap_format}, {bits_per_pixel} bits a pixel")
    start = header_size + 12 * colour_entries
    step = bits_per_pixel // 8
    order = "little" if byte_order == 0 else "big"
    shifts = [(mask, (mask & -mask).bit_length() - 1) for mask in (red_mask, green_mask, blue_mask)]
    rows = []
    for y in range(height):
        line = dump[start + y * bytes_per_line: start + y * bytes_per_line + width * step]
        row = []
        for x in range(0, width * step, step):
            value = int.from_bytes(line[x:x + step], order)
            row.append(tuple((value & mask) >> shift for mask, shift in shifts))
        rows.append(row)
    return Picture(width, height, rows)  # type: ignore[arg-type]
