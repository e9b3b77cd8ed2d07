"""Glow in the rules lookup: its phases and terms in three languages, told apart from the other
games by their topic and ids, the same facts in every language, found by each edition's terms,
help for every phase of a day, and none of the German rulebook's sentences."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from companion.rules.corpus import LANGUAGES, Corpus, load_corpus
from companion.rules.search import RulesIndex, words

TOPIC = "glow"
GAME_ID = "glow"  # the game model's id; its phases are the steps below
PHASES = ("morning", "late_morning", "noon", "afternoon", "evening")
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
GLOW_RULEBOOK = "002_90d4b00a22d4b3f0.txt"
RUN = 8  # words in a row that would count as copied (as shared/tools/seed_overlap.py)
NUMBER = re.compile(r"[−-]?\d+")


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return load_corpus()


@pytest.fixture(scope="module")
def index(corpus: Corpus) -> RulesIndex:
    return RulesIndex.build(corpus)


def glow_ids(corpus: Corpus, lang: str) -> list[str]:
    return [entry.id for entry in corpus[lang].values() if entry.topic == TOPIC]


def test_its_entries_are_one_topic_in_every_language_and_only_its_ids_start_with_glow(
        corpus: Corpus) -> None:
    for lang in LANGUAGES:
        ours = set(glow_ids(corpus, lang))
        assert 14 <= len(ours) <= 18
        assert ours == {entry_id for entry_id in corpus[lang] if entry_id.startswith("glow-")}
        assert all(link.startswith("glow-") for entry_id in ours
                   for link in corpus[lang][entry_id].related)
        assert all(step.startswith(f"{GAME_ID}/") for entry_id in ours
                   for step in corpus[lang][entry_id].steps)


@pytest.mark.parametrize("phase", PHASES)
def test_every_phase_of_a_day_has_its_own_entry_in_every_language(index: RulesIndex,
                                                                  phase: str) -> None:
    for lang in LANGUAGES:
        found = index.for_step(GAME_ID, phase, lang)
        assert f"glow-{phase.replace('_', '-')}" in [entry.id for entry in found], (lang, found)


def test_the_steps_name_only_the_phases_of_a_day_and_the_game_over(corpus: Corpus) -> None:
    steps = {step.split("/", 1)[1] for entry_id in glow_ids(corpus, "en")
             for step in corpus["en"][entry_id].steps}
    assert steps == {*PHASES, "over"}


def test_each_entry_gives_the_same_numbers_steps_and_links_in_every_language(
        corpus: Corpus) -> None:
    differ = []
    for entry_id in glow_ids(corpus, "en"):
        english = corpus["en"][entry_id]
        for lang in LANGUAGES:
            other = corpus[lang][entry_id]
            if Counter(NUMBER.findall(other.body)) != Counter(NUMBER.findall(english.body)):
                differ.append(f"{lang}/{entry_id}: numbers {NUMBER.findall(other.body)}")
            if (other.steps, other.related) != (english.steps, english.related):
                differ.append(f"{lang}/{entry_id}: steps or links")
    assert not differ, "\n".join(differ)


@pytest.mark.parametrize(("lang", "at_least_as_many"), [
    ("en", "at least as many"), ("de", "mindestens so viele"), ("fr", "au moins"),
])
def test_the_glowworm_bonus_asks_for_at_least_as_many_glowworms_as_companions(
        corpus: Corpus, lang: str, at_least_as_many: str) -> None:
    for entry_id in ("glow-glowworms", "glow-end-scoring"):
        body = corpus[lang][entry_id].body
        assert at_least_as_many in body and "10" in NUMBER.findall(body), (lang, entry_id)
    # the digest's threshold example: 6 glowworms for 6 companions is enough
    assert {"6", "4", "2", "10"} <= set(NUMBER.findall(corpus[lang]["glow-glowworms"].body))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_end_scoring_adds_the_four_categories_of_the_rulebook_example_to_72(
        corpus: Corpus, lang: str) -> None:
    # 60 before scoring, cards +5 and −1, the camp's village 5, glowworms 0, 3 trails: 72
    numbers = set(NUMBER.findall(corpus[lang]["glow-end-scoring"].body))
    assert {"60", "5", "−1", "0", "3", "72"} <= numbers


@pytest.mark.parametrize(("lang", "query", "entry"), [
    ("en", "glowworm", "glow-glowworms"), ("de", "Glühwürmchen", "glow-glowworms"),
    ("fr", "lucioles", "glow-glowworms"),
    ("en", "reroll token", "glow-rerolls"), ("de", "Neuwurfplättchen", "glow-rerolls"),
    ("fr", "jeton relance", "glow-rerolls"),
    ("en", "trail token", "glow-trails"), ("de", "Spurenplättchen", "glow-trails"),
    ("fr", "petit pas", "glow-trails"),
    ("en", "score track", "glow-score-track"), ("de", "Punkteleiste", "glow-score-track"),
    ("fr", "piste de score", "glow-score-track"),
    ("en", "start marker", "glow-start-marker"), ("de", "Startmarker", "glow-start-marker"),
    ("fr", "premier joueur", "glow-start-marker"),
    ("en", "realm of shadows", "glow-realm"), ("de", "Reich der Schatten", "glow-realm"),
    ("fr", "Province des Ombres", "glow-realm"),
    ("en", "sea of darkness", "glow-sea"), ("de", "Meer der Finsternis", "glow-sea"),
    ("fr", "Archipel", "glow-sea"),
    ("en", "tie-break", "glow-end-scoring"), ("de", "Gleichstand", "glow-end-scoring"),
    ("fr", "égalité", "glow-end-scoring"),
    ("en", "two players", "glow-two-players"), ("de", "zu zweit", "glow-two-players"),
    ("fr", "deux joueurs", "glow-two-players"),
    ("de", "Gefährten aufnehmen", "glow-morning"), ("fr", "enrôler", "glow-morning"),
    ("de", "Würfel werfen", "glow-late-morning"), ("de", "Karten nutzen", "glow-noon"),
    ("de", "Reise fortsetzen", "glow-afternoon"), ("fr", "fin de journée", "glow-evening"),
    ("de", "Zauberplättchen", "glow-spells"), ("en", "spell tile", "glow-spells"),
    ("de", "Fluch des schwarzen Würfels", "glow-special-companions"),
    ("fr", "dé noir", "glow-special-companions"), ("en", "Lumipili", "glow-special-companions"),
    ("de", "Friedhof", "glow-companions"), ("fr", "cimetière", "glow-companions"),
])
def test_the_editions_terms_find_their_entry_first_or_second(index: RulesIndex, lang: str,
                                                            query: str, entry: str) -> None:
    found = [hit.id for hit in index.search(query, lang, limit=2)]
    assert entry in found, found


def test_no_entry_repeats_eight_words_of_the_glow_rulebook(corpus: Corpus) -> None:
    rulebook = SEEDS / GLOW_RULEBOOK
    if not rulebook.exists():
        pytest.skip(f"{SEEDS} is not beside the checkout")
    seed = words(rulebook.read_text(encoding="utf-8", errors="replace"))
    seed_runs = {" ".join(seed[i:i + RUN]) for i in range(len(seed) - RUN + 1)}
    repeats = []
    for lang in LANGUAGES:
        for entry_id in glow_ids(corpus, lang):
            entry = corpus[lang][entry_id]
            text = words(f"{entry.title}. {entry.body}")
            repeats += [f"{lang}/{entry_id}: {' '.join(text[i:i + RUN])}"
                        for i in range(len(text) - RUN + 1)
                        if " ".join(text[i:i + RUN]) in seed_runs]
    assert not repeats, "\n".join(repeats)
