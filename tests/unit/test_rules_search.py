"""The rules search on a small corpus of its own: prefixes, accents, one typo, other languages'
words, title matches first, and corpus files that are wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.rules.corpus import CorpusError, load_corpus
from companion.rules.search import RulesIndex

ENTRIES = {
    "en": [
        ("blight", "Blight", "Ravaged land takes a blight token; a second one cascades.",
         ["cascade"], ["Ödnis", "Désolation"]),
        ("ravage", "Ravage", "Invaders deal damage to the land and to dahan; two or more "
         "damage adds blight.", ["damage"], ["Wüten", "Ravager"]),
        ("presence", "Presence", "A spirit's presence marks where it can reach.", [],
         ["Präsenz", "Présence"]),
    ],
    "de": [
        ("blight", "Ödnis", "Ein verwüstetes Gebiet bekommt einen Ödnis-Marker.", ["Verödung"],
         ["Blight", "Désolation"]),
        ("ravage", "Wüten", "Die Invasoren fügen dem Gebiet und den Dahan Schaden zu; ab 2 "
         "Schaden kommt Ödnis dazu.", ["Schaden"], ["Ravage", "Ravager"]),
        ("presence", "Präsenz", "Zeigt, wo ein Geist wirken kann.", [], ["Presence", "Présence"]),
    ],
    "fr": [
        ("blight", "Désolation", "Une terre ravagée reçoit une Désolation.", [],
         ["Blight", "Ödnis"]),
        ("ravage", "Ravager", "Les Envahisseurs infligent des dégâts; deux dégâts ou plus "
         "ajoutent une Désolation.", ["dégâts"], ["Ravage", "Wüten"]),
        ("presence", "Présence", "Marque où un Esprit peut agir.", [], ["Presence", "Präsenz"]),
    ],
}


def write_corpus(folder: Path, entries: dict[str, list[tuple]] = ENTRIES,
                 related: str = "presence") -> Path:
    for lang, rows in entries.items():
        (folder / lang).mkdir(parents=True, exist_ok=True)
        text = ""
        for entry_id, title, body, keywords, synonyms in rows:
            text += (f'[[entry]]\nid = "{entry_id}"\ntitle = "{title}"\nbody = """{body}"""\n'
                     f"keywords = {keywords!r}\nsynonyms = {synonyms!r}\n"
                     f'related = ["{related}"]\nsteps = ["invader/{entry_id}"]\n\n')
        (folder / lang / "sample.toml").write_text(text.replace("'", '"'), encoding="utf-8")
    return folder


@pytest.fixture
def index(tmp_path: Path) -> RulesIndex:
    return RulesIndex.build(load_corpus(write_corpus(tmp_path / "data")))


def ids(hits: list) -> list[str]:
    return [hit.id for hit in hits]


def test_a_word_finds_its_entry_in_the_chosen_language(index: RulesIndex):
    hits = index.search("Ödnis", "de")
    assert ids(hits)[0] == "blight"
    assert hits[0].title == "Ödnis"


def test_the_first_letters_are_enough(index: RulesIndex):
    assert ids(index.search("rav", "en"))[0] == "ravage"
    assert ids(index.search("p", "en")) == ["presence"]


def test_accents_and_umlauts_need_not_be_typed(index: RulesIndex):
    assert ids(index.search("odnis", "de"))[0] == "blight"
    assert ids(index.search("desolation", "fr"))[0] == "blight"
    assert ids(index.search("wuten", "de"))[0] == "ravage"


def test_one_typo_is_forgiven(index: RulesIndex):
    assert ids(index.search("bligth", "en"))[0] == "blight"  # two neighbours swapped
    assert ids(index.search("presense", "en"))[0] == "presence"
    assert ids(index.search("Ravge", "en"))[0] == "ravage"


def test_a_word_from_another_language_finds_the_entry(index: RulesIndex):
    assert ids(index.search("blight", "de"))[0] == "blight"
    assert index.search("blight", "de")[0].title == "Ödnis"
    assert ids(index.search("Wüten", "fr"))[0] == "ravage"


def test_title_matches_come_before_body_matches(index: RulesIndex):
    # "blight" is in the body of Ravage and the title of Blight.
    assert ids(index.search("blight", "en")) == ["blight", "ravage"]


def test_nothing_near_gives_no_results_and_no_error(index: RulesIndex):
    assert index.search("zzzzqqq", "en") == []
    assert index.search("", "en") == []
    assert index.search("  -- ** ", "en") == []
    assert index.search('"blight* (', "en")[0].id == "blight"  # FTS syntax is only text


def test_an_unknown_language_is_refused(index: RulesIndex):
    with pytest.raises(ValueError, match="language"):
        index.search("blight", "es")


def test_entries_for_a_step_and_by_id(index: RulesIndex):
    assert [e.id for e in index.for_step("invader", "ravage", "fr")] == ["ravage"]
    entry = index.entry("blight", "de")
    assert entry is not None and entry.title == "Ödnis" and entry.related == ("presence",)


def test_the_index_file_is_reused_while_the_corpus_is_unchanged_and_rebuilt_after(
        tmp_path: Path):
    data = write_corpus(tmp_path / "data")
    path = tmp_path / "cache" / "rules.sqlite3"
    RulesIndex.open(data, path)
    built = path.stat().st_mtime_ns
    RulesIndex.open(data, path)
    assert path.stat().st_mtime_ns == built
    changed = {**ENTRIES, "en": [("blight", "Blight (changed)", "New words.", [], []),
                                 *ENTRIES["en"][1:]]}
    write_corpus(data, changed)
    assert RulesIndex.open(data, path).search("changed", "en")[0].id == "blight"


def test_a_damaged_index_file_is_built_again(tmp_path: Path):
    data = write_corpus(tmp_path / "data")
    path = tmp_path / "rules.sqlite3"
    path.write_bytes(b"not a database at all" * 50)
    assert RulesIndex.open(data, path).search("blight", "en")[0].id == "blight"


def test_a_broken_link_an_entry_missing_in_one_language_and_bad_toml_are_named(
        tmp_path: Path):
    with pytest.raises(CorpusError, match="related nowhere do not exist"):
        load_corpus(write_corpus(tmp_path / "a", related="nowhere"))
    lacking = {**ENTRIES, "fr": ENTRIES["fr"][:2]}
    with pytest.raises(CorpusError, match="fr corpus lacks presence"):
        load_corpus(write_corpus(tmp_path / "b", lacking))
    broken = write_corpus(tmp_path / "c")
    (broken / "de" / "sample.toml").write_text("[[entry]\nid = ", encoding="utf-8")
    with pytest.raises(CorpusError, match="sample.toml"):
        load_corpus(broken)


def test_two_companions_building_the_cached_index_at_once_each_get_a_whole_one(
        tmp_path: Path) -> None:
    """The app, the mirror and a script may all start after an update and find no index: a
    build never writes into, or moves, another's half-built file."""
    corpus = load_corpus(write_corpus(tmp_path / "data"))
    path = tmp_path / "cache" / "rules-index.sqlite3"
    others: list[RulesIndex] = []

    class BuiltMeanwhile(dict):  # type: ignore[type-arg]
        """The corpus, with a second build run start to finish halfway through reading it."""

        def values(self):  # type: ignore[no-untyped-def]
            for number, entries in enumerate(super().values()):
                if number == 1 and not others:
                    others.append(RulesIndex.build(corpus, path, "same"))
                yield entries

    first = RulesIndex.build(BuiltMeanwhile(corpus), path, "same")
    assert others
    for index in (first, others[0], RulesIndex.build(corpus, path, "same")):
        assert ids(index.search("Ödnis", "de"))[0] == "blight"
        assert ids(index.search("presence", "en")) == ["presence"]
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no half-built file left
