"""Words shown to players, kept translatable: a template rendered in a language at the last moment.

Every game's texts are English data looked up as written in a gettext catalogue; the view renders
them with the `Translate` function it is handed, so no game model knows a catalogue.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

Translate = Callable[[str], str]


def as_written(text: str) -> str:
    """The identity `Translate`: English, as the texts are written."""
    return text


class Phrase:
    """A text with {placeholders} whose values may be phrases too, rendered at the last moment
    so that the template and every part of it are translated; plain values stay as they are."""

    __slots__ = ("template", "values")

    def __init__(self, template: str, **values: object) -> None:
        self.template = template
        self.values = values

    def render(self, translate: Translate = as_written) -> str:
        text = translate(self.template)
        if not self.values:
            return text
        return text.format(**{key: render(value, translate) for key, value in self.values.items()})

    def __repr__(self) -> str:
        return f"Phrase({self.template!r}, **{self.values!r})"


def render(value: object, translate: Translate = as_written) -> str:
    return value.render(translate) if isinstance(value, (Phrase, Listing)) else str(value)


class Listing:
    """Names joined as "A, B and C" (the joining words translated too), or sentences joined by
    `joined`; `empty` (translated) when there are none."""

    __slots__ = ("items", "empty", "joined")

    def __init__(self, items: Iterable[object], empty: str, joined: str | None = None) -> None:
        self.items, self.empty, self.joined = tuple(items), empty, joined

    def render(self, translate: Translate = as_written) -> str:
        names = [render(item, translate) for item in self.items]
        if not names:
            return translate(self.empty) if self.empty else ""
        if self.joined is not None or len(names) == 1:
            return (self.joined or "").join(names)
        return translate(AND).format(first=", ".join(names[:-1]), last=names[-1])


AND = "{first} and {last}"


def message(table: Mapping[str, str], message_id: str, translate: Translate = as_written,
            **values: Any) -> dict[str, Any]:
    """A game's text for its view, `message_id` of `table`: its id, the text in the language of
    `translate` and the values it used (words as written in English, numbers as they are)."""
    shown = {key: render(value) if isinstance(value, (Phrase, Listing)) else value
             for key, value in values.items()}
    return {"id": message_id, "text": Phrase(table[message_id], **values).render(translate),
            "values": shown}
