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

EMPTY_NAME = N_("'{cmd}': {key} {value} shows nothing; a name needs at least one visible "
                "character")
HIDDEN_CHARACTER = N_("'{cmd}': {key} {value} holds {character}, a control or format character: "
                      "it cannot be seen, and can hide or reverse the text around it; type the "
                      "name without it")


def invisible_character(name: str) -> str | None:
    """The first control or format character in `name`, described as "U+202E (RIGHT-TO-LEFT
    OVERRIDE)"; None when there is none."""
    for char in name:
        if unicodedata.category(char) in INVISIBLE:
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
