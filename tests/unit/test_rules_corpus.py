"""The real rules corpus: complete in three languages, linked, covering every step of the game
and every glossary term of the German rulebook, and in the project's own words."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from companion.games.spirit_island.state import ESCALATION_STEP, OVER_STEP, ROUND_STEPS
from companion.rules.corpus import LANGUAGES, load_corpus
from companion.rules.search import RulesIndex
from tests.data.make_seed_fingerprints import FINGERPRINTS, RUN, fingerprint, words

DATA = Path(__file__).resolve().parents[1] / "data"
SETUP_STEPS = (("setup", "initial_explore"), ("setup", "royal_backing"), ("setup", "build"),
               ("setup", "explore"), ("setup", "advance"))
EVERY_STEP = (*ROUND_STEPS, ESCALATION_STEP, *SETUP_STEPS, OVER_STEP)


@pytest.fixture(scope="module")
def index() -> RulesIndex:
    return RulesIndex.build(load_corpus())


def glossary_terms() -> list[dict[str, str]]:
    with (DATA / "rules_glossary_terms.csv").open(encoding="utf-8", newline="") as file:
        return list(csv.DictReader(file))


def test_the_corpus_loads_with_every_entry_in_three_languages_and_every_link_resolving():
    corpus = load_corpus()  # raises on a missing translation or a broken link
    assert len(corpus["en"]) >= 100
    assert set(corpus["en"]) == set(corpus["de"]) == set(corpus["fr"])


@pytest.mark.parametrize(("phase", "step"), EVERY_STEP, ids=lambda part: part)
def test_every_step_of_the_game_has_help_in_every_language(index: RulesIndex, phase, step):
    for lang in LANGUAGES:
        assert index.for_step(phase, step, lang), f"no {lang} entry for {phase}/{step}"


def test_the_glossary_list_has_every_term_of_the_german_rulebook():
    assert len(glossary_terms()) >= 60


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_glossary_term_finds_its_entry_first_or_second(index: RulesIndex, lang: str):
    misses = []
    for row in glossary_terms():
        found = [hit.id for hit in index.search(row[lang], lang, limit=2)]
        if row["entry"] not in found:
            misses.append(f"{row[lang]!r} → {found} (wanted {row['entry']})")
    assert not misses, "\n".join(misses)


def test_no_entry_repeats_eight_words_of_a_source_document():
    seed_runs = set(FINGERPRINTS.read_text().split())
    repeats = []
    for lang, entries in load_corpus().items():
        for entry in entries.values():
            text = words(f"{entry.title}. {entry.body}")
            for i in range(len(text) - RUN + 1):
                if fingerprint(text[i:i + RUN]) in seed_runs:
                    repeats.append(f"{lang}/{entry.id}: {' '.join(text[i:i + RUN])}")
    assert not repeats, "\n".join(repeats)
