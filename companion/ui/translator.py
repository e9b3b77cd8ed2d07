"""The language of the screens, switchable while the app runs.

kv rules write `text: tr._("New game")`. Kivy binds such a rule to the attribute `_` of `tr`;
`Translator` keeps those bindings itself and calls them all when the language changes, so every
text on every screen is written again in the new language without a restart.
"""

from __future__ import annotations

from typing import Any

from kivy.lang import Observable

from .. import i18n


class Translator(Observable):
    def __init__(self) -> None:
        super().__init__()
        self.observers: list[tuple[Any, Any, Any]] = []

    def _(self, text: str) -> str:
        return i18n._(text)

    def fbind(self, name: str, func: Any, *args: Any, **kwargs: Any) -> Any:
        if name == "_":
            self.observers.append((func, args, kwargs))
            return None
        return super().fbind(name, func, *args, **kwargs)

    def funbind(self, name: str, func: Any, *args: Any, **kwargs: Any) -> Any:
        if name == "_":
            self.observers = [observer for observer in self.observers
                              if not (observer[0] is func and observer[1] == args)]
            return None
        return super().funbind(name, func, *args, **kwargs)

    def switch(self, lang: str) -> None:
        i18n.set_language(lang)
        alive = []
        for observer in self.observers:
            func, args, _kwargs = observer
            try:
                func(*args, None, None)
            except ReferenceError:  # a widget that is gone (a card tile taken off the board)
                continue
            alive.append(observer)
        # Kept by identity: comparing a dead widget's proxy would raise again.
        self.observers = alive


tr = Translator()
