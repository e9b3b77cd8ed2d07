"""What players can ask of a Leviathan Wilds game: small frozen commands (parse.py reads them).

Guardians, threat slots and crystals are numbered from 0. The contract's commands:

- ``new_game`` {"game": "leviathan-wilds", "players": 1-4 (1 = solo: two guardians),
  "difficulty", "leviathan": 1-17} and optional corrections: "guardians" [{"character",
  "class"}], "start_guardian", "crystals" [{"dice": [..], "corrupted": bool}], "win_conditions"
  [labels], "deck_size", "wrath_wild_counts", "wrath_start", "health_start", "health_max",
  "solo_rest_grip" (the numbers numbers.toml could not verify).
- ``next`` {"step"?, "decline_last"?}: finish the current step. "step" names the step meant, so
  a second tap does nothing; "decline_last" takes the last-strength option in step 4.
- ``wild`` {"count"}: the WILD X keyword.
- ``health`` / ``corruption`` {"guardian", "amount": ±n}.
- ``undo``, ``redo``, ``state``: the session's; `decide` answers ``state`` with no change.

More, for the rest of the table:

- ``reveal`` {"card"?}: turn the next threat over in step 1, naming the card when its tag is
  read; in step 1 after the reveal it names (or renames) the card turned over.
- ``grip`` {"guardian", "amount": ±n}: −X moves X deck cards to the discard, +X moves X discards
  under the deck.
- ``draw`` / ``discard`` {"guardian", "count"}: deck to hand, hand to discard (a card played for
  its ability is a discard).
- ``ap_card`` {"ap", "protections"?: ["harmful", "slippery", "corrupt"]}: the active guardian
  plays an AP card.
- ``act`` {"action": climb|jump|glide|rest|heal, "x"?}: a standard action paid with AP.
- ``strike`` {"crystal", "amount", "guardian"?, "ap"?, "protected"?}: lower a crystal; "ap"
  false for a strike from an ability, "protected" overrides the AP card's corruption protection.
- ``terrain`` {"guardian", "kind": harmful|slippery|open}: a guardian entered that terrain.
- ``fall`` / ``land`` {"guardian"}: let go (start falling) / the fall ended.
- ``focus`` {"guardian", "ready": bool}.
- ``weakness`` {"guardian", "card"?, "remove"?}: draw a weakness, or get rid of one.
- ``add_crystal`` {"dice", "corrupted"?}, ``set_crystal`` {"crystal", "dice", "corrupted"?}:
  correct the crystals (an empty "dice" list shatters one).
- ``win_condition`` {"condition", "met"}, ``counter`` {"counter", "amount": ±n}.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.core.commands import Command as Command

# The session answers these for every game; listed so that a refusal names them too.
from companion.core.commands import Redo as Redo
from companion.core.commands import ShowState as ShowState
from companion.core.commands import Undo as Undo

from .data import GAME_ID
from .state import GuardianSetup


@dataclass(frozen=True)
class NewGame(Command):
    name: ClassVar[str] = "new_game"
    players: int
    difficulty: str
    leviathan: int
    game: str = GAME_ID
    guardians: tuple[GuardianSetup, ...] | None = None
    start_guardian: int = 0
    crystals: tuple[tuple[tuple[int, ...], bool], ...] | None = None
    win_conditions: tuple[str, ...] = ()
    deck_size: int | None = None
    wrath_wild_counts: tuple[int, ...] | None = None
    wrath_start: int | None = None
    health_start: int | None = None
    health_max: int | None = None
    """The track's top: the highest health, and the highest corruption."""
    solo_rest_grip: int | None = None
    seed: int | None = None
    """Recorded like every game's (nothing in this game is random: the players shuffle)."""


@dataclass(frozen=True)
class Next(Command):
    name: ClassVar[str] = "next"
    step: str | None = None
    decline_last: bool = False


@dataclass(frozen=True)
class Reveal(Command):
    name: ClassVar[str] = "reveal"
    card: str | None = None


@dataclass(frozen=True)
class Wild(Command):
    name: ClassVar[str] = "wild"
    count: int


@dataclass(frozen=True)
class Health(Command):
    name: ClassVar[str] = "health"
    guardian: int
    amount: int


@dataclass(frozen=True)
class Corruption(Command):
    name: ClassVar[str] = "corruption"
    guardian: int
    amount: int


@dataclass(frozen=True)
class Grip(Command):
    name: ClassVar[str] = "grip"
    guardian: int
    amount: int


@dataclass(frozen=True)
class Draw(Command):
    name: ClassVar[str] = "draw"
    guardian: int
    count: int = 1


@dataclass(frozen=True)
class Discard(Command):
    name: ClassVar[str] = "discard"
    guardian: int
    count: int = 1


@dataclass(frozen=True)
class PlayApCard(Command):
    name: ClassVar[str] = "ap_card"
    ap: int
    protections: tuple[str, ...] = ()


@dataclass(frozen=True)
class Act(Command):
    name: ClassVar[str] = "act"
    action: str
    x: int = 1


@dataclass(frozen=True)
class Strike(Command):
    name: ClassVar[str] = "strike"
    crystal: int
    amount: int
    guardian: int | None = None
    ap: bool | None = None
    protected: bool | None = None


@dataclass(frozen=True)
class Terrain(Command):
    name: ClassVar[str] = "terrain"
    guardian: int
    kind: str


@dataclass(frozen=True)
class Fall(Command):
    name: ClassVar[str] = "fall"
    guardian: int


@dataclass(frozen=True)
class Land(Command):
    name: ClassVar[str] = "land"
    guardian: int


@dataclass(frozen=True)
class Focus(Command):
    name: ClassVar[str] = "focus"
    guardian: int
    ready: bool


@dataclass(frozen=True)
class Weakness(Command):
    name: ClassVar[str] = "weakness"
    guardian: int
    card: str | None = None
    remove: bool = False


@dataclass(frozen=True)
class AddCrystal(Command):
    name: ClassVar[str] = "add_crystal"
    dice: tuple[int, ...]
    corrupted: bool = False


@dataclass(frozen=True)
class SetCrystal(Command):
    name: ClassVar[str] = "set_crystal"
    crystal: int
    dice: tuple[int, ...]
    corrupted: bool | None = None


@dataclass(frozen=True)
class SetWinCondition(Command):
    name: ClassVar[str] = "win_condition"
    condition: int
    met: bool = True


@dataclass(frozen=True)
class Counter(Command):
    name: ClassVar[str] = "counter"
    counter: str
    amount: int


COMMANDS: dict[str, type[Command]] = {
    cls.name: cls for cls in (
        NewGame, Next, Reveal, Wild, Health, Corruption, Grip, Draw, Discard, PlayApCard, Act,
        Strike, Terrain, Fall, Land, Focus, Weakness, AddCrystal, SetCrystal, SetWinCondition,
        Counter, Undo, Redo, ShowState)
}
