"""Label texts are drawn from a few shared textures instead of one texture each.

Kivy gives every label's text a GL texture of its own, and Mesa's software renderer pays for
each distinct texture a frame draws from. Here a label's text gets a region of a 1024 × 1024
page instead, packed in shelves, and its space is given back when nothing holds the region any
more. On this VM that takes 0.3–0.4 ms (about 5 %) off every redraw of each game's table
(`tasks.py bench`). Glow's 74 texts drawn from one single texture object had saved 0.9 of
3.4 ms; giving each label the page itself with its region's coordinates saves no more than the
regions do, so the rest of that difference is not in the binding of textures.

A page must not be written to after the frame has drawn from it: the driver would first have
to finish drawing what it was given, in the middle of the frame (a 64-pixel write made one
frame's drawing take 33 ms instead of 3.6). So the texts waiting for their regions are written
just before the window draws, and only those whose label is on the screen: Kivy renders a text
when it is first drawn, and a screen built ahead, a closed drawer or a text only measured for a
fit is not rendered before it is shown, here either.

Markup labels, texts too large for a page's shelves, and core labels made outside a Label
widget (a text field's lines, a chart's measures) keep textures of their own, as Kivy makes
them. When every page is full, a text gets a texture of its own too.
"""

from __future__ import annotations

import functools
import weakref
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.core.text.markup import MarkupLabel
from kivy.graphics.texture import Texture
from kivy.uix.label import Label

PAGE_SIDE = 1024
"""A page's width and height in pixels (4 MB of RGBA)."""
PAGES_MOST = 6
"""Pages made at most (24 MB): a table's texts take about a third of one page, and the screens
built ahead (home, settings, the other panels) about as much again each."""
LARGEST_PIXELS = 128 * 1024
"""A text larger than this (a long rules entry) keeps a texture of its own: such texts are few,
and a few would take a page."""
GUTTER = 1
"""Empty pixels around each region, so that a text drawn between pixels blends with
transparency at its edges, as it does in a texture of its own, never with its neighbour."""
SHELF_STEP = 8
"""Shelf heights are rounded up to this, so that texts of nearly one height share shelves."""

_sharing = True
"""False: every text in a texture of its own, as Kivy makes it (a benchmark's before)."""


@dataclass
class _Shelf:
    y: int
    height: int
    free: list[list[int]] = field(default_factory=list)
    """Free spans as [x, width], left to right, none touching another."""


class ShelfPacker:
    """Rectangles packed in a square, in rows (shelves) each of one height; space given back is
    joined with its free neighbours and taken again by the next rectangle that fits it."""

    def __init__(self, side: int) -> None:
        self.side = side
        self.shelves: list[_Shelf] = []  # top to bottom
        self.top = 0  # where the next shelf would start

    def place(self, width: int, height: int) -> tuple[int, int] | None:
        """The corner of a free `width` × `height` area, now taken; None when none is left."""
        if width > self.side or height > self.side:
            return None
        needed = -(-height // SHELF_STEP) * SHELF_STEP
        best: tuple[_Shelf, list[int]] | None = None
        for shelf in self.shelves:
            if not needed <= shelf.height <= needed + needed // 2:
                continue  # (a much taller shelf would waste its height on this row of text)
            span = next((span for span in shelf.free if span[1] >= width), None)
            if span is not None and (best is None or shelf.height < best[0].height):
                best = (shelf, span)
        if best is None:
            if self.top + needed > self.side:
                return None
            shelf = _Shelf(self.top, needed, [[0, self.side]])
            self.shelves.append(shelf)
            self.top += needed
            best = (shelf, shelf.free[0])
        shelf, span = best
        x = span[0]
        span[0] += width
        span[1] -= width
        if span[1] == 0:
            shelf.free.remove(span)
        return x, shelf.y

    def release(self, x: int, y: int, width: int) -> None:
        """Give back the area placed at (`x`, `y`), `width` wide."""
        shelf = next(shelf for shelf in self.shelves if shelf.y == y)
        free = shelf.free
        at = next((index for index, span in enumerate(free) if span[0] > x), len(free))
        free.insert(at, [x, width])
        if at + 1 < len(free) and free[at][0] + free[at][1] == free[at + 1][0]:
            free[at][1] += free.pop(at + 1)[1]
        if at > 0 and free[at - 1][0] + free[at - 1][1] == free[at][0]:
            free[at - 1][1] += free.pop(at)[1]
        # Empty shelves at the bottom go back to the free height, for any row height.
        while self.shelves and self.shelves[-1].free == [[0, self.side]]:
            self.top = self.shelves.pop().y


@dataclass(frozen=True)
class _Place:
    """Where a region's text goes, whose text it is, and the label that shows it."""

    page: _Page
    origin: tuple[int, int]
    core: weakref.ref[Any]
    label: weakref.ref[Any]


_places: weakref.WeakKeyDictionary[Any, _Place] = weakref.WeakKeyDictionary()
"""Every region made here. Regions are Kivy's own TextureRegion: Kivy deletes the GL texture of
any other class of texture when it is let go of (context.pyx, dealloc_texture), and a subclass
of a region would take its page with it."""


class _Page:
    """One shared texture, its packer, and the regions waiting for their text."""

    def __init__(self) -> None:
        self.texture = Texture.create(size=(PAGE_SIDE, PAGE_SIDE), colorfmt="rgba")
        # Kivy makes the GL texture at its first bind, and a region copies the GL id when it
        # is made: a region made before would draw from no texture at all.
        self.texture.bind()
        self.packer = ShelfPacker(PAGE_SIDE)
        self.waiting: dict[int, tuple[Any, Callable[[Any], None], bool]] = {}
        # Given back by regions' finalisers, which the garbage collector may run on any thread:
        # the packer itself is only changed on Kivy's.
        self.given_back: deque[tuple[int, int, int]] = deque()

    def region_for(self, core: Any, label: Any, width: int, height: int) -> Any:
        while self.given_back:
            self.packer.release(*self.given_back.popleft())
        at = self.packer.place(width + 2 * GUTTER, height + 2 * GUTTER)
        if at is None:
            return None
        x, y = at[0] + GUTTER, at[1] + GUTTER
        region = self.texture.get_region(x, y, width, height)
        _places[region] = _Place(self, (x, y), weakref.ref(core), weakref.ref(label))
        giving_back = weakref.finalize(region, self.given_back.append, (*at, width + 2 * GUTTER))
        giving_back.atexit = False  # (nothing to give back to once the app ends)
        self.wait_for_text(region, core._texture_fill, blank_first=True)
        return region

    def wait_for_text(self, region: Any, fill: Callable[[Any], None],
                      blank_first: bool = False) -> None:
        earlier = self.waiting.get(id(region))
        blank_first = blank_first or (earlier is not None and earlier[2])
        self.waiting[id(region)] = (region, fill, blank_first)

    def fill_shown(self) -> None:
        """Write the text of each waiting region whose label is on the screen; the others wait
        until theirs is (a screen built ahead, a drawer closed, a text only measured)."""
        waiting, self.waiting = self.waiting, {}
        for key, (region, fill, blank_first) in waiting.items():
            place = _places.get(region)
            core = place.core() if place is not None else None
            label = place.label() if place is not None else None
            if place is None or core is None or label is None or core.texture is not region:
                continue  # its label let go of it, or moved on to another text, undrawn
            if not _on_screen(label):
                self.waiting[key] = (region, fill, blank_first)
                continue
            x, y = place.origin
            if blank_first:  # the space may hold an earlier text's pixels
                width, height = region.width + 2 * GUTTER, region.height + 2 * GUTTER
                self.texture.blit_buffer(bytes(width * height * 4), size=(width, height),
                                         colorfmt="rgba", pos=(x - GUTTER, y - GUTTER))
            # Kivy's core label writes what it renders to its texture: to the page, here.
            core.texture = _Writer(self.texture, (x, y))
            try:
                fill(region)
            finally:
                core.texture = region


def _on_screen(widget: Any) -> bool:
    """Whether `widget` is drawn: in the window, and neither it nor a parent at opacity 0."""
    while widget is not None:
        parent = widget.parent
        if parent is widget:  # Kivy's window is its own parent
            return True
        if widget.opacity == 0:
            return False
        widget = parent
    return False


class _Writer:
    """Stands for a region while Kivy's core label renders into it (`_render_real` writes
    with `self.texture.blit_data`): the pixels go to the region's place on its page."""

    def __init__(self, page: Any, origin: tuple[int, int]) -> None:
        self.page = page
        self.origin = origin

    def blit_data(self, image: Any, pos: Any = None) -> None:
        self.page.blit_buffer(image.data, size=image.size, colorfmt=image.fmt, pos=self.origin,
                              rowlength=getattr(image, "rowlength", 0))


class LabelAtlas:
    """The pages, made as they are needed."""

    def __init__(self) -> None:
        self.pages: list[_Page] = []

    def region_for(self, core: Any, label: Any, width: int, height: int) -> Any:
        if width * height > LARGEST_PIXELS:
            return None
        for page in self.pages:
            region = page.region_for(core, label, width, height)
            if region is not None:
                return region
        if len(self.pages) >= PAGES_MOST:
            return None
        if not self.pages:
            # The window draws after those bound to its on_draw: the pages are written first.
            from kivy.core.window import Window

            Window.fbind("on_draw", self.fill_shown)
        self.pages.append(_Page())
        return self.pages[-1].region_for(core, label, width, height)

    def fill_shown(self, *_args: Any) -> None:
        for page in self.pages:
            if page.waiting:
                page.fill_shown()


atlas = LabelAtlas()


def ask_update(texture: Any, fill: Callable[[Any], None]) -> None:
    """Kivy's `texture.ask_update(fill)`, also for a region of a page (whose own would ask the
    whole page to be filled by this one label's text)."""
    place = _places.get(texture)
    if place is None:
        texture.ask_update(fill)
    else:
        place.page.wait_for_text(texture, fill)


def share_textures(shared: bool) -> None:
    """Give each new text a texture of its own as Kivy does (not `shared`), or a region of a
    page again: a benchmark's before and after in one run (bench_every_table.py)."""
    global _sharing
    _sharing = shared


def is_shared(texture: Any) -> bool:
    """Whether `texture` is a region of a shared page."""
    return texture in _places


def apply() -> None:
    original_refresh = CoreLabel.refresh
    if getattr(original_refresh, "shares", False):
        return

    def refresh(self: Any) -> None:
        label = getattr(self, "drawn_by", None)
        label = label() if label is not None else None
        if not _sharing or label is None:
            original_refresh(self)
            return
        # Kivy's refresh, with a region of a page where Kivy makes a texture
        self.resolve_font_name()
        size = self.render()  # laid out and measured, not drawn yet
        self._size_texture = size
        self._size = (size[0], size[1])
        width, height = self._size
        if width <= 1 or height <= 1:
            self.texture = self.texture_1px
            return
        texture = self.texture
        if is_shared(texture) and texture.size == (width, height):
            ask_update(texture, self._texture_fill)  # the same place, written again
            return
        region = None if self.options["mipmap"] else atlas.region_for(self, label, width, height)
        if region is None:
            _a_texture_of_its_own(self, width, height)
            return
        region.flip_vertical()  # as Kivy's: SDL2 renders rows top down
        self.texture = region

    refresh.shares = True  # type: ignore[attr-defined]
    CoreLabel.refresh = refresh

    original_update = Label.texture_update

    # (wraps: the marks of the corrections under it stay readable, so none is applied twice)
    @functools.wraps(original_update)
    def texture_update(self: Any, *args: Any) -> None:
        if type(self._label) is not MarkupLabel:  # (markup's references need it filled now)
            self._label.drawn_by = weakref.ref(self)
        original_update(self, *args)

    Label.texture_update = texture_update


def _a_texture_of_its_own(core: Any, width: int, height: int) -> None:
    """What Kivy's refresh does with a text's size: a texture made for it, filled when drawn."""
    texture = core.texture
    if is_shared(texture) or texture is None or texture.size != (width, height):
        texture = Texture.create(size=(width, height), mipmap=core.options["mipmap"],
                                 callback=core._texture_fill)
        texture.flip_vertical()
        texture.add_reload_observer(core._texture_refresh)
        core.texture = texture
    else:
        texture.ask_update(core._texture_fill)
