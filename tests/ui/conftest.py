"""UI tests share one real Kivy window, opened on Xvfb when the machine has no display.

Kivy reads its environment on first import, so the display and Kivy's settings are prepared
here, before any test module imports Kivy.
"""

from __future__ import annotations

import gc
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import Harness, ensure_display, prepare

_xvfb = ensure_display()
_kivy_home = Path(tempfile.mkdtemp(prefix="companion-kivy-"))
prepare(_kivy_home)
# The tests read layout, words and colours, not how smooth a rounded corner's edge is: without
# Kivy's multisampling (2 samples by default) Mesa's software renderer draws a 720x1280 frame in
# a third of the time on this VM (24 ms, not 72). The benchmarks keep the app's own setting.
from kivy.config import Config  # noqa: E402  (Kivy only once prepared)

Config.set("graphics", "multisamples", "0")
# Each test's app is garbage once closed, and only a full collection frees it (its widgets hold
# each other): the harness collects once as it closes an app. Python's own full collections
# came besides, twice a test, each walking every object in the worker (about a second for
# 850,000 on this VM); now only after a hundred younger collections, not ten.
gc.set_threshold(700, 10, 100)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _xvfb is not None:
        _xvfb.terminate()
    shutil.rmtree(_kivy_home, ignore_errors=True)


@pytest.fixture
def ui(tmp_path: Path) -> Iterator[Harness]:
    """The app on a fresh database, at 800x480, on the home screen."""
    harness = Harness(tmp_path / "games.db")
    try:
        yield harness
    finally:
        harness.close()


# Every game of the registry and the test's own, one after the other (tests/ui/every_game.py);
# imported here, after Kivy is prepared, so any UI test may take `game_id`.
from .every_game import game_id  # noqa: E402, F401
