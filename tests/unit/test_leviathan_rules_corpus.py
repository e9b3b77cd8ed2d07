"""Leviathan Wilds in the rules lookup: its keywords and clarifications in three languages, told
apart from Spirit Island's by their topic and ids, found by the edition's terms, and help for
every step of its turn."""

from __future__ import annotations

import pytest

from companion.games.leviathan_wilds.data import GAME_ID
from companion.games.registry import GAMES
from companion.rules.corpus import LANGUAGES, load_corpus
from companion.rules.search import RulesIndex

TOPIC = "leviathan-wilds"
STEPS = ("reveal", "activate", "resolve", "draw")


@pytest.fixture(scope="module")
def index() -> RulesIndex:
    return RulesIndex.build(load_corpus())


def test_its_entries_are_one_topic_in_every_language_and_only_its_ids_start_with_lw() -> None:
    corpus = load_corpus()
    for lang in LANGUAGES:
        ours = {entry.id for entry in corpus[lang].values() if entry.topic == TOPIC}
        assert len(ours) >= 14
        assert ours == {entry_id for entry_id in corpus[lang] if entry_id.startswith("lw-")}
        assert all(link.startswith("lw-") for entry_id in ours
                   for link in corpus[lang][entry_id].related)
    assert GAMES[GAME_ID].rules_corpus == "rules/data"


@pytest.mark.parametrize("step", STEPS)
def test_every_step_of_its_turn_has_help_in_every_language(index: RulesIndex, step: str) -> None:
    for lang in LANGUAGES:
        assert index.for_step(GAME_ID, step, lang), f"no {lang} entry for {step}"


@pytest.mark.parametrize(("lang", "query", "entry"), [
    ("en", "grip", "lw-grip"), ("de", "Halt", "lw-grip"), ("fr", "prise", "lw-grip"),
    ("en", "wild x", "lw-wild"), ("de", "WILD", "lw-wild"), ("fr", "sauvage", "lw-wild"),
    ("en", "giant crystal", "lw-crystals"), ("de", "Riesenkristall", "lw-crystals"),
    ("fr", "cristal géant", "lw-crystals"),
    ("en", "last chance", "lw-last-chance"), ("de", "Letzte Chance", "lw-last-chance"),
    ("fr", "Dernière chance", "lw-last-chance"),
    ("en", "delayed threat", "lw-fast-delayed"), ("de", "verzögerte Bedrohung", "lw-fast-delayed"),
    ("fr", "menace différée", "lw-fast-delayed"),
    ("de", "Verderbnis", "lw-corruption"), ("fr", "corruption", "lw-corruption"),
    ("de", "Fokus", "lw-focus"), ("fr", "concentration", "lw-focus"),
    ("de", "Schwäche", "lw-weakness"), ("fr", "faiblesse", "lw-weakness"),
    ("de", "ANKERN", "lw-falling"), ("fr", "corniche", "lw-falling"),
    ("de", "Mit letzter Kraft", "lw-last-card"), ("de", "Zorn", "lw-round-end"),
    ("fr", "colère", "lw-round-end"), ("de", "Solo-Modus", "lw-solo"),
])
def test_the_editions_terms_find_their_entry_first_or_second(index: RulesIndex, lang: str,
                                                            query: str, entry: str) -> None:
    found = [hit.id for hit in index.search(query, lang, limit=2)]
    assert entry in found, found
