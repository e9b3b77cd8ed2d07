"""Benchmark of every kind of tap on every registered game's table: the app's and Kivy's work
before the buffer swap, per game and per button.

Not a test (nothing here is timed against a limit in CI): run it by hand and read the figures.

    python -m tests.benchmarks.bench_every_table                  # every game, 30 rounds
    python -m tests.benchmarks.bench_every_table --games glow --rounds 10
    python -m tests.benchmarks.bench_every_table --json

Goal (issue 26): for every kind of tap in every game, median ≤ 4 ms and p95 ≤ 8 ms of work
before the swap on this VM, about one 60 Hz frame on a Raspberry Pi 4 (3–4× slower).

The play knows no game by name, as tests/ui/soak.py's does: for each registered game with a
table screen and a form, a game is started through the new-game screen as players start one
(tests/ui/soak.py `start_a_game`), in an app that is then closed; the timed app starts as the Pi
does at power-on, with that game resumed and its table built ahead while Home is shown
(building_ahead.py: the game likely played). A round then taps every button the table shows
(Undo, Redo, the game menu and the rules help left out: the first two only turn back what a tap
did, the last two lead away), each once and named by its id in the layout, and Done last (a Done
that asks first, as Glow's "nothing forgotten?", is counted apart, and its question answered Yes
outside the timing). Each tap is timed as bench_ui times Spirit Island's (its docstring has the
details): a UnitTestTouch through the window, the finger held 30 ms, then from just before
touch_up until the next frame has been swapped; the swap (Mesa's software rasteriser under Xvfb)
is split out. Outside the timing a popup the tap opened (a panel, a picker, a question) is put
away, and a command the tap sent is undone if the game took it (not if refused), so the next
round meets the same table; Done moves the game on, and a game that is over is followed by a new
one. A button that sent nothing and opened nothing (a banner's OK) is still timed, its frame
being work too; a tap after which nothing at all is drawn (a tile already chosen, tapped again)
has no frame to time and is left out.

This machine may be shared: the load average is printed at the start and end of each game.

Before and after, in one run: the figures above vary by a fifth from one run to the next on a
shared VM, more than one change takes off. So a change to the drawing of every table is also
timed in the same app, in alternating blocks (before, after, before, after): each block is a
round of taps and redraws of the table with nothing changed. Now: widgets at opacity 0 drawn as
Kivy draws them (before) and left out (after, companion/ui/unseen.py); each layout laid out on
a trigger of its own, as Kivy does (before), and all outermost first, once a pass (after,
companion/ui/layout_order.py), timed on Done alone: at each step tapped both ways, undone
between, so that each pair meets the same step. And, timed apart from
the taps (a Done's share of it does not stand out of their noise), every label of the table
laid out again, each word measured as Kivy does (before) and once in each font (after,
companion/ui/kivy_fixes.py).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from tests.benchmarks.bench_taps import load_average, print_kinds, spread_of, tap_summary
from tests.benchmarks.bench_ui import (
    PLAYERS_PAUSE_S,
    REDRAW,
    REDRAWS,
    Stopwatch,
    Tap,
    a_display,
    build_ahead_as_on_the_pi,
    machine,
    settle,
    stopwatch_on,
    timed_redraw,
    timed_tap,
)
from tests.ui.harness import Harness, prepare, running_app

AB_BLOCKS = 4
"""Alternating blocks of the before-and-after comparison (before, after, before, after)."""
AB_REDRAWS = 40
"""Redraws with nothing changed in each block."""
ORDER_STEPS = 12
"""Steps at which Done is tapped with the layouts laid out as Kivy does and outermost first."""
LAYOUT_BLOCKS = 24
"""Alternating blocks of the layout's before and after (each lays out every label once)."""
GOAL_MEDIAN_MS = 4.0
GOAL_P95_MS = 8.0
LEFT_ALONE = ("undo", "redo", "menu", "step_help", "help")
"""Ids of table buttons a round does not tap (see the module's docstring)."""


def button_name(widget: Any) -> str:
    """The button's id in the layout that names it (the nearest rule's ids), else its text."""
    node = widget.parent
    while node is not None and node is not node.parent:
        for name, named in getattr(node, "ids", {}).items():
            if named == widget:  # ids hold weak proxies: equal to the widget, not it
                return str(name)
        node = node.parent
    text = str(getattr(widget, "text", "") or "").strip()
    return f"'{text}'" if text else type(widget).__name__


def table_buttons(harness: Harness) -> list[tuple[str, Any]]:
    """The buttons of the table a player could tap now, by name, Done last (one per name: a
    row of player tiles has one `score_up` for each, and the first stands for them all)."""
    from tests.ui.soak import buttons_in

    table = harness.screen
    done = table.ids.get("done")
    named: dict[str, Any] = {}
    for button in buttons_in(table):
        name = button_name(button)
        if name not in LEFT_ALONE and not (done is not None and done == button):
            named.setdefault(name, button)
    buttons = sorted(named.items())
    if done is not None and not done.disabled:
        buttons.append(("done", done))
    return buttons


def play_table(harness: Harness, watch: Stopwatch, game_id: str,
               rounds: int) -> Iterator[Tap]:
    from tests.ui.soak import put_popups_away, start_a_game, under_way

    app = harness.app
    for _ in range(rounds):
        for name, _button in table_buttons(harness):
            if not (under_way(harness, game_id) and app.screens.current == app.table_name()):
                put_popups_away(harness)
                start_a_game(harness, game_id)
            button = dict(table_buttons(harness)).get(name)
            if button is None:  # the last tap changed the table (a step with other buttons)
                continue
            harness.scroll_into_view(button)
            harness.player_pause()  # Done right after a step change would be a double tap
            undos_before = app.game_state.get("undo_count")
            try:
                tap: Tap | None = timed_tap(harness, watch, button, name)
            except RuntimeError as error:  # it changed nothing on the screen: no frame to time
                if "drew no frame" not in str(error):
                    raise
                tap = None
            question = harness.popup()
            if name == "done" and tap is not None and question is not None:
                # Done that asks first ("nothing forgotten?", a card to name): the asking is
                # what the tap did; the answer, untimed, moves the game on
                tap = replace(tap, kind=f"done, opens {type(question).__name__}")
                if hasattr(question, "confirm"):
                    question.confirm()
                    settle(harness)
            put_popups_away(harness)
            # A command refused (Glow's rerolls -1 at none) is not undone: its undo took back
            # the Done before it, and every round met the same step.
            accepted = app.game_state.get("undo_count") != undos_before
            if accepted and name != "done" and under_way(harness, game_id):
                app.send({"cmd": "undo"})  # the next round meets the same table
            if app.screens.current != app.table_name() and under_way(harness, game_id):
                app.show(app.table_name())  # a button that led elsewhere (a rules entry)
            settle(harness)
            time.sleep(PLAYERS_PAUSE_S)  # the collector runs now, between taps
            settle(harness)
            if tap is not None:
                yield tap


def time_before_after(harness: Harness, watch: Stopwatch, game_id: str,
                      switch: Callable[[bool], None]) -> dict[str, Any]:
    """The work before the swap with a change switched off (before) and on (after), in
    alternating blocks of a round of taps and redraws: per mode, the redraw with nothing
    changed and every tap together."""
    work: dict[str, dict[str, list[float]]] = {
        mode: {"redraw": [], "taps": []} for mode in ("before", "after")}
    try:
        for block in range(AB_BLOCKS):
            mode = "before" if block % 2 == 0 else "after"
            switch(mode == "after")
            settle(harness)
            taps = list(play_table(harness, watch, game_id, 1))
            work[mode]["taps"] += [tap.total_ms - tap.swap_ms for tap in taps]
            settle(harness)
            work[mode]["redraw"] += [tap.total_ms - tap.swap_ms for tap in
                                     (timed_redraw(harness, watch) for _ in range(AB_REDRAWS))]
    finally:
        switch(True)
    return {mode: {part: spread_of(values) for part, values in parts.items()}
            for mode, parts in work.items()}


@contextmanager
def counting_layouts() -> Iterator[list[int]]:
    """Every layout laid out, counted in [0] (each Kivy layout class's `do_layout` wrapped)."""
    from kivy.uix.layout import Layout

    laid_out = [0]

    def counted(original: Callable[..., None]) -> Callable[..., None]:
        def do_layout(self: Any, *args: Any) -> None:  # (named so: Kivy's Clock looks it up)
            laid_out[0] += 1
            original(self, *args)
        return do_layout

    classes, wrapped = [Layout], {}
    while classes:
        cls = classes.pop()
        classes += cls.__subclasses__()
        if "do_layout" in vars(cls):
            wrapped[cls] = vars(cls)["do_layout"]
            cls.do_layout = counted(wrapped[cls])
    try:
        yield laid_out
    finally:
        for cls, original in wrapped.items():
            cls.do_layout = original


def done_both_ways(harness: Harness, watch: Stopwatch, game_id: str,
                   switch: Callable[[bool], None]) -> dict[str, Any]:
    """Done tapped at the same step with a change switched off (before) and on (after), undone
    between, then the game moved on: ORDER_STEPS steps, the first of each pair switched each step
    (the second Done meets the next step's words drawn already). Per mode, the work before the
    swap and the layouts laid out until the table is still."""
    from tests.ui.soak import put_popups_away, start_a_game, under_way

    app = harness.app
    work: dict[str, dict[str, list[float]]] = {
        mode: {"done": [], "done_layouts": []} for mode in ("before", "after")}
    try:
        with counting_layouts() as laid_out:
            for step in range(ORDER_STEPS):
                if not (under_way(harness, game_id) and app.screens.current == app.table_name()):
                    put_popups_away(harness)
                    start_a_game(harness, game_id)
                    settle(harness)
                for mode in ("before", "after") if step % 2 == 0 else ("after", "before"):
                    switch(mode == "after")
                    settle(harness)
                    done = dict(table_buttons(harness)).get("done")
                    if done is None:
                        break
                    harness.scroll_into_view(done)
                    harness.player_pause()
                    undos = app.game_state.get("undo_count")
                    before_tap = laid_out[0]
                    tap = timed_tap(harness, watch, done, "done")
                    asked = harness.popup() is not None
                    put_popups_away(harness)
                    settle(harness)
                    if not asked:  # (a Done that asks first is not this Done's work)
                        work[mode]["done"].append(tap.total_ms - tap.swap_ms)
                        work[mode]["done_layouts"].append(laid_out[0] - before_tap)
                    if app.game_state.get("undo_count") != undos:
                        app.send({"cmd": "undo"})
                        settle(harness)
                switch(True)
                done = dict(table_buttons(harness)).get("done")
                if done is not None:  # on to the next step, untimed
                    harness.player_pause()
                    harness.tap(done)
                    if (question := harness.popup()) is not None and hasattr(question, "confirm"):
                        question.confirm()
                    put_popups_away(harness)
                    settle(harness)
    finally:
        switch(True)
    return {mode: {part: spread_of(values) for part, values in parts.items() if values}
            for mode, parts in work.items()}


def hidden_widgets_left_out(harness: Harness) -> Callable[[bool], None]:
    from companion.ui.unseen import draw_hidden_widgets

    return lambda left_out: draw_hidden_widgets(not left_out, list(harness.window.children))


def time_layout_before_after(harness: Harness) -> dict[str, Any]:
    """Every label of the table laid out again (no pixels), each word measured as Kivy measures
    it (before) and remembered in each font (after, kivy_fixes), in alternating blocks. A Done
    lays out its new prompt, reminders and words; this times them all, with nothing else."""
    from kivy.uix.label import Label

    from companion.ui.kivy_fixes import remember_measures

    labels = [widget for root in harness.window.children for widget in root.walk(restrict=True)
              if isinstance(widget, Label) and widget.text.strip() and not widget.markup]
    work: dict[str, list[float]] = {"before": [], "after": []}
    try:
        for block in range(LAYOUT_BLOCKS):
            mode = "before" if block % 2 == 0 else "after"
            remember_measures(mode == "after")
            for label in labels if mode == "after" else ():
                label._label.render()  # the texts came round once, as after a first round
            began = time.perf_counter()
            for label in labels:
                label._label.render()
            work[mode].append((time.perf_counter() - began) * 1000)
    finally:
        remember_measures(True)
    return {"labels": len(labels), "words": sum(len(label.text.split()) for label in labels),
            **{mode: spread_of(values) for mode, values in work.items()}}


def time_game(game_id: str, rounds: int, warm_up: int, folder: Path) -> dict[str, Any]:
    from companion.ui.layout_order import lay_out_outermost_first
    from tests.ui.soak import start_a_game

    load_at_start = load_average()
    (folder / game_id).mkdir()  # its own companion.ini: the new-game form remembers
    db = folder / game_id / "games.db"
    with running_app(db) as harness:  # the evening before: the game started, left unfinished
        harness.play_at_a_players_pace()
        start_a_game(harness, game_id)
        with stopwatch_on(harness) as watch:  # nothing built ahead, no pause in the play
            first_unbuilt = first_taps(play_table(harness, watch, game_id, 1))
    with running_app(db) as harness:  # the Pi started again: the game resumed
        harness.play_at_a_players_pace()
        build_ahead_as_on_the_pi(harness)
        harness.app.show(harness.app.table_name())
        settle(harness)  # the table on the screen, laid out, before a player taps it
        with stopwatch_on(harness) as watch:
            first_built = first_taps(play_table(harness, watch, game_id, min(warm_up, 1)))
            for _ in play_table(harness, watch, game_id, warm_up - 1):
                pass
            taps = list(play_table(harness, watch, game_id, rounds))
            settle(harness)
            taps += [timed_redraw(harness, watch) for _ in range(REDRAWS)]
            hidden = time_before_after(harness, watch, game_id,
                                       hidden_widgets_left_out(harness))
            ordered = done_both_ways(harness, watch, game_id, lay_out_outermost_first)
            layout = time_layout_before_after(harness)
    kinds = sorted({tap.kind for tap in taps} - {REDRAW},
                   key=lambda k: (k.startswith("done"), k))
    return {"rounds": rounds, "warm_up_rounds": warm_up,
            "load_average": {"start": load_at_start, "end": load_average()},
            "by_kind": tap_summary(taps, (*kinds, REDRAW)),
            "hidden_widgets_before_after": hidden,
            "layout_order_before_after": ordered,
            "layout_before_after": layout,
            "first_taps_before_after": {"before": first_unbuilt, "after": first_built},
            "taps": [asdict(tap) for tap in taps]}


def first_taps(taps: Iterator[Tap]) -> dict[str, float]:
    """The work before the swap of each kind's first tap in an app, in ms."""
    first: dict[str, float] = {}
    for tap in taps:
        first.setdefault(tap.kind, round(tap.total_ms - tap.swap_ms, 1))
    return first


def verdict(figures: dict[str, Any]) -> str:
    work = figures["work_before_swap"]
    met = work["median"] <= GOAL_MEDIAN_MS and work["p95"] <= GOAL_P95_MS
    return "met" if met else "MISSED"


def main(argv: list[str] | None = None) -> int:
    from tests.ui.soak import table_games

    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.bench_every_table",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--games", default="", help="comma-separated ids (default: every game)")
    parser.add_argument("--rounds", type=int, default=30,
                        help="timed taps of each button of each game")
    parser.add_argument("--warm-up", type=int, default=2,
                        help="rounds first, untimed but for the first taps of each kind")
    args = parser.parse_args(argv)
    if args.rounds < 2 or args.warm_up < 0:
        parser.error("--rounds must be at least 2 (for the spread), --warm-up at least 0")

    figures: dict[str, Any] = {"machine": machine(),
                               "goal": {"median_ms": GOAL_MEDIAN_MS, "p95_ms": GOAL_P95_MS},
                               "games": {}}
    with a_display() as display, \
            tempfile.TemporaryDirectory(prefix="companion-bench-tables-") as tmp:
        figures["machine"]["display"] = display
        folder = Path(tmp)
        prepare(folder / "kivy-home")
        games = table_games()
        chosen = [name.strip() for name in args.games.split(",") if name.strip()] or games
        unknown = [name for name in chosen if name not in games]
        if unknown:
            parser.error(f"no table game {', '.join(unknown)}; choose of {', '.join(games)}")
        for game_id in chosen:
            figures["games"][game_id] = time_game(game_id, args.rounds, args.warm_up, folder)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        report(figures)
    return 0


def report(figures: dict[str, Any]) -> None:
    m = figures["machine"]
    print("Table companion: every kind of tap on every game's table")
    print(f"machine: {m['machine']}, {m['cpu_count']} CPUs, {m['platform']}, {m['python']}, "
          f"Kivy {m['kivy']}; display {m['display']}")
    print(f"In ms, from touch_up to the next frame swapped; goal for the work without the swap: "
          f"median ≤ {GOAL_MEDIAN_MS:.0f}, p95 ≤ {GOAL_P95_MS:.0f}")
    for game_id, game in figures["games"].items():
        print()
        print(f"{game_id}: {game['rounds']} taps of each button after {game['warm_up_rounds']} "
              f"untimed rounds; load average (1/5/15 min) {game['load_average']['start']} → "
              f"{game['load_average']['end']}")
        print_kinds(game["by_kind"])
        print("  work before the swap, median / p95, against the goal:")
        for kind, kind_figures in game["by_kind"].items():
            if kind == REDRAW:
                continue
            work = kind_figures["work_before_swap"]
            print(f"    {kind:28} {work['median']:6.1f} / {work['p95']:6.1f}   "
                  f"{verdict(kind_figures)}")
        print_before_after(game["hidden_widgets_before_after"],
                           f"hidden widgets drawn (before) and left out (after), {AB_BLOCKS} "
                           "alternating blocks in this app,")
        print_before_after(game["layout_order_before_after"],
                           "Done at the same step, each layout on a trigger of its own, as Kivy "
                           "lays them out (before), and\n  outermost first, once a pass (after, "
                           f"layout_order.py), undone between, {ORDER_STEPS} steps:")
        first = game["first_taps_before_after"]
        if first["after"]:
            print("  the first tap of each kind, work before the swap: in an app that built "
                  "nothing ahead (before) and in one that\n  built this game's table, panels and "
                  "pickers ahead, the game resumed (after; building_ahead.py):")
            for kind in sorted(first["before"].keys() & first["after"].keys(),
                               key=lambda k: (k.startswith("done"), k)):
                print(f"    {kind:28} {first['before'][kind]:6.1f} → {first['after'][kind]:6.1f}")
        layout = game["layout_before_after"]
        before, after = layout["before"], layout["after"]
        print(f"  every label of the table laid out again ({layout['labels']} labels, "
              f"{layout['words']} words), each word measured each time (before) and once in "
              f"each font (after, kivy_fixes), {LAYOUT_BLOCKS} alternating blocks, median / p95:"
              f"\n    {before['median']:6.2f} / {before['p95']:6.2f} → {after['median']:6.2f} / "
              f"{after['p95']:6.2f}   ({after['median'] - before['median']:+.2f} ms median)")


def print_before_after(ab: dict[str, Any], what: str) -> None:
    print(f"  {what} work before the swap, median / p95:")
    for part, name in (("redraw", "redraw, nothing changed"), ("taps", "every tap"),
                       ("done", "Done"), ("done_layouts", "layouts laid out for a Done")):
        if part not in ab["before"] or part not in ab["after"]:
            continue
        before, after = ab["before"][part], ab["after"][part]
        unit = "" if part == "done_layouts" else " ms"
        print(f"    {name:28} {before['median']:6.2f} / {before['p95']:6.2f} → "
              f"{after['median']:6.2f} / {after['p95']:6.2f}   "
              f"({after['median'] - before['median']:+.2f}{unit} median, "
              f"{before['samples']} and {after['samples']} samples)")


if __name__ == "__main__":
    sys.exit(main())
