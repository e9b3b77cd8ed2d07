"""Names players type (a player's, a colour, a guardian's, a win condition's label), checked
once for every game: a name must show at least one character, and hold no control or format
character (Unicode categories Cc and Cf) — a NUL, a zero-width space, a byte order mark, or a
right-to-left override that would reverse the rest of every line the name is shown in."""

from __future__ import annotations

import unicodedata

from companion.i18n import N_

from .commands import shown
from .errors import Refused
from .phrases import Phrase

INVISIBLE = ("Cc", "Cf")
"""Control and format characters: nothing a screen shows, but they can hide or reorder text."""
JOINERS = ("\u200c", "\u200d")
"""Zero-width non-joiner and joiner: format characters that some scripts (Persian) and emoji
sequences (a family, a rainbow flag) need; harmless between two visible characters."""


def _visible(char: str) -> bool:
    return not char.isspace() and unicodedata.category(char) not in INVISIBLE


def _joins_visible(name: str, at: int) -> bool:
    return (name[at] in JOINERS and 0 < at < len(name) - 1
            and _visible(name[at - 1]) and _visible(name[at + 1]))

EMPTY_NAME = N_("'{cmd}': {key} {value} shows nothing; a name needs at least one visible "
                "character")
HIDDEN_CHARACTER = N_("'{cmd}': {key} {value} holds {character}, a control or format character: "
                      "it cannot be seen, and can hide or reverse the text around it; type the "
                      "name without it")


def invisible_character(name: str) -> str | None:
    """The first control or format character in `name`, described as "U+202E (RIGHT-TO-LEFT
    OVERRIDE)"; None when there is none."""
    for at, char in enumerate(name):
        if unicodedata.category(char) in INVISIBLE and not _joins_visible(name, at):
            described = unicodedata.name(char, "")
            code = f"U+{ord(char):04X}"
            return f"{code} ({described})" if described else code
    return None


def checked_name(cmd: str, key: str, value: str) -> str:
    """`value` with the spaces around it stripped, or Refused saying in words what is wrong:
    a control or format character, or nothing left to show."""
    character = invisible_character(value)
    if character is not None:
        raise Refused(Phrase(HIDDEN_CHARACTER, cmd=cmd, key=key, value=shown(value),
                             character=character))
    if not value.strip():
        raise Refused(Phrase(EMPTY_NAME, cmd=cmd, key=key, value=shown(value)))
    return value.strip()
