"""Starting the touchscreen app: check there is a display, quiet Kivy, open the window.

Kivy reads its environment when first imported, so everything here runs before that import.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

NO_DISPLAY = ("companion: no display found (DISPLAY and WAYLAND_DISPLAY are not set); run it "
              "on the Pi's screen, run the tests with `python3 tasks.py test`, or play "
              "headless with `companion script`.")
NO_WINDOW = ("companion: the display {display!r} could not open a window ({why}); run the "
             "tests with `python3 tasks.py test` or play headless with `companion script`.")


def display_available() -> bool:
    """Whether a window can be opened: an X or Wayland display, or a framebuffer set up."""
    if sys.platform != "linux":
        return True
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return True
    # On a Pi without a desktop SDL can draw straight to the screen when told so.
    return os.environ.get("SDL_VIDEODRIVER") in ("kmsdrm", "fbcon", "rpi", "offscreen")


def prepare_kivy(kivy_home: Path | None = None, width: int = 800, height: int = 480) -> None:
    """Settings that must be made before Kivy is imported."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    # MIXED: Kivy logs through its own logger but leaves stderr alone, so a traceback shows.
    os.environ.setdefault("KIVY_LOG_MODE", "MIXED")
    if kivy_home is not None:
        kivy_home.mkdir(parents=True, exist_ok=True)
        os.environ.setdefault("KIVY_HOME", str(kivy_home))
    from kivy.config import Config
    from kivy.logger import Logger, LoggerHistory

    # Kivy's start-up chatter stays out of the terminal; errors (with tracebacks) still show.
    Logger.setLevel(logging.ERROR)
    LoggerHistory.clear_history()

    Config.set("kivy", "exit_on_escape", "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")
    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "minimum_width", "480")
    Config.set("graphics", "minimum_height", "320")


def run_app(db_path: Path) -> int:
    if not display_available():
        print(NO_DISPLAY, file=sys.stderr)
        return 2
    from ..bootstrap import build_service
    from ..store import StoreError

    try:
        service, notices = build_service(db_path)
    except StoreError as error:
        print(f"companion: {error}", file=sys.stderr)
        return 1
    prepare_kivy(db_path.parent / "kivy")
    try:
        from kivy.core.window import Window
    except (Exception, SystemExit) as error:  # Kivy may raise or exit when refused a display
        print(NO_WINDOW.format(display=os.environ.get("DISPLAY", ""), why=error),
              file=sys.stderr)
        return 2
    if Window is None:
        print(NO_WINDOW.format(display=os.environ.get("DISPLAY", ""),
                               why="no window provider worked"), file=sys.stderr)
        return 2
    from .app import CompanionApp

    CompanionApp(service, config_dir=db_path.parent, notices=notices).run()
    return 0
