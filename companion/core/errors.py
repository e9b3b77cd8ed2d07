"""The one way the game says no."""

from __future__ import annotations

from .phrases import Phrase, Translate


class Refused(Exception):
    """A command the game will not carry out; the message says why in a player's words.

    A refused command changes nothing. The message is English; one given as a `Phrase` can be
    shown in another language too. `hint` (for scripts: which field to send) stays English.
    """

    def __init__(self, message: str | Phrase, hint: str = "") -> None:
        self.phrase = message if isinstance(message, Phrase) else Phrase(message)
        self.hint = hint
        super().__init__(self.phrase.render() + hint)

    def in_language(self, translate: Translate) -> str:
        return self.phrase.render(translate) + self.hint
