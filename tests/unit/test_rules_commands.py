"""The rules lookup as a command: its fields' checks and its handler, which opens the index on
the first search (built in the test's own cache folder)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.core.errors import Refused
from companion.core.phrases import as_written
from companion.rules.corpus import CorpusError
from companion.rules_commands import (
    RULES_QUERY_CHARACTERS,
    RULES_SEARCH_LIMIT,
    RulesLookup,
    RulesSearch,
    rules_search_field,
)


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def test_game_names_a_game_by_its_id_and_lang_a_language_of_the_corpus() -> None:
    assert rules_search_field("rules_search", "game", "leviathan-wilds") == "leviathan-wilds"
    with pytest.raises(Refused, match="game"):
        rules_search_field("rules_search", "game", "chess")
    assert rules_search_field("rules_search", "lang", "de") == "de"
    with pytest.raises(Refused, match="lang"):
        rules_search_field("rules_search", "lang", "xx")


def test_limit_and_query_length_are_bounded() -> None:
    assert rules_search_field("rules_search", "limit", RULES_SEARCH_LIMIT) == RULES_SEARCH_LIMIT
    with pytest.raises(Refused, match="limit"):
        rules_search_field("rules_search", "limit", RULES_SEARCH_LIMIT + 1)
    longest = "a" * RULES_QUERY_CHARACTERS
    assert rules_search_field("rules_search", "query", longest) == longest
    with pytest.raises(Refused, match="query is too long"):
        rules_search_field("rules_search", "query", longest + "a")


def test_a_search_answers_hits_best_first_for_one_game() -> None:
    lookup = RulesLookup()
    answer = lookup.handle(RulesSearch("round", game="leviathan-wilds", limit=3), as_written)
    hits = answer["rules"]
    assert hits[0]["id"] == "lw-round-end" and len(hits) <= 3
    assert all(set(hit) == {"id", "title", "snippet"} for hit in hits)


def test_the_index_is_opened_once_and_kept() -> None:
    lookup = RulesLookup()
    assert lookup._rules_index is None  # nothing opened before the first search
    lookup.search(RulesSearch("round"))
    opened = lookup._rules_index
    lookup.search(RulesSearch("fear", lang="de"))
    assert opened is not None and lookup._rules_index is opened


def test_a_broken_corpus_is_refused_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.rules.search import RulesIndex

    def broken() -> RulesIndex:
        raise CorpusError("entry 'x' has no title")

    monkeypatch.setattr(RulesIndex, "open", staticmethod(broken))
    with pytest.raises(Refused, match="the rules corpus is broken: entry 'x' has no title"):
        RulesLookup().search(RulesSearch("round"))
