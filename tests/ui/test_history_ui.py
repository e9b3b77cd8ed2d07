"""History you can look at: a tapped game opens its details and a chart of its rounds, Back
returns to the list, and the statistics show wins by adversary and level as bars."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from .harness import Harness
from .tour import history_row_button

pytestmark = pytest.mark.ui

SHOTS = Path(os.environ.get("COMPANION_SHOTS", "")) if os.environ.get("COMPANION_SHOTS") \
    else None


def play(ui: Harness, *commands: dict[str, Any]) -> None:
    for command in commands:
        assert ui.app.send(command), (command, ui.app.notice)


def two_rounds_against_england(ui: Harness) -> None:
    """A 2-player game against England 2 (8 fear a card, 2 blight on the island) that ends in
    its second round: round 1 brings 3 fear and 1 blight, round 2 four fear and a heal."""
    play(ui, {"cmd": "new_game", "players": 2, "seed": 7, "adversary": "england", "level": 2},
         {"cmd": "next"}, {"cmd": "fear", "amount": 3}, {"cmd": "blight"},
         {"cmd": "fear", "amount": 5}, {"cmd": "undo"})
    while ui.state["round"] == 1:
        play(ui, {"cmd": "next"})
    play(ui, {"cmd": "destroy", "piece": "city", "count": 2}, {"cmd": "heal"},
         {"cmd": "declare", "result": "defeat"}, {"cmd": "score", "dahan": 4})


def test_a_tapped_game_shows_its_details_and_a_chart_of_its_rounds_then_back(
        ui: Harness) -> None:
    two_rounds_against_england(ui)
    ui.app.show("home")
    ui.tap_id("history")
    assert "1 game played" in ui.widget("stats").text
    ui.tap(history_row_button(ui, 1))
    assert ui.screen.name == "history_detail"
    screen = ui.screen
    # The game as players know it (its name and when it began), not its database number.
    assert screen.title == f"Spirit Island · {screen.date_text}" and screen.date_text
    assert screen.adversary_text == "Kingdom of England, level 2"
    assert screen.scenario_text == "None"
    assert screen.players_text == "2 players"
    assert screen.result_text == "Defeat"
    assert screen.reason_text == ui.state["outcome"]["detail"]
    assert ui.widget("outcome").value == f"Defeat: {screen.reason_text}"
    assert screen.score_text == f"{ui.state['outcome']['score']} points"
    assert screen.length_text.endswith("min")
    plots = {name: ui.widget(f"{name}_plot") for name in ("fear", "blight", "terror")}
    assert plots["fear"].values == [3, 4]
    assert plots["blight"].values == [3, 2]
    assert plots["terror"].values == [1, 1]
    for plot in plots.values():
        assert plot.get_root_window() is not None and plot.width > 100 and plot.height > 40
        assert len(plot.canvas.children) > 4  # its bars or line were drawn
    assert [label.text for label in reversed(plots["fear"].children)] == ["3", "4"]
    assert [label.text for label in reversed(plots["terror"].children)] == ["I", "I", "1", "2"]
    if SHOTS:
        ui.screenshot(SHOTS / "history-detail.png")
    ui.tap_id("back")
    assert ui.screen.name == "history"


def test_an_abandoned_game_opens_too_and_says_so(ui: Harness) -> None:
    play(ui, {"cmd": "new_game", "players": 1, "seed": 3}, {"cmd": "abandon"})
    ui.tap_id("history")
    ui.tap(history_row_button(ui, 1))
    screen = ui.screen
    assert (screen.name, screen.result_text) == ("history_detail", "abandoned")
    assert screen.reason_text == "Abandoned in round 0."
    assert screen.score_text == "not scored" and not screen.has_rounds
    assert ui.widget("fear_plot").values == []


def test_the_statistics_show_games_played_and_won_per_adversary_as_bars(ui: Harness) -> None:
    two_rounds_against_england(ui)
    play(ui, {"cmd": "new_game", "players": 1, "seed": 5}, {"cmd": "next"},
         {"cmd": "declare", "result": "victory"}, {"cmd": "score", "dahan": 3})
    play(ui, {"cmd": "new_game", "players": 1, "seed": 6}, {"cmd": "next"},
         {"cmd": "declare", "result": "defeat"})
    ui.app.show("home")
    ui.frames(3)
    ui.tap_id("history")
    assert ui.widget("stats").text.startswith("3 games played · 1 won (33%)")
    ui.tap_id("statistics")
    assert ui.screen.name == "statistics"
    ui.frames(3)
    assert ui.screen.stats_text == ui.app.screen("history").stats_text
    rows = ui.widget("rows")
    assert [(row["name"], row["played"], row["won"], row["most"], row["count_text"])
            for row in rows.data] == [
        ("No adversary", 2, 1, 2, "1 of 2 won"),
        ("Kingdom of England 2", 1, 0, 2, "0 of 1 won")]
    bars = [row.children[1] for row in rows.children[0].children]
    assert sorted((bar.played, bar.won) for bar in bars) == [(1, 0), (2, 1)]
    assert all(bar.get_root_window() is not None and bar.width > 100 for bar in bars)
    if SHOTS:
        ui.screenshot(SHOTS / "statistics-chart.png")
    ui.tap_id("back")
    assert ui.screen.name == "history"
