"""The contrast of every text as drawn: each visible label's text colour against the colour
actually behind it in the window's pixels (WCAG 2.1, 1.4.3).

The background is read from the frame, not from the layouts: a label on a panel, on a banner,
on a button or on a game's coloured tile is measured on what a player sees behind it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from companion.ui.theme import contrast_ratio

AA_TEXT = 4.5
AA_LARGE_TEXT = 3.0
LARGE_PX = 24.0
"""18 pt at 96 dpi: text this large (in px) needs 3:1 only."""
LARGE_BOLD_PX = 18.66
"""14 pt bold at 96 dpi."""

TEXT_NEAR = 3
"""How far (per channel, 0–255) a pixel may be from the text colour and still be the glyphs'
own ink: rendering puts exact colours down, so only the anti-aliased edges lie between."""
INK_ONLY = 0.85
"""A box whose pixels are nearly all the text's colour shows text on its own colour."""
SAMPLE_STEP = 2
"""Every second pixel of every second row of a box is read: a background is a broad area,
and the walk stays fast."""


@dataclass(frozen=True)
class Reading:
    """One label's text against what lies behind it."""

    where: str
    widget: str
    text: str
    text_colour: str
    background: str
    ratio: float
    needed: float

    def same_text(self) -> tuple[str, ...]:
        """What makes two readings one fault: the theme, the widget, its text and colours."""
        theme = self.where.partition(":")[0]
        return theme, self.widget, self.text, self.text_colour, self.background

    def __str__(self) -> str:
        return (f"{self.where}: {self.widget} {self.text!r}: text {self.text_colour} on "
                f"{self.background} = {self.ratio:.2f}:1 (needs {self.needed}:1)")


@dataclass
class Frame:
    """The window's pixels, bottom row first (as OpenGL reads them and Kivy counts y)."""

    width: int
    height: int
    rgb: bytes

    @classmethod
    def of_window(cls, window: Any) -> Frame:
        """The pixels now on the window, read as Window.screenshot reads them."""
        from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels

        width, height = (int(size) for size in window.size)
        return cls(width, height, bytes(glReadPixels(0, 0, width, height, GL_RGB,
                                                     GL_UNSIGNED_BYTE)))

    def colours_in(self, box: tuple[int, int, int, int]) -> Counter[bytes]:
        """How often each colour appears in `box` (x0, y0, x1, y1), read at SAMPLE_STEP."""
        x0, y0, x1, y1 = box
        stride, step = self.width * 3, 3 * SAMPLE_STEP
        counts: Counter[bytes] = Counter()
        for y in range(y0, y1, SAMPLE_STEP):
            row = self.rgb[y * stride + x0 * 3:y * stride + x1 * 3]
            counts.update(row[i:i + 3] for i in range(0, len(row), step))
        return counts


def hex_of(rgb: bytes | tuple[int, ...]) -> str:
    return "#" + "".join(f"{channel:02X}" for channel in rgb[:3])


def as_bytes(colour: Any, over: bytes) -> bytes:
    """A Kivy RGBA colour as the 8-bit RGB it shows over `over` (its alpha blended in)."""
    alpha = colour[3] if len(colour) > 3 else 1.0
    return bytes(round(255 * channel * alpha + back * (1 - alpha))
                 for channel, back in zip(colour[:3], over, strict=True))


def near(first: bytes, second: bytes, distance: int = TEXT_NEAR) -> bool:
    return all(abs(a - b) <= distance for a, b in zip(first, second, strict=True))


def background_behind(counts: Counter[bytes], ink: Any) -> bytes:
    """The colour behind a label's text: the commonest in its box that is not the text's own
    (a box all of the text's colour has text drawn on its own colour)."""
    total = sum(counts.values())
    opaque_ink = as_bytes(ink, b"\0\0\0")
    for colour, count in counts.most_common():
        if not near(colour, opaque_ink):
            return colour
        if count >= INK_ONLY * total:
            return colour
    return opaque_ink


def effective_opacity(widget: Any) -> float:
    opacity = 1.0
    while widget is not None and widget is not widget.parent:
        opacity *= widget.opacity
        widget = widget.parent
    return opacity


def exempt(widget: Any) -> bool:
    """WCAG 1.4.3 asks nothing of text that is dimmed on purpose (drawn with an opacity below
    1: a choice not open now) nor of an inactive control (a disabled button). A plain label
    stays checked when disabled: it is read, not tapped."""
    from kivy.uix.behaviors import ButtonBehavior

    return effective_opacity(widget) < 1 or (isinstance(widget, ButtonBehavior)
                                             and widget.disabled)


def drawn_box(widget: Any, frame: Frame) -> tuple[int, int, int, int] | None:
    """Where a label's text is drawn in the window (its texture, centred on it as Kivy's Label
    draws it), cut to every scrolling view around it and to the window; None when none of it
    shows."""
    from kivy.uix.stencilview import StencilView

    width, height = widget.texture_size
    left, bottom = widget.center_x - width / 2, widget.center_y - height / 2
    x0, y0 = widget.to_window(left, bottom)
    x1, y1 = widget.to_window(left + width, bottom + height)
    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        if isinstance(parent, StencilView):
            px0, py0 = parent.to_window(parent.x, parent.y)
            px1, py1 = parent.to_window(parent.right, parent.top)
            x0, y0, x1, y1 = max(x0, px0), max(y0, py0), min(x1, px1), min(y1, py1)
        parent = parent.parent
    box = (max(0, int(x0)), max(0, int(y0)), min(frame.width, int(x1)),
           min(frame.height, int(y1)))
    return box if box[2] - box[0] >= 2 and box[3] - box[1] >= 2 else None


def large(widget: Any) -> bool:
    """Large text in WCAG's sense: 18 pt, or 14 pt bold (at 96 dpi, in px)."""
    size = float(widget.font_size)
    return size >= LARGE_PX or (bool(widget.bold) and size >= LARGE_BOLD_PX)


def on_top(window: Any) -> Any:
    """What players see and may touch: the open popup (what lies under its shade waits), or
    the app's root."""
    return window.children[0]


def window_box(widget: Any) -> tuple[float, float, float, float]:
    x0, y0 = widget.to_window(widget.x, widget.y)
    x1, y1 = widget.to_window(widget.right, widget.top)
    return x0, y0, x1, y1


def covered(box: tuple[int, int, int, int], widget: Any, top: Any) -> bool:
    """Whether the middle of `box` lies under a part of `top` drawn after the one holding
    `widget` (the app's bar for the last card read, over the bottom of every screen)."""
    layers = list(reversed(top.children))  # in the order they are drawn
    holder = widget
    while holder.parent is not top:
        holder = holder.parent
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    for layer in layers[layers.index(holder) + 1:]:
        x0, y0, x1, y1 = window_box(layer)
        if layer.opacity > 0 and x0 <= x <= x1 and y0 <= y <= y1:
            return True
    return False


def readings(window: Any, where: str) -> tuple[list[Reading], int]:
    """Every visible text on top of the window, measured on the frame now drawn; and how many
    were passed over as exempt."""
    from kivy.uix.label import Label

    frame = Frame.of_window(window)
    top = on_top(window)
    found: list[Reading] = []
    passed_over = 0
    for widget in top.walk(restrict=True):
        if not isinstance(widget, Label) or not widget.text.strip():
            continue
        if effective_opacity(widget) == 0 or widget.get_root_window() is None:
            continue  # not shown at all
        box = drawn_box(widget, frame)
        if box is None or (widget is not top and covered(box, widget, top)):
            continue
        if exempt(widget):
            passed_over += 1
            continue
        ink = widget.disabled_color if widget.disabled else widget.color
        behind = background_behind(frame.colours_in(box), ink)
        text_colour = hex_of(as_bytes(ink, behind))
        needed = AA_LARGE_TEXT if large(widget) else AA_TEXT
        found.append(Reading(where, describe(widget), widget.text.strip()[:60], text_colour,
                             hex_of(behind), contrast_ratio(text_colour, hex_of(behind)),
                             needed))
    return found, passed_over


def describe(widget: Any) -> str:
    """The widget's id where its layout gives one, else its class and its parent's."""
    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        for name, named in getattr(parent, "ids", {}).items():
            if named is widget:
                return f"#{name}"
        parent = parent.parent
    return f"{type(widget.parent).__name__}>{type(widget).__name__}"
