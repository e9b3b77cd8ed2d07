"""The app's own texts in English, German and French: gettext catalogues read from .po files.

Each language has a few catalogues in `companion/locale/<lang>/LC_MESSAGES/`, one per template
(`companion.po`: the screens; `game.po`: the model's prompts, reminders, setup steps and
endings; `cards.po`: fear and blight cards, adversaries and scenarios), plain text a translator
edits. They are read straight into Python's `gettext.NullTranslations` interface (no compiled
.mo files to keep in step). English is the source language: a text without a translation is
shown as written. Pure: no Kivy; the screens bind to `companion.ui.translator.tr`.
"""

from __future__ import annotations

import ast
import functools
import gettext
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "companion"
TEMPLATES = ("companion", "game", "cards")
LANGUAGES = {"en": "English", "de": "Deutsch", "fr": "Français"}


class CatalogueError(ValueError):
    """A .po file the app cannot read; the message names the file and line."""


class Catalogue(gettext.NullTranslations):
    """Translations from one .po file."""

    def __init__(self, messages: dict[str, str]) -> None:
        super().__init__()
        self.messages = messages

    def gettext(self, message: str) -> str:
        return self.messages.get(message) or message


def read_po(path: Path) -> dict[str, str]:
    """msgid → msgstr of a .po file (single-form entries; the header and empty ones skipped)."""
    messages: dict[str, str] = {}
    key: str | None = None
    parts: dict[str, list[str]] = {}
    current = ""

    def finish() -> None:
        if "msgid" in parts:
            msgid, msgstr = "".join(parts["msgid"]), "".join(parts.get("msgstr", []))
            if msgid and msgstr:
                messages[msgid] = msgstr

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            if line.startswith(("msgid ", "msgstr ")):
                key, _, literal = line.partition(" ")
                if key == "msgid":
                    finish()
                    parts = {}
                current = key
                parts[current] = [_po_string(literal)]
            elif line.startswith('"') and key is not None:
                parts[current].append(_po_string(line))
            else:
                raise CatalogueError(f"{path}, line {number}: cannot read {line[:40]!r}")
        except (SyntaxError, ValueError) as error:
            if isinstance(error, CatalogueError):
                raise
            raise CatalogueError(f"{path}, line {number}: {error}") from None
    finish()
    return messages


def _po_string(literal: str) -> str:
    """A quoted .po string's text; without escapes it needs no parsing (most lines)."""
    plain = "\\" not in literal and literal.count('"') == 2
    if plain and literal[:1] == '"' and literal.endswith('"'):
        return literal[1:-1]
    text = ast.literal_eval(literal)
    if not isinstance(text, str):
        raise ValueError(f"not a quoted text: {literal[:40]!r}")
    return text


def catalogue_path(lang: str, template: str = DOMAIN) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{template}.po"


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalogues of `lang` together; English (and a language without files) as written."""
    paths = [catalogue_path(lang, template) for template in TEMPLATES]
    if lang == "en" or not any(path.exists() for path in paths):
        return gettext.NullTranslations()
    messages: dict[str, str] = {}
    for path in paths:
        if path.exists():
            messages.update(read_po(path))
    return Catalogue(messages)


_active: gettext.NullTranslations = gettext.NullTranslations()
_active_language = "en"


def set_language(lang: str) -> None:
    """Use `lang`'s catalogue for every text from now on (English when it is unknown)."""
    global _active, _active_language
    lang = lang if lang in LANGUAGES else "en"
    _active, _active_language = translations(lang), lang


def language() -> str:
    return _active_language


def _(message: str) -> str:
    """`message` in the language in use."""
    return _active.gettext(message)


def N_(message: str) -> str:  # noqa: N802 (the name gettext tools look for)
    """Marks a text for translation where it is defined; `_` translates it where it is used."""
    return message
