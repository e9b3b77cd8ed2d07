"""Runs the real app in a real Kivy window (under Xvfb when there is no display) for tests.

Taps are touch events dispatched through the window, exactly as a touchscreen delivers them;
frames are advanced by the test, so every check sees what a player would see.
"""

from __future__ import annotations

import functools
import gc
import os
import shutil
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

XVFB_SCREEN = "1400x1400x24"  # large enough for 720x1280 portrait and 1280x720


def ensure_display() -> subprocess.Popen[bytes] | None:
    """Start Xvfb on a free display when none is set; returns it so it can be stopped."""
    if os.environ.get("DISPLAY"):
        return None
    process, display = start_xvfb(XVFB_SCREEN)
    os.environ["DISPLAY"] = display
    return process


def start_xvfb(screen: str) -> tuple[subprocess.Popen[bytes], str]:
    """A new Xvfb with one screen of `screen` ("WxHxDEPTH") on a free display, and its name."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        raise RuntimeError("the UI tests need Xvfb: run `python3 tasks.py setup` (it installs "
                           "xvfb and Mesa with apt-get)")
    read_end, write_end = os.pipe()
    process = subprocess.Popen(
        [xvfb, "-displayfd", str(write_end), "-screen", "0", screen, "-nolisten", "tcp"],
        pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        preexec_fn=die_with_parent)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        number = pipe.readline().strip()
    if not number:
        process.kill()
        raise RuntimeError("Xvfb did not start")
    return process, f":{number}"


def forget_any_earlier_app() -> None:
    """kv's `app` (kivy.lang.parser.ProxyApp) keeps the first app it meets until that app
    stops. An earlier test whose app never stopped (its start or its close failed) would
    otherwise hand that app to every later test's kv rules: one failure, then every test
    after it failing for no reason of its own."""
    from kivy.lang.parser import global_idmap

    object.__setattr__(global_idmap["app"], "_obj", None)


def stop_every_animation() -> None:
    """Stop what still glides (a scroll bar fading, 0.5 s): a running Animation is held by its
    class and holds its widget, and with it the whole app, until it ends in a later test's
    frames; the collection as the app closes could not free it."""
    from kivy.animation import Animation

    for animation in list(Animation._instances):
        for held in list(animation._widgets.values()):
            animation.cancel(held["widget"])


def die_with_parent() -> None:
    """In the child, before exec: end when the process that started it ends, even by SIGKILL
    (a test run stopped by a time limit would otherwise leave its Xvfb running for good)."""
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


def prepare(kivy_home: Path) -> None:
    from companion.ui.launch import prepare_kivy

    prepare_kivy(kivy_home)
    from kivy.config import Config

    # Tests advance frames themselves; the clock must not sleep to hold 60 frames a second.
    Config.set("graphics", "maxfps", "0")
    Config.set("graphics", "vsync", "0")


class Harness:
    """One app over its own database, drawn in the shared test window."""

    def __init__(self, db_path: Path, size: tuple[int, int] = (800, 480),
                 build_ahead: bool = False, open_database_later: bool = False,
                 backlight: Any = None, safe_start: int = 0) -> None:
        from kivy.base import EventLoop
        from kivy.core.window import Window

        from companion.bootstrap import build_service
        from companion.ui.app import CompanionApp

        self.db_path = db_path
        self.window = Window
        self.play_at_a_players_pace()
        EventLoop.ensure_window()
        self.resize(*size, settle=False)
        if open_database_later:  # as the app starts on the Pi: the database after one frame
            self.app = CompanionApp(config_dir=db_path.parent, backlight=backlight,
                                    open_service=lambda: build_service(db_path)[0])
        else:
            # A safe start (after `safe_start` early deaths) leaves the last game unresumed.
            self.app = CompanionApp(build_service(db_path, resume=not safe_start)[0],
                                    config_dir=db_path.parent, backlight=backlight,
                                    safe_start=safe_start)
        self.app.builds_ahead = build_ahead  # else each test would build every screen
        forget_any_earlier_app()  # from here on, kv's `app` is this one
        try:
            self.app._run_prepare()  # what App.run() does before its loop, which the test drives
            self.frames(3)
        except BaseException:  # neither kv's `app` nor the window may keep an app that failed
            if hasattr(self.app, "screens"):
                self.app.detach()
            else:  # it failed before it was built
                self.app.dispatch("on_stop")
            raise

    def __enter__(self) -> Harness:
        return self

    def __exit__(self, *_exception: object) -> None:
        self.close()

    def close(self) -> None:
        import time

        from companion.ui import table_kit

        try:
            self.frames(1)  # kv's pending updates still need the app
            self._let_the_buttons_release()  # their kv rules read `app` as they turn back
        finally:  # whatever failed above, the next test's app must not meet this one
            self.app.detach()
        self.frames(1)
        stop_every_animation()
        # What the app froze as it built ahead (building_ahead.freeze_what_lasts) lives as
        # long as the app: with it closed, it is garbage like the rest. Left frozen, every
        # later test of the worker would keep it (millions of objects, a gigabyte).
        gc.unfreeze()
        gc.collect()  # the app's widgets hold each other: only a full collection frees them
        if self.app.service is not None:  # the games file's writer lock goes with the app
            self.app.service.store.close()
        table_kit.now = time.monotonic
        caught = self.app.boundary.caught
        assert not caught, ("a screen failed (the app's boundary caught it; a test that "
                            "means it clears app.boundary.caught): " + "".join(
                                traceback.format_exception(caught[0])))

    # --- time between taps ---

    PLAYER_PAUSE = 2.0
    """Seconds a player takes between two taps: enough to read what the last tap showed."""

    def play_at_a_players_pace(self) -> None:
        """The table's tap rules read a clock that moves PLAYER_PAUSE on every tap, so a test
        taps as fast as it likes and each tap still lands as a player's would."""
        import time

        from companion.ui import table_kit

        self._paused = 0.0
        table_kit.now = lambda: time.monotonic() + self._paused

    def hold_the_clock(self) -> None:
        """From now on the tap rules' clock stands still and moves only by `later` (for taps
        in quick succession): taps 0.1 s apart stay 0.1 s apart to the app, however long a
        loaded machine takes to draw the frames between them. The first tap still comes one
        player's pause after what is on the screen."""
        from companion.ui import table_kit

        self._pause()
        self._held = table_kit.now()
        table_kit.now = lambda: self._held
        self._pause = lambda: None  # type: ignore[method-assign]

    def later(self, seconds: float) -> None:
        """Move the held clock on: the next tap lands `seconds` after the last one."""
        self._held += seconds

    def _pause(self) -> None:
        self._paused += self.PLAYER_PAUSE

    def player_pause(self) -> None:
        """Let the clock move on as if a player had read the screen before the next tap."""
        self._pause()

    # --- frames, sizes, pictures ---

    def frames(self, count: int = 2) -> None:
        """Draw `count` frames; what a frame raises goes to Kivy's exception handlers first,
        as in the app's own loop (EventLoopBase.mainloop)."""
        from kivy.base import EventLoop

        for _ in range(count):
            self.as_in_the_loop(EventLoop.idle)

    BUILT_AHEAD_WITHIN_FRAMES = 200
    """Building ahead takes one step a frame, about thirty steps."""

    def until_built_ahead(self, each_frame: Any = None) -> None:
        """Draw frames until the start's work and the building ahead are done (an app made
        with `build_ahead`), calling `each_frame()` before each; fails if they never end."""
        self.frames(3)
        for _ in range(self.BUILT_AHEAD_WITHIN_FRAMES):
            if not self.app.start_up.still_starting():
                return
            if each_frame is not None:
                each_frame()
            self.frames(1)
        raise AssertionError("building ahead never ended")

    @staticmethod
    def as_in_the_loop(work: Any) -> None:
        """Do `work` (a frame, a touch's dispatch) as the app's event loop does: what it raises
        goes to Kivy's exception handlers first (EventLoopBase.mainloop)."""
        from kivy.base import ExceptionManager

        try:
            work()
        except Exception as error:
            if ExceptionManager.handle_exception(error) == ExceptionManager.RAISE:
                raise

    def resize(self, width: int, height: int, settle: bool = True) -> None:
        self.window.size = (width, height)
        if settle:
            self.frames(4)

    def screenshot(self, path: Path) -> Path:
        """Write the window as a PNG at exactly `path`: a frame drawn just now (the window's
        back buffer is read, which a frame not redrawn since a resize may leave stale)."""
        self.window.canvas.ask_update()
        self.frames(2)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.window.screenshot(str(path.with_suffix("")) + "-shot.png")
        written = sorted(path.parent.glob(path.stem + "-shot*.png"))[-1]
        written.replace(path)
        return path

    def rendered(self, path: Path) -> Path:
        """The window's widgets (the screen, then any popup over it) drawn into a picture of
        their own and written as a PNG at exactly `path`, for a picture a program reads (a QR
        code). Unlike `screenshot`, nothing is read back from the window, which just after a
        resize may still hold part of an earlier frame: a code of an earlier test's app was
        once scanned beside the one drawn, and a tall picture came out half blank."""
        from kivy.core.image import Image
        from kivy.graphics import ClearBuffers, ClearColor, Fbo, Scale, Translate

        self.frames(2)
        width, height = self.window.size
        fbo = Fbo(size=(width, height), with_stencilbuffer=True)
        with fbo:
            ClearColor(0, 0, 0, 1)
            ClearBuffers()
            Scale(1, -1, 1)
            Translate(0, -height, 0)
        canvas = self.window.canvas
        drawn = sorted(((canvas.indexof(child.canvas), child) for child in self.window.children
                        if canvas.indexof(child.canvas) > -1), key=lambda pair: pair[0])
        for _index, child in drawn:  # a canvas draws in one place at a time
            canvas.remove(child.canvas)
        try:
            for _index, child in drawn:  # in the window's order: the screen, then popups
                fbo.add(child.canvas)
            fbo.draw()
            path.parent.mkdir(parents=True, exist_ok=True)
            Image(fbo.texture).save(str(path), flipped=False)
        finally:
            for _index, child in drawn:
                fbo.remove(child.canvas)
            for index, child in drawn:
                canvas.insert(index, child.canvas)
        return path

    # --- finding and tapping ---

    @property
    def screen(self) -> Any:
        return self.app.screens.current_screen

    def widget(self, widget_id: str, screen: Any = None) -> Any:
        return (screen or self.screen).ids[widget_id]

    def tap(self, widget: Any) -> None:
        """Touch the middle of `widget` and lift the finger, as a player does."""
        from kivy.tests.common import UnitTestTouch

        assert widget.get_root_window() is not None, f"{widget} is not on screen"
        assert not widget.disabled, f"{getattr(widget, 'text', widget)!r} is disabled"
        self.scroll_into_view(widget)  # (a picker draws only the buttons in view)
        assert widget.opacity > 0, f"{getattr(widget, 'text', widget)!r} is hidden"
        x, y = widget.to_window(*widget.center)
        width, height = self.window.size
        assert 0 <= x <= width and 0 <= y <= height, f"{widget} lies outside the window"
        self._pause()
        touch = UnitTestTouch(*self._as_the_panel_reports(x, y))
        self.as_in_the_loop(touch.touch_down)
        self.frames(1)
        self.as_in_the_loop(touch.touch_up)
        self.frames(3)
        self._let_the_scroll_views_lift(touch)

    LIFT_WITHIN_S = 30.0
    """How long a loaded machine may take to draw the frames until what a tap set moving (a
    button turning back, a list gliding) rests."""

    def _let_the_scroll_views_lift(self, touch: Any) -> None:
        """A ScrollView passes a short touch's lift to what it holds later, on Kivy's clock
        (scrollview.py, on_scroll_stop: 0.2 s, the next frame in the app, kivy_list_fixes.py): the
        lift still on the clock is taken off and done now, whatever its delay, so it never
        lands in the next tap; then two frames for what it changed."""
        from kivy.clock import Clock

        def pending() -> list[Any]:
            return [event for event in Clock.get_events()
                    if isinstance(callback := event.get_callback(), functools.partial)
                    and any(arg is touch for arg in callback.args)]

        for _ in range(10):  # a list inside a list passes the lift on once more
            lifts = pending()
            if not lifts:
                break
            for event in lifts:
                callback = event.get_callback()
                event.cancel()
                self.as_in_the_loop(functools.partial(callback, 0.2))
        assert not pending(), "a ScrollView kept passing on the lift"
        self.frames(2)

    def _frames_while(self, pending: Callable[[], bool], never: str) -> None:
        """Draw frames while `pending()` holds, however long a loaded machine takes (up to
        LIFT_WITHIN_S; `never` says what did not happen after that)."""
        deadline = time.monotonic() + self.LIFT_WITHIN_S
        while pending():
            assert time.monotonic() < deadline, never
            self.frames(1)

    def _let_the_buttons_release(self) -> None:
        """A tapped button turns back to normal min_state_time after the lift (button.py,
        _do_release), on Kivy's clock: draw frames until no such turn is still pending,
        however long a loaded machine takes, so none runs after the app has gone."""
        from kivy.clock import Clock

        def pending() -> bool:
            return any(getattr(event.get_callback(), "__name__", "") == "_do_release"
                       for event in Clock.get_events())

        self._frames_while(pending, "a button never turned back after its lift")

    def _as_the_panel_reports(self, x: float, y: float) -> tuple[float, float]:
        """The window point (x, y) as the touch panel would report it on a turned screen: the
        panel knows nothing of the rotation, and Kivy turns its touches (UnitTestTouch takes
        a point of the unturned window, as the panel reports it, scaled to the window)."""
        system_width, system_height = (size - 1 for size in self.window.system_size)
        across, up = {
            0: (x / system_width, y / system_height),
            90: (1 - y / system_width, x / system_height),
            180: (1 - x / system_width, 1 - y / system_height),
            270: (y / system_width, 1 - x / system_height),
        }[self.window.rotation]
        return across * (self.window.width - 1), up * (self.window.height - 1)

    SETTLE_WITHIN_S = 30.0
    """How long a loaded machine may take to draw the frames until scrolled content rests."""

    def scroll_into_view(self, widget: Any) -> None:
        """Scroll every ScrollView around `widget` so it is visible, as a player would, and
        draw frames until it rests there. A ScrollView hands a tap to what lies under the
        finger when the finger lifts: content still moving (a scroll put off to the next
        frame while a layout is pending, an overscroll springing back, whose steps grow with
        a loaded machine's longer frames) would take the tap elsewhere."""
        from kivy.uix.scrollview import ScrollView

        views = []
        parent = widget.parent
        while parent is not None and parent is not parent.parent:
            trigger = getattr(parent._viewport, "_trigger_layout", None) \
                if isinstance(parent, ScrollView) else None
            # A RecycleView lays out its rows itself and has nothing to scroll to here.
            if isinstance(parent, ScrollView) and hasattr(trigger, "is_triggered"):
                views.append(parent)
            parent = parent.parent
        if not views:
            return
        deadline = time.monotonic() + self.SETTLE_WITHIN_S
        seen = None
        while True:
            for view in views:
                if not self._centre_inside(widget, view):
                    self._scroll_by_hand(view, widget)
            self.frames(1)
            where = (widget.to_window(*widget.pos), tuple(widget.size))
            if where == seen and all(self._centre_inside(widget, view) for view in views):
                return
            assert time.monotonic() < deadline, f"{widget} never came to rest in view"
            seen = where

    @staticmethod
    def _scroll_by_hand(view: Any, widget: Any) -> None:
        """Scroll `view` to `widget` as a finger dragging the list does: a glide or an
        overscroll's spring still under way stops, and the list's scroll effects start again
        from where it is left (they keep their own position, and a glide's next step or a
        change in the list's size would set the old one back)."""
        for effect in (view.effect_x, view.effect_y):
            if effect is not None:
                effect.velocity = 0
                effect.overscroll = 0
        view.scroll_to(widget, padding=0, animate=False)
        view._update_effect_bounds()

    @staticmethod
    def _centre_inside(widget: Any, view: Any) -> bool:
        """The widget's middle (where a tap lands) lies in the view, on each axis, unless the
        widget is larger than the view there and covers it."""
        low = widget.to_window(widget.x, widget.y)
        high = widget.to_window(widget.right, widget.top)
        start = view.to_window(view.x, view.y)
        for axis, length in enumerate((view.width, view.height)):
            middle = (low[axis] + high[axis]) / 2
            inside = start[axis] <= middle <= start[axis] + length
            covers = low[axis] <= start[axis] and high[axis] >= start[axis] + length
            if not (inside or covers):
                return False
        return True

    def send(self, command: dict[str, Any]) -> bool:
        """Send `command` as a tap does, and draw the frame after it: a tap's command is shown,
        and told to the phones, at that frame's swap, once it is on disk (shown_when_saved.py)."""
        sent = bool(self.app.send(command))
        self.frames(1)
        return sent

    def tap_id(self, widget_id: str) -> None:
        self.tap(self.widget(widget_id))

    def popup(self) -> Any:
        from kivy.uix.modalview import ModalView

        popups = [c for c in self.window.children if isinstance(c, ModalView)]
        return popups[0] if popups else None

    def pick(self, value: str) -> None:
        """Tap the choice for `value` in the open card picker."""
        picker = self.popup()
        assert picker is not None, "no picker is open"
        if "cards" in picker.ids:  # the fear-card picker: a recycled list with a search
            self._pick_fear_card(picker, value)
            return
        for button in [*picker.ids.pinned.children, *picker.ids.grid.children]:
            if button.value == value:
                self.tap(button)
                return
        raise AssertionError(f"{value!r} is not among the picker's choices")

    def _pick_fear_card(self, picker: Any, value: str) -> None:
        if value == "":
            self.tap(picker.ids.unnamed)
            return
        assert value in picker.shown(), f"{value!r} is not among the picker's choices"
        name = next(row["text"] for row in picker.ids.cards.data if row["value"] == value)
        from companion.ui.pickers import folded

        # Type the first letters of its name on the picker's keys.
        for letter in [c for c in folded(name.split()[0]) if "a" <= c <= "z"][:3]:
            key = next(k for k in picker.ids.letters.children if k.text == letter.upper())
            self.tap(key)
        self.frames(2)
        for row in picker.ids.cards.children[0].children:
            if row.value == value:
                self.tap(row)
                return
        raise AssertionError(f"{value!r} was not shown after typing {name[:3]!r}")

    def choices(self) -> list[str]:
        picker = self.popup()
        assert picker is not None, "no picker is open"
        if "cards" in picker.ids:
            return ["", *picker.shown()]
        return list(picker.shown())

    def keys(self) -> Any:
        """The on-screen keys (shown or not)."""
        from companion.ui.keys import KeyPanel

        return KeyPanel.shared()

    def key(self, key: str) -> Any:
        """The on-screen key that types `key` or does it (Space, Del, Clear, Done, Shift)."""
        from companion.ui.keys import KeyButton

        panel = self.keys()
        assert panel.parent is not None, "the on-screen keys are not shown"
        return next(button for button in panel.walk(restrict=True)
                    if isinstance(button, KeyButton) and button.key == key)

    def type_on_keys(self, text: str) -> None:
        """Type `text` by tapping the on-screen keys, as a player does: Shift for a capital,
        the accents' or the signs' keys for what the letters' keys do not have."""
        from companion.ui.keys import KEY_LAYERS, capital

        panel = self.keys()
        for char in text:
            if char == " ":
                self.tap(self.key("Space"))
                continue
            layers = [panel.layer, *(name for name in KEY_LAYERS if name != panel.layer)]
            layer, shifted = next(
                (name, char not in "".join(KEY_LAYERS[name])) for name in layers
                if any(char in row or char in map(capital, row) for row in KEY_LAYERS[name]))
            if panel.layer != layer:
                if panel.layer != "abc":
                    self.tap(self.key(panel.layer))  # back to the letters
                if layer != "abc":
                    self.tap(self.key(layer))
            if panel.shift != shifted:
                self.tap(self.key("Shift"))
            self.tap(self.key(char))

    def banner_lines(self) -> list[str]:
        """The lines on the table's banner, top first, as drawn."""
        table = self.app.screen("table")
        return [line.text for line in reversed(table.ids.banner_rows.children)]

    def press_key(self, key: int, codepoint: str | None = None,
                  modifiers: list[str] | None = None) -> None:
        """A key pressed on a real keyboard: as SDL does, `on_keyboard` follows when no
        `on_key_down` handler took the key."""
        self._pause()
        def press() -> None:
            if not self.window.dispatch("on_key_down", key, 0, codepoint, modifiers or []):
                self.window.dispatch("on_keyboard", key, 0, codepoint, modifiers or [])

        self.as_in_the_loop(press)
        self.frames(2)

    def service_status(self) -> str:
        """The stored status (active, finished, abandoned) of the newest game."""
        games = self.app.service.store.games()
        return str(max(games, key=lambda game: game["id"])["status"])

    @property
    def state(self) -> dict[str, Any]:
        return dict(self.app.game_state)


@contextmanager
def running_app(db_path: Path, size: tuple[int, int] = (800, 480)) -> Iterator[Harness]:
    harness = Harness(db_path, size)
    try:
        yield harness
    finally:
        harness.close()
