"""Benchmark of taps beyond bench_ui's: tap to frame on Leviathan Wilds' table, and on Spirit
Island's with the phones' mirror switched on and 50 phones following, against it switched off,
and with the table's voice on against off (tests/benchmarks/bench_voice.py).

Not a test (nothing here is timed against a limit in CI): run it by hand and read the figures.

    python -m tests.benchmarks.bench_taps                          # every section
    python -m tests.benchmarks.bench_taps --sections mirror --mirror-clients 50
    python -m tests.benchmarks.bench_taps --json                   # the figures as JSON

Every tap is timed as bench_ui times Spirit Island's (its docstring has the details): the real
app on a fresh database in the test harness's window under Xvfb, a UnitTestTouch through the
window, finger down, one frame, the finger held 30 ms, then timed from just before touch_up
until the next frame has been drawn and swapped; the work before the swap (the app and Kivy,
without the software renderer's rasterising) is split out. Goal: one frame (16.7 ms at 60 Hz).

- Leviathan Wilds (issue 18): a game of four guardians (leviathan 1, medium) is started through
  the screens as players do (new game, its form, every checklist line ticked, ready). Then, in
  turn: Done, WILD +1, Health -1 and Health +1 (the active guardian's, so the game stays where
  it is), and Guardian… (opening the guardian panel). Outside the timing the WILD is undone (so
  each WILD turns a threat, as at the table, while a calm one lies face down) and the panel is
  closed. The table redrawn with nothing changed is timed too, as the floor under every tap.
- The mirror (issue 20): Spirit Island's Done and +1 fear, played as in bench_ui, in blocks with
  the phones' mirror off and on in turn (off, on, off, on, ...) in one app, so that a drift of
  the machine's load hits both alike. For an "on" block the mirror is switched on as the
  Settings switch does it (`app.change_setting`), and the phones (tests/benchmarks/phones.py,
  in a process of their own as real phones would be, a third each reading in English, German
  and French) connect to its event stream; for an "off" block nothing listens. Each block
  starts with a few untimed rounds. Besides the taps, each state the app published in an "on"
  block is timed from its publishing (inside the tap, right after the driver's answer) to its
  arrival on every phone (CLOCK_MONOTONIC in both processes).

This machine may be shared: the load average (/proc/loadavg, 1, 5 and 15 minutes) is printed at
the start and the end of each section and block, since the figures move with it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tests.benchmarks.bench_model import percentile, spread
from tests.benchmarks.bench_ui import (
    GOAL_FRAME_MS,
    PLAYERS_PAUSE_S,
    REDRAW,
    REDRAWS,
    REPO,
    Stopwatch,
    Tap,
    build_ahead_as_on_the_pi,
    machine,
    play,
    settle,
    start_game,
    stopwatch_on,
    timed_redraw,
    timed_tap,
)
from tests.benchmarks.phones import READY
from tests.ui.harness import Harness, ensure_display, prepare, running_app

SECTIONS = ("leviathan", "mirror", "voice")
LEVIATHAN_GAME = {"players": 4, "difficulty": "medium", "leviathan": 1}
LEVIATHAN_TABLE = "table-leviathan-wilds"
LEVIATHAN_TAPS = (("done", "Done"), ("wild", "WILD +1"), ("health_down", "Health -1"),
                  ("health_up", "Health +1"), ("guardian", "Guardian…, opens the panel"))
SPIRIT_ISLAND_TAPS = ("Done", "+1 fear")  # what bench_ui's play() taps, in its order
GOAL_MIRROR_P99_MS = 250.0
PHONES_TIMEOUT_S = 60.0


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, as /proc/loadavg has them."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def spread_of(samples: list[float]) -> dict[str, float]:
    """bench_model's spread, also of one sample (a rare kind of tap, such as a game's end)."""
    if len(samples) > 1:
        return spread(samples)
    only = samples[0]
    return {"median": only, "min": only, "max": only, "q1": only, "q3": only, "iqr": 0.0,
            "p95": only, "samples": 1}


def in_order(kinds: Iterator[str] | list[str], order: tuple[str, ...]) -> list[str]:
    """The kinds of tap in the order of the buttons they begin with (then by name)."""
    def place(kind: str) -> tuple[int, str]:
        return next((i for i, start in enumerate(order) if kind.startswith(start)),
                    len(order)), kind

    return sorted(set(kinds), key=place)


def tap_summary(taps: list[Tap], order: tuple[str, ...]) -> dict[str, Any]:
    """Per kind of tap: the spread of tap to frame and of the work before the swap."""
    figures: dict[str, Any] = {}
    for kind in in_order([tap.kind for tap in taps], order):
        these = [tap for tap in taps if tap.kind == kind]
        totals = [tap.total_ms for tap in these]
        work = [tap.total_ms - tap.swap_ms for tap in these]
        sends = [tap.send_ms for tap in these if tap.send_ms is not None]
        figures[kind] = {
            "taps": len(these),
            "total": spread_of(totals),
            "work_before_swap": spread_of(work),
            "send_median": statistics.median(sends) if sends else None,
            "swap_median": statistics.median(tap.swap_ms for tap in these),
            "within_one_frame": sum(t <= GOAL_FRAME_MS for t in totals) / len(totals),
            "gc_taps": sum(tap.gc_ms > 0 for tap in these),
            "gc_max_ms": max(tap.gc_ms for tap in these),
            "slowest": asdict(max(these, key=lambda tap: tap.total_ms)),
        }
    return figures


def between_taps(harness: Harness) -> None:
    """What follows each timed tap, untimed: the frames it still asks for, a player's pause."""
    settle(harness)
    time.sleep(PLAYERS_PAUSE_S)
    settle(harness)


# --- Leviathan Wilds --------------------------------------------------------------------------


def on_a_running_leviathan_table(harness: Harness) -> bool:
    state = harness.app.game_state or {}
    return harness.app.screens.current == LEVIATHAN_TABLE and state.get("outcome") is None


def new_leviathan_game(harness: Harness) -> None:
    """Through the screens, as players start one (untimed); a finished game is left first."""
    from tests.ui.test_leviathan_ui import start  # it imports Kivy: only once prepared

    if harness.app.screens.current == LEVIATHAN_TABLE:  # the game is over: Done reads "Home"
        harness.tap_id("done")
    start(harness, **LEVIATHAN_GAME)


def checked(harness: Harness, button: str, tap: Tap, before: dict[str, Any]) -> Tap:
    """A tap that did not do what its button does would be timed for nothing: say so."""
    after = harness.app.game_state
    if button == "guardian":
        if harness.popup() is None:
            raise RuntimeError("Guardian… opened no panel")
        return tap
    if tap.send_ms is None:
        raise RuntimeError(f"{tap.kind!r} sent no command ({harness.app.notice})")
    if button == "done" and (after["round"], after["step"], after["active"]) == (
            before["round"], before["step"], before["active"]):
        raise RuntimeError(f"Done did not move the game on ({harness.app.notice})")
    if button.startswith("health_"):
        chosen = harness.screen.selected
        change = after["guardians"][chosen]["health"] - before["guardians"][chosen]["health"]
        if change != (1 if button == "health_up" else -1):
            raise RuntimeError(f"{tap.kind} changed health by {change} ({harness.app.notice})")
    return tap


def play_leviathan(harness: Harness, watch: Stopwatch, rounds: int) -> Iterator[Tap]:
    """Tap Done, WILD +1, Health -1, Health +1 and Guardian… `rounds` times each."""
    app = harness.app
    for _ in range(rounds):
        for button, kind in LEVIATHAN_TAPS:
            if not on_a_running_leviathan_table(harness):
                new_leviathan_game(harness)
            before = dict(app.game_state)
            harness.player_pause()  # Done right after a step change would be a double tap
            tap = checked(harness, button,
                          timed_tap(harness, watch, harness.widget(button), kind), before)
            if button == "wild":
                app.send({"cmd": "undo"})  # the next WILD turns a threat again
            if harness.popup() is not None:
                harness.popup().dismiss()
            between_taps(harness)
            yield tap


def time_leviathan(rounds: int, warm_up: int, folder: Path) -> dict[str, Any]:
    load_at_start = load_average()
    (folder / "leviathan").mkdir()  # its own companion.ini: the new-game form remembers
    with running_app(folder / "leviathan" / "games.db") as harness:
        build_ahead_as_on_the_pi(harness)
        new_leviathan_game(harness)
        with stopwatch_on(harness) as watch:
            for _ in play_leviathan(harness, watch, warm_up):
                pass
            taps = list(play_leviathan(harness, watch, rounds))
            if not on_a_running_leviathan_table(harness):
                new_leviathan_game(harness)
            settle(harness)
            taps += [timed_redraw(harness, watch) for _ in range(REDRAWS)]
    return {"game": LEVIATHAN_GAME, "rounds": rounds, "warm_up_rounds": warm_up,
            "load_average": {"start": load_at_start, "end": load_average()},
            "by_kind": tap_summary(taps, (*(kind for _, kind in LEVIATHAN_TAPS), REDRAW))}


# --- the phones' mirror -----------------------------------------------------------------------


@dataclass
class Block:
    """One run of taps with the mirror off or on."""

    mirror_on: bool
    load_at_start: str
    load_at_end: str = ""
    taps: list[Tap] = field(default_factory=list)
    published_ns: dict[int, int] = field(default_factory=dict)
    """Each state the app published while the phones followed: its seq, and when."""
    arrived: list[list[tuple[int, int]]] = field(default_factory=list)
    """Per phone: [seq, arrival] of each state it got."""
    closed_by_server: int = 0


class Phones:
    """The simulated phones' process, following the app's mirror until it is stopped."""

    def __init__(self, url: str, count: int) -> None:
        parts = urlsplit(url)  # loopback: the machine may have no LAN address
        command = [sys.executable, "-m", "tests.benchmarks.phones", "127.0.0.1",
                   str(parts.port), parts.path, str(count)]
        self.process = subprocess.Popen(command, cwd=REPO, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        watchdog = threading.Timer(PHONES_TIMEOUT_S, self.process.kill)
        watchdog.start()
        try:
            assert self.process.stdout is not None
            line = self.process.stdout.readline()
        finally:
            watchdog.cancel()
        if line.strip() != READY:
            self.process.kill()
            raise RuntimeError(f"the phones did not all get a state (they said {line!r})")

    def stop(self) -> dict[str, Any]:
        """Close the phones' stdin: they hang up and say what arrived when."""
        output, _ = self.process.communicate(timeout=PHONES_TIMEOUT_S)
        if self.process.returncode != 0:
            raise RuntimeError(f"the phones failed (exit {self.process.returncode})")
        report: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
        return report


def record_publishing(app: Any, block: Block) -> None:
    """Stamp each state the app's mirror publishes (the feed numbers them)."""
    feed = app.mirror_link.switch.feed
    publish = feed.publish

    def stamped(*args: Any, **kwargs: Any) -> int:
        at = time.monotonic_ns()
        seq: int = publish(*args, **kwargs)
        block.published_ns[seq] = at
        return seq

    feed.publish = stamped  # type: ignore[method-assign]


def play_block(harness: Harness, watch: Stopwatch, block: Block, rounds: int, warm_up: int,
               phones: int) -> None:
    app = harness.app
    following = None
    if block.mirror_on:
        app.change_setting("mirror", "on", "1")
        if not app.mirror_url:
            raise RuntimeError(f"the mirror did not switch on: {app.notice}")
        following = Phones(app.mirror_url, phones)
        settle(harness)
    try:
        for _ in play(harness, watch, warm_up):
            pass
        if following is not None:
            record_publishing(app, block)
        block.taps = list(play(harness, watch, rounds))
    finally:
        if following is not None:
            report = following.stop()
            block.arrived = [[(seq, at) for seq, at in phone] for phone in report["arrived"]]
            block.closed_by_server = report["closed_by_server"]
            app.change_setting("mirror", "on", "0")
            if app.mirror_url:
                raise RuntimeError("the mirror did not switch off")
    block.load_at_end = load_average()


def delivery(blocks: list[Block]) -> dict[str, Any]:
    """From publishing to arrival, over every phone and every state published while it
    followed; and the states a phone never got."""
    latencies: list[float] = []
    missing = 0
    states = 0
    for block in blocks:
        states += len(block.published_ns)
        for phone in block.arrived:
            arrivals = dict(phone)
            for seq, at in block.published_ns.items():
                if seq in arrivals:
                    latencies.append((arrivals[seq] - at) / 1e6)
                else:
                    missing += 1
    figures: dict[str, Any] = {"states_published": states, "deliveries": len(latencies),
                               "never_arrived": missing,
                               "closed_by_server": sum(b.closed_by_server for b in blocks)}
    if len(latencies) > 1:
        figures.update(spread(latencies), p99=percentile(latencies, 0.99))
    return figures


def time_mirror(rounds: int, warm_up: int, blocks: int, phones: int,
                folder: Path) -> dict[str, Any]:
    load_at_start = load_average()
    done: list[Block] = []
    (folder / "mirror").mkdir()
    with running_app(folder / "mirror" / "games.db") as harness:
        harness.app.mirror_port = 0  # any free port
        build_ahead_as_on_the_pi(harness)
        start_game(harness)
        with stopwatch_on(harness) as watch:
            for index in range(blocks):
                block = Block(mirror_on=index % 2 == 1, load_at_start=load_average())
                if harness.app.screens.current != "table":
                    start_game(harness)
                play_block(harness, watch, block, rounds, warm_up, phones)
                done.append(block)
    by_condition, per_block = off_and_on(
        "mirror", [(block.mirror_on, block.load_at_start, block.load_at_end, block.taps)
                   for block in done])
    return {"phones": phones, "blocks": blocks, "rounds_per_block": rounds,
            "warm_up_rounds_per_block": warm_up,
            "load_average": {"start": load_at_start, "end": load_average()},
            "by_condition": by_condition, "per_block": per_block,
            "publish_to_phone_ms": delivery([block for block in done if block.mirror_on])}


# --- blocks with something off and on in turn (the mirror here, the voice in bench_voice) ----


def off_and_on(switch: str, blocks: list[tuple[bool, str, str, list[Tap]]]
               ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Spirit Island's taps of blocks (`switch` on or not, the load average at their start and
    end, their taps) summed up by condition, and each block's medians."""
    by_condition = {}
    for condition, on in (("off", False), ("on", True)):
        taps = [tap for switched, _start, _end, these in blocks if switched == on
                for tap in these]
        by_condition[condition] = tap_summary(taps, SPIRIT_ISLAND_TAPS)
    per_block = [{switch: "on" if switched else "off",
                  "load_average": {"start": start, "end": end},
                  "median_by_kind": {kind: statistics.median(
                      tap.total_ms for tap in taps if tap.kind == kind)
                      for kind in in_order([tap.kind for tap in taps], SPIRIT_ISLAND_TAPS)}}
                 for switched, start, end, taps in blocks]
    return by_condition, per_block


def print_off_and_on(switch: str, figures: dict[str, Any]) -> None:
    """`off_and_on`'s figures: each condition's taps, each block's medians, and on − off."""
    for condition in ("off", "on"):
        print(f"  {switch} {condition}:")
        print_kinds(figures["by_condition"][condition], indent="    ")
    print("  median by block (load average at its start → end):")
    for number, block in enumerate(figures["per_block"], start=1):
        medians = ", ".join(f"{kind} {value:.1f}"
                            for kind, value in block["median_by_kind"].items())
        print(f"    {number}. {switch} {block[switch]:3}: {medians}   (load "
              f"{block['load_average']['start']} → {block['load_average']['end']})")
    off, on = figures["by_condition"]["off"], figures["by_condition"]["on"]
    for kind in [kind for kind in off if kind in on]:
        total = on[kind]["total"]["median"] - off[kind]["total"]["median"]
        p95 = on[kind]["total"]["p95"] - off[kind]["total"]["p95"]
        work = on[kind]["work_before_swap"]["median"] - off[kind]["work_before_swap"]["median"]
        # The noise to compare with: how far the off blocks' medians lie apart.
        off_medians = [block["median_by_kind"][kind] for block in figures["per_block"]
                       if block[switch] == "off" and kind in block["median_by_kind"]]
        noise = "" if len(off_medians) < 2 else (
            f"; the off blocks' medians lie {max(off_medians) - min(off_medians):.1f} ms apart")
        print(f"  {kind}: on − off {total:+.1f} ms in the medians, {p95:+.1f} ms in the p95 "
              f"({work:+.1f} ms in the median without the swap){noise}")


# --- report ------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.bench_taps",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--sections", default=",".join(SECTIONS),
                        help=f"which to run, comma-separated (default: {','.join(SECTIONS)})")
    parser.add_argument("--leviathan-rounds", type=int, default=60,
                        help="timed taps of each Leviathan Wilds button")
    parser.add_argument("--mirror-clients", type=int, default=50,
                        help="phones following the mirror in its on blocks")
    parser.add_argument("--mirror-blocks", type=int, default=4,
                        help="blocks, off and on in turn (an even number)")
    parser.add_argument("--mirror-rounds", type=int, default=40,
                        help="timed taps of Done and of +1 fear in each block")
    parser.add_argument("--voice-blocks", type=int, default=4,
                        help="blocks with the voice off and on in turn (an even number)")
    parser.add_argument("--voice-rounds", type=int, default=30,
                        help="timed taps of Done and of +1 fear in each voice block")
    args = parser.parse_args(argv)
    sections = [name.strip() for name in args.sections.split(",") if name.strip()]
    if not sections or any(name not in SECTIONS for name in sections):
        parser.error(f"--sections takes some of {', '.join(SECTIONS)}")
    if min(args.mirror_blocks, args.voice_blocks) < 2 or (args.mirror_blocks
                                                          + args.voice_blocks) % 2:
        parser.error("--mirror-blocks and --voice-blocks must be even and at least 2 "
                     "(off, on, ...)")
    if min(args.leviathan_rounds, args.mirror_rounds, args.voice_rounds) < 2 \
            or args.mirror_clients < 1:
        parser.error("the rounds must be at least 2 (for the spread), the clients at least 1")

    xvfb = ensure_display()
    display = os.environ["DISPLAY"] + (" (Xvfb started for this run)" if xvfb else "")
    figures: dict[str, Any] = {"machine": {**machine(), "display": display},
                               "goal_frame_ms": GOAL_FRAME_MS}
    try:
        with tempfile.TemporaryDirectory(prefix="companion-bench-taps-") as tmp:
            folder = Path(tmp)
            prepare(folder / "kivy-home")
            from kivy.graphics.opengl import GL_RENDERER, glGetString

            if "leviathan" in sections:
                figures["leviathan_wilds"] = time_leviathan(args.leviathan_rounds, warm_up=2,
                                                            folder=folder)
            if "mirror" in sections:
                figures["mirror"] = time_mirror(args.mirror_rounds, warm_up=5,
                                                blocks=args.mirror_blocks,
                                                phones=args.mirror_clients, folder=folder)
            if "voice" in sections:
                from tests.benchmarks.bench_voice import time_voice

                (folder / "voice").mkdir()
                figures["voice"] = time_voice(args.voice_rounds, warm_up=5,
                                              blocks=args.voice_blocks, folder=folder / "voice")
            figures["machine"]["gl"] = glGetString(GL_RENDERER).decode()
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait()
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        report(figures)
    return 0


def print_kinds(by_kind: dict[str, Any], indent: str = "  ") -> None:
    for kind, f in by_kind.items():
        total, work = f["total"], f["work_before_swap"]
        noun = "frames" if kind == REDRAW else "taps"
        print(f"{indent}{kind} ({f['taps']} {noun}): median {total['median']:.1f}   IQR "
              f"{total['q1']:.1f} – {total['q3']:.1f}   p95 {total['p95']:.1f}   max "
              f"{total['max']:.1f}; {f['within_one_frame']:.0%} within one frame")
        send = f"; send {f['send_median']:.2f}" if f["send_median"] is not None else ""
        print(f"{indent}    without the swap: median {work['median']:.1f}   IQR "
              f"{work['q1']:.1f} – {work['q3']:.1f}   p95 {work['p95']:.1f}   (median swap "
              f"{f['swap_median']:.1f}{send}; the collector ran in {f['gc_taps']} {noun}, up to "
              f"{f['gc_max_ms']:.1f})")


def report(figures: dict[str, Any]) -> None:
    m = figures["machine"]
    print("Table companion: more taps to frame (Leviathan Wilds; the phones' mirror on and off; "
          "the voice on and off)")
    print(f"machine: {m['machine']}, {m['cpu_count']} CPUs, {m['platform']}, {m['python']}, "
          f"Kivy {m['kivy']}; display {m['display']}; GL {m.get('gl', '?')}")
    print(f"In ms, from touch_up to the next frame swapped (goal ≤ {GOAL_FRAME_MS:.1f}); "
          "'without the swap': the app's and Kivy's work, leaving out the renderer's")
    if "leviathan_wilds" in figures:
        lw = figures["leviathan_wilds"]
        game = lw["game"]
        print()
        print(f"Leviathan Wilds' table: {game['players']} guardians, leviathan "
              f"{game['leviathan']}, {game['difficulty']}; {lw['rounds']} taps of each button "
              f"after {lw['warm_up_rounds']} untimed rounds")
        print(f"  load average (1/5/15 min) at start {lw['load_average']['start']}, at end "
              f"{lw['load_average']['end']}")
        print_kinds(lw["by_kind"])
    if "mirror" in figures:
        mirror = figures["mirror"]
        print()
        print(f"Spirit Island's table with the phones' mirror off and on: {mirror['blocks']} "
              f"blocks in turn (off, on, ...), {mirror['rounds_per_block']} taps of Done and of "
              f"+1 fear in each after {mirror['warm_up_rounds_per_block']} untimed rounds; "
              f"{mirror['phones']} phones follow in the on blocks")
        print(f"  load average (1/5/15 min) at start {mirror['load_average']['start']}, at end "
              f"{mirror['load_average']['end']}")
        print_off_and_on("mirror", mirror)
        d = mirror["publish_to_phone_ms"]
        print(f"  published → arrived on every phone: {d['deliveries']} deliveries of "
              f"{d['states_published']} states; never arrived {d['never_arrived']}; phones let "
              f"go by the server {d['closed_by_server']}")
        if "p99" in d:
            verdict = "met" if d["p99"] <= GOAL_MIRROR_P99_MS else "MISSED"
            print(f"    median {d['median']:.1f}   IQR {d['q1']:.1f} – {d['q3']:.1f}   p95 "
                  f"{d['p95']:.1f}   p99 {d['p99']:.1f}   max {d['max']:.1f}; goal p99 ≤ "
                  f"{GOAL_MIRROR_P99_MS:.0f} ms: {verdict}")
    if "voice" in figures:
        from tests.benchmarks.bench_voice import report as report_voice

        print()
        report_voice(figures["voice"])


if __name__ == "__main__":
    sys.exit(main())
