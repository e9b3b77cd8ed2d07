"""A QR matrix as a PNG (standard library only), for a real decoder to read in the tests."""

from __future__ import annotations

import struct
import zlib

from companion.mirror.qr import Matrix


def png_of(modules: Matrix, scale: int = 4, border: int = 4) -> bytes:
    """Black on white, `scale` pixels a module, with the quiet zone the standard asks for."""
    size = (len(modules) + 2 * border) * scale
    rows = []
    for y in range(size):
        my = y // scale - border
        line = bytearray([0])  # filter: none
        for x in range(size):
            mx = x // scale - border
            dark = 0 <= my < len(modules) and 0 <= mx < len(modules) and modules[my][mx]
            line.append(0 if dark else 255)
        rows.append(bytes(line))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 0, 0, 0, 0)  # 8-bit greyscale
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))
