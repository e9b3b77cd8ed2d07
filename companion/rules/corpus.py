"""The rules corpus: entries in English, German and French, read from the TOML files in data/
and in the folder each registered game names as its `rules_corpus`.

Each topic file belongs to one game (its top-level `game`, a registry id; Spirit Island's when it
names none) or to every game (`game = "all"`), and so does each of its entries.

Pure: reading and checking files, no SQLite (search.py builds the index from what this returns).
The three languages hold the same entries; an entry missing from one language, a link to an
entry that does not exist or a file that does not parse is a `CorpusError` naming the file.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

DATA_DIR = Path(__file__).resolve().parent / "data"
PACKAGE_DIR = DATA_DIR.parents[1]
"""companion/: what a game's `rules_corpus` is relative to."""
LANGUAGES = ("en", "de", "fr")
REQUIRED = ("id", "title", "body")
LISTS = ("keywords", "synonyms", "related", "steps")
DEFAULT_GAME = "spirit-island"
"""The game of a topic file that names none (the corpus began as Spirit Island's)."""
EVERY_GAME = "all"
"""The `game` of a topic that belongs to every game: the search shows it whichever is played."""
GAME_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


class CorpusError(ValueError):
    """The corpus files are not usable; the message names the file and the entry."""


@dataclass(frozen=True)
class Entry:
    id: str
    lang: str
    title: str
    body: str
    keywords: tuple[str, ...] = ()
    synonyms: tuple[str, ...] = ()
    related: tuple[str, ...] = ()
    source: str = ""
    steps: tuple[str, ...] = ()
    topic: str = ""
    game: str = DEFAULT_GAME

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "lang": self.lang, "title": self.title, "body": self.body,
                "keywords": list(self.keywords), "synonyms": list(self.synonyms),
                "related": list(self.related), "source": self.source,
                "steps": list(self.steps), "topic": self.topic, "game": self.game}


Corpus = dict[str, dict[str, Entry]]
"""Language → entry id → entry, in file order."""

Folders: TypeAlias = "Path | Sequence[Path]"
"""One corpus folder, or several read as one corpus (an entry id is unique across them)."""


def registered_folders() -> list[Path]:
    """data/ and every registered game's `rules_corpus`, each once: the corpus of the games
    there are at this moment, a game registered only in a test among them."""
    from ..games.registry import GAMES  # asked when the index opens: after any registration

    folders = [DATA_DIR]
    for game in GAMES.listed():  # the listings: no game's rules imported for this
        folder = (PACKAGE_DIR / game.rules_corpus).resolve() if game.rules_corpus else None
        if folder is not None and folder not in folders:
            folders.append(folder)
    return folders


def _folders(data_dir: Folders) -> list[Path]:
    return [data_dir] if isinstance(data_dir, Path) else list(data_dir)


def corpus_files(data_dir: Folders = DATA_DIR) -> list[Path]:
    return [path for folder in _folders(data_dir)
            for path in sorted(found for lang in LANGUAGES
                               for found in (folder / lang).glob("*.toml"))]


def corpus_fingerprint(data_dir: Folders = DATA_DIR) -> str:
    """Changes whenever a corpus file does, or a folder comes or goes (the search index is
    rebuilt then)."""
    digest = hashlib.sha256()
    for number, folder in enumerate(_folders(data_dir)):
        for path in corpus_files(folder):
            name = str(path.relative_to(folder))
            digest.update((f"{number}:{name}" if number else name).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def load_corpus(data_dir: Folders = DATA_DIR) -> Corpus:
    corpus: Corpus = {lang: {} for lang in LANGUAGES}
    for path in corpus_files(data_dir):
        lang = path.parent.name
        for entry in _read_file(path, lang):
            if entry.id in corpus[lang]:
                raise CorpusError(f"{path}: entry {entry.id!r} is also in "
                                  f"{corpus[lang][entry.id].topic}.toml")
            corpus[lang][entry.id] = entry
    _check_languages_agree(corpus)
    _check_games_agree(corpus)
    _check_links(corpus)
    return corpus


def corpus_games(corpus: Corpus) -> set[str]:
    """The games the corpus has entries for ("all" among them when a topic is shared)."""
    return {entry.game for entries in corpus.values() for entry in entries.values()}


def _read_file(path: Path, lang: str) -> list[Entry]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise CorpusError(f"{path}: {error}") from None
    game = data.get("game", DEFAULT_GAME)
    if not isinstance(game, str) or not GAME_ID.fullmatch(game):
        raise CorpusError(f"{path}: game must be a game's id such as {DEFAULT_GAME!r}, or "
                          f"{EVERY_GAME!r} for a topic of every game; not {game!r}")
    entries = []
    for number, raw in enumerate(data.get("entry", []), start=1):
        where = f"{path}, entry {number} ({raw.get('id', 'no id')})"
        missing = [key for key in REQUIRED if not str(raw.get(key, "")).strip()]
        if missing:
            raise CorpusError(f"{where}: missing {', '.join(missing)}")
        for key in LISTS:
            value = raw.get(key, [])
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise CorpusError(f"{where}: {key} must be a list of texts")
        entries.append(Entry(
            id=raw["id"], lang=lang, title=raw["title"].strip(), body=paragraphs(raw["body"]),
            keywords=tuple(raw.get("keywords", [])), synonyms=tuple(raw.get("synonyms", [])),
            related=tuple(raw.get("related", [])), source=str(raw.get("source", "")),
            steps=tuple(raw.get("steps", [])), topic=path.stem, game=game))
    return entries


def paragraphs(text: str) -> str:
    """The files wrap lines for the editor; the screen wraps them itself. A blank line stays a
    paragraph break."""
    blocks = [" ".join(block.split()) for block in text.strip().split("\n\n")]
    return "\n\n".join(block for block in blocks if block)


def _check_languages_agree(corpus: Corpus) -> None:
    ids = {lang: set(entries) for lang, entries in corpus.items()}
    every = set().union(*ids.values())
    for lang, present in ids.items():
        missing = sorted(every - present)
        if missing:
            raise CorpusError(f"the {lang} corpus lacks {', '.join(missing[:5])}"
                              + (f" and {len(missing) - 5} more" if len(missing) > 5 else ""))


def _check_games_agree(corpus: Corpus) -> None:
    """An entry belongs to the same game in every language (its topic's three files agree)."""
    english = corpus[LANGUAGES[0]]
    for lang in LANGUAGES[1:]:
        for entry in corpus[lang].values():
            other = english[entry.id]
            if entry.game != other.game:
                raise CorpusError(f"{lang}/{entry.topic}.toml, {entry.id}: game {entry.game!r}, "
                                  f"but {other.game!r} in en/{other.topic}.toml")


def _check_links(corpus: Corpus) -> None:
    for lang, entries in corpus.items():
        for entry in entries.values():
            broken = [link for link in entry.related if link not in entries]
            if broken:
                raise CorpusError(f"{lang}/{entry.topic}.toml, {entry.id}: related "
                                  f"{', '.join(broken)} do not exist")
