"""The translator's bindings survive a collection that unbinds rules while the language changes.

A widget collected during a switch unbinds its rules from the translator (Kivy's builder calls
`unbind_uid` from the widget's finalizer). CI once met one such collection halfway through the walk
over the bindings: "dictionary changed size during iteration", and the app did not start.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest

from companion import i18n
from companion.ui.translator import Translator


@pytest.fixture
def collection_at_every_allocation() -> Iterator[None]:
    was_enabled, thresholds = gc.isenabled(), gc.get_threshold()
    gc.collect()
    gc.set_threshold(1)
    gc.enable()
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        if not was_enabled:
            gc.disable()
        gc.collect()


class RuleOfAGoneWidget:
    """Garbage in a cycle whose finalizer unbinds its rule, as a collected widget's does, and
    leaves the next such piece of garbage behind, so one collection after another finds one."""

    def __init__(self, translator: Translator, uids: list[int]) -> None:
        self.translator, self.uids = translator, uids
        self.cycle = self

    def __del__(self) -> None:
        if self.uids:
            self.translator.unbind_uid("_", self.uids.pop())
            RuleOfAGoneWidget(self.translator, self.uids)


def test_a_switch_survives_rules_unbound_by_collections_during_it(
        collection_at_every_allocation: None) -> None:
    translator = Translator()
    written: list[str] = []

    def rule(*_: Any) -> None:
        written.append(translator._("New game"))

    uids = [translator.fbind("_", rule) for _ in range(2000)]
    kept, doomed = uids[:100], uids[100:]
    RuleOfAGoneWidget(translator, list(doomed))  # unreachable at once: the next collection's
    try:
        translator.switch("de")
    finally:
        i18n.set_language("en")

    assert set(kept) <= set(translator.observers) <= set(uids), "a rule still bound was dropped"
    assert 100 <= len(written) <= 2000, f"{len(written)} rules run of 100 to 2000 bound"
    assert all(text == written[0] for text in written) and written[0] != "New game", (
        f"the rules did not write the German text: {written[:3]}")
