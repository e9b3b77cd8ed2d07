"""The app in English, German and French, switched in the settings while it runs."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.ui import presenter

from .harness import Harness

pytestmark = pytest.mark.ui


def choose_language(ui: Harness, name: str) -> None:
    ui.app.config.set("companion", "language", name)
    ui.app.on_config_change(ui.app.config, "companion", "language", name)
    ui.frames(3)


@pytest.fixture
def table(ui: Harness):
    assert ui.app.send({"cmd": "new_game", "players": 2, "seed": 4})
    ui.app.show("table")
    ui.frames(3)
    yield ui
    choose_language(ui, "English")


def test_switching_to_german_rewrites_the_table_at_once_and_english_brings_it_back(
        table: Harness) -> None:
    ui = table
    ids = ui.screen.ids
    english = {key: ids[key].text for key in ("undo", "menu", "fear_one", "terror")}
    assert english["undo"] == "Undo"
    choose_language(ui, "Deutsch")
    assert i18n.language() == "de"
    german = {key: ids[key].text for key in english}
    assert german["undo"] == i18n.translations("de").gettext("Undo") != "Undo"
    assert german["terror"].startswith(i18n.translations("de").gettext("Terror level {level}")
                                       .split("{")[0])
    assert all(german[key] != english[key] for key in ("undo", "menu", "terror"))
    view = presenter.table_view(ui.state)  # worked out in German now
    assert (ids.terror.text, ids.done.text) == (view.terror, view.action.label)
    choose_language(ui, "English")
    assert {key: ids[key].text for key in english} == english


def test_french_reaches_the_other_screens_and_the_rules(table: Harness) -> None:
    ui = table
    choose_language(ui, "Français")
    ui.app.show("home")
    ui.frames(2)
    assert ui.screen.ids.new_game.text == i18n.translations("fr").gettext("New game")
    assert ui.screen.ids.new_game.text != "New game"
    ui.tap_id("rules")
    assert ui.screen.lang == "fr"
