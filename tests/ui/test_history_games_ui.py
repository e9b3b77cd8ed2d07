"""A history of several games through the real window: every row names its game and says what
was played in the game's own words, each game's details show its own facts and charts, the
statistics count games by game first; at the panel's size and portrait, in English, German and
French, with nothing spilling out of its box. Also the rules help for any game's moment, and
the mirror badge on any game's table menu."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.history_games import play_mixed_history

from .harness import Harness
from .test_layout import layout_problems
from .tour import SIZES, history_row_button, with_text_size

pytestmark = pytest.mark.ui

SHOTS = Path(os.environ.get("COMPANION_SHOTS", "")) if os.environ.get("COMPANION_SHOTS") \
    else None


def mixed_history(ui: Harness) -> None:
    """Games 1-5 (Spirit Island, Leviathan Wilds won and lost, Glow whole and scored only),
    played through the app's driver as a script would, then Home."""
    play_mixed_history(ui.app.driver)
    ui.app.reload_state()
    ui.app.show("home")
    ui.frames(3)


def row_texts(ui: Harness) -> dict[int, str]:
    ui.frames(3)
    return {row.game_id: row.children[-1].text
            for row in ui.widget("games").children[0].children}


def test_every_row_names_its_game_and_says_what_was_played_in_its_own_words(
        ui: Harness) -> None:
    mixed_history(ui)
    ui.tap_id("history")
    assert row_texts(ui) == {
        1: f"Spirit Island · {today(ui, 1)} · 2p · Kingdom of England 2 · defeat · 11 points · "
           "2 rounds",
        2: f"Leviathan Wilds · {today(ui, 2)} · 2p · Sentinel, easy, 2 guardians · victory · "
           "2 rounds",
        3: f"Leviathan Wilds · {today(ui, 3)} · 1p · Tyrant, hard, 2 guardians · defeat · "
           "1 round",
        4: f"Glow · {today(ui, 4)} · 2p · Realm of Shadows · won by Ada, 72 to 64 · 8 days",
        5: f"Glow · {today(ui, 5)} · 2p · Sea of Darkness · won by Bo, 78 to 72 · scoring only"}
    # Wins of the games that can be won together; no average of two games' scores.
    assert ui.widget("stats").text == "5 games played · 1 won (33%)"
    assert ui.widget("statistics").text == "Wins by game"


def today(ui: Harness, game: int) -> str:
    return str(ui.app.driver.handle({"cmd": "game_detail", "game": game})
               ["game_detail"]["started_at"])[:10]


def test_each_games_details_show_its_own_facts_result_and_charts(ui: Harness) -> None:
    mixed_history(ui)
    ui.tap_id("history")
    ui.tap(history_row_button(ui, 2))
    screen = ui.screen
    assert screen.title == f"Leviathan Wilds · {screen.date_text}"
    assert (screen.leviathan_text, screen.difficulty_text, screen.guardians_text) == (
        "Sentinel", "easy", "2 guardians")
    assert ui.widget("outcome").value == "Victory: the last crystal is shattered"
    assert [child.value for child in reversed(ui.widget("game_facts").children)] == [
        "Sentinel", "easy", "2 guardians"]
    plots = {name: ui.widget(f"{name}_plot") for name in ("wrath", "crystals")}
    assert (plots["wrath"].values, plots["crystals"].values) == ([0, 1], [2, 0])
    for plot in plots.values():
        assert plot.get_root_window() is not None and plot.width > 100 and plot.height > 40
        assert len(plot.canvas.children) > 4
    assert "fear_plot" not in screen.ids  # Spirit Island's charts went with its game
    ui.tap_id("back")
    ui.tap(history_row_button(ui, 5))
    screen = ui.screen
    assert (screen.title, screen.result_text, screen.reason_text) == (
        f"Glow · {screen.date_text}", "Bo wins", "78 to 72")
    assert screen.scores_text == "1. Bo 78, 2. Ada 72" and not screen.has_rounds
    ui.tap_id("back")
    ui.tap(history_row_button(ui, 4))
    assert ui.screen.has_rounds and len(ui.widget("leader_plot").values) == 8
    ui.tap_id("back")
    ui.tap(history_row_button(ui, 1))
    screen = ui.screen
    assert (screen.title, screen.adversary_text) == (f"Spirit Island · {screen.date_text}",
                                                     "Kingdom of England, level 2")
    assert ui.widget("fear_plot").values == [3, 0] and "wrath_plot" not in screen.ids


def test_the_statistics_count_games_by_game_then_each_games_own_way(ui: Harness) -> None:
    mixed_history(ui)
    ui.tap_id("history")
    ui.tap_id("statistics")
    ui.frames(3)
    assert ui.screen.heading == "Wins by game"
    assert [(row["name"], row["played"], row["won"], row["most"], row["count_text"],
             row["heading"]) for row in ui.widget("rows").data] == [
        ("Spirit Island", 1, 0, 2, "0 of 1 won", True),
        ("    Kingdom of England 2", 1, 0, 2, "0 of 1 won", False),
        ("Leviathan Wilds", 2, 1, 2, "1 of 2 won", True),
        ("    Sentinel, easy", 1, 1, 2, "1 of 1 won", False),
        ("    Tyrant, hard", 1, 0, 2, "0 of 1 won", False),
        ("Glow", 2, 0, 2, "2 played", True),
        ("    Realm of Shadows", 1, 0, 2, "1 played", False),
        ("    Sea of Darkness", 1, 0, 2, "1 played", False)]


def test_a_history_of_one_other_game_has_that_games_statistics_heading(ui: Harness) -> None:
    from tests.history_games import glow_scored

    glow_scored(ui.app.driver)
    ui.app.show("home")
    ui.tap_id("history")
    assert ui.widget("statistics").text == "Games by board side"
    assert ui.widget("stats").text == "1 game played · average score 78.0"
    assert row_texts(ui)[1].startswith("Glow · ")
    ui.tap_id("statistics")
    ui.frames(3)
    assert [(row["name"], row["count_text"]) for row in ui.widget("rows").data] == [
        ("Sea of Darkness", "1 played")]


CASES = [(size, language) for size in ("800x480", "720x1280")
         for language in ("English", "Deutsch", "Français")]


@pytest.mark.parametrize(("size", "language"), CASES)
def test_a_mixed_history_its_details_and_statistics_fit_at_each_size_and_language(
        size: str, language: str, tmp_path: Path) -> None:
    with_text_size(tmp_path, "normal", language)
    ui = Harness(tmp_path / "games.db", SIZES[size])
    failures: dict[str, list[str]] = {}

    def look(stop: str) -> None:
        ui.frames(3)
        problems = layout_problems(ui)
        if problems:
            failures[stop] = problems
        if SHOTS:
            ui.screenshot(SHOTS / f"{stop}-{size}-{language}.png")

    try:
        mixed_history(ui)
        ui.tap_id("history")
        look("history")
        for game in (1, 2, 4, 5):
            ui.tap(history_row_button(ui, game))
            look(f"history-detail-{game}")
            ui.tap_id("back")
        ui.tap_id("statistics")
        look("statistics")
        words = ui.screen.heading
    finally:
        ui.close()
    assert words == {"English": "Wins by game", "Deutsch": "Siege nach Spiel",
                     "Français": "Victoires par jeu"}[language]
    assert not failures, "\n".join(f"{stop} at {size}, {language}: {p}"
                                    for stop, problems in failures.items() for p in problems)


def test_the_rules_help_opens_at_the_moment_of_a_game_without_steps(ui: Harness) -> None:
    """Glow's state has a phase and no step: its `help_step` names the rules' moment."""
    assert ui.app.send({"cmd": "new_game", "game": "glow", "players": 2, "board": "realm"})
    assert ui.app.game_state["phase"] == "morning"
    ui.app.rules_for_step()
    ui.frames(3)
    rules = ui.app.screen("rules")
    assert ui.screen.name == "rules"
    helping = [entry.id for entry in ui.app.rules_index().for_moment("glow/morning", "en")]
    assert len(helping) > 1 and all(entry.startswith("glow") for entry in helping)
    assert [row["entry_id"] for row in rules.ids.results.data] == helping


def test_any_games_table_menu_gets_the_phones_code_beside_it(ui: Harness) -> None:
    """A new game's menu needs no line of the core: it is a TableMenu."""
    from kivy.uix.label import Label

    from companion.ui.widgets import TableMenu

    class SomeGamesMenu(TableMenu):
        pass

    ui.app.mirror_url = "http://192.0.2.1:8765/abc"
    menu = SomeGamesMenu(title="Menu", content=Label(text="menu"))
    menu.open()
    ui.frames(3)
    try:
        assert type(menu.content).__name__ == "MenuWithBadge"
    finally:
        menu.dismiss()
        ui.app.mirror_url = ""
        ui.frames(2)


def test_glows_table_menu_gets_the_phones_code_with_no_line_of_the_core_for_it(
        ui: Harness) -> None:
    from companion.ui.mirror_badge import MenuWithBadge, MirrorBadge

    assert ui.app.send({"cmd": "new_game", "game": "glow", "players": 2, "board": "sea"})
    ui.app.mirror_url = "http://192.0.2.1:8765/abc"
    ui.app.show(ui.app.table_name())
    ui.frames(3)
    assert ui.app.table_name() == "table-glow"
    ui.screen.open_menu()
    ui.frames(3)
    menu = ui.popup()
    try:
        assert isinstance(menu.content, MenuWithBadge)
        assert [child.url for child in menu.content.children
                if isinstance(child, MirrorBadge)] == [ui.app.mirror_url]
    finally:
        menu.dismiss()
        ui.app.mirror_url = ""
        ui.frames(2)
