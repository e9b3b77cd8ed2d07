"""Every text a layout colours is drawn in a text colour of the theme, one that the WCAG check
covers, so that no heading or warning fades into the night theme's black."""

from __future__ import annotations

import re

import pytest

from companion.resources import layouts_dir
from companion.ui.theme import AA_NORMAL_TEXT, TEXT_COLOURS, THEMES, contrast_ratio

TEXT_COLOUR_LINE = re.compile(r"^\s*color:(.*)$", re.MULTILINE)
"""A widget's text colour in kv (not `background_color`, `separator_color` …)."""
ROLE = re.compile(r'colours\["(\w+)"\]')


def text_colour_roles() -> dict[str, set[str]]:
    """Each theme role a layout writes text in, and where."""
    found: dict[str, set[str]] = {}
    for path in sorted(layouts_dir().rglob("*.kv")):
        text = path.read_text(encoding="utf-8")
        for line in TEXT_COLOUR_LINE.finditer(text):
            number = text.count("\n", 0, line.start()) + 1
            for role in ROLE.findall(line.group(1)):
                found.setdefault(role, set()).add(f"{path.name}:{number}")
    return found


def test_the_layouts_write_text_in_theme_colours() -> None:
    roles = text_colour_roles()
    assert {"text", "muted", "heading"} <= set(roles)  # the scan reads the layouts


def test_no_layout_writes_text_in_a_background_colour() -> None:
    wrong = {role: sorted(where) for role, where in text_colour_roles().items()
             if role not in TEXT_COLOURS}
    assert not wrong, f"text drawn in a background colour: {wrong}"


@pytest.mark.parametrize("theme", list(THEMES))
def test_headings_are_readable_on_the_screen_and_on_panels_in_every_theme(theme: str) -> None:
    colours = THEMES[theme]
    for background in ("background", "panel"):
        assert contrast_ratio(colours["heading"], colours[background]) >= AA_NORMAL_TEXT
