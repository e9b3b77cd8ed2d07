"""The rules search as the mirror's phones ask it: the touchscreen's corpus and index, looked
up on a thread of its own so the server's loop never waits on SQLite."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

RULES_TIMEOUT_S = 10.0


class RulesLookup:
    """The rules search for the phones: the same corpus and index as the touchscreen's, opened
    by one thread of its own (an SQLite connection stays on the thread that opened it)."""

    def __init__(self, open_index: Callable[[], Any] | None = None) -> None:
        self._open_index = open_index or _open_rules_index
        self._index: Any = None
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mirror-rules")

    def search(self, query: str, lang: str) -> list[dict[str, str]]:
        hits: list[dict[str, str]] = self._ask(
            lambda index: [hit.to_dict() for hit in index.search(query, lang)])
        return hits

    def entry(self, entry_id: str, lang: str) -> dict[str, Any] | None:
        def find(index: Any) -> dict[str, Any] | None:
            found = index.entry(entry_id, lang)
            return None if found is None else {"id": found.id, "title": found.title,
                                               "body": found.body}
        found: dict[str, Any] | None = self._ask(find)
        return found

    def _ask(self, question: Callable[[Any], Any]) -> Any:
        def run() -> Any:
            if self._index is None:
                self._index = self._open_index()
            return question(self._index)
        return self._worker.submit(run).result(timeout=RULES_TIMEOUT_S)

    def close(self) -> None:
        self._worker.shutdown(wait=False, cancel_futures=True)


def _open_rules_index() -> Any:
    from ..rules.search import RulesIndex

    return RulesIndex.open()

