"""The German and French catalogues: every text of the screens translated, placeholders kept."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.i18n import CatalogueError, catalogue_path, read_po, translations
from companion.i18n_messages import all_messages

PLACEHOLDER = re.compile(r"\{\w*\}")


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_every_text_of_the_screens_has_a_translation_with_the_same_placeholders(lang: str):
    catalogue = read_po(catalogue_path(lang))
    numbers = {text for text in all_messages() if text.isdigit()}
    missing = [text for text in all_messages() if text not in catalogue and text not in numbers]
    assert not missing, f"{lang} lacks {missing}"
    wrong = [text for text, translated in catalogue.items()
             if sorted(PLACEHOLDER.findall(text)) != sorted(PLACEHOLDER.findall(translated))]
    assert not wrong, f"{lang} changes the placeholders of {wrong}"


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
