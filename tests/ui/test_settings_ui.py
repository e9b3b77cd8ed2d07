"""The settings screen, tapped through the real window: a change of language leaves it closable
and reopenable, every change lands in companion.ini and takes effect at once, text is typed on
the screen's own keys, and nothing on it is left in English in German or French."""

from __future__ import annotations

import configparser
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import i18n
from companion.i18n import catalogue_path, read_po
from companion.reader.emulator_pty import ReaderEmulator

from .harness import Harness
from .test_reader_ui import wait_until

pytestmark = pytest.mark.ui
ESCAPE = 27
LANGUAGE_NAMES = {"English", "Deutsch", "Français"}  # each in its own name, in every language


def button(ui: Harness, text: str, within: Any = None) -> Any:
    """The tappable widget on top (an open popup first) that reads `text`."""
    for root in [within] if within is not None else ui.window.children:
        for widget in root.walk(restrict=True):
            if getattr(widget, "text", None) == text and widget.is_event_type("on_release") \
                    and widget.opacity > 0 and not widget.disabled:
                return widget
    raise AssertionError(f"no button {text!r} on screen")


def stored(ui: Harness, section: str, key: str) -> str:
    """The setting as companion.ini on disk has it."""
    parser = configparser.ConfigParser()
    parser.read(ui.db_path.parent / "companion.ini", encoding="utf-8")
    return parser.get(section, key)


def open_settings(ui: Harness) -> Any:
    ui.app.show("home")
    ui.frames(2)
    ui.tap_id("settings")
    assert ui.screen.name == "settings"
    return ui.screen


def test_changing_the_language_leaves_the_settings_closable_and_reopenable(
        ui: Harness) -> None:
    settings = open_settings(ui)
    ui.tap(button(ui, "Deutsch", settings.ids.language))
    german = i18n.translations("de").gettext
    assert i18n.language() == "de" and stored(ui, "companion", "language") == "Deutsch"
    assert ui.screen.name == "settings"
    assert settings.ids.close.text == german("Close") != "Close"
    ui.tap_id("close")
    assert ui.screen.name == "home"
    assert ui.screen.ids.settings.text == german("Settings") != "Settings"
    ui.tap_id("settings")
    assert ui.screen.name == "settings"
    ui.press_key(ESCAPE)
    assert ui.screen.name == "home"
    # From the table's menu, and back to the table.
    assert ui.app.send({"cmd": "new_game", "players": 2, "seed": 3})
    ui.app.show("table")
    ui.frames(3)
    ui.tap_id("menu")
    ui.tap(button(ui, german("Settings")))
    assert ui.screen.name == "settings"
    ui.tap(button(ui, "English", ui.screen.ids.language))
    assert i18n.language() == "en" and ui.screen.ids.close.text == "Close"
    ui.press_key(ESCAPE)
    assert ui.screen.name == "table"
    assert ui.screen.ids.undo.text == "Undo"


def test_the_settings_open_at_the_top_each_time(ui: Harness) -> None:
    settings = open_settings(ui)
    ui.tap(button(ui, "Find out by itself", settings.ids.family))  # far down: scrolled there
    assert settings.ids.scroll.scroll_y < 0.5
    ui.tap_id("close")
    open_settings(ui)
    ui.frames(3)
    language = settings.ids.language
    top = settings.ids.scroll.to_window(0, settings.ids.scroll.top)[1]
    assert settings.ids.scroll.scroll_y == 1
    assert language.to_window(0, language.top)[1] <= top + 1  # Language is in view


def test_the_stepper_sets_the_spirit_phase_limit_in_the_settings_file(ui: Harness) -> None:
    settings = open_settings(ui)
    stepper = settings.ids.spirit_timer_limit
    plus = button(ui, "+", stepper)
    for _ in range(3):
        ui.tap(plus)
    assert stored(ui, "companion", "spirit_timer_limit") == "3"
    assert stepper.value == 3
    ui.tap(button(ui, "-", stepper))
    assert stored(ui, "companion", "spirit_timer_limit") == "2"
    assert stepper.value == 2
    ui.tap(button(ui, "On", settings.ids.spirit_one_step))
    assert stored(ui, "companion", "spirit_one_step") == "1"
    ui.tap(button(ui, "Night", settings.ids.theme))
    assert stored(ui, "companion", "theme") == "night"
    assert ui.app.colours["background"] != [0, 0, 0, 0]
    assert settings.ids.theme.value == "night"


@pytest.fixture
def emulated_reader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ReaderEmulator]:
    """A PN532 emulator, listed among the serial ports the system has."""
    from serial.tools import list_ports
    from serial.tools.list_ports_common import ListPortInfo

    device = ReaderEmulator("pn532", link=tmp_path / "rfid-reader")
    device.start()
    port = ListPortInfo(device.port, skip_link_detection=True)
    port.description = "PN532 breakout"
    monkeypatch.setattr(list_ports, "comports", lambda *args, **kwargs: [port])
    try:
        yield device
    finally:
        device.close()


def test_choosing_a_port_from_the_list_restarts_the_reader_on_it(
        ui: Harness, emulated_reader: ReaderEmulator) -> None:
    settings = open_settings(ui)
    assert "off" in ui.app.reader_status.lower()
    ui.tap(button(ui, "PN532", settings.ids.family))
    ui.tap(button(ui, f"{emulated_reader.port}\nPN532 breakout", settings.ids.port))
    assert stored(ui, "reader", "port") == emulated_reader.port
    assert stored(ui, "reader", "family") == "pn532"
    wait_until(ui, lambda: "pn532 on" in ui.app.reader_status)
    ui.tap(button(ui, "Off", settings.ids.port))
    assert stored(ui, "reader", "port") == "off"
    assert ui.app.reader_status == "Card reader: off"


def test_advanced_texts_are_typed_on_the_screens_own_keys(ui: Harness) -> None:
    settings = open_settings(ui)
    ui.tap_id("line_pattern")
    entry = ui.popup()
    assert entry is not None and entry.text == ""
    ui.type_on_keys("ID=(.+)x")
    ui.tap(ui.key("Del"))
    assert entry.text == "ID=(.+)"
    ui.tap(button(ui, "OK", entry))
    assert ui.popup() is None
    assert stored(ui, "reader", "line_pattern") == "ID=(.+)"
    assert settings.ids.line_pattern.text == "ID=(.+)"

    ui.tap_id("port_address")
    entry = ui.popup()
    ui.type_on_keys("loop://")
    ui.tap(button(ui, "OK", entry))
    assert stored(ui, "reader", "port") == "loop://"
    assert "loop://" in ui.app.reader_status
    assert settings.ids.port.value == "loop://"  # the list offers the address typed
    ui.tap_id("port_address")
    entry = ui.popup()
    assert entry.text == "loop://"
    ui.tap(ui.key("Clear"))
    ui.tap(button(ui, "OK", entry))
    assert stored(ui, "reader", "port") == "off"
    ui.tap_id("line_pattern")
    ui.tap(button(ui, "Cancel", ui.popup()))
    assert stored(ui, "reader", "line_pattern") == "ID=(.+)"


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_a_pattern_the_reader_cannot_use_is_refused_in_the_players_words(
        ui: Harness, lang: str) -> None:
    ui.app.switch_language(lang)
    translated = set(read_po(catalogue_path(lang, "companion")).values()) if lang != "en" else None
    open_settings(ui)
    for pattern, cause in (("UID:([0-9A-F]+", "bracket"), ("UID:[0-9A-F]+", "brackets")):
        ui.tap_id("line_pattern")
        entry = ui.popup()
        ui.type_on_keys(pattern)
        ui.tap(entry.ids.ok)
        assert ui.popup() is entry and entry.text == pattern  # still open, nothing lost
        said = entry.ids.hint.text
        assert said and said != entry.hint
        for developer_word in ("regular", "expression", "group", "position", "subpattern",
                               "UID line pattern", "re.error"):
            assert developer_word not in said
        if translated is None:
            assert cause in said
        else:
            assert said in translated
        ui.tap(entry.ids.cancel)
        assert stored(ui, "reader", "line_pattern") == ""
    ui.tap_id("line_pattern")
    ui.type_on_keys("UID:([0-9A-F]+)")
    ui.tap(ui.key("Done"))  # Done on the keys confirms, as OK does
    assert ui.popup() is None and stored(ui, "reader", "line_pattern") == "UID:([0-9A-F]+)"


def shown_texts(root: Any) -> Iterator[tuple[Any, str]]:
    from kivy.uix.label import Label

    for widget in root.walk(restrict=True):
        if isinstance(widget, Label) and widget.text.strip() and widget.opacity > 0:
            yield widget, widget.text


@pytest.mark.parametrize(("name", "lang"), [("Deutsch", "de"), ("Français", "fr")])
def test_no_settings_text_is_left_in_english(ui: Harness, name: str, lang: str) -> None:
    from companion.ui.keys import KeyButton

    translated = set(read_po(catalogue_path(lang, "companion")).values())
    settings = open_settings(ui)
    ui.tap(button(ui, name, settings.ids.language))
    ports = set(settings.ids.port.ids.choices.children[:-2])  # after Off and Find it …
    ui.tap_id("line_pattern")
    entry = ui.popup()

    def allowed(widget: Any, text: str) -> bool:
        return (text in translated or text.removesuffix("°").isdigit() or text in LANGUAGE_NAMES
                or text in ("PN532", "EM4100", "+", "-")  # the chips' names, the stepper's
                or widget in ports  # the system's names for its serial ports
                or isinstance(widget, KeyButton) and (widget.key == text  # a key's own sign
                                                      or widget.key in ("Shift", "àé", "#+=")))

    try:
        untranslated = [text for root in (settings, entry, ui.keys())
                        for widget, text in shown_texts(root)
                        if not allowed(widget, text)]
        assert entry.title in translated
    finally:
        entry.dismiss()
        ui.frames(2)
        ui.tap(button(ui, "English", settings.ids.language))
    assert not untranslated, f"left in English in {lang}: {untranslated}"


def test_a_settings_file_of_an_earlier_version_keeps_working(tmp_path: Path) -> None:
    (tmp_path / "companion.ini").write_text(
        "[companion]\nlanguage = Français\ntext_size = large\ntheme = light\nconfirm = 0\n"
        "spirit_timer = 1\nspirit_timer_limit = 5\nfullscreen = 0\n\n"
        "[reader]\nport = off\nfamily = em4100\nline_pattern = \n", encoding="utf-8")
    ui = Harness(tmp_path / "games.db")
    try:
        settings = open_settings(ui)
        ids = settings.ids
        assert (ids.language.value, ids.text_size.value, ids.theme.value) == (
            "Français", "large", "light")
        assert (ids.confirm.value, ids.spirit_timer.value, ids.spirit_one_step.value) == (
            "0", "1", "0")
        assert ids.spirit_timer_limit.value == 5 and ids.family.value == "em4100"
        assert ui.app.text_scale == 1.2 and not ui.app.confirm_destructive
        ui.tap(button(ui, "English", ids.language))
    finally:
        ui.close()


def test_the_screen_turns_with_the_rotation_setting(ui: Harness) -> None:
    settings = open_settings(ui)
    assert settings.ids.rotation.value == "0"  # never chosen: the installer's default
    try:
        ui.tap(button(ui, "90°", settings.ids.rotation))
        ui.frames(2)
        assert stored(ui, "companion", "rotation") == "90"
        assert ui.window.rotation == 90
        assert ui.window.width < ui.window.height  # the landscape panel reads as portrait
        # Still tappable after the turn: the touch lands on the button it is drawn on.
        ui.tap(button(ui, "0°", settings.ids.rotation))
        assert stored(ui, "companion", "rotation") == "0" and ui.window.rotation == 0
    finally:
        ui.window.rotation = 0


def test_the_night_theme_dims_the_panel_and_the_day_brings_it_back(tmp_path: Path) -> None:
    folder = tmp_path / "sysfs" / "10-0045"  # a stand-in for /sys/class/backlight/<panel>
    folder.mkdir(parents=True)
    (folder / "max_brightness").write_text("255\n")
    (folder / "brightness").write_text("200\n")
    level = lambda: int((folder / "brightness").read_text())  # noqa: E731
    from companion.backlight import Backlight

    ui = Harness(tmp_path / "games.db", backlight=Backlight(folder))
    try:
        settings = open_settings(ui)
        assert level() == 200
        ui.tap(button(ui, "Night", settings.ids.theme))
        assert level() == 64
        ui.tap(button(ui, "Off", settings.ids.night_dim))
        assert stored(ui, "companion", "night_dim") == "0" and level() == 200
        ui.tap(button(ui, "On", settings.ids.night_dim))
        assert level() == 64
        ui.tap(button(ui, "Dark", settings.ids.theme))
        assert level() == 200
    finally:
        ui.close()
