"""The settings, tapped through the real window: a change of language closes and reopens them
cleanly, and every change lands in companion.ini and takes effect at once."""

from __future__ import annotations

from typing import Any

import pytest

from companion import i18n

from .harness import Harness

pytestmark = pytest.mark.ui
ESCAPE = 27


def button(ui: Harness, text: str) -> Any:
    """The tappable widget on top (an open popup first) that reads `text`."""
    for root in ui.window.children:  # the topmost first
        for widget in root.walk(restrict=True):
            words = getattr(widget, "text", None) or getattr(widget, "title", None)
            if words == text and widget.is_event_type("on_release") \
                    and widget.opacity > 0 and not widget.disabled:
                return widget
    raise AssertionError(f"no button {text!r} on screen")


def settings_open(ui: Harness) -> bool:
    from kivy.uix.settings import Settings

    return any(isinstance(child, Settings) for child in ui.window.children)


def test_changing_the_language_in_the_settings_leaves_them_closable_and_reopenable(
        ui: Harness) -> None:
    ui.tap_id("settings")
    assert settings_open(ui)
    ui.tap(button(ui, "Language"))
    ui.tap(button(ui, "Deutsch"))
    assert i18n.language() == "de"
    german = i18n.translations("de").gettext
    assert settings_open(ui)  # reopened, in German
    ui.tap(button(ui, german("Close")))
    assert not settings_open(ui)
    assert ui.screen.ids.settings.text == german("Settings")
    ui.tap_id("settings")
    assert settings_open(ui)
    ui.press_key(ESCAPE)
    assert not settings_open(ui)
    ui.tap_id("settings")
    ui.tap(button(ui, german("Language")))
    ui.tap(button(ui, "English"))
    assert i18n.language() == "en"
    ui.tap(button(ui, "Close"))
    assert not settings_open(ui)
    assert ui.app.config.get("companion", "language") == "English"
