"""No text field opens without keys: every screen with a text field (the rules search, the
settings' texts, each registered game's new-game form and table, and the rules reached from the
table) is walked through the real window; each field is tapped, the on-screen keys must come up
beside it, a name with an umlaut and an accent is typed on them and must arrive."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games.registry import GAMES

from .harness import Harness
from .soak import start_a_game, visible
from .test_settings_ui import open_settings

pytestmark = pytest.mark.ui

NAME = "Jörg Béné"
"""Typed into every field: a capital, an umlaut, a space, accents."""
SIZES = [(800, 480), (720, 1280)]
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def fields_made(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every text field built from now on, whatever its class."""
    from kivy.uix.textinput import TextInput

    made: list[Any] = []
    build = TextInput.__init__

    def recording(self: Any, **kwargs: Any) -> None:
        made.append(self)
        build(self, **kwargs)

    monkeypatch.setattr(TextInput, "__init__", recording)
    return made


@pytest.fixture(params=SIZES, ids=["800x480", "720x1280"])
def app_at(request: pytest.FixtureRequest, tmp_path: Path,
           fields_made: list[Any]) -> Iterator[Harness]:
    harness = Harness(tmp_path / "games.db", request.param)
    try:
        yield harness
    finally:
        harness.close()


def shown_roots(ui: Harness) -> list[Any]:
    """What the players see: the screen and any popup over it."""
    from kivy.uix.modalview import ModalView

    return [ui.screen, *(child for child in ui.window.children if isinstance(child, ModalView))]


def fields_in(roots: list[Any]) -> list[Any]:
    from kivy.uix.textinput import TextInput

    return [widget for root in roots for widget in root.walk(restrict=True)
            if isinstance(widget, TextInput) and visible(widget)]


def type_into_every_field(ui: Harness, made: list[Any], finish: bool = True) -> int:
    """Tap each text field on screen, check its keys and type NAME on them, then Done (unless
    not `finish`); returns how many. Every field built and now on screen must be among those
    the walk found."""
    from companion.ui.keys import KEY_HEIGHT_MIN, KeyedTextInput

    found = fields_in(shown_roots(ui))
    missed = [field for field in made if visible(field) and field not in found]
    assert not missed, f"text fields on screen the walk did not find: {missed}"
    for field in found:
        assert isinstance(field, KeyedTextInput), f"{field} opens without keys"
        ui.tap(field)
        panel = ui.keys()
        assert panel.parent is not None and panel.target is field, "no keys came up"
        assert not panel.covers(field), "the keys lie over the field typed into"
        assert panel.key_height >= KEY_HEIGHT_MIN
        ui.tap(ui.key("Clear"))
        ui.type_on_keys(NAME)
        assert field.text == NAME
        if finish:
            ui.tap(ui.key("Done"))
            assert ui.keys().parent is None, "Done left the keys up"
    return len(found)


def to_rules(ui: Harness) -> None:
    ui.app.show("home")
    ui.frames(2)
    ui.tap_id("rules")


def new_game_form(game_id: str) -> Callable[[Harness], None]:
    def go(ui: Harness) -> None:
        ui.app.show("home")
        ui.frames(2)
        ui.tap_id("new_game")
        ui.tap_id(f"game_{game_id.replace('-', '_')}")
    return go


def table(game_id: str) -> Callable[[Harness], None]:
    def go(ui: Harness) -> None:
        start_a_game(ui, game_id)
    return go


def rules_from_table(game_id: str) -> Callable[[Harness], None]:
    """The table's "?" (the rules app's help for the step when a table has no such button)."""
    def go(ui: Harness) -> None:
        start_a_game(ui, game_id)
        help_button = ui.screen.ids.get("step_help")
        if help_button is not None and visible(help_button):
            ui.tap(help_button)
        else:
            ui.app.rules_for_step()
            ui.frames(3)
        assert ui.screen.name == "rules"
    return go


PLACES: dict[str, Callable[[Harness], None]] = {
    "rules": to_rules,
    **{f"new_game-{game_id}": new_game_form(game_id)
       for game_id, game in GAMES.items() if game.setup_form},
    **{f"table-{game_id}": table(game_id) for game_id, game in GAMES.items()
       if game.table_screen and game.setup_form},
    **{f"rules_from_table-{game_id}": rules_from_table(game_id)
       for game_id, game in GAMES.items() if game.table_screen and game.setup_form},
}


@pytest.mark.parametrize("place", list(PLACES))
def test_every_text_field_brings_keys_that_type_a_name_with_umlauts(
        app_at: Harness, fields_made: list[Any], place: str) -> None:
    PLACES[place](app_at)
    type_into_every_field(app_at, fields_made)


def test_the_settings_texts_bring_keys_that_type_a_name_with_umlauts(
        app_at: Harness, fields_made: list[Any]) -> None:
    settings = open_settings(app_at)
    for opener in ("port_address", "line_pattern"):
        app_at.tap(settings.ids[opener])
        assert type_into_every_field(app_at, fields_made, finish=False) == 1
        app_at.tap(app_at.popup().ids.cancel)  # (Done would store the name as the setting)
        assert app_at.keys().parent is None and app_at.popup() is None


def test_the_walk_finds_the_fields_of_glow_and_the_rules_and_fails_a_field_without_keys(
        fields_made: list[Any], ui: Harness) -> None:
    """The walk is no check that cannot fail: it finds the fields known to exist, and a plain
    text field put on a screen makes it fail."""
    from kivy.uix.textinput import TextInput

    new_game_form("glow")(ui)
    assert type_into_every_field(ui, fields_made) >= 2  # a name for each player
    to_rules(ui)
    assert type_into_every_field(ui, fields_made) == 1
    ui.screen.ids.reading.add_widget(TextInput(size_hint_y=None, height=50), index=0)
    ui.frames(3)
    with pytest.raises(AssertionError, match="opens without keys"):
        type_into_every_field(ui, fields_made)


def test_a_field_the_walk_cannot_reach_fails_it(fields_made: list[Any], ui: Harness) -> None:
    """A field on the window outside the screen and its popups (where the walk looks)."""
    from kivy.uix.textinput import TextInput

    to_rules(ui)
    stray = TextInput(size_hint=(None, None), size=(200, 50), pos=(300, 200))
    ui.window.add_widget(stray)
    try:
        ui.frames(2)
        with pytest.raises(AssertionError, match="the walk did not find"):
            type_into_every_field(ui, fields_made)
    finally:
        ui.window.remove_widget(stray)


def test_no_layout_or_screen_code_makes_a_text_field_without_keys() -> None:
    """The fields the walk cannot reach (a screen no test opens) are held here: every text
    field in a layout is a KeyedTextInput, and no code builds a plain TextInput."""
    plain = [f"{path.relative_to(REPO)}:{number}"
             for path in [*REPO.glob("layouts/**/*.kv"), *REPO.glob("companion/**/*.py")]
             if path.name != "keys.py"
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if "TextInput" in line.replace("KeyedTextInput", "")
             and not line.lstrip().startswith("#")]
    assert not plain, f"text fields without keys: {plain}"


def test_a_real_keyboard_still_types_into_a_field_with_keys(ui: Harness) -> None:
    new_game_form("glow")(ui)
    field = fields_in([ui.screen])[0]
    ui.tap(field)
    assert ui.keys().parent is not None
    for letter in "Zoë":
        ui.window.dispatch("on_textinput", letter)
        ui.frames(1)
    assert field.text == "Zoë"


def test_a_closed_app_keeps_neither_its_keys_nor_its_fields(tmp_path: Path) -> None:
    """Typed into and closed with the keys still up: the app, the field and the keys are
    garbage. (The keys are one panel an app, kept between the fields; and Kivy's fields share
    one scroll trigger, which kept the last field typed into, and with it its whole app.)"""
    import gc
    import weakref

    ui = Harness(tmp_path / "games.db")
    try:
        to_rules(ui)
        field = fields_in([ui.screen])[0]
        ui.tap(field)
        ui.type_on_keys("Zoë")
        assert ui.keys().target is field
        kept = {"app": weakref.ref(ui.app), "field": weakref.ref(field),
                "keys": weakref.ref(ui.keys())}
        del field
    finally:
        ui.close()
    del ui
    gc.collect()
    assert [name for name, ref in kept.items() if ref() is not None] == []
