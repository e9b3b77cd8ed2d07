"""Every text a layout colours is drawn in a text colour of the theme, one that the WCAG check
covers, so that no heading or warning fades into the night theme's black."""

from __future__ import annotations

import re

import pytest

from companion.resources import layouts_dir
from companion.ui.theme import (
    AA_GRAPHICS,
    AA_NORMAL_TEXT,
    AAA_NORMAL_TEXT,
    FRAME_PAIRS,
    TEXT_COLOURS,
    TEXT_PAIRS,
    THEMES,
    contrast_ratio,
    rgba,
)

TEXT_COLOUR_LINE = re.compile(r"^\s*color:(.*)$", re.MULTILINE)
"""A widget's text colour in kv (not `background_color`, `separator_color` …)."""
ROLE = re.compile(r'colours\["(\w+)"\]')
INK_ROLE_LINE = re.compile(r"^\s*ink_role:(.*)$", re.MULTILINE)
"""A button's text colour named by its role (the <TapButton> rule looks it up)."""
QUOTED_ROLE = re.compile(r'"(\w+)"')


def text_colour_roles() -> dict[str, set[str]]:
    """Each theme role a layout writes text in, and where."""
    found: dict[str, set[str]] = {}
    for path in sorted(layouts_dir().rglob("*.kv")):
        text = path.read_text(encoding="utf-8")
        for lines, roles in ((TEXT_COLOUR_LINE, ROLE), (INK_ROLE_LINE, QUOTED_ROLE)):
            for line in lines.finditer(text):
                number = text.count("\n", 0, line.start()) + 1
                for role in roles.findall(line.group(1)):
                    found.setdefault(role, set()).add(f"{path.name}:{number}")
    return found


def test_the_layouts_write_text_in_theme_colours() -> None:
    roles = text_colour_roles()
    assert {"text", "muted", "heading", "danger_text"} <= set(roles)  # it reads the layouts


def test_no_layout_writes_text_in_a_background_colour() -> None:
    wrong = {role: sorted(where) for role, where in text_colour_roles().items()
             if role not in TEXT_COLOURS}
    assert not wrong, f"text drawn in a background colour: {wrong}"


@pytest.mark.parametrize("theme", list(THEMES))
def test_headings_are_readable_on_the_screen_and_on_panels_in_every_theme(theme: str) -> None:
    colours = THEMES[theme]
    for background in ("background", "panel"):
        assert contrast_ratio(colours["heading"], colours[background]) >= AA_NORMAL_TEXT


def test_every_theme_gives_every_role() -> None:
    roles = set(THEMES["dark"])
    assert {theme: sorted(roles ^ set(colours)) for theme, colours in THEMES.items()
            if set(colours) != roles} == {}


def test_the_high_contrast_theme_reaches_aaa_for_all_its_text() -> None:
    colours = THEMES["contrast"]
    faint = {(text, background): round(contrast_ratio(colours[text], colours[background]), 2)
             for text, background in TEXT_PAIRS
             if contrast_ratio(colours[text], colours[background]) < AAA_NORMAL_TEXT}
    assert faint == {}


@pytest.mark.parametrize("theme", list(THEMES))
def test_a_frame_is_either_not_drawn_or_stands_out(theme: str) -> None:
    colours = THEMES[theme]
    if rgba(colours["frame"])[3] == 0:
        return
    for frame, background in FRAME_PAIRS:
        assert contrast_ratio(colours[frame], colours[background]) >= AA_GRAPHICS


def test_the_high_contrast_theme_frames_its_panels_and_buttons() -> None:
    assert rgba(THEMES["contrast"]["frame"])[3] == 1
    assert THEMES["contrast"]["panel"] == THEMES["contrast"]["background"]  # the frame tells
