"""The rules lookup as a command: `rules_search`, its fields' checks, and the index it searches
(opened when first asked for)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from .core import commands as c
from .core.errors import Refused
from .core.phrases import Translate
from .games.registry import GAMES
from .rules.corpus import LANGUAGES, CorpusError

if TYPE_CHECKING:
    from .rules.search import RulesIndex


@dataclass(frozen=True)
class RulesSearch(c.Command):
    """The rules lookup: entries whose words match `query`, best first."""

    name: ClassVar[str] = "rules_search"
    query: str
    lang: str | None = None
    """en, de or fr; the driver's language when not given."""
    limit: int = 10
    game: str | None = None
    """A game's id: only its entries (and those every game shares); every game's when not
    given."""


RULES_SEARCH_LIMIT = 50
RULES_QUERY_CHARACTERS = 200
"""A longer query is refused: nobody types more, and each word costs a search."""


def rules_search_field(cmd: str, key: str, value: Any) -> Any:
    """rules_search's "game" names a game by its id (in the other commands, a saved game)."""
    if key == "game":
        return c.text(cmd, key, value, tuple(GAMES))
    if key == "lang":
        return c.text(cmd, key, value, LANGUAGES)
    if key == "limit":
        return c.whole_number(cmd, key, value, 1, RULES_SEARCH_LIMIT)
    query = c.text(cmd, key, value)
    if len(query) > RULES_QUERY_CHARACTERS:
        raise Refused(f"'{cmd}': {key} is too long (at most {RULES_QUERY_CHARACTERS} characters)")
    return query


class RulesLookup:
    """Answers `rules_search` from the rules index, which it opens on the first search."""

    commands: ClassVar[tuple[type[c.Command], ...]] = (RulesSearch,)

    def __init__(self) -> None:
        self._rules_index: RulesIndex | None = None

    def handle(self, command: c.Command, translate: Translate) -> dict[str, Any]:
        assert isinstance(command, RulesSearch)
        return {"rules": self.search(command)}

    def search(self, command: RulesSearch) -> list[dict[str, str]]:
        if self._rules_index is None:
            from .rules.search import RulesIndex  # the index is opened when first asked for

            try:
                self._rules_index = RulesIndex.open()  # cached on disk; rebuilt when it changed
            except CorpusError as error:
                raise Refused(f"the rules corpus is broken: {error}") from None
        hits = self._rules_index.search(command.query, command.lang or "en", command.limit,
                                        command.game)
        return [hit.to_dict() for hit in hits]
