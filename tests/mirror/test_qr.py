"""The QR encoder: what it draws decodes back to the text with a real decoder (zbarimg)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from companion.mirror import qr
from tests.mirror.qr_png import png_of

ZBARIMG = shutil.which("zbarimg")
needs_zbar = pytest.mark.skipif(
    ZBARIMG is None, reason="zbarimg is missing: apt-get install zbar-tools (tasks.py does)")


def decoded(modules: qr.Matrix, tmp_path: Path) -> str:
    assert ZBARIMG is not None
    image = tmp_path / "code.png"
    image.write_bytes(png_of(modules))
    done = subprocess.run([ZBARIMG, "--quiet", "--raw", str(image)], capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout.rstrip("\n")


@needs_zbar
@pytest.mark.parametrize("text", [
    "http://192.168.1.23:8765/t/AbCdEfGhIjKl",
    "http://[fd12:3456:789a::1]:8765/t/AbCdEfGhIjKl",
    "x",
    "0123456789" * 6,
])
def test_the_mirror_address_decodes_back_from_its_code(text: str, tmp_path: Path) -> None:
    assert decoded(qr.encode(text), tmp_path) == text


@needs_zbar
@pytest.mark.parametrize("version", range(1, 11))
def test_every_version_up_to_10_decodes_at_its_full_capacity(version: int,
                                                             tmp_path: Path) -> None:
    # ASCII: zbar guesses the character set of bytes above 127 (Shift-JIS), so such text
    # would not come back as written even from a correct code.
    text = "".join(chr(33 + (i * 7) % 90) for i in range(qr._byte_capacity(version)))
    modules = qr.encode(text)
    assert len(modules) == 17 + 4 * version
    assert decoded(modules, tmp_path) == text


def test_the_smallest_version_that_holds_the_text_is_chosen() -> None:
    # Level M byte capacities of versions 1 to 10 (ISO 18004, table 7).
    assert [qr._byte_capacity(v) for v in range(1, 11)] == [
        14, 26, 42, 62, 84, 106, 122, 152, 180, 213]
    assert len(qr.encode("a" * 14)) == 21 and len(qr.encode("a" * 15)) == 25


def test_text_too_long_for_version_10_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match="214 bytes do not fit a version 10"):
        qr.encode("a" * 214)


def test_format_information_is_the_standards_for_level_m() -> None:
    # ISO 18004 annex C: level M with mask 0 is 101010000010010; mask 5 is 100000011001110.
    assert qr._format_bits(0) == 0b101010000010010
    assert qr._format_bits(5) == 0b100000011001110
    # Version 7's information, from the standard's table D.1.
    assert qr._version_bits(7) == 0x07C94


def test_the_chosen_mask_has_the_lowest_penalty_of_the_eight() -> None:
    text = "http://192.168.1.23:8765/t/AbCdEfGhIjKl"
    version = 3
    codewords = qr._interleaved(qr._data_codewords(text.encode(), version), version)
    penalties = [qr.penalty(qr._draw(version, codewords, mask)) for mask in range(8)]
    assert qr.penalty(qr.encode(text)) == min(penalties)
    assert len(set(penalties)) > 1  # the masks really differ


def test_the_penalty_counts_runs_blocks_finder_patterns_and_balance() -> None:
    light = [[False] * 21 for _ in range(21)]
    # All light: every row and column one run of 21 (3 + 16 each, 42 lines), 20*20 blocks,
    # no finder-like pattern, and 50 % off balance (10 steps of 5 %).
    assert qr.penalty(light) == 42 * 19 + 400 * 3 + 100


def test_reed_solomon_matches_the_standards_worked_example() -> None:
    # ISO 18004 annex I: "01234567" at 1-M; its 16 data codewords give these 10 EC codewords.
    data = [0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC,
            0x11, 0xEC, 0x11]
    assert qr._rs_remainder(data, qr._rs_divisor(10)) == [
        0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55]
