"""Colours of the four themes, with the WCAG contrast check they must pass (the terrains' and
the players' are companion/ui/palette.py's).

Pure Python: the app turns these hex strings into Kivy colours; the tests check every pair of
text and background a screen uses reaches WCAG AA (4.5:1).
"""

from __future__ import annotations

from functools import lru_cache

SEE_THROUGH = "#00000000"
"""A frame the theme does not draw (#RRGGBBAA: no alpha, no colour)."""

THEMES: dict[str, dict[str, str]] = {
    "dark": {
        "background": "#15181C",
        "panel": "#23282E",
        "text": "#F2F2F2",
        "muted": "#B8C0C8",
        "button": "#37404A",
        "button_text": "#FFFFFF",
        "accent": "#2E7D4F",
        "accent_text": "#FFFFFF",
        "banner": "#F2C94C",
        "banner_text": "#1A1A1A",
        "danger": "#B3261E",
        "danger_text": "#FFFFFF",
        "disabled_text": "#B4BCC4",
        "chart_fear": "#6FA8DC",
        "chart_blight": "#E8866A",
        "chart_terror": "#F2C94C",
        "chart_won": "#5CC98A",
        "healthy": "#2F6B3C",
        "healthy_text": "#FFFFFF",
        "still_healthy": "#7A5C12",
        "still_healthy_text": "#FFFFFF",
        "blighted": "#5C2B4A",
        "blighted_text": "#FFFFFF",
        "heading": "#5CC98A",
        "warning_text": "#F2C94C",
        "frame": SEE_THROUGH,
    },
    "light": {
        "background": "#F4F1EA",
        "panel": "#FFFFFF",
        "text": "#1B1B1B",
        "muted": "#4A4F55",
        "button": "#DDD6C8",
        "button_text": "#1B1B1B",
        "accent": "#1E6B3F",
        "accent_text": "#FFFFFF",
        "banner": "#8A4B00",
        "banner_text": "#FFFFFF",
        "danger": "#A4231B",
        "danger_text": "#FFFFFF",
        "disabled_text": "#555B63",
        "chart_fear": "#1E5FA8",
        "chart_blight": "#A4231B",
        "chart_terror": "#8A4B00",
        "chart_won": "#1E6B3F",
        "healthy": "#CFE6C8",
        "healthy_text": "#1B1B1B",
        "still_healthy": "#F0DC9E",
        "still_healthy_text": "#1B1B1B",
        "blighted": "#E3C3D6",
        "blighted_text": "#1B1B1B",
        "heading": "#1E6B3F",
        "warning_text": "#8A4B00",
        "frame": SEE_THROUGH,
    },
    # Night: dim red on black, so eyes used to a dark room are not dazzled.
    "night": {
        "background": "#000000",
        "panel": "#140808",
        "text": "#FF7A66",
        "muted": "#D9604F",
        "button": "#2A0F0C",
        "button_text": "#FF8A76",
        # (a chosen setting, the step button: lighter than the buttons, still no glare)
        "accent": "#8C2A1A",
        "accent_text": "#FFD9D1",
        "banner": "#7A2216",
        "banner_text": "#FFD9D1",
        "danger": "#4A0E0A",
        "danger_text": "#FFB4A6",
        "disabled_text": "#D2705F",
        "chart_fear": "#FF7A66",
        "chart_blight": "#CC5C46",
        "chart_terror": "#FFB4A6",
        "chart_won": "#E8A090",
        "healthy": "#1C0B08",
        "healthy_text": "#FF8A76",
        "still_healthy": "#2A120A",
        "still_healthy_text": "#FF9A80",
        "blighted": "#3A0C10",
        "blighted_text": "#FFB4A6",
        "heading": "#FFB4A6",
        "warning_text": "#FFD9D1",
        "frame": SEE_THROUGH,
    },
    # High contrast: white on pure black, yellow and cyan for what stands out, and a thick
    # white frame round every panel and button where the other themes set them apart by a
    # shade. Its text reaches 7:1 (WCAG AAA) on every background it is read on.
    "contrast": {
        "background": "#000000",
        "panel": "#000000",
        "text": "#FFFFFF",
        "muted": "#D0D0D0",
        "button": "#000000",
        "button_text": "#FFFFFF",
        "accent": "#FFE600",
        "accent_text": "#000000",
        "banner": "#00FFFF",
        "banner_text": "#000000",
        "danger": "#A00000",
        "danger_text": "#FFFFFF",
        "disabled_text": "#A0A0A0",
        "chart_fear": "#00FFFF",
        "chart_blight": "#FF7070",
        "chart_terror": "#FFE600",
        "chart_won": "#66FF66",
        "healthy": "#005A1E",
        "healthy_text": "#FFFFFF",
        "still_healthy": "#FFE600",
        "still_healthy_text": "#000000",
        "blighted": "#7A0040",
        "blighted_text": "#FFFFFF",
        "heading": "#FFE600",
        "warning_text": "#00FFFF",
        "frame": "#FFFFFF",
    },
}

# Which text colour is read on which background, per theme.
TEXT_PAIRS = (
    ("text", "background"),
    ("text", "panel"),
    ("muted", "panel"),
    ("muted", "background"),
    ("button_text", "button"),
    ("disabled_text", "button"),
    ("accent_text", "accent"),
    ("banner_text", "banner"),
    ("danger_text", "danger"),
    ("healthy_text", "healthy"),
    ("still_healthy_text", "still_healthy"),
    ("blighted_text", "blighted"),
    # A heading or a warning written in colour, straight on the screen or on a panel (the
    # accent and the banner are backgrounds: too dark to be read as text at night).
    ("heading", "background"),
    ("heading", "panel"),
    ("warning_text", "background"),
    ("warning_text", "panel"),
    # A chart's title is written in its series' colour, over the chart's panel.
    ("chart_fear", "panel"),
    ("chart_blight", "panel"),
    ("chart_terror", "panel"),
    ("chart_won", "panel"),
)

TEXT_COLOURS = frozenset(text for text, _ in TEXT_PAIRS)
"""The colours a layout may write text in (`color:`); every other colour is a background."""

AA_NORMAL_TEXT = 4.5
AAA_NORMAL_TEXT = 7.0
"""What the high contrast theme's text reaches (WCAG 2.1, 1.4.6)."""

# The charts' bars and lines on their panel: graphics need 3:1 (WCAG 2.1, 1.4.11).
GRAPHIC_PAIRS = (
    ("chart_fear", "panel"),
    ("chart_blight", "panel"),
    ("chart_terror", "panel"),
    ("chart_won", "panel"),
    ("muted", "panel"),
)
AA_GRAPHICS = 3.0

# The outlines that set panels and buttons apart where the theme draws them (1.4.11, 3:1).
FRAME_PAIRS = (("frame", "background"), ("frame", "panel"), ("frame", "button"))


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4


@lru_cache(maxsize=512)  # a table asks it of the same few colours with every tap
def relative_luminance(colour: str) -> float:
    colour = colour.lstrip("#")
    r, g, b = (int(colour[i:i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)


def contrast_ratio(first: str, second: str) -> float:
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)),
                             reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


@lru_cache(maxsize=512)
def text_colour_on(background: str) -> str:
    """Black or white, whichever reads better on `background`."""
    black, white = "#000000", "#FFFFFF"
    if contrast_ratio(black, background) >= contrast_ratio(white, background):
        return black
    return white


def rgba(colour: str, alpha: float = 1.0) -> list[float]:
    """"#RRGGBB" (at `alpha`) or "#RRGGBBAA" as a Kivy colour."""
    colour = colour.lstrip("#")
    if len(colour) == 8:
        alpha = int(colour[6:8], 16) / 255
    return [int(colour[i:i + 2], 16) / 255 for i in (0, 2, 4)] + [alpha]
