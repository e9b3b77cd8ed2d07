"""Every kind of line the voice says, from real games of every registered game, rendered by the
real espeak-ng into a WAV in English, German and French and measured by sox: heard (not
silent) and short (under six seconds, so the news is not stale before it ends)."""

from __future__ import annotations

import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from companion.games.registry import GAMES
from companion.voice import PROGRAM, VoiceSettings, command_for
from tests.voice_lines import lines_said

LONGEST_SECONDS = 6.0
QUIETEST_RMS = 0.02
"""sox's RMS amplitude (full scale 1.0) of speech at the default volume is about 0.1."""
AT_ONCE = 4
"""espeak-ng and sox runs at a time (each is short and single-threaded)."""


def measured(wav: Path) -> tuple[float, float]:
    """The WAV's length in seconds and its RMS amplitude, as `sox FILE -n stat` says them."""
    report = subprocess.run(["sox", str(wav), "-n", "stat"], capture_output=True, text=True,
                            check=True).stderr
    figures = dict(re.findall(r"^(Length \(seconds\)|RMS\s+amplitude):\s+([\d.]+)", report,
                              re.MULTILINE))
    return float(figures["Length (seconds)"]), float(figures["RMS     amplitude"])


def rendered(text: str, language: str, wav: Path) -> tuple[float, float]:
    subprocess.run(command_for(text, language, VoiceSettings(enabled=True), str(wav)),
                   check=True, capture_output=True, timeout=30)
    return measured(wav)


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_every_kind_of_line_is_heard_and_short_in_each_language(language: str,
                                                               tmp_path: Path) -> None:
    assert shutil.which(PROGRAM) and shutil.which("sox"), \
        "espeak-ng and sox are needed: python3 tasks.py setup installs them"
    said = lines_said(language)
    for game in GAMES:
        kinds = {kind for (played, what, kind) in said if played == game and what == "banner"}
        steps = {kind for (played, what, kind) in said if played == game and what == "prompt"}
        assert "undo" in kinds and len(kinds) >= 3, (game, kinds)
        assert len(steps) >= 3, (game, steps)
    for text in said.values():
        assert not re.search(r"\b[IVX]{2,}\b|[→·•×]", text), text  # said as the table's words
    lines = list(said.items())
    with ThreadPoolExecutor(AT_ONCE) as pool:
        figures = list(pool.map(
            lambda line: rendered(line[1][1], language, tmp_path / f"{line[0]}.wav"),
            enumerate(lines)))
    for (where, text), (seconds, rms) in zip(lines, figures, strict=True):
        assert rms > QUIETEST_RMS, f"{where} {text!r} is silent (RMS {rms})"
        assert 0.3 < seconds < LONGEST_SECONDS, f"{where} {text!r} takes {seconds} s"
