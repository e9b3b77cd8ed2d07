"""An evening's taps give their memory back: what a tap opens is collected once closed, though
the app collected garbage in between; and (slow) 1,250 taps of mixed play per game through the
real window, with the app collecting garbage in pauses between taps as it does on the Pi.

Every game with a table screen is played (tests/ui/soak.py starts its games through the
screens and taps its table's own buttons), so a new game is covered without a line here. After
a warm-up (600 taps and a game played to its end), in which every screen, picker and panel has
been built once, nothing more may be frozen for the garbage collector (what is frozen is never
collected), the Kivy widgets alive after a full collection must stay about as many as they
were, and the process's resident memory may grow by a generous bound only. Each measure is
taken at the same moment of play: a new game's table, just started (see `WARM_UP`). Before
this was fixed,
each tap kept about 110 KB and several widgets for good. The long run, 10,000 taps with its
figures, is the benchmark tests/benchmarks/bench_soak.py.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import time
import weakref
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion.ui.widgets import ConfirmPopup

from .harness import Harness
from .soak import (
    as_on_the_pi,
    frozen_objects,
    is_for_a_widget_gone,
    live_bindings,
    live_widgets,
    play,
    rss_mb,
    start_a_game,
    table_games,
)

pytestmark = pytest.mark.ui

TAPS = 1_250
"""Three checks after the warm-up's: with seed 25 each game's first end comes before tap 600,
and a leak of 110 KB a tap would pass RSS_GROWTH_MB within 200 taps."""
WARM_UP = 600
"""Taps before memory is measured, at the least, and not before a game has been played to its
end: every screen, picker and panel has been built by then. (A Glow soak whose first end
scoring fell after tap 300 grew 33 MB with its score panels' first openings, then stayed flat;
a Leviathan Wilds soak measured from tap 300 grew 18 MB by tap 1,300 and then not at all, from
tap 550 7 MB: first visits' price, not a leak.) Every measure, the first too, is taken at a new
game's table: a check in the middle of a game counted what the table showed at that moment
(Glow's end scoring: 65 widgets more, with 11,000 bindings), so any change to a button
anywhere, which moves the seeded play, moved the figures past their bounds."""
CHECK_EVERY = 250
"""Taps between two checks: a leak fails the test early rather than after every tap."""
RSS_GROWTH_MB = 20.0
"""Generous: the heap settles in steps; a leak of 110 KB a tap passes it within 200 taps."""
WIDGET_GROWTH = 150
"""Widgets more than at warm-up that the table may show for the moment (cards on the board,
lines on a banner, a bigger crystal row); a leak of several a tap passes it within 50 taps."""
BINDINGS_PER_WIDGET = 100
"""Kivy bindings each of those widgets may bring (Glow's: about 80)."""
BINDING_GROWTH = 2_000
"""Kivy bindings more than at warm-up besides those: a binding made again and again keeps no
widget (Leviathan Wilds' scrolling bars kept about 18 a tap, 14 MB per 1,000 taps: with
them back, the check at tap 1,050 failed)."""


ALONE = "COMPANION_SOAK_ALONE"
"""Set to the game a soak plays in a process of its own."""


@pytest.mark.slow
@pytest.mark.alone
@pytest.mark.parametrize("game_id", table_games())
def test_an_evening_of_mixed_play_keeps_memory_flat(tmp_path: Path, game_id: str) -> None:
    if os.environ.get(ALONE) != game_id:
        # One app in its process, as on the Pi: after another app's soak in the same process
        # the next one's figures moved past their bounds now and then (one game, then another,
        # each alone within them), which says how apps share a process, not how one keeps
        # its memory.
        test = f"{__file__}::{test_an_evening_of_mixed_play_keeps_memory_flat.__name__}[{game_id}]"
        alone = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                test], env={**os.environ, ALONE: game_id}, capture_output=True,
                               text=True, timeout=3600)
        assert alone.returncode == 0, alone.stdout[-6000:] + alone.stderr[-2000:]
        assert "1 passed" in alone.stdout, alone.stdout[-2000:]
        return
    harness = Harness(tmp_path / "games.db")
    undo = as_on_the_pi(harness)
    try:
        base: tuple[float, Counter[str], int, int, int] | None = None

        def check(done: int) -> None:
            nonlocal base
            start_a_game(harness, game_id)  # the same moment each time: a new game's table
            widgets, bindings = live_widgets(), live_bindings()
            frozen, rss = frozen_objects(), rss_mb()
            print(f"{game_id} tap {done}: {rss:.1f} MB, {widgets.total()} widgets, "
                  f"{bindings} bindings, {frozen} frozen")
            if base is None:
                base = rss, widgets, frozen, bindings, done
                return
            base_rss, base_widgets, base_frozen, base_bindings, warm = base
            # Fewer is fine: a frozen object whose last reference goes is still freed.
            assert frozen <= base_frozen, (
                f"{game_id}: {frozen - base_frozen} objects frozen from tap {warm} to tap "
                f"{done}: none of them can ever be given back")
            grown = widgets.total() - base_widgets.total()
            most = (widgets - base_widgets).most_common(8)
            assert grown <= WIDGET_GROWTH, (
                f"{game_id}: {grown} more widgets alive after {done} taps than after "
                f"{warm}; the most: {most}")
            allowed = BINDING_GROWTH + BINDINGS_PER_WIDGET * max(grown, 0)
            assert bindings - base_bindings <= allowed, (
                f"{game_id}: {bindings - base_bindings} more Kivy bindings after {done} taps "
                f"than after {warm} ({base_bindings} → {bindings}; {grown} more widgets, the "
                f"most: {most})")
            assert rss - base_rss <= RSS_GROWTH_MB, (
                f"{game_id}: resident memory grew {rss - base_rss:.1f} MB from tap {warm} "
                f"to tap {done} ({base_rss:.1f} → {rss:.1f} MB)")

        next_check = WARM_UP
        ended = False  # a game played to its end (Glow's: once its end scoring is saved)
        for done in play(harness, game_id, TAPS, seed=25):
            ended = ended or (harness.app.game_state or {}).get("outcome") is not None
            if done >= next_check and ended:
                check(done)
                next_check = done + CHECK_EVERY
        check(TAPS)
        assert base is not None and base[4] < TAPS - CHECK_EVERY, (
            f"{game_id}: no game played to its end before tap {TAPS - CHECK_EVERY}")
    finally:
        undo()
        harness.close()


def test_what_a_tap_opened_is_given_back_once_closed_though_the_app_collected_meanwhile(
        ui: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.ui import building_ahead

    # The app collects garbage a moment after each command, as on the Pi (not seconds).
    monkeypatch.setattr(building_ahead, "IDLE_COLLECT_S", 0.01)
    ui.app.builds_ahead = True
    try:
        assert ui.app.send({"cmd": "new_game", "players": 2, "seed": 11})
        ui.app.show("table")
        ui.frames(3)
        # A question built for its one asking, as the checklist's and the reader's are (the
        # menus, pickers and panels are kept on purpose, to be opened again)
        ConfirmPopup(message="Start anyway?").open()
        ui.frames(2)
        opened = ui.popup()
        assert opened is not None
        popup = weakref.ref(opened)
        del opened
        # A command while it is open (a card laid on the reader): the collection follows.
        assert ui.app.send({"cmd": "fear", "amount": 1})
        assert ui.app.idle_collection.pending is not None
        deadline = time.monotonic() + 30
        while ui.app.idle_collection.pending is not None and time.monotonic() < deadline:
            ui.frames(1)
        assert ui.app.idle_collection.pending is None, "the app did not collect after the command"
        ui.popup().dismiss()
        ui.frames(3)
        gc.collect()
        assert popup() is None, "the closed popup is still in memory"
    finally:
        gc.unfreeze()


def test_the_banner_refills_its_lines_rather_than_building_new_ones_per_tap(ui: Harness) -> None:
    assert ui.app.send({"cmd": "new_game", "players": 2, "seed": 11})
    ui.app.show("table")
    ui.frames(3)
    ui.tap_id("done")  # initial explore done: growth
    rows = ui.app.screen("table").ids.banner_rows
    seen: dict[int, Any] = {}  # kept, so that no id is used again
    most = 0
    for control in ("city",) * 4 + ("undo", "redo") * 4:
        ui.tap_id(control)
        seen.update((id(line), line) for line in rows.children)
        most = max(most, len(rows.children))
    assert any("Fear card earned" in line for line in ui.banner_lines())
    # Every widget that showed a line was needed at one moment: none was built per tap.
    assert len(seen) == most, f"{len(seen)} line widgets for at most {most} lines at once"


def test_a_question_let_go_of_takes_its_translated_texts_along_and_the_rest_still_switch(
        ui: Harness) -> None:
    """Each kv rule that writes `tr._(…)` binds to the translator; once its widget is collected
    the binding must go with it. It used to stay for good (about 2 KB with the rule's names),
    so every panel, picker and question opened in an evening kept memory (issue 25)."""
    from companion.ui.translator import tr
    from companion.ui.widgets import ConfirmPopup

    def ask() -> ConfirmPopup:
        question = ConfirmPopup(message="Abandon this game?")
        question.open()
        ui.frames(1)
        return question

    def settled() -> int:
        """The rules bound now, once what earlier tests let go of is collected: a widget
        the clock still held for a frame goes a frame or two later (and its rules with it)."""
        count = -1
        for _ in range(20):
            ui.frames(1)
            gc.collect()
            if len(tr.observers) == count:
                break
            count = len(tr.observers)
        return count

    before = settled()
    kept = ask()
    bound = len(tr.observers) - before
    assert bound >= 2, f"the question's title and Cancel should bind to the translator: {bound}"
    for _ in range(25):
        question = ask()
        question.dismiss()
        ui.frames(1)
        del question
    # Fewer is no leak: the rules of a widget older than the test may still go meanwhile.
    assert settled() <= before + bound, (
        f"{len(tr.observers) - before - bound} bindings to the translator left behind by 25 "
        "questions opened and closed")
    try:
        ui.app.switch_language("de")  # the question still open is worded again
        ui.frames(1)
        assert kept.title == "Bitte bestätigen"
        assert "Abbrechen" in [button.text for button in kept.walk()
                               if hasattr(button, "text")]
    finally:
        ui.app.switch_language("en")
        kept.dismiss()
        ui.frames(1)
    assert kept.title == "Please confirm"


@pytest.mark.parametrize("kind", ["ScrollView", "DropDown"])
def test_a_list_moved_frame_after_frame_keeps_one_binding_for_its_bar(
        ui: Harness, kind: str) -> None:
    """Kivy's ScrollView (a DropDown is one) bound its bar's colour again in every frame its
    content moved and let go of one binding only when the bar faded: one list scrolled by a
    finger, or refitted tap after tap, kept thousands (Leviathan Wilds' soak: 141 MB)."""
    from kivy.factory import Factory
    from kivy.uix.widget import Widget

    view = Factory.get(kind)(size_hint=(None, None), size=(200, 200))
    view.add_widget(Widget(size_hint_y=None, height=2000))
    ui.app.root.add_widget(view)
    try:
        for step in range(40):
            view.scroll_y = 1 - (step % 10) / 10
            ui.frames(1)
        # One binding in all: to the bar's colour while it shows, or to its faded colour once
        # Kivy faded it (on a slow machine half a second may pass between two moves).
        bindings = [callback for name in ("bar_color", "bar_inactive_color")
                    for callback in view.get_property_observers(name)
                    if callback == view._change_bar_color]
        assert len(bindings) == 1, f"{len(bindings)} bindings of the bar's colour after 40 moves"
    finally:
        ui.app.root.remove_widget(view)


@pytest.mark.parametrize("kind", ["ModalView", "Popup", "ConfirmPopup"])
def test_a_popup_opened_again_and_again_centres_itself_with_one_binding(
        ui: Harness, kind: str) -> None:
    """Kivy's ModalView bound its centring to its own centre and size in every opening and
    never let go: a picker or panel the app keeps, opened 100 times in an evening, centred
    itself 100 times over at each move."""
    from kivy.factory import Factory

    view = ConfirmPopup(message="Again?") if kind == "ConfirmPopup" else Factory.get(kind)(
        size_hint=(0.5, 0.5))
    for _ in range(6):
        view.open(animation=False)
        ui.frames(1)
        view.dismiss(animation=False)
        ui.frames(1)
    view.open(animation=False)
    try:
        for name in ("center", "size"):
            bindings = [callback for callback in view.get_property_observers(name)
                        if callback == view._align_center]
            assert len(bindings) == 1, f"{len(bindings)} bindings of {name} after 7 openings"
        view.x += 30
        ui.frames(1)
        # moved, it centres itself again on the window
        assert list(view.center) == list(ui.app.root.get_root_window().center)
    finally:
        view.dismiss(animation=False)
        ui.frames(1)


def test_the_scale_bindings_of_widgets_gone_are_not_counted_and_kivy_drops_them(
        ui: Harness) -> None:
    """The soak's count of bindings leaves out a widget's `dp`/`sp` bindings to the screen's
    scale once the widget is gone, because Kivy drops them all when the next widget binds one:
    were that no longer so (another Kivy), they would pile up and this test would say it."""
    from kivy._event import BoundCallback
    from kivy.uix.label import Label

    def gone() -> int:
        gc.collect()
        return sum(1 for thing in gc.get_objects()
                   if type(thing) is BoundCallback and is_for_a_widget_gone(thing))

    before = live_bindings()
    labels = [Label(text=f"{number}") for number in range(20)]
    assert live_bindings() > before, "a label binds nothing: the count cannot see bindings"
    del labels
    assert gone() > 0, "no scale binding outlived its label: nothing is left out of the count"
    assert live_bindings() <= before
    kept = Label(text="next")
    assert gone() == 0, "Kivy kept the scale bindings of labels gone after the next was made"
    del kept
