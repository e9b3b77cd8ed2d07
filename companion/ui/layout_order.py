"""Layouts laid out from the outermost in, each once a pass.

Kivy gives every layout a Clock trigger of its own, and the Clock runs triggers in the order
they were pulled. When one tap changes both a tile's rows and the grid's row heights, the rows
pull first: they are laid out in their old box, then the grid gives them a new box and they are
laid out again. Glow's Done in the morning laid out 27 boxes 53 times. Here every layout pulls
one shared trigger, and the waiting layouts are laid out outermost first. So a box that its
parent resizes in the same pass is laid out once, at its new size. A parent whose size follows
its children (`minimum_height`) is pulled again by them, and laid out again in the same pass,
as Kivy's own triggers would.

A text that shrinks to fit its box (widgets.FitText) is measured once the layouts waiting are
laid out, not in the box a new label has before its parent places it (Kivy's 100 x 100): Glow's
"Nothing forgotten?" question was measured at 68 px wide, for 7.7 ms, and then at its width.
"""

from __future__ import annotations

import heapq
import itertools
import weakref
from typing import Any

from kivy.clock import Clock
from kivy.uix.layout import Layout

LAYOUTS_OF_ONE_BOX_IN_A_PASS = 12
"""A layout pulled again by its own laying out (two boxes that size each other) stops the pass
after this many; the rest waits for the Clock's next turn, where Kivy's own limit on turns
before a frame (`Clock.max_iteration`) lets the frame be drawn."""


class _WaitingLayouts:
    """The layouts to lay out before the next frame, outermost first."""

    def __init__(self) -> None:
        self._heap: list[tuple[int, int, int, weakref.ref[Any]]] = []
        self._waiting: dict[int, weakref.ref[Any]] = {}
        self._after: list[Any] = []  # Clock triggers to pull once the waiting are laid out
        self._order = itertools.count()
        self._laying_out = False
        self._pass = Clock.create_trigger(self._lay_out, -1)

    def add(self, layout: Any) -> None:
        if self.waits(layout):
            return
        ref = weakref.ref(layout)
        self._waiting[id(layout)] = ref
        heapq.heappush(self._heap, (_depth(layout), next(self._order), id(layout), ref))
        if not self._laying_out:
            self._pass()

    def waits(self, layout: Any) -> bool:
        ref = self._waiting.get(id(layout))
        return ref is not None and ref() is layout

    def cancel(self, layout: Any) -> None:
        if self.waits(layout):
            del self._waiting[id(layout)]  # its place in the heap is skipped when reached

    def after(self, trigger: Any) -> bool:
        """Pull `trigger` at the end of the pass, if a layout waits (True); False if none does."""
        if not self._waiting:
            return False
        if not any(waiting is trigger for waiting in self._after):
            self._after.append(trigger)
        return True

    def _lay_out(self, *_args: Any) -> None:
        self._laying_out = True
        times: dict[int, int] = {}
        try:
            while self._heap:
                _depth_, _order, key, ref = self._heap[0]
                layout = ref()
                if layout is None or self._waiting.get(key) is not ref:
                    heapq.heappop(self._heap)  # let go of, or cancelled, or pulled again
                    if self._waiting.get(key) is ref:
                        del self._waiting[key]  # (let go of while waiting)
                    continue
                times[key] = times.get(key, 0) + 1
                if times[key] > LAYOUTS_OF_ONE_BOX_IN_A_PASS:
                    self._pass()  # the Clock's next turn goes on
                    return
                heapq.heappop(self._heap)
                del self._waiting[key]  # pulled while laid out: it waits again
                layout.do_layout()
        finally:
            self._laying_out = False
            if self._heap and not self._pass.is_triggered:  # (a layout that failed)
                self._pass()
            # Pulled also when the pass stops at its bound: a text waits for one pass, no more.
            after, self._after = self._after, []
            for trigger in after:
                trigger()


def after_waiting_layouts(trigger: Any) -> bool:
    """Pull the Clock trigger `trigger` once the layouts waiting now are laid out, and say so
    (True); False when no layout waits, or layouts are laid out as Kivy does (a benchmark's
    before)."""
    return _outermost_first and _waiting.after(trigger)


def _depth(widget: Any) -> int:
    depth = 0
    parent = widget.parent
    while parent is not None and parent is not widget:  # (Kivy's window is its own parent)
        depth += 1
        widget, parent = parent, parent.parent
    return depth


_waiting = _WaitingLayouts()
_outermost_first = True
"""False: each layout on a Clock trigger of its own, as Kivy lays them out (a benchmark's
before, tests/benchmarks/bench_every_table.py)."""


def lay_out_outermost_first(outermost_first: bool) -> None:
    """Lay each layout out on a trigger of its own as Kivy does (not `outermost_first`), or
    outermost first again: a benchmark's before and after in one app."""
    global _outermost_first
    _outermost_first = outermost_first


class _LayoutTrigger:
    """What Kivy's layouts and their bindings call as `_trigger_layout`: a Clock trigger's
    calls (pull, `is_triggered`, `cancel`), answered by the shared waiting list."""

    __slots__ = ("_layout", "_own", "__weakref__")

    def __init__(self, layout: Any) -> None:
        self._layout = weakref.ref(layout)  # a layout holds its trigger, never the other way
        self._own: Any = None  # Kivy's trigger, made when laid out as Kivy does

    def __call__(self, *_args: Any) -> None:
        layout = self._layout()
        if layout is None:
            return
        if _outermost_first:
            _waiting.add(layout)
            return
        if self._own is None:
            self._own = Clock.create_trigger(layout.do_layout, -1)
        self._own()

    @property
    def is_triggered(self) -> bool:
        layout = self._layout()
        return layout is not None and (_waiting.waits(layout) or bool(
            self._own is not None and self._own.is_triggered))

    def cancel(self) -> None:
        layout = self._layout()
        if layout is not None:
            _waiting.cancel(layout)
        if self._own is not None:
            self._own.cancel()


def apply() -> None:
    original = Layout.__init__
    if getattr(original, "outermost_first", False):
        return

    def __init__(self: Any, **kwargs: Any) -> None:
        if self._trigger_layout is None:  # (a RecycleLayout brings its own)
            self._trigger_layout = _LayoutTrigger(self)
        original(self, **kwargs)

    __init__.outermost_first = True  # type: ignore[attr-defined]
    Layout.__init__ = __init__
