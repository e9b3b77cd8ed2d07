"""The app in English, German and French, switched in the settings while it runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import i18n
from companion.games.spirit_island.adversary_table_rules import ADVERSARY_REMINDERS
from companion.games.spirit_island.texts import STEP_PROMPTS
from companion.games.spirit_island.ui import presenter

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
    english = {key: ids[key].text
               for key in ("undo", "menu", "fear_one", "terror_label", "terror_goal",
                           "blight_side_label")}
    assert english["undo"] == "Undo"
    choose_language(ui, "Deutsch")
    assert i18n.language() == "de"
    german = {key: ids[key].text for key in english}
    assert german["undo"] == i18n.translations("de").gettext("Undo") != "Undo"
    assert german["terror_label"] == i18n.translations("de").gettext("Terror level")
    assert all(german[key] != english[key]
               for key in ("undo", "menu", "terror_label", "terror_goal", "blight_side_label"))
    view = presenter.table_view(ui.state)  # worked out in German now
    assert (ids.terror_goal.text, ids.done.text) == (view.glance.terror_goal,
                                                      view.action.label)
    choose_language(ui, "English")
    assert {key: ids[key].text for key in english} == english


def test_the_step_prompt_reminders_and_conditions_follow_the_language(
        ui: Harness, tmp_path: Path) -> None:
    assert ui.app.send({"cmd": "new_game", "players": 2, "seed": 4, "adversary": "england",
                        "level": 1})
    ui.app.show("table")
    ui.frames(3)
    while ui.state["step"] != "build":
        ui.tap_id("done")
    ids = ui.screen.ids
    english = (ids.prompt.text, ids.reminders.text, ids.victory.text)
    assert english[0].startswith("Build in ") and "7 or more Towns" in english[1]
    for name, lang in (("Deutsch", "de"), ("Français", "fr")):
        choose_language(ui, name)
        translate = i18n.translations(lang).gettext
        assert ids.prompt.text == ui.state["prompt"]
        assert ids.prompt.text.startswith(translate(STEP_PROMPTS["build"]).split("{")[0])
        assert translate(ADVERSARY_REMINDERS["england"][0][0].text) in ids.reminders.text
        assert ids.victory.text != english[2]
        ui.screenshot(tmp_path / f"table-build-{lang}.png")
    choose_language(ui, "English")
    assert (ids.prompt.text, ids.reminders.text, ids.victory.text) == english


def test_french_reaches_the_other_screens_and_the_rules(table: Harness) -> None:
    ui = table
    choose_language(ui, "Français")
    ui.app.show("home")
    ui.frames(2)
    assert ui.screen.ids.new_game.text == i18n.translations("fr").gettext("New game")
    assert ui.screen.ids.new_game.text != "New game"
    ui.tap_id("rules")
    assert ui.screen.lang == "fr"
