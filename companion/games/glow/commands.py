"""What players can ask of a Glow game: small frozen commands (parse.py reads them).

Players are numbered from 0 in clockwise seating order; areas of the encounter track 1-5 left
to right. The contract's commands:

- ``new_game`` {"game": "glow", "players": 2-4, "board": "realm" | "sea", "start_player"?}
  and optional: "mode" ("full" or "scoring": straight to the end scoring), "names",
  "colours", "adventurers" (card ids), and corrections of the numbers numbers.toml could not
  verify: "track_length", "reroll_spaces", "village_values", "island_values".
- ``next`` {"phase"?, "confirm"?}: finish the current phase, noon and afternoon included
  (the screen asks "nothing forgotten?" before it sends it); "confirm" is accepted and ignored.
- ``score`` / ``rerolls`` {"player", "amount": ±n}: move a score marker; reroll tokens gained
  (+, usable from tomorrow) or spent (−, in the late morning, usable ones only).
- ``end_score`` {"player", "cards", "board", "glowworms", "companions", "trails", "score"?,
  "reroll_tokens"?}: the four end categories once the game is over ("score" and
  "reroll_tokens" correct the track's total and the tokens left; scoring mode needs "score").
- ``undo``, ``redo``, ``state``: the session's; `decide` answers ``state`` with no change.

More, for the rest of the table:

- ``pick`` {"player", "area", "card"?}: recruit in the morning, in pick order, taking the
  area's dice and trail tokens; ``discard`` {"area"}: two players' extra companion away.
- ``dice`` {"dice": [5 counts]}: small dice in each area after the setup roll or the evening's
  return; die-less areas get a trail token.
- ``track_reroll`` / ``lumipili`` {"player"}, ``set_face`` {"player", "lumipili", "tokens",
  "track"}: the late morning's other rerolls; three of them set one die to any face.
- ``glowworms`` / ``trails`` {"player", "amount": ±n}: token values gained or given back.
- ``companion`` {"player", "card", "remove"?, "value"?, "glowworms"?, "die"?}: add a companion
  to a player's row or send one to the graveyard (Sketal dice and Kaar's black die follow).
- ``camp`` {"player", "value"} (realm), ``boat`` {"player", "boat", "island", "elements"?,
  "route"?} (sea): the afternoon's move, one boat a day; "correction": true moves a marker at
  any time, outside that count (a mistake put right). ``spell`` {"player", "amount": ±n}.
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


@dataclass(frozen=True)
class NewGame(Command):
    name: ClassVar[str] = "new_game"
    players: int
    board: str
    game: str = GAME_ID
    start_player: int | None = None
    """Random (from the seed) when left out."""
    mode: str = "full"
    names: tuple[str, ...] = ()
    colours: tuple[str, ...] = ()
    adventurers: tuple[str, ...] = ()
    track_length: int | None = None
    reroll_spaces: tuple[int, ...] | None = None
    village_values: tuple[int, ...] | None = None
    island_values: tuple[int, ...] | None = None
    seed: int | None = None


@dataclass(frozen=True)
class Next(Command):
    name: ClassVar[str] = "next"
    phase: str | None = None
    """The phase meant, so that a second tap on Done changes nothing."""
    confirm: bool = False
    """The players answered "nothing forgotten?"; accepted and ignored (a plain next finishes
    noon and afternoon too, as the contract says)."""


@dataclass(frozen=True)
class Score(Command):
    name: ClassVar[str] = "score"
    player: int
    amount: int


@dataclass(frozen=True)
class Rerolls(Command):
    name: ClassVar[str] = "rerolls"
    player: int
    amount: int


@dataclass(frozen=True)
class Glowworms(Command):
    name: ClassVar[str] = "glowworms"
    player: int
    amount: int


@dataclass(frozen=True)
class Trails(Command):
    name: ClassVar[str] = "trails"
    player: int
    amount: int


@dataclass(frozen=True)
class EndScore(Command):
    name: ClassVar[str] = "end_score"
    player: int
    cards: int
    board: int
    glowworms: int
    companions: int
    trails: int
    score: int | None = None
    reroll_tokens: int | None = None


@dataclass(frozen=True)
class Pick(Command):
    name: ClassVar[str] = "pick"
    player: int
    area: int
    card: str | None = None


@dataclass(frozen=True)
class Discard(Command):
    name: ClassVar[str] = "discard"
    area: int
    card: str | None = None


@dataclass(frozen=True)
class AreaDice(Command):
    name: ClassVar[str] = "dice"
    dice: tuple[int, ...]


@dataclass(frozen=True)
class TrackReroll(Command):
    name: ClassVar[str] = "track_reroll"
    player: int


@dataclass(frozen=True)
class Lumipili(Command):
    name: ClassVar[str] = "lumipili"
    player: int


@dataclass(frozen=True)
class SetFace(Command):
    name: ClassVar[str] = "set_face"
    player: int
    lumipili: int = 0
    tokens: int = 0
    track: int = 0


@dataclass(frozen=True)
class CompanionCard(Command):
    name: ClassVar[str] = "companion"
    player: int
    card: str
    remove: bool = False
    value: int | None = None
    glowworms: int | None = None
    die: str | None = None
    """The many-coloured Sketal: which supply die it takes."""


@dataclass(frozen=True)
class Camp(Command):
    name: ClassVar[str] = "camp"
    player: int
    value: int
    correction: bool = False
    """Put a marker right outside the afternoon (the setup and player panels send it)."""


@dataclass(frozen=True)
class Boat(Command):
    name: ClassVar[str] = "boat"
    player: int
    boat: int
    island: int
    elements: int | None = None
    """Different elements the player's dice show, to check the route."""
    route: tuple[int, ...] | None = None
    """The route's demand: [n] or [low, high] different elements."""
    correction: bool = False
    """Put a boat right: at any time, and not the day's one move."""


@dataclass(frozen=True)
class Spell(Command):
    name: ClassVar[str] = "spell"
    player: int
    amount: int


COMMANDS: dict[str, type[Command]] = {
    cls.name: cls for cls in (
        NewGame, Next, Score, Rerolls, EndScore, Pick, Discard, AreaDice, TrackReroll,
        Lumipili, SetFace, Glowworms, Trails, CompanionCard, Camp, Boat, Spell,
        Undo, Redo, ShowState)
}
