"""Tally's rules in the lookup: its own corpus folder (tests/fourth_game/rules/, named by its
`rules_corpus`) is searched like the three games', in English, German and French, by the
driver's `rules_search` and for the table's "?" (its `help_step`); unregistered, it is gone."""

from __future__ import annotations

from typing import Any

import pytest

from companion.bootstrap import build_service
from companion.core.game import Game
from companion.driver import ScriptDriver
from companion.rules.corpus import DATA_DIR, load_corpus, registered_folders
from companion.rules.search import RulesIndex

from .definition import HERE


def search(driver: ScriptDriver, **fields: Any) -> list[str]:
    answer = driver.handle({"cmd": "rules_search", **fields})
    assert answer["ok"], answer
    return [hit["id"] for hit in answer["rules"]]


def test_the_games_corpus_folder_is_read_while_it_is_registered(tally: Game) -> None:
    assert registered_folders() == [DATA_DIR, HERE / "rules"]
    corpus = load_corpus(registered_folders())
    assert {entry.game for entry in corpus["fr"].values()} == {
        "spirit-island", "leviathan-wilds", "glow", "tally"}


def test_unregistered_its_corpus_is_not_searched() -> None:
    assert HERE / "rules" not in registered_folders()
    hits = RulesIndex.open().search("Gleichstand", "de", limit=50)
    assert hits and not [hit.id for hit in hits if hit.id.startswith("tally-")]


@pytest.mark.parametrize(("lang", "query", "found"), [
    ("en", "score sheet", "tally-scoring"),
    ("en", "tie", "tally-checking"),
    ("de", "Gleichstand", "tally-checking"),
    ("de", "Scoring a round", "tally-scoring"),   # the English title, typed in German
    ("fr", "égalité", "tally-checking"),
    ("fr", "feuille", "tally-scoring"),
])
def test_the_driver_finds_its_entries_in_every_language(
        tally: Game, lang: str, query: str, found: str) -> None:
    driver = ScriptDriver(build_service(None)[0], lang)
    assert search(driver, query=query, game="tally")[0] == found
    # Without "lang" the lookup reads the driver's language: the entries its players read.
    assert found in search(driver, query=query, limit=50)


def test_asked_for_another_game_its_entries_stay_out(tally: Game) -> None:
    driver = ScriptDriver(build_service(None)[0])
    assert "tally-checking" in search(driver, query="tie", game="tally")
    assert not {"tally-scoring", "tally-checking"} & set(search(driver, query="points",
                                                                 game="glow", limit=50))


def test_the_tables_question_mark_finds_the_entry_for_the_step(tally: Game) -> None:
    driver = ScriptDriver(build_service(None)[0], "fr")
    driver.handle({"cmd": "new_game", "game": "tally", "players": ["Ada"]})
    index = RulesIndex.open()
    for step, entry in (("scoring", "tally-scoring"), ("checking", "tally-checking")):
        state = driver.state()
        assert state is not None and state["step"] == step
        moment = tally.help_step(state)
        assert moment == f"tally/{step}"
        assert [found.id for found in index.for_moment(moment, "fr")] == [entry]
        driver.handle({"cmd": "next"})
    driver.handle({"cmd": "end"})
    assert tally.help_step(driver.state() or {}) is None  # over: no step to help with
