"""The German and French catalogues: every text of the screens and of the game translated,
placeholders kept, and no sentence of a source document repeated."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.i18n import (
    CatalogueError,
    catalogue_path,
    plural_rule,
    read_po,
    templates,
    translations,
)
from companion.i18n_messages import template_messages
from tests.data.make_seed_fingerprints import FINGERPRINTS, RUN, fingerprint, words

PLACEHOLDER = re.compile(r"\{\w*\}")
CATALOGUES = [(lang, template) for lang in ("de", "fr") for template in templates()]


def test_every_games_catalogues_are_checked() -> None:
    """i18n imports no game: the registry hands it each game's templates as it lists the games
    (i18n_messages imports the registry, so they are known when this module is read)."""
    from companion.games.registry import GAMES

    checked = {template for _lang, template in CATALOGUES}
    for listing in GAMES.listed():
        assert set(listing.catalogue_domains) <= checked, listing.id
    assert templates()[0] == "companion"


@pytest.mark.parametrize(("lang", "template"), CATALOGUES)
def test_every_text_has_a_translation_with_the_same_placeholders(lang: str, template: str):
    catalogue = read_po(catalogue_path(lang, template))
    texts = template_messages()[template]
    missing = [text for text in texts if text not in catalogue and not text.isdigit()]
    assert not missing, f"{lang}/{template}.po lacks {missing}"
    wrong = [text for text, translated in catalogue.items()
             if sorted(PLACEHOLDER.findall(text)) != sorted(PLACEHOLDER.findall(translated))]
    assert not wrong, f"{lang}/{template}.po changes the placeholders of {wrong}"
    stale = sorted(set(catalogue) - set(texts))
    assert not stale, f"{lang}/{template}.po translates texts the app no longer has: {stale}"


@pytest.mark.parametrize(("lang", "template"), CATALOGUES)
def test_no_translation_repeats_eight_words_of_a_source_document(lang: str, template: str):
    seed_runs = set(FINGERPRINTS.read_text().split())
    copied = []
    for text in read_po(catalogue_path(lang, template)).values():
        found = words(text)
        copied += [" ".join(found[i:i + RUN]) for i in range(len(found) - RUN + 1)
                   if fingerprint(found[i:i + RUN]) in seed_runs]
    assert not copied, f"{lang}/{template}.po repeats the sources: {copied}"


def test_english_is_the_texts_as_written_and_an_unknown_text_stays_as_it_is():
    assert translations("en").gettext("Undo") == "Undo"
    assert translations("de").gettext("Undo") != "Undo"
    assert translations("de").gettext("a text nobody wrote") == "a text nobody wrote"


def test_a_broken_catalogue_names_its_file_and_line(tmp_path: Path):
    broken = tmp_path / "broken.po"
    broken.write_text('msgid "Undo"\nmsgstr "Rückgängig\n', encoding="utf-8")
    with pytest.raises(CatalogueError, match="broken.po, line 2"):
        read_po(broken)
    multi = tmp_path / "multi.po"
    multi.write_text('msgid ""\n"Und"\n"o"\nmsgstr ""\n"Zurück"\n', encoding="utf-8")
    assert read_po(multi) == {"Undo": "Zurück"}


@pytest.mark.parametrize(("lang", "one", "two", "none"), [
    ("en", "1 game played", "2 games played", "0 games played"),
    ("de", "1 Partie gespielt", "2 Partien gespielt", "0 Partien gespielt"),
    ("fr", "1 partie jouée", "2 parties jouées", "0 partie jouée"),  # French: 0 is singular
])
def test_a_count_takes_the_singular_or_plural_its_language_gives_it(
        lang: str, one: str, two: str, none: str) -> None:
    catalogue = translations(lang)

    def played(n: int) -> str:
        return catalogue.ngettext("{count} game played", "{count} games played", n).format(
            count=n)

    assert (played(1), played(2), played(0)) == (one, two, none)
    assert catalogue.ngettext("a thing nobody wrote", "things nobody wrote", 3) == \
        "things nobody wrote"


def test_a_plural_entry_is_read_with_all_its_forms_and_the_header_gives_the_rule(
        tmp_path: Path) -> None:
    po = tmp_path / "plural.po"
    po.write_text('msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
                  'msgid "{n} round"\nmsgid_plural "{n} rounds"\n'
                  'msgstr[0] "{n} tour"\nmsgstr[1] "{n} tours"\n\n'
                  'msgid "{n} half"\nmsgid_plural "{n} halves"\nmsgstr[0] "{n} moitié"\n'
                  'msgstr[1] ""\n', encoding="utf-8")
    assert read_po(po) == {"{n} round\x00{n} rounds": "{n} tour\x00{n} tours"}
    rule = plural_rule(po)
    assert rule is not None and (rule(0), rule(1), rule(2)) == (0, 0, 1)
