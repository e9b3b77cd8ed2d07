"""Starting the touchscreen app: check there is a display, quiet Kivy, open the window.

Kivy reads its environment when first imported, so everything here runs before that import.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

from ..backlight import Backlight
from ..notify import SystemdNotifier
from ..signals import STOP_SIGNALS
from .display import default_rotation, draws_on_screen

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
    configure_touch_panel(Config, draws_on_screen=draws_on_screen())
    Config.set("graphics", "rotation", str(default_rotation()))
    if draws_on_screen():
        # The whole screen, with no pointer drawn over it. No minimum size: under KMS/DRM it
        # leaves the window black.
        Config.set("graphics", "fullscreen", "auto")
        Config.set("graphics", "show_cursor", "0")
        # SDL turns each touch into a mouse click too, which Kivy's mouse input would take as
        # a second touch beside the panel's own.
        os.environ.setdefault("SDL_TOUCH_MOUSE_EVENTS", "0")
    else:
        Config.set("graphics", "width", str(width))
        Config.set("graphics", "height", str(height))
        Config.set("graphics", "minimum_width", "480")
        Config.set("graphics", "minimum_height", "320")


def compile_layouts_once() -> None:
    """Kivy's own style.kv through the compiled layouts kept from the last start, as the app's
    layouts are (companion/ui/layout_cache.py): called after `prepare_kivy`, before Kivy's
    window is imported."""
    import kivy

    from .layout_cache import install_before_kivy_parses

    install_before_kivy_parses(Path(kivy.kivy_home_dir))


TOUCH_PANEL = ("touch_panel", "probesysfs,provider=mtdev")
"""The touch panel's one input under KMS/DRM: Kivy reads it from /dev/input itself, through
libmtdev, which reads both multitouch protocols. Kivy's own hidinput reader collects points only
on protocol A's SYN_MT_REPORT, so a panel that reports slots (protocol B, as the Pi's official
displays do) gave no touches at all. Kivy's default config lists a probesysfs input already,
and Raspberry Pi guides add a second: two entries open the panel twice and every touch counts
double."""

def configure_touch_panel(config: Any, draws_on_screen: bool) -> None:
    """Exactly one probesysfs input when drawing straight to the screen; none under a desktop
    or Xwayland, whose server hands Kivy the touches as mouse events."""
    for key in list(config.options("input")):
        if config.get("input", key).split(",")[0].strip() == "probesysfs":
            config.remove_option("input", key)
    if draws_on_screen:
        config.set("input", *TOUCH_PANEL)


SAFE_START_LOG = ("the app stopped %d times in a row within %.0f s of starting; this start "
                  "opens Home without resuming the last game (the players can resume it there)")
EARLY_SECONDS_VARIABLE = "COMPANION_EARLY_SECONDS"
"""How long a start must last not to count as an early death (seconds; 60 unless set)."""


def start_record(folder: Path) -> Any:
    """This start, added to the record of the last starts in the app's data folder."""
    from ..start_record import EARLY_SECONDS, StartRecord

    try:
        early = float(os.environ.get(EARLY_SECONDS_VARIABLE, "") or EARLY_SECONDS)
    except ValueError:
        early = EARLY_SECONDS
    record = StartRecord(folder, early_seconds=early)
    record.begin()
    if record.safe:
        logging.getLogger(__name__).warning(SAFE_START_LOG, record.deaths, early)
    return record


def run_app(db_path: Path, verbose: bool = False) -> int:
    if not display_available():
        print(NO_DISPLAY, file=sys.stderr)
        return 2
    # A folder that cannot be made is told by the games file's opening, in players' words.
    with contextlib.suppress(OSError):
        db_path.parent.mkdir(parents=True, exist_ok=True)
    record = start_record(db_path.parent)

    def open_service() -> Any:
        """Opened after the first frame; a database moved aside is logged there, and the app
        words it for the players. After two early deaths the last game waits on Home."""
        from ..bootstrap import build_service

        return build_service(db_path, resume=not record.safe)[0]

    prepare_kivy(db_path.parent / "kivy", verbose=verbose)
    compile_layouts_once()
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

    notifier = SystemdNotifier()
    app = CompanionApp(config_dir=db_path.parent, open_service=open_service,
                       when_ready=lambda: notifier.ready(ready_status(app)),
                       backlight=Backlight.find(), safe_start=record.deaths if record.safe else 0)
    # Lasting a minute is what ends a run of early deaths (synced off the main loop).
    Clock.schedule_once(lambda _dt: threading.Thread(
        target=record.survived, name="start-record", daemon=True).start(),
        record.seconds_to_survive())
    interval = notifier.ping_interval()
    if interval is not None:
        # Pinged from the main loop's clock: a hung loop stops the pings, and systemd restarts
        # the app.
        Clock.schedule_interval(lambda _dt: notifier.ping(), interval)

    def stop(signum: int, frame: FrameType | None) -> None:
        # The handler runs between two bytecodes of the loop: let the loop itself stop the app.
        Clock.schedule_once(lambda _dt: app.stop())

    # Installed here, not inherited: a launcher may start the app with SIGINT ignored.
    for number in STOP_SIGNALS:
        signal.signal(number, stop)
    app.run()
    record.stopped()
    notifier.stopping()
    return 0


def ready_status(app: Any) -> str:
    """What systemd's status (and a test) reads once the table is up: how this start went."""
    if app.safe_start:
        return (f"the table is on the screen; safe start after {app.safe_start} early stops: "
                "the last game waits on Home")
    if app.game_state:
        return "the table is on the screen; the last game was resumed"
    return "the table is on the screen"
