"""Long mixed play through the real window, and what it leaves behind in memory: shared by the
slow soak test (test_memory_ui.py) and the soak benchmark (tests/benchmarks/bench_soak.py).

The play knows no game by name: for every registered game with a table screen it starts games
through the new-game screen as players do, then taps the table's own buttons at random (Done
most often, Undo and Redo often, every other enabled button now and then), answering what
opens (a picker, a panel, a question) with a tap or two inside it, and starts the next game
once one is over. A game added to the registry is played without a line of its own.
"""

from __future__ import annotations

import gc
import random
import weakref
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .harness import Harness

DONE_SHARE = 0.35
"""Of the taps on the table, how many go to its big button."""
UNDO_SHARE = 0.12
"""And how many to Undo, and as many again to Redo."""
LEAVING_IDS = ("menu", "step_help")
"""Table buttons the play leaves alone: the game menu (abandon, declare, home) and the rules
help lead away from the game, which the play reaches through its own end."""
TAPS_IN_A_POPUP = 3
"""At most this many taps inside a picker, panel or question before it is put away."""
PAUSE_EVERY = 6
"""Taps on the table between two pauses, in which the app collects its garbage (it does so a
few seconds after the last command; players tap a few times, then move pieces). A collection
after every tap would add a tenth of a second to each and find nothing more."""
IDLE_COLLECT_S = 3600.0
"""The app's idle wait before it collects garbage, made longer than any run here: the play's
own pauses (`PAUSE_EVERY`) let the collection fall, whatever the machine's speed."""


def table_games() -> list[str]:
    """The registered games the touchscreen plays: those with a table screen and a form."""
    from companion.games.registry import GAMES

    return [game.id for game in GAMES.values() if game.table_screen and game.setup_form]


def rss_mb() -> float:
    """The process's resident set size now, in MB (Linux's /proc)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def live_widgets() -> Counter[str]:
    """The Kivy widgets in memory, by class, after a full collection. Those the app froze
    (gc.freeze) are not among them: `frozen_objects` counts those."""
    from kivy.uix.widget import Widget

    gc.collect()
    # type(), not isinstance: a weak proxy to a widget gone would raise.
    return Counter(type(thing).__name__ for thing in gc.get_objects()
                   if issubclass(type(thing), Widget))


def live_bindings() -> int:
    """Kivy's bindings (one `BoundCallback` each: a property or event bound to a function) in
    memory, not frozen, but for those of widgets gone (`is_for_a_widget_gone`). A binding made
    again and again but let go of once (Kivy's ScrollView bar, issue 25) keeps little memory
    each and no widget: only their number shows it."""
    from kivy._event import BoundCallback

    return sum(1 for thing in gc.get_objects()
               if type(thing) is BoundCallback and not is_for_a_widget_gone(thing))


def is_for_a_widget_gone(binding: Any) -> bool:
    """A binding of a widget's `dp`/`sp` size to the screen's scale that outlived its widget.
    Kivy holds the widget weakly there and drops every such binding of a widget gone the next
    time any widget binds a size to the scale (see the test of it in test_memory_ui.py), so
    they count what was let go of since the last widget was made: hundreds after a closed
    panel, none after the next label, which said nothing of a leak."""
    held = gc.get_referents(binding)
    if not any(getattr(thing, "__name__", "") == "_dpi_callback" for thing in held):
        return False
    return any(isinstance(ref, weakref.ref) and ref() is None
               for arguments in held if isinstance(arguments, tuple) for ref in arguments)


def frozen_objects() -> int:
    """Objects frozen (gc.freeze): the collector never walks them again, so one frozen and
    then let go of is never given back. (Unfreezing to look at them and freezing again would
    freeze whatever is alive at that moment: the measuring would make the leak it measures.)"""
    return gc.get_freeze_count()


def as_on_the_pi(harness: Harness) -> Callable[[], None]:
    """Let the app collect garbage while idle as it does on the Pi (the harness leaves that
    out for tests), in the play's pauses (`pause_at_the_table`); build the screens
    ahead as it does after its first frame, then every other screen. Returns what undoes it
    for the next app in this process (and lets go of anything still frozen)."""
    from kivy.base import EventLoop

    from companion.ui import building_ahead, screens

    idle = building_ahead.IDLE_COLLECT_S
    building_ahead.IDLE_COLLECT_S = IDLE_COLLECT_S
    harness.app.builds_ahead = True
    harness.app.start_up.after_first_frame()
    for _ in range(2000):  # one screen a frame; a loaded machine may need many frames
        if not harness.app.start_up.still_starting():
            break
        EventLoop.idle()
    # The rest of the screens too (settings, the other games' tables): a screen is built once
    # and kept, so one built in the middle of the play would look like growth.
    for name in [*screens.SCREENS, *screens.game_screens()]:
        harness.app.screen(name)
    harness.frames(2)

    def undo() -> None:
        building_ahead.IDLE_COLLECT_S = idle
        gc.unfreeze()

    return undo


def visible(widget: Any) -> bool:
    """Drawn and touchable: on the window (or in a list that scrolls), enabled, not faded out
    or folded to nothing."""
    if widget.get_root_window() is None or widget.disabled:
        return False
    if widget.width < 1 or widget.height < 1:
        return False
    from kivy.uix.scrollview import ScrollView

    scrolls = False
    node = widget
    while node is not None and node is not node.parent:
        if getattr(node, "opacity", 1) <= 0:
            return False
        scrolls = scrolls or isinstance(node, ScrollView)
        node = node.parent
    if scrolls:
        return True  # the harness scrolls it into view first
    x, y = widget.to_window(*widget.center)
    width, height = widget.get_root_window().size
    return bool(0 <= x <= width and 0 <= y <= height)


def buttons_in(root: Any, leave_out: set[int] = frozenset()) -> list[Any]:  # type: ignore[assignment]
    """The buttons under `root` a player could tap now, in a fixed order."""
    from kivy.uix.behaviors import ButtonBehavior

    return [widget for widget in root.walk(restrict=True)
            if isinstance(widget, ButtonBehavior) and id(widget) not in leave_out
            and visible(widget)]


def under_way(harness: Harness, game_id: str) -> bool:
    """A game of `game_id` is being played (or scored on its table, as Glow's is)."""
    from companion.ui.home_screen import unfinished

    state = harness.app.game_state or {}
    return state.get("title") == game_id and (unfinished(state)
                                              or state.get("outcome") is None)


def back_to_the_table(harness: Harness, game_id: str) -> None:
    """The game's table again (a button may have led to the rules or another screen), or a
    new game once the last is over."""
    app = harness.app
    put_popups_away(harness)
    if under_way(harness, game_id):
        app.show(app.table_name())
        harness.frames(2)
    else:
        start_a_game(harness, game_id)


def put_popups_away(harness: Harness) -> None:
    while (popup := harness.popup()) is not None:
        popup.dismiss()
        harness.frames(2)


def start_a_game(harness: Harness, game_id: str) -> None:
    """From wherever the app is: Home, New game, the game, Start (abandoning a game left
    unfinished), every line of the checklist ticked, Ready."""
    app = harness.app
    put_popups_away(harness)
    app.show("home")
    harness.frames(2)
    harness.tap_id("new_game")
    harness.tap_id(f"game_{game_id.replace('-', '_')}")
    harness.tap_id("start")
    harness.frames(2)
    if app.screens.current == "new_game" and harness.popup() is None:
        # Seen once in 2,000 Leviathan Wilds taps on a loaded machine: Start did nothing.
        # A player taps again; the report says so if that does nothing either.
        harness.tap_id("start")
        harness.frames(2)
    question = harness.popup()
    if question is not None:  # "A game is still unfinished. Abandon it and start a new one?"
        harness.tap(next(button for button in buttons_in(question)
                         if getattr(button, "text", "") == question.confirm_text))
    if app.screens.current == "checklist":
        for row in list(reversed(harness.widget("checklist").children)):
            harness.tap(row)
        harness.tap_id("ready")
    harness.frames(2)
    if app.screens.current != app.table_name() or app.game_state.get("title") != game_id:
        raise RuntimeError(f"no {game_id} game was started: on {app.screens.current}, "
                           f"{app.game_state.get('title')}, {harness.popup()} "
                           f"({app.notice or 'no notice'})")


def play(harness: Harness, game_id: str, taps: int, seed: int) -> Iterator[int]:
    """Tap `taps` times (a tap inside a popup counts as one), yielding the number of taps so
    far after each; starts a game of `game_id` first and whenever one is over.

    The taps are made in functions of their own, so that no widget is held here across a
    yield: a measure taken there would count a closed panel this generator still held (a
    Glow score panel, 62 widgets with 9,500 bindings) as memory the app kept."""
    rng = random.Random(seed)
    done = table_taps = 0
    while done < taps:
        tap_the_table(harness, game_id, rng)
        done += 1
        table_taps += 1
        if table_taps % PAUSE_EVERY == 0:
            pause_at_the_table(harness)
        yield done
        for _ in range(TAPS_IN_A_POPUP):
            if done >= taps or not tap_in_the_popup(harness, rng):
                break
            done += 1
            yield done
        put_popups_away(harness)


def tap_the_table(harness: Harness, game_id: str, rng: random.Random) -> None:
    """One tap on the table's buttons (a new game first when none is under way)."""
    if not (under_way(harness, game_id)
            and harness.app.screens.current == harness.app.table_name()):
        back_to_the_table(harness, game_id)
    table = harness.screen
    leave_out = {id(table.ids[name]) for name in LEAVING_IDS if name in table.ids}
    buttons = buttons_in(table, leave_out)
    button = choose(rng, table, buttons)
    if in_the_window(harness, button):
        harness.tap(button)
    elif not tap_one_of(harness, rng, buttons):
        raise RuntimeError(f"no button of {table.name} can be brought into view")


def tap_in_the_popup(harness: Harness, rng: random.Random) -> bool:
    """One tap inside the popup the last tap opened; False when none is open or nothing in it
    can be tapped."""
    popup = harness.popup()
    return popup is not None and tap_one_of(harness, rng, buttons_in(popup))


def pause_at_the_table(harness: Harness) -> None:
    """The players stop tapping for a while: the collection the app set after the last command
    falls now (its wait made to last through the taps before, by `as_on_the_pi`)."""
    app = harness.app
    if app.idle_collection.pending is not None:
        app.idle_collection.collect_now()


def in_the_window(harness: Harness, widget: Any) -> bool:
    """Scrolled into view where it sits in a list: is its middle on the window?"""
    harness.scroll_into_view(widget)
    x, y = widget.to_window(*widget.center)
    width, height = harness.window.size
    return bool(0 <= x <= width and 0 <= y <= height)


def tap_one_of(harness: Harness, rng: random.Random, buttons: list[Any]) -> bool:
    """Tap one of `buttons` at random that can be brought into view; False if none can."""
    left = list(buttons)
    while left:
        button = left.pop(rng.randrange(len(left)))
        if in_the_window(harness, button):
            harness.tap(button)
            return True
    return False


def choose(rng: random.Random, table: Any, buttons: list[Any]) -> Any:
    """Done most often, Undo and Redo often, any other button now and then."""
    def named(name: str) -> Any:
        widget = table.ids.get(name)
        return widget if widget is not None and widget in buttons else None

    roll = rng.random()
    for name, share in (("done", DONE_SHARE), ("undo", UNDO_SHARE), ("redo", UNDO_SHARE)):
        if roll < share and named(name) is not None:
            return named(name)
        roll -= share
    others = [b for b in buttons if b not in {named(n) for n in ("done", "undo", "redo")}]
    if not others:
        others = buttons
    if not others:
        raise RuntimeError(f"nothing to tap on {table.name}")
    return rng.choice(others)
