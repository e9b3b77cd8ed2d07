"""A QR code encoder for the mirror's address (ISO/IEC 18004): byte mode, error correction
level M, versions 1 to 10, the mask with the lowest penalty of all eight. Pure Python; the
touchscreen draws the matrix it returns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

# Error correction level M, by version 1..10 (index 0 unused): codewords per block, blocks.
ECC_PER_BLOCK = (0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26)
BLOCKS = (0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5)
ALIGNMENT = ((), (), (6, 18), (6, 22), (6, 26), (6, 30), (6, 34), (6, 22, 38), (6, 24, 42),
             (6, 26, 46), (6, 28, 50))
MAX_VERSION = 10
FORMAT_LEVEL_M = 0b00
"""Level M's two bits in the format information (L is 01, Q 11, H 10)."""

Matrix = list[list[bool]]
"""Rows of modules, True for dark; no quiet zone."""


def encode(text: str) -> Matrix:
    """`text` (UTF-8) as a QR code; ValueError when it does not fit version 10-M."""
    data = text.encode("utf-8")
    version = next((v for v in range(1, MAX_VERSION + 1) if _fits(len(data), v)), None)
    if version is None:
        raise ValueError(f"{len(data)} bytes do not fit a version {MAX_VERSION} QR code "
                         f"at level M (at most {_byte_capacity(MAX_VERSION)})")
    codewords = _interleaved(_data_codewords(data, version), version)
    best: tuple[int, Matrix] | None = None
    for mask in range(8):
        modules = _draw(version, codewords, mask)
        score = penalty(modules)
        if best is None or score < best[0]:
            best = (score, modules)
    assert best is not None
    return best[1]


# --- capacity and data ------------------------------------------------------------------------

def _raw_codewords(version: int) -> int:
    """Codewords the symbol holds once function patterns are left out."""
    modules = (16 * version + 128) * version + 64
    if version >= 2:
        aligns = version // 7 + 2
        modules -= (25 * aligns - 10) * aligns - 55
        if version >= 7:
            modules -= 36
    return modules // 8


def _data_capacity(version: int) -> int:
    return _raw_codewords(version) - ECC_PER_BLOCK[version] * BLOCKS[version]


def _count_bits(version: int) -> int:
    return 8 if version <= 9 else 16


def _byte_capacity(version: int) -> int:
    return (_data_capacity(version) * 8 - 4 - _count_bits(version)) // 8


def _fits(length: int, version: int) -> bool:
    return length <= _byte_capacity(version)


def _data_codewords(data: bytes, version: int) -> list[int]:
    bits: list[int] = []

    def put(value: int, width: int) -> None:
        bits.extend((value >> shift) & 1 for shift in reversed(range(width)))

    put(0b0100, 4)  # byte mode
    put(len(data), _count_bits(version))
    for byte in data:
        put(byte, 8)
    capacity = _data_capacity(version) * 8
    put(0, min(4, capacity - len(bits)))  # terminator
    put(0, -len(bits) % 8)
    codewords = [int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8)]
    pad = 0xEC
    while len(codewords) < _data_capacity(version):
        codewords.append(pad)
        pad ^= 0xEC ^ 0x11
    return codewords


# --- Reed-Solomon over GF(256), polynomial 0x11D --------------------------------------------

def _gf_multiply(a: int, b: int) -> int:
    product = 0
    for bit in reversed(range(8)):
        product = (product << 1) ^ ((product >> 7) * 0x11D)
        product ^= ((b >> bit) & 1) * a
    return product


def _rs_divisor(degree: int) -> list[int]:
    divisor = [0] * (degree - 1) + [1]
    root = 1
    for _ in range(degree):
        for i in range(degree):
            divisor[i] = _gf_multiply(divisor[i], root)
            if i + 1 < degree:
                divisor[i] ^= divisor[i + 1]
        root = _gf_multiply(root, 0x02)
    return divisor


def _rs_remainder(data: Sequence[int], divisor: Sequence[int]) -> list[int]:
    remainder = [0] * len(divisor)
    for byte in data:
        factor = byte ^ remainder.pop(0)
        remainder.append(0)
        for i, coefficient in enumerate(divisor):
            remainder[i] ^= _gf_multiply(coefficient, factor)
    return remainder


def _interleaved(data: list[int], version: int) -> list[int]:
    """The data split into blocks, each with its error correction, interleaved."""
    blocks, ecc_len = BLOCKS[version], ECC_PER_BLOCK[version]
    raw = _raw_codewords(version)
    short_blocks = blocks - raw % blocks
    short_len = raw // blocks
    divisor = _rs_divisor(ecc_len)
    data_blocks: list[list[int]] = []
    ecc_blocks: list[list[int]] = []
    start = 0
    for index in range(blocks):
        size = short_len - ecc_len + (0 if index < short_blocks else 1)
        block = data[start:start + size]
        start += size
        data_blocks.append(block)
        ecc_blocks.append(_rs_remainder(block, divisor))
    result = [block[i] for i in range(max(map(len, data_blocks)))
              for block in data_blocks if i < len(block)]
    result += [block[i] for i in range(ecc_len) for block in ecc_blocks]
    assert len(result) == raw
    return result


# --- drawing -----------------------------------------------------------------------------------

def _format_bits(mask: int) -> int:
    data = FORMAT_LEVEL_M << 3 | mask
    remainder = data
    for _ in range(10):
        remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537)
    return (data << 10 | remainder) ^ 0x5412


def _version_bits(version: int) -> int:
    remainder = version
    for _ in range(12):
        remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25)
    return version << 12 | remainder


def _masked(mask: int, x: int, y: int) -> bool:
    return (
        (x + y) % 2 == 0,
        y % 2 == 0,
        x % 3 == 0,
        (x + y) % 3 == 0,
        (x // 3 + y // 2) % 2 == 0,
        x * y % 2 + x * y % 3 == 0,
        (x * y % 2 + x * y % 3) % 2 == 0,
        ((x + y) % 2 + x * y % 3) % 2 == 0,
    )[mask]


def _draw(version: int, codewords: list[int], mask: int) -> Matrix:
    size = version * 4 + 17
    modules = [[False] * size for _ in range(size)]
    reserved = [[False] * size for _ in range(size)]

    def put(x: int, y: int, dark: bool) -> None:
        modules[y][x] = dark
        reserved[y][x] = True

    for i in range(size):  # timing patterns
        put(6, i, i % 2 == 0)
        put(i, 6, i % 2 == 0)
    for cx, cy in ((3, 3), (size - 4, 3), (3, size - 4)):  # finders and their separators
        for dy in range(-4, 5):
            for dx in range(-4, 5):
                x, y = cx + dx, cy + dy
                if 0 <= x < size and 0 <= y < size:
                    put(x, y, max(abs(dx), abs(dy)) not in (2, 4))
    centres = ALIGNMENT[version]
    last = len(centres) - 1
    for i, cx in enumerate(centres):
        for j, cy in enumerate(centres):
            if (i, j) in ((0, 0), (0, last), (last, 0)):
                continue  # where the finders are
            for dy in range(-2, 3):
                for dx in range(-2, 3):
                    put(cx + dx, cy + dy, max(abs(dx), abs(dy)) != 1)
    _draw_format(put, size, _format_bits(mask))
    if version >= 7:
        bits = _version_bits(version)
        for i in range(18):
            dark = bool(bits >> i & 1)
            a, b = size - 11 + i % 3, i // 3
            put(a, b, dark)
            put(b, a, dark)
    bit_index, total = 0, len(codewords) * 8
    right = size - 1
    while right >= 1:  # the zigzag, two columns at a time, skipping the vertical timing line
        if right == 6:
            right = 5
        upward = (right + 1) & 2 == 0
        for step in range(size):
            y = size - 1 - step if upward else step
            for x in (right, right - 1):
                if reserved[y][x]:
                    continue
                dark = bit_index < total and bool(
                    codewords[bit_index >> 3] >> (7 - (bit_index & 7)) & 1)
                bit_index += 1
                modules[y][x] = dark != _masked(mask, x, y)
        right -= 2
    return modules


def _draw_format(put: Callable[[int, int, bool], None], size: int, bits: int) -> None:
    def bit(i: int) -> bool:
        return bool(bits >> i & 1)

    for i in range(6):
        put(8, i, bit(i))
    put(8, 7, bit(6))
    put(8, 8, bit(7))
    put(7, 8, bit(8))
    for i in range(9, 15):
        put(14 - i, 8, bit(i))
    for i in range(8):
        put(size - 1 - i, 8, bit(i))
    for i in range(8, 15):
        put(8, size - 15 + i, bit(i))
    put(8, size - 8, True)  # the dark module


# --- the mask penalty (ISO 18004 7.8.3) ---------------------------------------------------------

FINDER_LIKE = ((True, False, True, True, True, False, True, False, False, False, False),
               (False, False, False, False, True, False, True, True, True, False, True))


def penalty(modules: Matrix) -> int:
    """The four rules' penalty: runs of five or more, 2x2 blocks, finder-like patterns, and
    an unbalanced share of dark modules."""
    size = len(modules)
    columns = [[modules[y][x] for y in range(size)] for x in range(size)]
    score = 0
    for line in [*modules, *columns]:
        run = 1
        for previous, current in zip(line, line[1:], strict=False):
            if current == previous:
                run += 1
                continue
            score += 3 + run - 5 if run >= 5 else 0
            run = 1
        score += 3 + run - 5 if run >= 5 else 0
        for start in range(size - 10):
            if tuple(line[start:start + 11]) in FINDER_LIKE:
                score += 40
    for y in range(size - 1):
        for x in range(size - 1):
            if modules[y][x] == modules[y][x + 1] == modules[y + 1][x] == modules[y + 1][x + 1]:
                score += 3
    dark = sum(map(sum, modules))
    total = size * size
    score += abs(dark * 20 - total * 10) // total * 10
    return score
