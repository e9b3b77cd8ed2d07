"""Smaller things a player sees, through the real window: Settings opens at its top."""

from __future__ import annotations

from typing import Any

from .harness import Harness


def open_settings(ui: Harness) -> Any:
    ui.app.show("home")
    ui.frames(2)
    ui.tap_id("settings")
    assert ui.screen.name == "settings"
    return ui.screen


def test_settings_reopens_at_its_top_with_the_language_in_view(ui: Harness) -> None:
    settings = open_settings(ui)
    scroll = settings.ids.scroll
    ui.scroll_into_view(settings.ids.line_pattern)  # far down: the reader's advanced texts
    assert scroll.scroll_y < 0.5
    ui.tap_id("close")
    assert ui.screen.name == "home"
    open_settings(ui)
    ui.frames(3)
    assert scroll.scroll_y == 1
    language = settings.ids.language
    top = scroll.to_window(scroll.x, scroll.top)[1]
    assert language.to_window(language.x, language.top)[1] <= top + 1  # its heading too
    assert language.to_window(language.x, language.y)[1] >= scroll.to_window(scroll.x,
                                                                              scroll.y)[1]
