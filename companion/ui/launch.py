"""Starting the touchscreen app: check there is a display, quiet Kivy, open the window.

Kivy reads its environment when first imported, so everything here runs before that import.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
from pathlib import Path
from types import FrameType
from typing import Any

from ..signals import STOP_SIGNALS

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


# Kivy's complaints that say nothing to the players or the person at the bench:
# - it looks for a cut buffer (X's middle-click paste) through the xclip or xsel programs the
#   first time a text box is used, and logs a 40-line CRITICAL traceback when neither is
#   installed. A touchscreen has no middle click: the complaint is dropped rather than two more
#   Debian packages installed (which a Pi running Wayland could not use anyway);
# - on the first start it "upgrades" the config file it has just created from version 0.
QUIET_MESSAGES = ("Cutbuffer: Unable to find any valuable Cutbuffer provider",
                  "Config: Older configuration version detected (0 ",
                  "Config: Upgrading configuration in progress.")


class _Quieter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(QUIET_MESSAGES)


def prepare_kivy(kivy_home: Path | None = None, width: int = 800, height: int = 480,
                 verbose: bool = False) -> None:
    """Settings that must be made before Kivy is imported. Kivy's start-up chatter (its INFO
    lines) is logged only when `verbose`; warnings and errors always are."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    # PYTHON: Kivy's logger is an ordinary one under Python's logging, whose handlers (set up
    # by `companion`, with its --verbose) decide what shows; Kivy leaves stderr alone, so a
    # traceback still shows.
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    # SDL's clipboard needs no helper program (the first choices on Linux run xclip or xsel).
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")
    if kivy_home is not None:
        kivy_home.mkdir(parents=True, exist_ok=True)
        os.environ.setdefault("KIVY_HOME", str(kivy_home))
    kivy_logger = logging.getLogger("kivy")  # Kivy's Logger, before Kivy logs a line
    if not any(isinstance(f, _Quieter) for f in kivy_logger.filters):
        kivy_logger.addFilter(_Quieter())
    from kivy.config import Config

    kivy_logger.setLevel(logging.INFO if verbose else logging.WARNING)

    Config.set("kivy", "exit_on_escape", "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")
    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "minimum_width", "480")
    Config.set("graphics", "minimum_height", "320")


def run_app(db_path: Path, verbose: bool = False) -> int:
    if not display_available():
        print(NO_DISPLAY, file=sys.stderr)
        return 2
    def open_service() -> Any:
        """Opened after the first frame; a database moved aside is logged there, and the app
        words it for the players."""
        from ..bootstrap import build_service

        return build_service(db_path)[0]

    prepare_kivy(db_path.parent / "kivy", verbose=verbose)
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
    from kivy.clock import Clock

    from .app import CompanionApp

    app = CompanionApp(config_dir=db_path.parent, open_service=open_service)

    def stop(signum: int, frame: FrameType | None) -> None:
        # The handler runs between two bytecodes of the loop: let the loop itself stop the app.
        Clock.schedule_once(lambda _dt: app.stop())

    # Installed here, not inherited: a launcher may start the app with SIGINT ignored.
    for number in STOP_SIGNALS:
        signal.signal(number, stop)
    app.run()
    return 0
