"""The driver's rules_search: the rules lookup for scripts, in the driver's language unless
"lang" says otherwise, for one game when "game" names it and for every game without it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.bootstrap import wired_service
from companion.driver import ScriptDriver
from companion.store import GameStore


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The index is built in the test's own cache folder, not the user's."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def driver(language: str = "en") -> ScriptDriver:
    return ScriptDriver(wired_service(GameStore.in_memory(), seed_source=lambda: 5), language)


def found(answer: dict[str, Any]) -> list[str]:
    assert answer["ok"], answer
    return [hit["id"] for hit in answer["rules"]]


def test_with_a_game_only_that_games_entries_are_found() -> None:
    table = driver()
    everything = found(table.handle({"cmd": "rules_search", "query": "round"}))
    assert everything[0] == "round" and "lw-round-end" in everything
    leviathan = found(table.handle({"cmd": "rules_search", "query": "round",
                                    "game": "leviathan-wilds"}))
    assert leviathan[0] == "lw-round-end"
    assert all(entry_id.startswith("lw-") for entry_id in leviathan)
    island = found(table.handle({"cmd": "rules_search", "query": "round",
                                 "game": "spirit-island"}))
    assert island[0] == "round" and not any(e.startswith("lw-") for e in island)


def test_an_answer_has_id_title_and_snippet_in_the_drivers_language_unless_lang_is_sent() -> None:
    table = driver("de")
    answer = table.handle({"cmd": "rules_search", "query": "verzögert",
                           "game": "leviathan-wilds", "limit": 1})
    assert found(answer) == ["lw-fast-delayed"]
    hit = answer["rules"][0]
    assert set(hit) == {"id", "title", "snippet"} and hit["snippet"]
    assert hit["title"].startswith("Schnelle und verzögerte Bedrohungen")
    french = table.handle({"cmd": "rules_search", "query": "manche", "lang": "fr",
                           "game": "leviathan-wilds", "limit": 1})
    assert french["rules"] == [{"id": "lw-round-end", "title": "Fin de manche (Leviathan Wilds)",
                                "snippet": french["rules"][0]["snippet"]}]
    assert answer["state"] is None  # a lookup needs no game and changes none


def test_the_search_leaves_a_game_in_play_as_it_was() -> None:
    table = driver()
    started = table.handle({"cmd": "new_game", "game": "leviathan-wilds", "players": 2,
                            "difficulty": "easy", "leviathan": 1})
    assert started["ok"], started
    answer = table.handle({"cmd": "rules_search", "query": "grip", "game": "leviathan-wilds"})
    assert found(answer)[0] == "lw-grip"
    assert answer["state"] == started["state"]


@pytest.mark.parametrize(("fields", "error"), [
    ({"game": "chess"}, "'rules_search': game must be one of spirit-island, leviathan-wilds, glow, "
                        "not 'chess'"),
    ({"game": 2}, "'rules_search': game must be text, not 2"),
    ({"lang": "es"}, "'rules_search': lang must be one of en, de, fr, not 'es'"),
    ({"limit": 0}, "'rules_search': limit must be between 1 and 50, not 0"),
    ({"query": None}, "'rules_search' needs the field 'query'"),
    ({"query": "round " * 40}, "'rules_search': query is too long (at most 200 characters)"),
])
def test_a_wrong_field_is_refused_saying_what_it_takes(fields: dict[str, Any],
                                                       error: str) -> None:
    answer = driver().handle({"cmd": "rules_search", "query": "round", **fields})
    assert answer == {"ok": False, "error": error, "state": None}
