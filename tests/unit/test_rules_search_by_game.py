"""The rules search for one game: each topic file names its game (or every game), and a search
for a game finds only its entries and the shared ones, so a word both games use finds the game
being played; without a game it searches everything, as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.registry import GAMES
from companion.rules.corpus import (
    DEFAULT_GAME,
    EVERY_GAME,
    LANGUAGES,
    CorpusError,
    corpus_games,
    load_corpus,
)
from companion.rules.search import INDEX_FORMAT, RulesIndex

# One topic per game and one shared, each with an entry titled "Round" (or the language's word).
TOPICS = {
    "island": ("spirit-island", "round", {"en": "Round", "de": "Runde", "fr": "Tour"},
               "Spirits grow, invaders ravage, build and explore."),
    "wilds": ("leviathan-wilds", "lw-round", {"en": "Round end", "de": "Rundenende",
                                              "fr": "Fin de tour"},
              "The threat row is reshuffled calm side up and wrath rises."),
    "table": (EVERY_GAME, "table-round", {"en": "Round table", "de": "Tischrunde",
                                          "fr": "Tour de table"},
              "Who starts the next game is agreed round the table."),
}


def write_topics(folder: Path, games: dict[str, str | None] | None = None) -> Path:
    """The three topics in every language; `games` overrides a topic's game line per language
    ("{lang}/{topic}" → game, None for no line)."""
    for lang in LANGUAGES:
        (folder / lang).mkdir(parents=True, exist_ok=True)
        for topic, (game, entry_id, titles, body) in TOPICS.items():
            chosen = (games or {}).get(f"{lang}/{topic}", game)
            line = f'game = "{chosen}"\n\n' if chosen is not None else ""
            (folder / lang / f"{topic}.toml").write_text(
                f'{line}[[entry]]\nid = "{entry_id}"\ntitle = "{titles[lang]}"\n'
                f'body = """{body}"""\n', encoding="utf-8")
    return folder


@pytest.fixture
def index(tmp_path: Path) -> RulesIndex:
    return RulesIndex.build(load_corpus(write_topics(tmp_path / "data")))


def ids(hits: list) -> list[str]:
    return [hit.id for hit in hits]


def test_a_word_both_games_use_finds_only_the_chosen_games_entries_and_the_shared_ones(
        index: RulesIndex) -> None:
    assert ids(index.search("round", "en", game="leviathan-wilds")) == ["lw-round", "table-round"]
    assert ids(index.search("round", "en", game="spirit-island")) == ["round", "table-round"]
    assert ids(index.search("runde", "de", game="leviathan-wilds")) == ["lw-round"]


def test_without_a_game_the_search_finds_every_games_entries(index: RulesIndex) -> None:
    assert set(ids(index.search("round", "en"))) == {"round", "lw-round", "table-round"}
    assert ids(index.search("round", "en")) == ids(index.search("round", "en", game=None))


def test_a_game_without_entries_of_its_own_finds_only_the_shared_ones(index: RulesIndex) -> None:
    assert ids(index.search("round", "fr", game="glow")) == ["table-round"]


def test_a_topic_naming_no_game_is_spirit_islands(tmp_path: Path) -> None:
    data = write_topics(tmp_path / "data", {f"{lang}/island": None for lang in LANGUAGES})
    corpus = load_corpus(data)
    assert corpus["en"]["round"].game == DEFAULT_GAME == "spirit-island"
    assert corpus["de"]["lw-round"].to_dict()["game"] == "leviathan-wilds"
    assert corpus_games(corpus) == {"spirit-island", "leviathan-wilds", EVERY_GAME}


def test_a_topic_whose_languages_name_different_games_is_refused_naming_the_file(
        tmp_path: Path) -> None:
    data = write_topics(tmp_path / "data", {"fr/wilds": "spirit-island"})
    with pytest.raises(CorpusError, match=r"fr/wilds\.toml, lw-round: game 'spirit-island'"):
        load_corpus(data)


@pytest.mark.parametrize("game", ["Leviathan Wilds", "", "leviathan_wilds"])
def test_a_game_that_is_not_an_id_is_refused_naming_the_file(tmp_path: Path, game: str) -> None:
    data = write_topics(tmp_path / "data", {"de/wilds": game})
    with pytest.raises(CorpusError, match=r"de[/\\]wilds\.toml: game must be a game's id"):
        load_corpus(data)


def test_an_index_file_from_before_games_were_known_is_built_again(tmp_path: Path) -> None:
    from companion.rules.corpus import corpus_fingerprint

    data = write_topics(tmp_path / "data")
    path = tmp_path / "rules.sqlite3"
    # As an older build left it: stamped with the files' fingerprint alone, no game column.
    old = RulesIndex.build(load_corpus(data), path, corpus_fingerprint(data))
    old.db.execute("ALTER TABLE entries DROP COLUMN game")
    old.db.conn.commit()
    old.db.close()
    reopened = RulesIndex.open(data, path)
    stamp = reopened.db.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()
    assert stamp[0] == f"{INDEX_FORMAT}:{corpus_fingerprint(data)}"
    assert ids(reopened.search("round", "en", game="leviathan-wilds")) == [
        "lw-round", "table-round"]


# --- the real corpus ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real() -> RulesIndex:
    return RulesIndex.build(load_corpus())


def test_every_game_the_corpus_names_is_a_game_of_the_registry_or_every_game() -> None:
    corpus = load_corpus()
    assert corpus_games(corpus) <= {*GAMES, EVERY_GAME}
    for lang in LANGUAGES:
        for entry in corpus[lang].values():
            assert (entry.game == "leviathan-wilds") == entry.id.startswith("lw-"), entry.id


@pytest.mark.parametrize(("lang", "query", "everything_first", "leviathan_first"), [
    ("en", "round", "round", "lw-round-end"),
    ("de", "verzögert", "slow-power-phase", "lw-fast-delayed"),
    ("en", "discard", "lw-grip", "lw-grip"),
])
def test_in_the_real_corpus_a_shared_word_finds_the_chosen_games_entry_first(
        real: RulesIndex, lang: str, query: str, everything_first: str,
        leviathan_first: str) -> None:
    assert ids(real.search(query, lang))[0] == everything_first
    leviathan = ids(real.search(query, lang, game="leviathan-wilds"))
    assert leviathan[0] == leviathan_first
    assert all(entry_id.startswith("lw-") for entry_id in leviathan)
    island = ids(real.search(query, lang, game="spirit-island"))
    assert island and not any(entry_id.startswith("lw-") for entry_id in island)
