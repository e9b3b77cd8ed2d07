"""Each game's saved games read in their own words: the row, the facts, the result, the charts
and the statistics come from the game's `Game.history`; the shared columns stay as they were and
a game's own summary keys are kept as its details. Also each game's rules-help moment and its
own settings."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.bootstrap import wired_service
from companion.core.history import AS_WRITTEN, Words
from companion.driver import ScriptDriver
from companion.games.registry import GAMES
from companion.i18n import translations
from companion.store import GameStore
from tests.history_games import glow_scored, play_mixed_history


def driver_on(store: GameStore) -> ScriptDriver:
    return ScriptDriver(wired_service(store, seed_source=lambda: 11))


@pytest.fixture(scope="module")
def mixed() -> ScriptDriver:
    driver = driver_on(GameStore.in_memory())
    play_mixed_history(driver)
    return driver


def rows(driver: ScriptDriver) -> list[dict[str, Any]]:
    return list(driver.handle({"cmd": "games"})["games"])


def detail(driver: ScriptDriver, game: int) -> dict[str, Any]:
    return dict(driver.handle({"cmd": "game_detail", "game": game})["game_detail"])


def line(row: dict[str, Any], words: Words = AS_WRITTEN) -> str:
    return GAMES[row["title"]].history.line(row, words)


def test_each_games_history_row_says_what_was_played_and_how_it_ended_in_its_own_words(
        mixed: ScriptDriver) -> None:
    assert [line(row) for row in rows(mixed)] == [
        "Kingdom of England 2 · defeat · 11 points · 2 rounds",
        "Sentinel, easy, 2 guardians · victory · 2 rounds",
        "Tyrant, hard, 2 guardians · defeat · 1 round",
        "Realm of Shadows · won by Ada, 72 to 64 · 8 days",
        "Sea of Darkness · won by Bo, 78 to 72 · scoring only",
    ]


def test_spirit_islands_row_reads_as_it_always_did() -> None:
    row = {"title": "spirit-island", "adversary": "england", "adversary_level": 2,
           "scenario": "blitz", "result": "sacrifice", "status": "finished", "score": 1,
           "rounds": 1, "details": {}, "setup": {}}
    assert line(row) == "Kingdom of England 2, Blitz · sacrifice victory · 1 point · 1 round"
    row.update(adversary=None, scenario=None, result=None, status="active", score=None)
    assert line(row) == "no adversary · in progress · 1 round"


def test_a_glow_game_keeps_its_board_side_and_every_final_score_as_details(
        mixed: ScriptDriver) -> None:
    glow = rows(mixed)[4]
    assert (glow["result"], glow["reason"], glow["score"]) == ("Bo", "win", 78)
    assert glow["details"] == {"board": "sea", "standings": [
        {"rank": 1, "player": 1, "name": "Bo", "score": 78},
        {"rank": 2, "player": 0, "name": "Ada", "score": 72}]}
    assert rows(mixed)[0]["details"] == {}  # Spirit Island's summary has columns for all


def test_a_shared_glow_win_and_an_unnamed_player_are_worded_too() -> None:
    history = GAMES["glow"].history
    row = {"title": "glow", "status": "finished", "mode": "full", "rounds": 8, "setup": {},
           "details": {"board": "realm", "standings": [
               {"rank": 1, "player": 0, "name": None, "score": 70},
               {"rank": 1, "player": 2, "name": "Cy", "score": 70},
               {"rank": 3, "player": 1, "name": "Bo", "score": 64}]}}
    assert history.line(row, AS_WRITTEN) == \
        "Realm of Shadows · shared by Player 1 and Cy, 70 to 64 · 8 days"
    assert history.result(row, AS_WRITTEN) == ("Player 1 and Cy share the win", "70 to 64")


def test_the_history_speaks_german_and_french_through_the_catalogues(
        mixed: ScriptDriver) -> None:
    said = {}
    for lang in ("de", "fr"):
        catalogue = translations(lang)
        words = Words(catalogue.gettext, catalogue.ngettext)
        said[lang] = [line(row, words) for row in rows(mixed)[1:]]
    assert said["de"][0] == "Sentinel, Leicht, 2 Wächter · Sieg · 2 Runden"
    assert said["de"][3] == "Meer der Finsternis · gewonnen von Bo, 78 zu 72 · nur die Wertung"
    assert said["fr"][1] == "Tyrant, difficile, 2 gardiens · défaite · 1 tour"
    assert said["fr"][2] == "Royaume des Ombres · gagnée par Ada, 72 à 64 · 8 jours"


def test_each_games_detail_has_its_own_facts_result_and_charts(mixed: ScriptDriver) -> None:
    facts = {game: [(fact.id, fact.value) for fact in
                    GAMES[detail(mixed, game)["title"]].history.facts(detail(mixed, game),
                                                                      AS_WRITTEN)]
             for game in (1, 2, 4)}
    assert facts == {
        1: [("adversary", "Kingdom of England, level 2"), ("scenario", "None")],
        2: [("leviathan", "Sentinel"), ("difficulty", "easy"), ("guardians", "2 guardians")],
        4: [("board", "Realm of Shadows"), ("mode", "a whole game"),
            ("scores", "1. Ada 72, 2. Bo 64")]}
    charts = {game: [(series.id, list(series.values)) for series in
                     GAMES[detail(mixed, game)["title"]].history.series(detail(mixed, game))]
              for game in (1, 2, 4, 5)}
    assert charts[1] == [("fear", [3, 0]), ("blight", [3, 3]), ("terror", [1, 1])]
    assert charts[2] == [("wrath", [0, 1]), ("crystals", [2, 0])]
    assert [name for name, _values in charts[4]] == ["leader"] and len(charts[4][0][1]) == 8
    assert charts[5] == []  # scored only: no day was played
    results = {game: GAMES[detail(mixed, game)["title"]].history.result(detail(mixed, game),
                                                                        AS_WRITTEN)
               for game in (2, 3, 5)}
    assert results == {2: ("Victory", "the last crystal is shattered"),
                       3: ("Defeat", "every guardian is defeated"),
                       5: ("Bo wins", "78 to 72")}


def test_the_statistics_count_each_game_apart_and_a_competitive_game_as_played_only(
        mixed: ScriptDriver) -> None:
    stats = mixed.handle({"cmd": "stats"})["stats"]
    assert (stats["games_played"], stats["wins"], stats["win_rate"]) == (5, 1, 0.333)
    assert [(game["game"], game["games_played"], game["wins"], game["win_rate"])
            for game in stats["by_game"]] == [
        ("spirit-island", 1, 0, 0.0), ("leviathan-wilds", 2, 1, 0.5), ("glow", 2, 0, None)]
    assert "by_adversary" in stats  # the contract's field stays


def test_a_database_from_before_the_details_column_opens_and_reads_no_details(
        tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store, _ = GameStore.open(path)
    driver = driver_on(store)
    glow_scored(driver)
    store.close()
    with sqlite3.connect(path) as db:  # as a file from before: no details kept
        db.execute("UPDATE games SET details = NULL")
    store, _ = GameStore.open(path)
    row = store.games()[0]
    assert row["details"] == {} and row["result"] == "Bo"
    assert GAMES["glow"].history.line(row, AS_WRITTEN) == \
        "Sea of Darkness · won by Bo · scoring only"
    store.close()


@pytest.mark.parametrize(("game", "state", "moment"), [
    ("spirit-island", {"phase": "invader", "step": "ravage"}, "invader/ravage"),
    ("leviathan-wilds", {"step": "activate"}, "leviathan-wilds/activate"),
    ("glow", {"phase": "noon"}, "glow/noon"),
    ("leviathan-wilds", {}, None),
])
def test_each_game_says_which_rules_moment_its_state_is_at(
        game: str, state: dict[str, Any], moment: str | None) -> None:
    assert GAMES[game].help_step(state) == moment


def test_the_rules_help_has_entries_for_a_glow_and_a_leviathan_moment() -> None:
    from companion.rules.search import RulesIndex

    index = RulesIndex.open()
    for moment in ("glow/noon", "leviathan-wilds/activate", "spirit/gain_energy"):
        assert index.for_moment(moment, "en"), moment
    assert index.for_step("spirit", "gain_energy", "de") == \
        index.for_moment("spirit/gain_energy", "de")


def test_spirit_islands_own_settings_keep_their_companion_ini_keys() -> None:
    keys = [(setting.key, setting.kind) for setting in GAMES["spirit-island"].settings]
    assert keys == [("companion/spirit_timer", "switch"),
                    ("companion/spirit_timer_limit", "number"),
                    ("companion/spirit_one_step", "switch")]
    assert not GAMES["glow"].settings and not GAMES["leviathan-wilds"].settings
