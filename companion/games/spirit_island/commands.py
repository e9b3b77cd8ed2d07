"""What players can ask of the game: small frozen commands, and reading them from plain dicts.

`parse_command` turns one JSON object (as the driver and the store hold it) into a command,
or raises `Refused` with a sentence a player can act on. `command_to_dict` is its inverse, so a
command log can be written out and read back to the same commands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from companion.core import commands as core
from companion.core.commands import Command, Redo, ShowState, Undo, command_to_dict
from companion.core.errors import Refused
from companion.core.phrases import Phrase


@dataclass(frozen=True)
class NewGame(Command):
    name: ClassVar[str] = "new_game"
    players: int
    mode: str = "advanced"
    deck: str = "virtual"
    seed: int | None = None
    blight_card: str | None = None
    deck_order: str | None = None
    fear_split: tuple[int, ...] | None = None
    island_blight: int | None = None
    adversary: str | None = None
    level: int | None = None
    thematic: bool = False
    scenario: str | None = None
    scenario_difficulty: int | None = None
    """For a scenario printed with more than one difficulty (Second Wave, Surges)."""
    events: bool = False
    event_deck: int | None = None
    """How many event cards the table shuffles (default: the Branch & Claw deck)."""
    fear_cards: int | None = None
    """How many fear cards the table owns (Rituals of Terror, Ward the Shores use them all)."""


@dataclass(frozen=True)
class Next(Command):
    name: ClassVar[str] = "next"
    step: str | None = None
    """The step this means to finish; when the game is already past it, nothing happens (a
    second tap on Done must not finish the step that the first tap started)."""


@dataclass(frozen=True)
class GenerateFear(Command):
    name: ClassVar[str] = "fear"
    amount: int = 1


@dataclass(frozen=True)
class Destroy(Command):
    name: ClassVar[str] = "destroy"
    piece: str
    count: int = 1


@dataclass(frozen=True)
class SpiritDone(Command):
    """A spirit's player is done with this round's Spirit phase (growth, energy, cards), or,
    with done false, is not after all. The step button stays the table's: this only tells the
    table who is still growing."""

    name: ClassVar[str] = "spirit_done"
    spirit: int
    """The spirit, numbered from 0 as the players are."""
    done: bool = True


@dataclass(frozen=True)
class Reveal(Command):
    name: ClassVar[str] = "reveal"
    card: str
    force: bool = False


@dataclass(frozen=True)
class AddBlight(Command):
    name: ClassVar[str] = "blight"
    amount: int = 1


@dataclass(frozen=True)
class Heal(Command):
    name: ClassVar[str] = "heal"
    amount: int = 1


@dataclass(frozen=True)
class ResolveFear(Command):
    name: ClassVar[str] = "resolve_fear"
    card: str | None = None
    """The fear card resolved, when the players name it here rather than with fear_card."""
    force: bool = False


@dataclass(frozen=True)
class NameFearCard(Command):
    """The players turned an earned fear card over: show its effect at the terror level."""

    name: ClassVar[str] = "fear_card"
    card: str
    force: bool = False


@dataclass(frozen=True)
class Ritual(Command):
    """Rituals of Terror: the Spirits performed a ritual; terror rises one level."""

    name: ClassVar[str] = "ritual"


@dataclass(frozen=True)
class NextBlightCard(Command):
    """A Still-Healthy Island card ran out: the next blight card goes on its back side."""

    name: ClassVar[str] = "next_blight_card"
    card: str


# --- corrections: what a power, an event or a mistake at the table moved ----------------------


@dataclass(frozen=True)
class MoveCard(Command):
    name: ClassVar[str] = "move_card"
    card: str
    to: str


@dataclass(frozen=True)
class Accelerate(Command):
    """Put the topmost card of the lowest stage left in the invader deck back in the box."""

    name: ClassVar[str] = "accelerate"


@dataclass(frozen=True)
class ReturnFearCard(Command):
    """An earned fear card goes back onto the fear deck, unresolved."""

    name: ClassVar[str] = "return_fear_card"


@dataclass(frozen=True)
class DiscardFearCard(Command):
    """An earned fear card is discarded without being resolved (it is unearned)."""

    name: ClassVar[str] = "discard_fear_card"


@dataclass(frozen=True)
class AddFearCard(Command):
    """A fear card from the box goes onto the top of the fear deck."""

    name: ClassVar[str] = "add_fear_card"


@dataclass(frozen=True)
class RemoveFearCard(Command):
    """The top card of the fear deck goes back in the box."""

    name: ClassVar[str] = "remove_fear_card"


@dataclass(frozen=True)
class LoseFear(Command):
    """Generated fear markers go back to the pool (Despicable Theft's escaping thieves)."""

    name: ClassVar[str] = "lose_fear"
    amount: int = 1


@dataclass(frozen=True)
class SetBlight(Command):
    name: ClassVar[str] = "set_blight"
    on_card: int
    on_island: int | None = None


@dataclass(frozen=True)
class Declare(Command):
    name: ClassVar[str] = "declare"
    result: str
    reason: str | None = None


@dataclass(frozen=True)
class Score(Command):
    name: ClassVar[str] = "score"
    dahan: int
    blight_on_island: int | None = None
    bonus: int | None = None
    """Points a scenario adds (Powers Long Forgotten: 2 per unused source of power)."""


@dataclass(frozen=True)
class Effect(Command):
    """Several quick changes that one power or card causes at once.

    They are applied together; if the same effect both wins and loses the game, the result is a
    sacrifice victory.
    """

    name: ClassVar[str] = "effect"
    commands: tuple[Command, ...]


COMMANDS: dict[str, type[Command]] = {
    c.name: c
    for c in (
        NewGame,
        Next,
        GenerateFear,
        Destroy,
        SpiritDone,
        Reveal,
        AddBlight,
        Heal,
        ResolveFear,
        NameFearCard,
        Ritual,
        NextBlightCard,
        MoveCard,
        Accelerate,
        ReturnFearCard,
        DiscardFearCard,
        AddFearCard,
        RemoveFearCard,
        LoseFear,
        SetBlight,
        Declare,
        Score,
        Effect,
        Undo,
        Redo,
        ShowState,
    )
}

# The quick changes an `effect` may bundle.
EFFECT_PARTS = (GenerateFear, Destroy, AddBlight, Heal, LoseFear)
EFFECT_REGISTRY: dict[str, type[Command]] = {cls.name: cls for cls in EFFECT_PARTS}

# Where move_card can put a card.
CARD_PLACES = ("deck_top", "deck_bottom", "discard", "high_immigration", "ravage", "build",
               "explore", "box")

# A sanity bound: no single table action moves more than this many markers.
MAX_AMOUNT = 1000


def _parse_field(cmd: str, key: str, value: Any) -> Any:
    """Check one field's value; the checks are per field name so every command shares them.
    Fields the shared commands use too (force, path, …) are checked by the core."""
    if key in ("amount", "count"):
        return core.whole_number(cmd, key, value, 1, MAX_AMOUNT)
    if key in ("dahan", "blight_on_island", "island_blight", "on_card", "on_island", "bonus"):
        return core.whole_number(cmd, key, value, 0, MAX_AMOUNT)
    if key == "scenario_difficulty":
        return core.whole_number(cmd, key, value, -5, 20)
    if key == "event_deck":
        return core.whole_number(cmd, key, value, 1, 200)
    if key == "fear_cards":
        return core.whole_number(cmd, key, value, 1, 200)
    if key == "to":
        return core.text(cmd, key, value, CARD_PLACES)
    if key == "players":
        return core.whole_number(cmd, key, value, 1, 6)
    if key == "seed":
        return core.whole_number(cmd, key, value, 0, 2**63 - 1)
    if key == "mode":
        return core.text(cmd, key, value, ("beginner", "advanced"))
    if key == "deck":
        return core.text(cmd, key, value, ("virtual", "physical"))
    if key == "piece":
        return core.text(cmd, key, value, ("town", "city"))
    if key == "result":
        return core.text(cmd, key, value, ("victory", "defeat", "sacrifice"))
    if key == "level":
        return core.whole_number(cmd, key, value, 0, 6)
    if key == "spirit":
        return core.whole_number(cmd, key, value, 0, 5)
    if key in ("thematic", "events", "done"):
        if not isinstance(value, bool):
            raise Refused(Phrase("'{cmd}': {key} must be true or false, not {value}", cmd=cmd,
                                 key=key, value=core.shown(value)))
        return value
    if key == "fear_split":
        if not isinstance(value, list) or not value:
            raise Refused(Phrase("'{cmd}': fear_split must be a list such as [3, 3, 3]",
                                 cmd=cmd))
        split = tuple(core.whole_number(cmd, key, v, 0, 20) for v in value)
        if len(split) != 3 or sum(split) == 0:
            raise Refused(Phrase("'{cmd}': fear_split needs three counts (terror levels I, II, "
                                 "III)", cmd=cmd))
        return split
    if key == "commands":
        if not isinstance(value, list) or not value:
            raise Refused(Phrase("'{cmd}': commands must be a non-empty list of fear, destroy, "
                                 "blight, heal or lose_fear commands", cmd=cmd))
        parts = []
        for v in value:
            # Checked before parsing: an effect inside an effect would recurse without end.
            name = v.get("cmd") if isinstance(v, dict) else None
            if isinstance(name, str) and name in COMMANDS and COMMANDS[name] not in EFFECT_PARTS:
                raise Refused(Phrase("'{cmd}': an effect may only combine fear, destroy, "
                                     "blight, heal and lose_fear, not '{name}'", cmd=cmd,
                                     name=name))
            parts.append(parse_command(v, EFFECT_REGISTRY))
        return tuple(parts)
    return core.shared_field(cmd, key, value)


def parse_command(data: Any, registry: dict[str, type[Command]] | None = None) -> Command:
    """Turn a JSON object such as {"cmd": "fear", "amount": 2} into a command.

    `registry` lets a shell add commands of its own (saving, listing games) to the game's.
    """
    return core.parse_command(data, COMMANDS if registry is None else registry, _parse_field)


__all__ = ["Command", "Redo", "ShowState", "Undo", "command_to_dict", "parse_command"]
