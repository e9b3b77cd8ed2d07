"""The rules screen by touch: type on the on-screen keys, open a result, follow a link, go back;
a real keyboard types too; the table's "?" opens the help for the step; other languages."""

from __future__ import annotations

import pytest

from .harness import Harness

pytestmark = pytest.mark.ui


def key(ui: Harness, letter: str) -> None:
    ui.tap(ui.key(letter))


def result_ids(ui: Harness) -> list[str]:
    return [row["entry_id"] for row in ui.screen.ids.results.data]


def test_a_query_typed_on_the_letter_keys_opens_an_entry_whose_links_lead_on_and_back(
        ui: Harness) -> None:
    ui.tap_id("rules")
    screen = ui.screen
    assert screen.name == "rules"
    for letter in "blig":
        key(ui, letter)
    assert screen.query == "blig"
    assert screen.ids.query.text == "blig"
    assert result_ids(ui)[0] == "blight"
    ui.frames(3)
    first = next(view for view in screen.ids.results.children[0].children
                 if view.entry_id == "blight")
    ui.tap(first)
    assert screen.entry_id == "blight"
    assert screen.entry_title == "Blight"
    assert screen.entry_body
    assert ui.keys().parent is None  # reading: the keys make room for the text
    link = screen.ids.related.children[-1]  # the first link
    ui.tap(link)
    assert screen.entry_id == link.entry_id != "blight"
    ui.tap_id("back")
    assert screen.entry_id == "blight"
    ui.tap_id("back")
    assert screen.entry_id == "" and result_ids(ui)[0] == "blight"
    ui.tap_id("back")
    assert ui.app.screens.current == "home"


def test_the_keys_delete_add_a_space_and_clear(ui: Harness) -> None:
    ui.tap_id("rules")
    for letter in ("f", "e", "a", "r", "Del", "Space", "c"):
        key(ui, letter)
    assert ui.screen.query == "fea c"
    key(ui, "Clear")
    assert ui.screen.query == "" and result_ids(ui) == []


def test_a_real_keyboard_types_into_the_search_box(ui: Harness) -> None:
    ui.tap_id("rules")
    box = ui.screen.ids.query
    ui.tap(box)
    assert box.focus
    for letter in "ravag":
        ui.window.dispatch("on_textinput", letter)
        ui.frames(1)
    assert ui.screen.query == "ravag"
    assert result_ids(ui)[0] == "ravage"


def test_the_entries_come_in_the_language_chosen_and_other_languages_words_find_them(
        ui: Harness) -> None:
    ui.tap_id("rules")
    ui.tap_id("lang_de")  # a tap beside the keys puts them away; a tap on the search brings them
    ui.tap_id("query")
    for letter in "blight":
        key(ui, letter)
    assert result_ids(ui)[0] == "blight"
    assert ui.screen.ids.results.data[0]["text"].startswith("Ödnis")
    ui.tap_id("lang_fr")
    assert ui.screen.ids.results.data[0]["text"].startswith("Désolation")


def test_the_question_mark_on_the_table_opens_the_help_for_the_current_step(
        ui: Harness) -> None:
    assert ui.app.send({"cmd": "new_game", "players": 2, "seed": 3})
    ui.app.show("table")
    ui.frames(3)
    ui.app.send({"cmd": "next"})  # into the Spirit phase: growth
    assert ui.state["step"] == "growth"
    ui.tap_id("step_help")
    screen = ui.screen
    assert screen.name == "rules"
    helping = {entry.id for entry in ui.app.rules_index().for_step("spirit", "growth", "en")}
    assert helping
    assert screen.entry_id in helping or set(result_ids(ui)) == helping
    while ui.app.screens.current == "rules":
        ui.tap(ui.screen.ids.back)
    assert ui.app.screens.current == "table"


def test_during_a_leviathan_game_a_shared_word_finds_its_entry_first_and_all_games_widens(
        ui: Harness) -> None:
    from .test_leviathan_ui import look

    ui.tap_id("rules")
    for letter in "round":
        key(ui, letter)
    assert result_ids(ui)[0] == "round"  # no game open: every game's entries
    assert ui.screen.ids.all_games.opacity == 0 and ui.screen.ids.all_games.disabled
    ui.tap_id("back")
    assert ui.app.send({"cmd": "new_game", "game": "leviathan-wilds", "players": 2,
                        "difficulty": "medium", "leviathan": 1, "seed": 3})
    ui.app.show("home")
    ui.frames(2)
    ui.tap_id("rules")
    screen = ui.screen
    assert screen.game == "leviathan-wilds" and screen.query == "round"
    assert result_ids(ui)[0] == "lw-round-end"
    assert all(entry_id.startswith("lw-") for entry_id in result_ids(ui))
    assert screen.ids.all_games.opacity == 1
    look(ui, "rules-leviathan")
    ui.tap_id("all_games")
    assert screen.all_games and screen.ids.all_games.state == "down"
    assert result_ids(ui)[0] == "round" and "lw-round-end" in result_ids(ui)
    ui.tap_id("all_games")
    assert not screen.all_games and result_ids(ui)[0] == "lw-round-end"
    ui.tap_id("lang_de")  # the entries' language: still this game's entry first
    assert screen.ids.results.data[0]["text"].startswith("Rundenende (Leviathan Wilds)")
    for lang, label in (("de", "Alle Spiele"), ("fr", "Tous les jeux")):
        ui.app.switch_language(lang)
        ui.frames(2)
        assert screen.ids.all_games.text == label
        look(ui, f"rules-leviathan-{lang}")


def test_a_search_without_results_says_nothing_was_found(ui: Harness) -> None:
    ui.tap_id("rules")
    note = ui.screen.ids.nothing_found
    assert note.opacity == 0
    ui.type_on_keys("qxz")
    assert result_ids(ui) == []
    assert note.opacity == 1 and note.height > 0 and "qxz" in note.text
    ui.tap(ui.key("Clear"))
    ui.type_on_keys("blight")
    assert result_ids(ui)[0] == "blight" and note.opacity == 0
