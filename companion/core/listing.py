"""What the registry knows of a game before anyone plays it: its listing (name, settings, the
card kinds a reader's tag may stand for), with its `Game` named, not imported.

Kept apart from `game.py`, whose `Game` record brings the core's commands, events, history and
seats with it (some 25 ms of dataclasses made at import on this machine): Home lists the games
from here before its first frame, and the rest comes once the games file is opened.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class TagKind:
    """What players call one kind of card a reader's tag may stand for (English, translated
    through the catalogues where it is shown)."""

    label: str
    """The enrolment screen's button: "Threat"."""
    one: str
    """One card of the kind, in a sentence: "threat card"."""
    many: str
    """The cards of the kind, in a sentence: "threat cards"."""


@dataclass(frozen=True)
class Setting:
    """One of a game's settings, drawn by the settings screen with its shared widgets."""

    key: str
    """"section/option" in companion.ini, e.g. "companion/spirit_one_step"."""
    kind: str
    """"switch" (on, stored as "1", or off, "0") or "number" (a whole number from 0, with
    − and + buttons)."""
    label: str
    """The title, in English (translated where it is shown)."""
    help: str = ""
    """One line under the title, in English."""
    default: str = "0"
    """Its value in a new companion.ini; also what it is while its game is not played."""

    def value(self, stored: object) -> bool | int:
        """What a stored text means: a switch on or off, a whole number from 0 (a hand-edited
        file's nonsense reads as the default)."""
        text = str(stored).strip()
        if self.kind == "switch":
            return text in ("1", "True", "true", "on")
        try:
            return max(0, int(float(text)))
        except (ValueError, OverflowError):
            return self.value(self.default) if text != str(self.default) else 0

    def is_on(self, stored: object) -> bool:
        """It does something: a switch on, a number above 0."""
        return bool(self.value(stored))


@dataclass(frozen=True)
class GameListing:
    """A game as the registry lists it before anyone plays it: what Home, the settings, the
    reader's tag kinds and the translations need, with its `Game` named, not imported.

    Importing a game's rules costs about 30 ms on this machine (its commands' and events'
    dataclasses are made at import), 100 ms on a Pi; listing three games that way made the
    app's first frame wait for all three. The registry imports `definition` the first time the
    game itself is asked for, and a test holds each listing to its `Game`."""

    id: str
    """As `Game.id`."""
    name: str
    """As `Game.name`."""
    definition: str
    """Its `Game` as "module:NAME"."""
    settings: tuple[Setting, ...] = ()
    """As `Game.settings`."""
    tag_kinds: Mapping[str, TagKind] = field(default_factory=dict)
    """As `Game.tag_kinds`."""
    catalogue_domains: tuple[str, ...] = ()
    """As `Game.catalogue_domains`."""
    rules_corpus: str | None = None
    """As `Game.rules_corpus`: the rules index reads it without importing the game."""

    @classmethod
    def of(cls, game: Game) -> GameListing:
        """The listing of a game registered as it is (a test's game, for one)."""
        return cls(id=game.id, name=game.name, definition="", settings=game.settings,
                   tag_kinds=game.tag_kinds, catalogue_domains=game.catalogue_domains,
                   rules_corpus=game.rules_corpus)

    def fields(self) -> dict[str, Any]:
        """The `Game` fields the listing already gives, for its definition to build the `Game`
        from: `Game(**listing.fields(), …the rest)`, so the two cannot disagree."""
        return {"id": self.id, "name": self.name, "settings": self.settings,
                "tag_kinds": self.tag_kinds, "catalogue_domains": self.catalogue_domains,
                "rules_corpus": self.rules_corpus}
