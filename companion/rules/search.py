"""Searching the rules corpus: SQLite full-text search (FTS5) through sqlite-utils.

- Accents and umlauts fold away (the unicode61 tokenizer with remove_diacritics 2), so "odnis"
  finds "Ödnis" and "desolation" finds "Désolation".
- Every word matches as a prefix, so results come while the word is being typed.
- A word that matches nothing is tried with one typo mended: the index's own vocabulary is
  searched for words one deletion, insertion, substitution or swap of neighbours away
  (symmetric deletes, prepared once per index).
- Each entry carries its title in the other two languages as synonyms, so "blight" typed in
  the German interface finds the Ödnis entry.
- Title matches come before keyword and synonym matches, and those before body matches. Among
  title matches an exact title comes first, then shorter titles; elsewhere bm25 orders, with
  the title weighted most.
- Asked for one game, it finds only that game's entries and those every game shares, so a
  word both games use ("round", "verzögert") finds the game being played.

The index is built from the corpus files (data/ and every registered game's own folder) into a
small SQLite file in the user's cache folder and rebuilt when a corpus file changes (their
fingerprint is stored with it).
"""

from __future__ import annotations

import bisect
import os
import re
import sqlite3
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from sqlite_utils import Database

from .corpus import (
    EVERY_GAME,
    LANGUAGES,
    Corpus,
    Entry,
    Folders,
    corpus_fingerprint,
    load_corpus,
    registered_folders,
)

TOKENIZER = "unicode61 remove_diacritics 2"
COLUMNS = ("title", "keywords", "synonyms", "body")
WEIGHTS = "10.0, 4.0, 3.0, 1.0"
TIERS = ("title", "keywords synonyms", "body")  # searched in this order; earlier tiers rank first
SNIPPET_WORDS = 14
TIER_ROWS = 50  # rows taken from each tier before it is ordered and cut to the limit
SHORTEST_TYPO_WORD = 4  # shorter words have too many neighbours one letter away
INDEX_FORMAT = 2
"""Goes into the stored fingerprint: an index built by an older layout is built again."""


@dataclass(frozen=True)
class Hit:
    id: str
    title: str
    snippet: str

    def to_dict(self) -> dict[str, str]:
        return {"id": self.id, "title": self.title, "snippet": self.snippet}


def fold(text: str) -> str:
    """Lower case without accents: what the tokenizer indexes."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def words(text: str) -> list[str]:
    return re.findall(r"\w+", fold(text))


def default_index_path() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "spirit-island-companion" / "rules-index.sqlite3"


class RulesIndex:
    """The search index over the corpus, with the corpus itself for showing entries."""

    def __init__(self, db: Database, corpus: Corpus) -> None:
        self.db = db
        self.corpus = corpus
        self._vocabulary = sorted(term for (term,) in db.execute("SELECT term FROM entries_vocab"))
        self._near: dict[str, set[str]] = {}
        for term in self._vocabulary:
            for variant in _deletes(term):
                self._near.setdefault(variant, set()).add(term)

    # --- building ---

    @classmethod
    def build(cls, corpus: Corpus, path: Path | None = None, fingerprint: str = "") -> RulesIndex:
        """Index `corpus` in memory, or into a new file at `path`."""
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            # A file of its own: companions that start together (the app, the mirror, a
            # script) never write into, or move, each other's half-built index.
            handle, name = tempfile.mkstemp(prefix=path.name + ".", suffix=".new",
                                            dir=path.parent)
            os.close(handle)
            fresh = Path(name)
            try:
                return cls._fill(Database(fresh, execute_plugins=False), corpus, fingerprint,
                                 fresh, path)
            finally:
                fresh.unlink(missing_ok=True)
        return cls._fill(Database(memory=True, execute_plugins=False), corpus, fingerprint)

    @classmethod
    def _fill(cls, db: Database, corpus: Corpus, fingerprint: str,
              fresh: Path | None = None, path: Path | None = None) -> RulesIndex:
        db.table("entries").insert_all(
            ({"lang": e.lang, "id": e.id, "game": e.game, "title": e.title,
              "keywords": " ; ".join(e.keywords),
              "synonyms": " ; ".join(e.synonyms), "body": e.body}
             for entries in corpus.values() for e in entries.values()),
            pk=("lang", "id"))
        db.table("entries").enable_fts(COLUMNS, tokenize=TOKENIZER)
        db.execute("CREATE VIRTUAL TABLE entries_vocab USING fts5vocab(entries_fts, 'row')")
        db.table("meta").insert({"key": "fingerprint", "value": fingerprint}, pk="key")
        if fresh is not None and path is not None:
            db.conn.commit()
            db.close()
            fresh.replace(path)  # a half-written index never takes the place of a good one
            db = Database(path, execute_plugins=False)
        return cls(db, corpus)

    @classmethod
    def open(cls, data_dir: Folders | None = None, path: Path | None = None) -> RulesIndex:
        """The index for the corpus in `data_dir` (by default data/ and every registered
        game's `rules_corpus`), from `path` when it is up to date, else built afresh there (the
        first start, or after a corpus file changed)."""
        data_dir = registered_folders() if data_dir is None else data_dir
        corpus = load_corpus(data_dir)
        fingerprint = f"{INDEX_FORMAT}:{corpus_fingerprint(data_dir)}"
        path = path or default_index_path()
        try:
            db = Database(path, execute_plugins=False)
            row = db.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()
            if row and row[0] == fingerprint:
                return cls(db, corpus)
            db.close()
        except sqlite3.Error:  # missing, damaged or from an older build: build it again
            pass
        try:
            return cls.build(corpus, path, fingerprint)
        except (OSError, sqlite3.Error):  # a read-only cache: the index lives in memory
            return cls.build(corpus, None, fingerprint)

    # --- asking ---

    def entry(self, entry_id: str, lang: str) -> Entry | None:
        return self.corpus.get(lang, {}).get(entry_id)

    def for_step(self, phase: str, step: str, lang: str) -> list[Entry]:
        """The entries that help with this step of Spirit Island, in corpus order."""
        return self.for_moment(f"{phase}/{step}", lang)

    def for_moment(self, wanted: str, lang: str) -> list[Entry]:
        """The entries that help at this moment of a game (its `Game.help_step`, e.g.
        "glow/noon"), in corpus order."""
        return [entry for entry in self.corpus.get(lang, {}).values() if wanted in entry.steps]

    def search(self, query: str, lang: str, limit: int = 10,
               game: str | None = None) -> list[Hit]:
        """The entries the words match, best first; with `game`, only that game's and those
        every game shares (a game the corpus has no entries for finds only the shared ones)."""
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
        terms = [self._term(word) for word in words(query)]
        if not terms or any(term is None for term in terms):
            return []
        expression = " AND ".join(term for term in terms if term)
        hits: list[Hit] = []
        seen: set[str] = set()
        typed = " ".join(words(query))
        for columns in TIERS:
            tier = [hit for hit in self._match(f"{{{columns}}} : ({expression})", lang,
                                               max(limit, TIER_ROWS), game)
                    if hit.id not in seen]
            # bm25 weighs the whole entry's length: within a tier the entry named exactly by
            # the words typed comes first, and among title matches the shorter titles.
            if columns == TIERS[0]:
                tier.sort(key=lambda hit: (not self._named(hit.id, lang, typed, titles=True),
                                           len(hit.title)))
            elif columns == TIERS[1]:
                tier.sort(key=lambda hit: not self._named(hit.id, lang, typed, titles=False))
            seen.update(hit.id for hit in tier)
            hits.extend(tier)
            if len(hits) >= limit:
                break
        return hits[:limit]

    def _named(self, entry_id: str, lang: str, typed: str, titles: bool) -> bool:
        """The words typed are the entry's title (or one of its keywords or synonyms)."""
        entry = self.corpus[lang][entry_id]
        names = (entry.title,) if titles else (*entry.keywords, *entry.synonyms)
        return any(" ".join(words(name)) == typed for name in names)

    def _term(self, word: str) -> str | None:
        """The FTS expression for one typed word: a prefix, or its one-typo neighbours; None
        when nothing in the index comes near it."""
        if self._has_prefix(word):
            return f'"{word}"*'
        if len(word) < SHORTEST_TYPO_WORD:
            return None
        near = sorted(self._neighbours(word))
        if not near:
            return None
        return "(" + " OR ".join(f'"{term}"' for term in near) + ")"

    def _has_prefix(self, word: str) -> bool:
        """Some indexed word starts with `word` (the vocabulary is sorted)."""
        at = bisect.bisect_left(self._vocabulary, word)
        return at < len(self._vocabulary) and self._vocabulary[at].startswith(word)

    def _neighbours(self, word: str) -> set[str]:
        found: set[str] = set()
        for variant in {word, *_deletes(word)}:
            found |= self._near.get(variant, set())
        return {term for term in found if _one_edit_apart(word, term)}

    def _match(self, expression: str, lang: str, limit: int, game: str | None) -> list[Hit]:
        games = [EVERY_GAME, game] if game is not None else []
        of_game = "AND entries.game IN (?, ?)" if games else ""
        rows = self.db.execute(
            f"""SELECT entries.id, entries.title,
                       snippet(entries_fts, 3, '', '', '…', {SNIPPET_WORDS})
                FROM entries_fts JOIN entries ON entries.rowid = entries_fts.rowid
                WHERE entries_fts MATCH ? AND entries.lang = ? {of_game}
                ORDER BY bm25(entries_fts, {WEIGHTS}) LIMIT ?""",
            [expression, lang, *games, limit]).fetchall()
        return [Hit(entry_id, title, " ".join(snippet.split())) for entry_id, title, snippet
                in rows]


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1:] for i in range(len(word))}


def _one_edit_apart(a: str, b: str) -> bool:
    """One deletion, insertion, substitution or swap of neighbours (or none) turns `a` into
    `b`."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        differ = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        return len(differ) == 1 or (len(differ) == 2 and differ[1] == differ[0] + 1
                                    and a[differ[0]] == b[differ[1]]
                                    and a[differ[1]] == b[differ[0]])
    shorter, longer = sorted((a, b), key=len)
    return any(longer[:i] + longer[i + 1:] == shorter for i in range(len(longer)))
