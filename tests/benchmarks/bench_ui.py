"""Benchmark of the touchscreen app: cold start to first frame, and tap to updated frame.

Not a test (nothing here is timed against a limit in CI): run it by hand and read the figures.

    python -m tests.benchmarks.bench_ui            # figures for people
    python -m tests.benchmarks.bench_ui --json     # the same figures as one JSON object

Goals from the issue: the app shows its first frame at most 1.5× as late as a bare Kivy app
started the same way (Kivy and the window cost what they cost; the app should add little), and a
tap shows its result within one frame (16.7 ms at 60 Hz), because players tap the big Done
button and the fear button all evening and the screen must keep up.

How the figures are made:
- cold start: each run is a fresh `python -c ...` subprocess under the same DISPLAY and the same
  Kivy environment (KIVY_NO_ARGS, KIVY_NO_CONSOLELOG, KIVY_NO_FILELOG, one temporary KIVY_HOME).
  The companion child does what `companion.ui.launch.run_app` does (build_service over a fresh
  database file, prepare_kivy, compile_layouts_once, open the window, CompanionApp(...).run());
  the bare child calls prepare_kivy (not compile_layouts_once: a bare Kivy app compiles Kivy's
  style.kv at every start), opens the window and runs an App whose root is one Label. Both bind
  the window's on_flip in on_start and print FIRST_FRAME once the first frame has been swapped
  to the screen, then stop. A run is timed from just before `subprocess.Popen` until the parent
  reads that line. The two kinds alternate, after one warm-up run of each (so both find a
  written KIVY_HOME and warm file caches). The app's bytecode is compiled first, as `tasks.py
  setup` does and as Python does by itself on the Pi (Kivy and the other packages have theirs
  from pip). The children stamp CLOCK_MONOTONIC at a few points, which splits the time into its
  phases.
- tap to frame: in this process, the real app on a fresh database in the test harness's window
  (tests/ui/harness.py). A game is started through the screens (new game, start, ready) and then
  Done and "+1 fear" are tapped in turn, so the game moves on through its rounds; the fear-card
  picker that Done opens in the Fear step is answered, and a finished game is left for a new
  one, all outside the timing. Each tap is a UnitTestTouch through the window, as in the tests:
  finger down, one frame, the finger held 30 ms, then timed from just before touch_up until the
  next EventLoop.idle() has drawn and swapped the frame. Holding the finger for longer than a
  frame means Kivy's frame cap (maxfps 60) never sleeps inside the timed frame, so the figure is
  work, not waiting for the next frame slot. `app.send` and `app.driver.handle` are wrapped to
  time the command inside the tap, the window's on_draw is bound and its flip wrapped to split
  the frame into clock/layout, drawing (with the wait for the tap's commit, which comes just
  before the swap) and the buffer swap itself, and a gc callback times the garbage
  collector (left on, as in the app). Under Xvfb the GL is Mesa's software renderer (llvmpipe),
  where the swap is where the pixels get rasterised: the renderer is printed at the top, and the
  table redrawn with nothing changed is timed too, as the floor under every tap.
"""

from __future__ import annotations

import argparse
import compileall
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any

from tests.benchmarks.bench_model import machine as model_machine
from tests.benchmarks.bench_model import percentile, spread
from tests.ui.harness import Harness, ensure_display, prepare, running_app

REPO = Path(__file__).resolve().parents[2]
GOAL_START_RATIO = 1.2  # companion's median first frame ≤ 1.2 × the bare app's (issue 26)
GOAL_FRAME_MS = 1000 / 60  # one frame at 60 Hz
HOLD_S = 0.03  # how long the finger rests on the button before it is lifted
COLLECT_AFTER_S = 0.2
"""The app's idle pause before it collects garbage, shortened from the players' seconds. Kivy
counts it from the frame before the lift, so it must outlast the finger's rest and the timed
frame (else the collection that the tap's own command asks for falls inside the timing, as it
never does at the table); and the pause between two taps outlasts it."""
PLAYERS_PAUSE_S = COLLECT_AFTER_S + 0.05
"""Between two timed taps: the collection a tap asked for runs now, not inside the next."""
CHILD_TIMEOUT_S = 60.0
FIRST_FRAME = "FIRST_FRAME"
REDRAW = "redraw of the table, nothing changed"
REDRAWS = 50

# --- cold start --------------------------------------------------------------------------------

# Shared by both children: stamp on_start, then report the first frame swapped after it and stop.
_REPORT_FIRST_FRAME = f"""
def _on_flip(*_):
    Window.unbind(on_flip=_on_flip)
    print("{FIRST_FRAME}", t_begin, t_service, t_window, t_start[0], time.monotonic_ns(),
          flush=True)
    app.stop()
def _on_start(*_):
    t_start.append(time.monotonic_ns())
    Window.bind(on_flip=_on_flip)
t_start = []
app.bind(on_start=_on_start)
app.run()
"""

# What companion.ui.launch.run_app does, in the same order, on the database named by argv[1]:
# the database is opened after the first frame (so "service" is ~0 here; its cost lands after
# the figure, while Home is shown).
COMPANION_CHILD = """
import time
t_begin = time.monotonic_ns()
import sys
from pathlib import Path
db_path = Path(sys.argv[1])
from companion.ui.launch import compile_layouts_once, prepare_kivy
def open_service():
    from companion.bootstrap import build_service
    return build_service(db_path)[0]
t_service = time.monotonic_ns()
prepare_kivy(db_path.parent / "kivy")
compile_layouts_once()
from kivy.core.window import Window
t_window = time.monotonic_ns()
from companion.ui.app import CompanionApp
app = CompanionApp(config_dir=db_path.parent, open_service=open_service)
""" + _REPORT_FIRST_FRAME

BARE_CHILD = """
import time
t_begin = t_service = time.monotonic_ns()
import sys
from pathlib import Path
folder = Path(sys.argv[1]).parent
from companion.ui.launch import prepare_kivy
prepare_kivy(folder / "kivy")
from kivy.core.window import Window
t_window = time.monotonic_ns()
from kivy.app import App
from kivy.uix.label import Label
class BareApp(App):
    def load_kv(self, filename=None):  # it has none (and Kivy cannot look beside a -c script)
        return False
    def get_application_config(self, defaultpath="%(appdir)s/%(appname)s.ini"):
        return str(folder / "bare.ini")
    def build(self):
        return Label(text="Spirit Island companion")
app = BareApp()
""" + _REPORT_FIRST_FRAME

CHILDREN = {"companion": COMPANION_CHILD, "bare": BARE_CHILD}
START_PHASES = ("interpreter", "service", "kivy_window", "app_build", "first_frame", "report")


@dataclass
class StartRun:
    total_ms: float
    phases_ms: dict[str, float]


def child_environment(kivy_home: Path) -> dict[str, str]:
    """The same environment for both children: this one's (with its DISPLAY) and quiet Kivy."""
    env = dict(os.environ)
    env.update(KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_NO_FILELOG="1",
               KIVY_HOME=str(kivy_home))
    return env


def start_once(kind: str, env: dict[str, str], folder: Path) -> StartRun:
    """Start one child in `folder` (its database goes there) and time it to its first frame."""
    folder.mkdir(parents=True)
    command = [sys.executable, "-c", CHILDREN[kind], str(folder / "games.db")]
    began = time.monotonic_ns()
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    watchdog = threading.Timer(CHILD_TIMEOUT_S, process.kill)
    watchdog.start()
    try:
        assert process.stdout is not None
        stamps: list[int] = []
        reported = 0
        for line in process.stdout:
            if line.startswith(FIRST_FRAME):
                reported = time.monotonic_ns()
                stamps = [int(word) for word in line.split()[1:]]
                break
        _, errors = process.communicate()
    finally:
        watchdog.cancel()
    if not stamps or process.returncode != 0:
        raise RuntimeError(f"the {kind} app did not report its first frame "
                           f"(exit {process.returncode}):\n{errors[-3000:]}")
    points = (began, *stamps, reported)
    phases = {name: (end - start) / 1e6
              for name, start, end in zip(START_PHASES, points[:-1], points[1:], strict=True)}
    return StartRun(total_ms=(reported - began) / 1e6, phases_ms=phases)


def time_cold_starts(runs: int, folder: Path) -> dict[str, Any]:
    # As on the Pi (tasks.py setup does the same): the app's bytecode is cached, not compiled
    # at every start, even where PYTHONDONTWRITEBYTECODE keeps Python from caching it itself.
    compileall.compile_dir(REPO / "companion", quiet=1)
    env = child_environment(folder / "kivy-home")
    results: dict[str, list[StartRun]] = {kind: [] for kind in CHILDREN}
    for kind in CHILDREN:  # warm-up: writes KIVY_HOME's config, warms the file caches
        start_once(kind, env, folder / f"warm-up-{kind}")
    for run in range(runs):
        order = list(CHILDREN) if run % 2 == 0 else list(reversed(CHILDREN))
        for kind in order:
            results[kind].append(start_once(kind, env, folder / f"{kind}-{run}"))
    figures: dict[str, Any] = {}
    for kind, done in results.items():
        figures[kind] = {
            **spread([run.total_ms for run in done]),
            "phases_median_ms": {phase: statistics.median(run.phases_ms[phase] for run in done)
                                 for phase in START_PHASES},
        }
    ratio = figures["companion"]["median"] / figures["bare"]["median"]
    figures.update(runs_each=runs, ratio_of_medians=ratio, goal_max_ratio=GOAL_START_RATIO,
                   meets_goal=ratio <= GOAL_START_RATIO)
    return figures


# --- tap to frame ------------------------------------------------------------------------------


@dataclass
class Tap:
    """One timed tap: from just before touch_up until the next frame is on the screen."""

    kind: str
    total_ms: float
    dispatch_ms: float  # touch_up through the window, including the button's handler
    clock_ms: float  # the frame up to drawing: clock events, layout, label textures
    draw_ms: float  # on_draw (the canvas issued to GL), then the wait for the tap's commit
    swap_ms: float  # the buffer swap (rasterising, with a software renderer)
    send_ms: float | None  # app.send, when the tap sent a command
    handle_ms: float | None  # app.driver.handle inside it: the model and the durable store
    gc_ms: float  # the garbage collector, anywhere in the tap
    pending: bool  # the window still needed a redraw after that frame
    at: str  # where the game was when the tap came: round, phase and step


@dataclass
class Stopwatch:
    """Wraps the app's send and the driver's handle, and marks the frame's draw and flip."""

    clock: Callable[[], int] = time.perf_counter_ns
    send_ns: list[int] = field(default_factory=list)
    handle_ns: list[int] = field(default_factory=list)
    draw_at: int | None = None
    flip_at: int | None = None
    gc_ns: int = 0
    _gc_began: int = 0

    def reset(self) -> None:
        self.send_ns.clear()
        self.handle_ns.clear()
        self.draw_at = self.flip_at = None
        self.gc_ns = 0

    def on_gc(self, phase: str, _info: dict[str, int]) -> None:
        """Time the garbage collector's passes (it runs now and then inside a tap)."""
        if phase == "start":
            self._gc_began = self.clock()
        else:
            self.gc_ns += self.clock() - self._gc_began

    def wrap(self, record: list[int], call: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = self.clock()
            try:
                return call(*args, **kwargs)
            finally:
                record.append(self.clock() - start)

        return timed

    def on_draw(self, *_: Any) -> None:  # bound handlers run before the window's own
        self.draw_at = self.clock()

    def marking_the_swap(self, flip: Callable[[], Any]) -> Callable[[], Any]:
        """The window's swap, its start marked: what runs in on_flip before it (the wait for
        a tap's commit) is work before the swap, not the swap."""
        def flip_marked() -> Any:
            self.flip_at = self.clock()
            return flip()

        return flip_marked


@contextmanager
def stopwatch_on(harness: Harness) -> Iterator[Stopwatch]:
    watch = Stopwatch()
    app, driver, window = harness.app, harness.app.driver, harness.window
    # Instance attributes shadow the methods: kv rules and screens look `send` up on each tap.
    app.send = watch.wrap(watch.send_ns, app.send)  # type: ignore[method-assign]
    driver.handle = watch.wrap(watch.handle_ns, driver.handle)  # type: ignore[method-assign]
    window.bind(on_draw=watch.on_draw)
    window.flip = watch.marking_the_swap(window.flip)
    gc.callbacks.append(watch.on_gc)
    try:
        yield watch
    finally:
        gc.callbacks.remove(watch.on_gc)
        window.unbind(on_draw=watch.on_draw)
        del app.send, driver.handle, window.flip


def settle(harness: Harness, limit: int = 10) -> None:
    """Run frames until the window has nothing left to draw."""
    from kivy.base import EventLoop

    EventLoop.idle()
    for _ in range(limit):
        if not harness.window.canvas.needs_redraw:
            return
        EventLoop.idle()


def start_game(harness: Harness) -> None:
    """From the home screen to the table of a new game, as a player does (untimed)."""
    if harness.app.screens.current == "end":  # a game has just ended
        harness.tap_id("home")
    harness.tap_id("new_game")
    harness.tap_id("start")
    harness.tap_id("ready")
    if harness.popup() is not None:  # "… not ticked. Start anyway?"
        harness.popup().confirm()
        settle(harness)
    assert harness.app.screens.current == "table", harness.app.screens.current


def timed_frame(harness: Harness, watch: Stopwatch, kind: str,
                action: Callable[[], None]) -> Tap:
    """Time `action` (lifting a finger) and the frame after it, the finger having rested
    longer than a frame so that Kivy's frame cap does not sleep inside the timing."""
    from kivy.base import EventLoop

    state = harness.app.game_state or {}
    at = f"round {state.get('round')}, " + "/".join(  # Leviathan Wilds has steps, no phases
        str(state[part]) for part in ("phase", "step") if state.get(part) is not None)
    time.sleep(HOLD_S)
    watch.reset()
    clock = watch.clock
    start = clock()
    action()
    dispatched = clock()
    EventLoop.idle()
    drawn = clock()
    if watch.draw_at is None or watch.flip_at is None:
        raise RuntimeError(f"{kind!r} drew no frame")
    if not harness.app.screens.current.startswith("table"):  # each game's table: table[-game]
        kind += ", ends the game"
    return Tap(
        kind=kind,
        total_ms=(drawn - start) / 1e6,
        dispatch_ms=(dispatched - start) / 1e6,
        clock_ms=(watch.draw_at - dispatched) / 1e6,
        draw_ms=(watch.flip_at - watch.draw_at) / 1e6,
        swap_ms=(drawn - watch.flip_at) / 1e6,
        send_ms=sum(watch.send_ns) / 1e6 if watch.send_ns else None,
        handle_ms=sum(watch.handle_ns) / 1e6 if watch.handle_ns else None,
        gc_ms=watch.gc_ns / 1e6,
        pending=bool(harness.window.canvas.needs_redraw),
        at=at,
    )


def timed_tap(harness: Harness, watch: Stopwatch, widget: Any, kind: str) -> Tap:
    from kivy.base import EventLoop
    from kivy.tests.common import UnitTestTouch

    assert widget.get_root_window() is not None and not widget.disabled, widget
    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    EventLoop.idle()  # the button shows it is pressed
    return timed_frame(harness, watch, kind, touch.touch_up)


def timed_redraw(harness: Harness, watch: Stopwatch) -> Tap:
    """The floor under every tap: the same screen drawn again with nothing changed."""
    return timed_frame(harness, watch, REDRAW, harness.window.canvas.ask_update)


def play(harness: Harness, watch: Stopwatch, rounds: int) -> Iterator[Tap]:
    """Tap Done, then +1 fear, `rounds` times, keeping a game going between the taps."""
    app = harness.app
    for _ in range(rounds):
        for button in ("done", "fear_one"):
            if app.screens.current != "table":  # the game ended: a new one, as players do
                start_game(harness)
            kind = "+1 fear"
            if button == "done":
                action = harness.screen.view.action.kind
                kind = {"next": "Done", "resolve_fear": "Done, opens the fear-card picker"}.get(
                    action, f"Done ({action})")
            harness.player_pause()  # Done right after a step change would count as a double tap
            tap = timed_tap(harness, watch, harness.widget(button), kind)
            if harness.popup() is not None:  # the fear-card picker
                harness.pick("")  # "Resolve without naming it"
            settle(harness)
            time.sleep(PLAYERS_PAUSE_S)  # the collector runs now, between taps
            settle(harness)
            yield tap


def time_taps(rounds: int, warm_up: int, folder: Path) -> tuple[list[Tap], str]:
    from kivy.graphics.opengl import GL_RENDERER, GL_VERSION, glGetString

    with running_app(folder / "taps.db") as harness:
        renderer = f"{glGetString(GL_RENDERER).decode()}, OpenGL {glGetString(GL_VERSION).decode()}"
        build_ahead_as_on_the_pi(harness)
        start_game(harness)
        with stopwatch_on(harness) as watch:
            for _ in play(harness, watch, warm_up):
                pass
            taps = list(play(harness, watch, rounds))
            if harness.app.screens.current != "table":
                start_game(harness)
            settle(harness)
            taps += [timed_redraw(harness, watch) for _ in range(REDRAWS)]
    return taps, renderer


def tap_figures(taps: list[Tap]) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    order = ("Done", "+1 fear", REDRAW)
    for kind in sorted({tap.kind for tap in taps},
                       key=lambda kind: ([kind.startswith(o) for o in order].index(True), kind)):
        these = [tap for tap in taps if tap.kind == kind]
        totals = [tap.total_ms for tap in these]
        parts = {}
        for part in ("dispatch_ms", "clock_ms", "draw_ms", "swap_ms", "send_ms", "handle_ms"):
            values = [v for tap in these if (v := getattr(tap, part)) is not None]
            if values:
                parts[part] = statistics.median(values)
        # What the app and Kivy do, leaving out the swap (the renderer's rasterising).
        work = [tap.total_ms - tap.swap_ms for tap in these]
        figures[kind] = {
            "taps": len(these), "median": statistics.median(totals),
            "p95": percentile(totals, 0.95), "max": max(totals), "min": min(totals),
            "within_one_frame": sum(t <= GOAL_FRAME_MS for t in totals) / len(totals),
            "work_before_swap": {"median": statistics.median(work),
                                 "p95": percentile(work, 0.95), "max": max(work)},
            "frames_left_pending": sum(tap.pending for tap in these),
            "median_parts_ms": parts,
            "gc": {"taps": sum(tap.gc_ms > 0 for tap in these),
                   "max_ms": max(tap.gc_ms for tap in these)},
            "slowest": asdict(max(these, key=lambda tap: tap.total_ms)),
        }
    return figures


# --- opening screens and popups ---------------------------------------------------------------

GOAL_OPEN_MS = 100.0  # every screen and popup opens within a tenth of a second
OPEN_RUNS = 5  # later opens timed per screen


def _timed_open(harness: Harness, action: Callable[[], None]) -> float:
    """From the tap's action to the frame that shows it, drawn and swapped."""
    start = time.perf_counter()
    action()
    settle(harness, limit=3)
    return (time.perf_counter() - start) * 1000


def build_ahead_as_on_the_pi(harness: Harness) -> None:
    """What the app does after its first frame while Home is shown (the harness leaves it out
    for the tests): build the other screens ahead, then freeze what they hold for the garbage
    collector. Two seconds of frames, as a player looks at Home before the first tap."""
    from kivy.base import EventLoop

    from companion.ui import building_ahead

    # Players pause for seconds between taps, and the app collects garbage in such a pause;
    # the benchmark taps every few frames, so the pause the collector waits for is shortened
    # to fall between two timed taps (never inside one).
    building_ahead.IDLE_COLLECT_S = COLLECT_AFTER_S
    harness.app.builds_ahead = True
    harness.app.start_up.after_first_frame()
    deadline = time.perf_counter() + 2.0
    while time.perf_counter() < deadline:
        EventLoop.idle()
    # On a busy machine two seconds may not be enough: no timed tap may land among the builds.
    deadline = time.perf_counter() + 30.0
    while harness.app.start_up.still_starting() and time.perf_counter() < deadline:
        EventLoop.idle()


def time_opens(folder: Path) -> dict[str, dict[str, Any]]:
    """Each screen's first and later opens, the fear-card picker's and the table's "?", in an
    app that started as on the Pi: it builds the screens ahead while Home is shown (two
    seconds of frames here, as a player looks at Home before the first tap)."""
    figures: dict[str, dict[str, Any]] = {}
    with running_app(folder / "opens.db") as harness:
        app = harness.app
        build_ahead_as_on_the_pi(harness)
        assert app.send({"cmd": "new_game", "players": 1, "seed": 3})
        assert app.send({"cmd": "next"}) and app.send({"cmd": "fear", "amount": 4})
        for _ in range(12):
            if app.game_state["step"] == "fear":
                break
            app.send({"cmd": "next"})

        def opens(name: str, open_it: Callable[[], None], close: Callable[[], None]) -> None:
            first = _timed_open(harness, open_it)
            close()
            settle(harness)
            later = []
            for _ in range(OPEN_RUNS):
                later.append(_timed_open(harness, open_it))
                close()
                settle(harness)
            figures[name] = {"first": first, "later_median": statistics.median(later),
                             "later_max": max(later)}

        def back_to_table() -> None:
            app.show("table")

        for name in ("table", "new_game", "checklist", "end", "history", "tags", "rules"):
            opens(f"screen {name}", lambda name=name: app.show(name),
                  (lambda: app.show("home")) if name == "table" else back_to_table)
        app.show("table")
        settle(harness)
        table = app.screen("table")
        opens("fear-card picker", table.pick_fear_card, lambda: harness.popup().dismiss())
        opens('"?" (rules for the step)', app.rules_for_step, back_to_table)
    return figures


# --- report ------------------------------------------------------------------------------------


@contextmanager
def a_display() -> Iterator[str]:
    """The display a benchmark runs on, named for its report: the machine's, or an Xvfb
    started for the run (and stopped after it) when none is set."""
    xvfb = ensure_display()
    try:
        yield os.environ["DISPLAY"] + (" (Xvfb started for this run)" if xvfb else "")
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait()


def machine() -> dict[str, Any]:
    return {**model_machine(), "kivy": version("kivy")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.bench_ui",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--runs", type=int, default=8,
                        help="cold starts of each app (after one warm-up of each)")
    parser.add_argument("--taps", type=int, default=200,
                        help="timed taps of Done and of +1 fear (each)")
    parser.add_argument("--keep-taps", type=Path, default=None,
                        help="also write every timed tap to this JSON file")
    args = parser.parse_args(argv)
    if args.runs < 2 or args.taps < 1:
        parser.error("--runs must be at least 2 (for the spread) and --taps at least 1")

    with a_display() as display, \
            tempfile.TemporaryDirectory(prefix="companion-bench-ui-") as tmp:
        folder = Path(tmp)
        starts = time_cold_starts(args.runs, folder / "starts")
        prepare(folder / "kivy-home")  # Kivy is imported in this process only from here on
        taps, renderer = time_taps(args.taps, warm_up=10, folder=folder)
        opens = time_opens(folder)
    if args.keep_taps is not None:
        args.keep_taps.write_text(json.dumps([asdict(tap) for tap in taps], indent=1))

    figures = {
        "machine": {**machine(), "display": display, "gl": renderer},
        "cold_start_ms": starts,
        "tap_to_frame_ms": {"goal_max": GOAL_FRAME_MS, "by_kind": tap_figures(taps)},
        "open_ms": {"goal_max": GOAL_OPEN_MS, "by_screen": opens},
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    report(figures)
    return 0


def report(figures: dict[str, Any]) -> None:
    m, starts = figures["machine"], figures["cold_start_ms"]
    print("Spirit Island companion: touchscreen app benchmark")
    print(f"machine: {m['machine']} (processor: {m['processor']}), {m['cpu_count']} CPUs, "
          f"{m['platform']}, {m['python']}, Kivy {m['kivy']}")
    print(f"display: {m['display']}; GL: {m['gl']}")
    print()
    print(f"Cold start to first frame, in ms ({starts['runs_each']} runs of each, alternating, "
          "after a warm-up of each)")
    for kind, label in (("companion", "companion app"), ("bare", "bare Kivy app")):
        s = starts[kind]
        print(f"  {label:14} median {s['median']:7.1f}   IQR {s['q1']:.1f} – {s['q3']:.1f}   "
              f"min–max {s['min']:.1f} – {s['max']:.1f}")
    verdict = "meets the goal" if starts["meets_goal"] else "MISSES the goal"
    print(f"  ratio of medians {starts['ratio_of_medians']:.2f}×   goal ≤ "
          f"{GOAL_START_RATIO:g}×: {verdict}")
    print("  median phases:  " + " ".join(f"{phase:>12}" for phase in START_PHASES))
    for kind in ("companion", "bare"):
        phases = starts[kind]["phases_median_ms"]
        print(f"    {kind:12}" + " ".join(f"{phases[p]:12.1f}" for p in START_PHASES))
    print("  (interpreter: Popen to the child's first line; service: importing the service and "
          "build_service\n   over a new database; kivy_window: prepare_kivy and importing "
          "Kivy's window, which opens it;\n   app_build: importing the app's module, building "
          "it, up to on_start; first_frame: on_start\n   to the first swap; report: the swap to "
          "the parent reading the line)")
    print()
    print(f"Tap to updated frame, in ms (goal ≤ {GOAL_FRAME_MS:.1f} ms, one frame at 60 Hz)")
    for kind, f in figures["tap_to_frame_ms"]["by_kind"].items():
        verdict = "meets the goal" if f["median"] <= GOAL_FRAME_MS else "MISSES the goal"
        noun = "frames" if kind == REDRAW else "taps"
        print(f"  {kind} ({f['taps']} {noun}): median {f['median']:.1f}   p95 {f['p95']:.1f}   "
              f"max {f['max']:.1f}   (min {f['min']:.1f}); {f['within_one_frame']:.0%} within "
              f"one frame; median {verdict}")
        work = f["work_before_swap"]
        print(f"      without the swap: median {work['median']:.1f}   p95 {work['p95']:.1f}   "
              f"max {work['max']:.1f}")
        parts = f["median_parts_ms"]
        print("      median parts: " + ", ".join(
            f"{name.removesuffix('_ms')} {value:.2f}" for name, value in parts.items())
              + (f"; a further frame was pending after {f['frames_left_pending']} {noun}"
                 if f["frames_left_pending"] else ""))
        slowest = f["slowest"]
        print(f"      slowest at {slowest['at']}: " + ", ".join(
            f"{name.removesuffix('_ms')} {slowest[name]:.1f}"
            for name in ("dispatch_ms", "send_ms", "handle_ms", "clock_ms", "draw_ms", "swap_ms")
            if slowest[name] is not None)
            + f"; the garbage collector ran in {f['gc']['taps']} {noun} (up to "
              f"{f['gc']['max_ms']:.1f} ms), in this one for {slowest['gc_ms']:.1f} ms")
    print()
    print(f"Opening a screen or popup, in ms, to its first frame (goal ≤ {GOAL_OPEN_MS:g} ms; "
          f"first open, then the median and max of {OPEN_RUNS} later ones)")
    for name, f in figures["open_ms"]["by_screen"].items():
        worst = max(f["first"], f["later_max"])
        verdict = "meets the goal" if worst <= GOAL_OPEN_MS else "MISSES the goal"
        print(f"  {name:28} first {f['first']:6.1f}   later median {f['later_median']:6.1f}   "
              f"max {f['later_max']:6.1f}   {verdict}")
    print("  (dispatch: touch_up including the handler; send: app.send within it; handle: the "
          "model and the\n   durable store within send; clock: clock events, layout and text "
          "before drawing; draw: on_draw;\n   swap: the buffer swap, where a software renderer "
          "rasterises the frame)")


if __name__ == "__main__":
    sys.exit(main())
