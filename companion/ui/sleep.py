"""The screen's sleep: dimmed after some minutes without a touch, dark after more, woken by the
next touch (which is swallowed whole, never taken as a tap) or a card laid on the reader.

The times are the settings' (companion.ini, section "sleep"); in the night window the screen goes
dark a minute after the last touch. `sleep_state` decides, purely; `SleepWatch` follows the
touches on the Window (before any widget sees them, so on every screen of every game) and asks
the Kivy clock to look again every few seconds; `Darkness` dims and darkens the screen.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..power import APPLIANCE_VARIABLE
from .app_settings import SLEEP_DEFAULTS

if TYPE_CHECKING:
    from ..backlight import Backlight

log = logging.getLogger(__name__)

AWAKE, DIM, OFF = "awake", "dim", "off"
"""The screen's three states."""
DIM_CHOICES = ("off", "2", "5", "10", "30")
"""Dim after (minutes), as the settings offer it."""
OFF_CHOICES = ("off", "15", "30", "60")
"""Dark after (minutes)."""
NIGHT_CHOICES = ("off", "22-7", "23-7", "0-7")
"""The night window: from the first hour to the second (on the next day when it is smaller)."""
NIGHT_OFF_AFTER = 60.0
"""Seconds without a touch before the screen goes dark in the night window."""
CHECK_EVERY = 5.0
"""Seconds between two looks at the time: a screen dims at most this late."""
DIM_FRACTION = 0.15
"""A dimmed backlight, as a share of its brightest."""
DIM_SHADE = 0.65
"""How dark the veil makes a dimmed screen without a backlight (0 clear, 1 black)."""


def _seconds(stored: str, choices: tuple[str, ...], default: str) -> float | None:
    value = stored if stored in choices else default  # a hand-edited value reads as the default
    return None if value == "off" else float(value) * 60


@dataclass(frozen=True)
class SleepTimes:
    """When the screen dims and goes dark, in seconds without a touch (None: never)."""

    dim_after: float | None
    off_after: float | None
    night: tuple[int, int] | None
    """The night window's first hour and the hour it ends (None: no night window)."""

    @classmethod
    def of(cls, section: Mapping[str, Any]) -> SleepTimes:
        """The times companion.ini's "sleep" section asks for."""
        def stored(key: str) -> str:
            return str(section.get(key, SLEEP_DEFAULTS[key])).strip()

        night = stored("night")
        if night not in NIGHT_CHOICES:
            night = SLEEP_DEFAULTS["night"]
        start, _dash, end = night.partition("-")
        return cls(dim_after=_seconds(stored("dim_after"), DIM_CHOICES,
                                      SLEEP_DEFAULTS["dim_after"]),
                   off_after=_seconds(stored("off_after"), OFF_CHOICES,
                                      SLEEP_DEFAULTS["off_after"]),
                   night=None if night == "off" else (int(start), int(end)))


def at_night(hour: int, night: tuple[int, int] | None) -> bool:
    """Whether `hour` (0–23) lies in the night window, which may run across midnight."""
    if night is None:
        return False
    start, end = night
    return start <= hour < end if start < end else (hour >= start or hour < end)


def sleep_state(idle: float, times: SleepTimes, hour: int) -> str:
    """AWAKE, DIM or OFF after `idle` seconds without a touch, at `hour` of the day."""
    off_after = times.off_after
    if at_night(hour, times.night):
        off_after = NIGHT_OFF_AFTER if off_after is None else min(off_after, NIGHT_OFF_AFTER)
    if off_after is not None and idle >= off_after:
        return OFF
    if times.dim_after is not None and idle >= times.dim_after:
        return DIM
    return AWAKE


class SleepWatch:
    """Watches the touches and the time, and puts the screen to sleep and wakes it.

    `now`: a monotonic clock in seconds, `wall`: the time of day (the night window); tests
    give their own and call `check` rather than wait."""

    def __init__(self, darkness: Darkness, times: SleepTimes | None = None,
                 now: Callable[[], float] = time.monotonic,
                 wall: Callable[[], datetime] = datetime.now) -> None:
        self.darkness = darkness
        self.times = times or SleepTimes.of(SLEEP_DEFAULTS)
        self.now = now
        self.wall = wall
        self.state = AWAKE
        self.last_touch = now()
        self._waking_touches: set[int] = set()
        """The touches that woke the screen: their moves and their lift are swallowed too."""
        self._looking: Any = None

    def start(self) -> None:
        """Follow the window's touches (ahead of every widget) and look at the time now and
        then."""
        from kivy.clock import Clock
        from kivy.core.window import Window

        if self._looking is not None:
            return
        Window.bind(on_touch_down=self._touch_down, on_touch_move=self._touch_move,
                    on_touch_up=self._touch_up)
        self._looking = Clock.schedule_interval(self.check, CHECK_EVERY)
        self.poke()

    def stop(self) -> None:
        """Stop watching, the screen awake (the app stops)."""
        from kivy.core.window import Window

        if self._looking is None:
            return
        self._looking.cancel()
        self._looking = None
        Window.unbind(on_touch_down=self._touch_down, on_touch_move=self._touch_move,
                      on_touch_up=self._touch_up)
        self._become(AWAKE)
        self.darkness.forget()

    def set_times(self, times: SleepTimes) -> None:
        """New times from the settings: they count from the last touch."""
        self.times = times
        self.check()

    def poke(self) -> None:
        """Something happened that the players did (a touch, a card laid on the reader): the
        screen wakes, and the minutes count from now."""
        self.last_touch = self.now()
        self._become(AWAKE)

    def check(self, *_args: Any) -> str:
        """Dim or darken the screen if it has been left long enough; the state now."""
        self._become(sleep_state(self.now() - self.last_touch, self.times, self.wall().hour))
        return self.state

    @property
    def asleep(self) -> bool:
        return self.state != AWAKE

    def _become(self, state: str) -> None:
        if state != self.state:
            log.info("the screen: %s", state)
            self.state = state
            self.darkness.show(state)

    # A touch on a sleeping screen (dimmed too: a dark panel shows too little to aim at) wakes
    # it and goes no further: down, moves and lift, so no widget takes it as a tap.
    def _touch_down(self, _window: Any, touch: Any) -> bool:
        was_asleep = self.asleep
        self.poke()
        if was_asleep:
            self._waking_touches.add(touch.uid)
        return was_asleep

    def _touch_move(self, _window: Any, touch: Any) -> bool:
        return touch.uid in self._waking_touches

    def _touch_up(self, _window: Any, touch: Any) -> bool:
        if touch.uid in self._waking_touches:
            self._waking_touches.discard(touch.uid)
            return True
        return False


class Darkness:
    """How the screen dims and goes dark: the panel's backlight where the app can set it, else
    a black veil drawn over the whole window (translucent to dim, opaque when off).

    The veil, not the display's power saving: under KMS/DRM the app holds the display, and DPMS
    cannot be set from a second process while it does (the kernel lets only the holder change
    the connector's power). Under X11 on the appliance, `xset dpms force off` also powers the
    monitor down where xset is installed."""

    def __init__(self, backlight: Backlight | None,
                 environ: Mapping[str, str] | None = None,
                 runner: Callable[[list[str]], object] | None = None) -> None:
        self.backlight = backlight
        environ = os.environ if environ is None else environ
        # Only on the appliance: on a desktop the app sees only its own window's touches and
        # must not blank a monitor someone is using elsewhere.
        self.xset = (shutil.which("xset") if environ.get("DISPLAY")
                     and environ.get(APPLIANCE_VARIABLE, "").strip() == "1" else None)
        self.runner = runner or _run_quietly
        self._veil: tuple[Any, Any] | None = None
        """The veil's colour and rectangle in the window's canvas.after (made when first
        needed)."""

    def show(self, state: str) -> None:
        lit = self.backlight is not None and (
            self.backlight.wake() if state == AWAKE
            else self.backlight.sleep(DIM_FRACTION if state == DIM else 0))
        self._shade(0.0 if lit or state == AWAKE else DIM_SHADE if state == DIM else 1.0)
        if self.xset is not None and state != DIM:
            self.runner([self.xset, "dpms", "force", "off" if state == OFF else "on"])

    @property
    def shade(self) -> float:
        """How dark the veil is now (0 clear, 1 black)."""
        return float(self._veil[0].a) if self._veil is not None else 0.0

    def _shade(self, darkness: float) -> None:
        from kivy.core.window import Window
        from kivy.graphics import Color, Rectangle

        if self._veil is None:
            if darkness == 0:
                return
            # canvas.after of the window is drawn after every widget, popups included.
            colour, cover = Color(0, 0, 0, 0), Rectangle(pos=(0, 0), size=Window.size)
            Window.canvas.after.add(colour)
            Window.canvas.after.add(cover)
            Window.bind(size=self._cover_window)
            self._veil = (colour, cover)
        self._veil[0].a = darkness

    def _cover_window(self, _window: Any, size: tuple[int, int]) -> None:
        if self._veil is not None:
            self._veil[1].size = size

    def forget(self) -> None:
        """Take the veil off the window (the app stops; the next one draws its own)."""
        from kivy.core.window import Window

        if self._veil is not None:
            Window.unbind(size=self._cover_window)
            for instruction in self._veil:
                Window.canvas.after.remove(instruction)
            self._veil = None


def _run_quietly(command: list[str]) -> None:
    try:
        subprocess.run(command, capture_output=True, check=False, timeout=5)
    except (OSError, subprocess.SubprocessError) as error:
        log.warning("%s: %s", " ".join(command), error)
