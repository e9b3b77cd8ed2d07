"""Charts drawn with Kivy canvas instructions: a series over a game's rounds, and a bar of games
played with the games won inside it.

Their colours, sizes and titles come from the layouts (layouts/history_detail.kv,
layouts/statistics.kv); here is only how the values become bars, lines and value labels.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    OptionProperty,
)
from kivy.uix.label import Label
from kivy.uix.widget import Widget

BAR_SHARE = 0.64
"""How much of its round's width a bar takes; the rest is the gap to the next one."""


class RoundPlot(Widget):
    """One number per round as bars or a line, each written above its bar or point, on a
    baseline; the round numbers under it when `show_rounds`."""

    values = ListProperty([])
    """The series, round 1 first."""
    style = OptionProperty("bars", options=("bars", "line"))
    """Bars (an amount per round) or a line (a level that carries on)."""
    ceiling = NumericProperty(1)
    """The top of the scale when every value is lower (the scale starts at 0)."""
    value_names = ListProperty([])
    """Texts written for the values 0, 1, 2 … (the terror level's numerals); numbers else."""
    show_rounds = BooleanProperty(False)
    """Write the round numbers under the plot."""
    colour = ListProperty([1, 1, 1, 1])
    """The bars' or the line's colour."""
    axis_colour = ListProperty([0.5, 0.5, 0.5, 1])
    """The baseline's colour and the round numbers'."""
    text_colour = ListProperty([1, 1, 1, 1])
    """The values' colour."""
    font_size = NumericProperty(sp(14))
    """The size of the values and round numbers."""

    def __init__(self, **kwargs: Any) -> None:
        self._redraw = Clock.create_trigger(self.draw, -1)
        super().__init__(**kwargs)
        self.bind(pos=self._redraw, size=self._redraw, values=self._redraw, style=self._redraw,
                  ceiling=self._redraw, value_names=self._redraw, show_rounds=self._redraw,
                  colour=self._redraw, axis_colour=self._redraw, text_colour=self._redraw,
                  font_size=self._redraw)

    def text_for(self, value: float) -> str:
        index = int(value)
        return str(self.value_names[index]) if 0 <= index < len(self.value_names) \
            else str(index)

    def draw(self, *_: Any) -> None:
        self.canvas.clear()
        self.clear_widgets()
        values = list(self.values)
        if not values or self.width < 1 or self.height < 1:
            return
        line_height = self.font_size * 1.3
        mark = dp(8)
        lift = mark / 2 if self.style == "line" else 0  # a point's value clears its mark
        bottom = self.y + (line_height if self.show_rounds else 0)
        # Room above the highest bar for its value.
        room = max(self.height - line_height - lift - (bottom - self.y), 1)
        top = max(self.ceiling, *values, 1)
        slot = self.width / len(values)
        heights = [room * max(value, 0) / top for value in values]
        centres = [self.x + slot * (index + 0.5) for index in range(len(values))]
        with self.canvas:
            Color(rgba=self.colour)
            if self.style == "bars":
                bar = slot * BAR_SHARE
                for centre, height in zip(centres, heights, strict=True):
                    Rectangle(pos=(centre - bar / 2, bottom), size=(bar, height))
            else:
                points = [coordinate for centre, height in zip(centres, heights, strict=True)
                          for coordinate in (centre, bottom + height)]
                if len(values) > 1:
                    Line(points=points, width=dp(2))
                for centre, height in zip(centres, heights, strict=True):
                    Rectangle(pos=(centre - mark / 2, bottom + height - mark / 2),
                              size=(mark, mark))
            Color(rgba=self.axis_colour)
            Line(points=[self.x, bottom, self.right, bottom], width=dp(1))
        for centre, height, value in zip(centres, heights, values, strict=True):
            self._write(self.text_for(value), centre, bottom + height + lift, slot,
                        self.text_colour)
        if self.show_rounds:
            self._write_rounds(len(values), centres, slot, line_height)

    def _write_rounds(self, count: int, centres: list[float], slot: float,
                      line_height: float) -> None:
        widest = self._measure(str(count))
        every = 1
        while widest > slot * every * 0.9 and every < count:
            every += 1
        for index in range(0, count, every):
            self._write(str(index + 1), centres[index], self.y, slot * every,
                        self.axis_colour)

    def _write(self, text: str, centre: float, y: float, slot: float,
               colour: list[float]) -> None:
        """A value (or round number) centred over `centre`, unless it is wider than its slot."""
        width = self._measure(text)
        if width > slot:
            return
        height = self.font_size * 1.3
        self.add_widget(Label(text=text, font_size=self.font_size, color=colour, bold=True,
                              size=(slot, height), pos=(centre - slot / 2, y),
                              halign="center", valign="middle"))

    def _measure(self, text: str) -> float:
        from kivy.core.text import Label as CoreLabel

        core = CoreLabel(text=text, font_size=self.font_size, bold=True)
        core.refresh()
        return float(core.texture.size[0])


class WinBar(Widget):
    """Games played as an outlined bar, the games won filled in from its left end; both to the
    scale of the most games any row has. Drawn in layouts/statistics.kv."""

    played = NumericProperty(0)
    """Games played."""
    won = NumericProperty(0)
    """Games won (victories and sacrifice victories)."""
    most = NumericProperty(1)
    """The most games of any row: the full width."""
