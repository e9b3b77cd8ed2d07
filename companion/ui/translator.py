"""The language of the screens, switchable while the app runs.

kv rules write `text: tr._("New game")`. Kivy binds such a rule to the attribute `_` of `tr`;
`Translator` keeps those bindings itself and calls them all when the language changes, so every
text on every screen is written again in the new language without a restart.
"""

from __future__ import annotations

from itertools import count
from typing import Any

from kivy.lang import Observable

from .. import i18n


class Translator(Observable):
    def __init__(self) -> None:
        super().__init__()
        self.observers: dict[int, tuple[Any, Any, Any]] = {}
        """The kv rules' bindings to `_`, by the uid `fbind` gave each, in the order made."""
        self._uids = count(1)

    def _(self, text: str) -> str:
        return i18n._(text)

    def fbind(self, name: str, func: Any, *args: Any, **kwargs: Any) -> Any:
        if name == "_":
            # A uid (never 0) lets Kivy's builder unbind the rule when its widget is collected
            # (Builder.unbind_widget calls unbind_uid); without one, every panel, picker and
            # row built and let go of during an evening would leave its rule here for good.
            uid = next(self._uids)
            self.observers[uid] = (func, args, kwargs)
            return uid
        return super().fbind(name, func, *args, **kwargs)

    def unbind_uid(self, name: str, uid: int) -> Any:
        if name == "_":
            self.observers.pop(uid, None)
            return None
        return super().unbind_uid(name, uid)

    def funbind(self, name: str, func: Any, *args: Any, **kwargs: Any) -> Any:
        if name == "_":
            # By identity and arguments; comparing a dead widget's proxy raises.
            for uid, (bound, bound_args, _kwargs) in self._snapshot().items():
                try:
                    same = bound is func and bound_args == args
                except ReferenceError:
                    same = False
                if same:
                    self.observers.pop(uid, None)
            return None
        return super().funbind(name, func, *args, **kwargs)

    def _snapshot(self) -> dict[int, tuple[Any, Any, Any]]:
        # dict.copy runs no Python code. Building a list of the items would allocate a tuple per
        # rule, and any allocation may start a collection whose finalizers unbind rules
        # (Builder.unbind_widget) from this very dict halfway through the walk.
        return self.observers.copy()

    def switch(self, lang: str) -> None:
        i18n.set_language(lang)
        # A copy: a rule run here may build a widget (binding anew) or let one go (unbinding).
        for uid, (func, args, _kwargs) in self._snapshot().items():
            if uid not in self.observers:
                continue
            try:
                func(*args, None, None)
            except ReferenceError:  # a widget that is gone but not yet collected
                self.observers.pop(uid, None)


tr = Translator()
