"""The app's own texts in English, German and French: gettext catalogues read from .po files.

Each language has a few catalogues in `companion/locale/<lang>/LC_MESSAGES/`, one per template:
`companion.po` for the shared screens, then each game's own, named in its `Game.catalogue_domains`
and handed over by the games' registry as it lists them (a model's prompts, reminders, setup
steps and endings; its cards), plain text a translator edits. They are read straight into Python's
`gettext.NullTranslations` interface (no compiled .mo files to keep in step). English is the
source language: a text without a translation is shown as written. Pure: no Kivy; the screens
bind to `companion.ui.translator.tr`.
"""

from __future__ import annotations

import ast
import functools
import gettext
import re
from collections.abc import Callable, Iterable
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "companion"
SCREENS_TEMPLATE = DOMAIN
"""The template of the shared screens' texts; every other template is a game's."""
LANGUAGES = {"en": "English", "de": "Deutsch", "fr": "Français"}


PO_KEYWORD = re.compile(r"^(msgid|msgid_plural|msgstr|msgstr\[\d+\]) ")


class CatalogueError(ValueError):
    """A .po file the app cannot read; the message names the file and line."""


PLURAL_SEPARATOR = "\x00"
"""Joins a plural entry's forms, as compiled gettext catalogues do: the key is the English
singular and plural, the translation each form the language has, in the order of its rule."""
PLURAL_FORMS = re.compile(r"^Plural-Forms:\s*nplurals=\s*(\d+);\s*plural=([^;\n]+);?",
                          re.MULTILINE)


def english_plural(n: int) -> int:
    return 0 if n == 1 else 1


class Catalogue(gettext.NullTranslations):
    """Translations from one .po file."""

    def __init__(self, messages: dict[str, str],
                 plural: Callable[[int], int] = english_plural) -> None:
        super().__init__()
        self.messages = messages
        self.plural = plural
        """Which form a count takes (the catalogue's Plural-Forms rule)."""

    def gettext(self, message: str) -> str:
        return self.messages.get(message) or message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        forms = self.messages.get(msgid1 + PLURAL_SEPARATOR + msgid2)
        if not forms:
            return msgid1 if n == 1 else msgid2
        choices = forms.split(PLURAL_SEPARATOR)
        return choices[min(self.plural(n), len(choices) - 1)]


def plural_rule(path: Path) -> Callable[[int], int] | None:
    """The Plural-Forms rule in a .po file's header, or None when it gives none."""
    found = PLURAL_FORMS.search(read_po_header(path))
    if not found:
        return None
    try:
        rule: Callable[[int], int] = gettext.c2py(found.group(2).strip())
    except (ValueError, SyntaxError) as error:
        raise CatalogueError(f"{path}: the Plural-Forms rule cannot be read ({error})") from None
    return rule


def read_po_header(path: Path) -> str:
    """The msgstr of the entry with the empty msgid: the catalogue's header lines."""
    return _read_entries(path).get("", "")


def read_po(path: Path) -> dict[str, str]:
    """msgid → msgstr of a .po file (the header and empty entries skipped). A plural entry's
    key is its msgid and msgid_plural, its value every msgstr[n], each joined by
    PLURAL_SEPARATOR (a plural entry missing a form counts as empty)."""
    return {key: value for key, value in _read_entries(path).items() if key}


def _read_entries(path: Path) -> dict[str, str]:
    messages: dict[str, str] = {}
    key: str | None = None
    parts: dict[str, list[str]] = {}
    current = ""

    def finish() -> None:
        if "msgid" not in parts:
            return
        msgid = "".join(parts["msgid"])
        if "msgid_plural" in parts:
            msgid += PLURAL_SEPARATOR + "".join(parts["msgid_plural"])
            forms = ["".join(parts[name]) for name in sorted(
                (name for name in parts if name.startswith("msgstr[")),
                key=lambda name: int(name[7:-1]))]
            msgstr = PLURAL_SEPARATOR.join(forms) if forms and all(forms) else ""
        else:
            msgstr = "".join(parts.get("msgstr", []))
        if msgstr:
            messages[msgid] = msgstr

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            if PO_KEYWORD.match(line):
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


def templates() -> tuple[str, ...]:
    """Every template: the screens' first, then each game's in the registry's order."""
    return (SCREENS_TEMPLATE, *_game_templates)


def catalogue_path(lang: str, template: str = DOMAIN) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{template}.po"


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalogues of `lang` together; English (and a language without files) as written."""
    paths = [catalogue_path(lang, template) for template in templates()]
    if lang == "en" or not any(path.exists() for path in paths):
        return gettext.NullTranslations()
    messages: dict[str, str] = {}
    plural: Callable[[int], int] = english_plural
    for path in paths:
        if path.exists():
            messages.update(read_po(path))
            plural = plural_rule(path) or plural  # one language: the same rule in every file
    return Catalogue(messages, plural)


_game_templates: list[str] = []
"""The games' templates, in the order the registry listed them."""
_active: gettext.NullTranslations = gettext.NullTranslations()
_active_language = "en"


def set_language(lang: str) -> None:
    """Use `lang`'s catalogue for every text from now on (English when it is unknown)."""
    global _active, _active_language
    lang = lang if lang in LANGUAGES else "en"
    _active, _active_language = translations(lang), lang


def add_templates(names: Iterable[str]) -> None:
    """Read these templates' catalogues too, after those known: a game's, handed over by the
    games' registry as it lists the game (this module imports no game). The language in use
    reads them at once."""
    new = [name for name in names if name != SCREENS_TEMPLATE and name not in _game_templates]
    if not new:
        return
    _game_templates.extend(new)
    translations.cache_clear()
    set_language(_active_language)


def language() -> str:
    return _active_language


DECIMAL_SIGNS = {"de": ",", "fr": ","}


def decimal_sign(lang: str | None = None) -> str:
    """The sign between a number's whole part and its decimals as `lang` (by default the
    language in use) writes it: 0.4 s in English, 0,4 s in German and French."""
    return DECIMAL_SIGNS.get(lang or _active_language, ".")


def _(message: str) -> str:
    """`message` in the language in use."""
    return _active.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of `singular` / `plural` that the count `n` takes in the language in use
    (German: 1 and the rest; French: 0 and 1, and the rest)."""
    return _active.ngettext(singular, plural, n)


def N_(message: str) -> str:  # noqa: N802 (the name gettext tools look for)
    """Marks a text for translation where it is defined; `_` translates it where it is used."""
    return message
