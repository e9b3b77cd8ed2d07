"""What a card laid on the reader means at this moment of the game (pure: no Kivy, no serial).

The reader says only "this tag is here". With the tag registry's answer and the game state the
driver reports, `plan_read` decides what the app does, the same way a touch would. The shared
rules are here; what a game's own cards do is its `Game.plan_read` (found through the registry):

- an unknown tag: offer to enrol it;
- a command tag on a game's table: finish the step (like the big button), undo or redo;
- a card of one of a game's kinds: what that game says (send a command, or choose it on the
  form shown), handed the state while that game is played on its table;
- anything else: show what the card is and change nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.phrases import render
from ..games.registry import DEFAULT_GAME, GAMES
from ..i18n import _
from ..reader.tags import COMMAND, TagMeaning, card_name, kinds

if TYPE_CHECKING:
    from ..core.game import Game

FORCE_HINT = re.compile(r"\s*\(send force: true[^)]*\)")


@dataclass(frozen=True)
class ReadPlan:
    kind: str
    """"send" (a driver command), "act" (the big button), "choose_<kind>" (the shown screen's
    form takes the card, e.g. "choose_blight"), "show" (say what it is, change nothing) or
    "enrol" (unknown tag)."""
    message: str
    """What the app says about the read."""
    command: dict[str, Any] | None = None
    card: str | None = None
    """The card's id, for "choose_<kind>"."""


def tag_name(kind: str, card: str) -> str:
    """What players call the card (or command) a tag stands for, in the language in use."""
    return card_name(TagMeaning(kind, card), _)


def kind_name(kind: str) -> str:
    """One card of the kind, as a sentence names it ("fear card"), in the language in use."""
    words = kinds().get(kind)
    return _(words.one) if words is not None else kind


def plan_read(uid: str, tag: dict[str, Any] | None, state: dict[str, Any] | None,
              screen: str) -> ReadPlan:
    """What to do with a read of `uid` (`tag`: its registry entry or None) on `screen`
    ("table" for the table screen of the game in `state`)."""
    if tag is None:
        return ReadPlan("enrol", _("This tag ({uid}) is not enrolled yet. Enrol it?").format(
            uid=uid))
    kind, card = tag["kind"], tag["card"]
    name = tag_name(kind, card)
    playing = screen == "table" and bool(state) and state is not None and not game_over(state)
    if kind == COMMAND:
        if not playing:
            return ReadPlan("show", _("Command tag: {name}. It works on the table during a "
                                      "game.").format(name=name))
        if card == "done":
            return ReadPlan("act", _("Tag: {name}").format(name=name))
        return ReadPlan("send", _("Tag: {name}").format(name=name), {"cmd": card})
    game = game_of(kind, state)
    if game is not None:
        shown = state if playing and state is not None and game_shown(state) is game else None
        read = game.plan_read(kind, card, shown, screen)
        if read is not None:
            values = {key: render(value, _) for key, value in read.values.items()}
            message = _(read.message).format(name=name, **values)
            if read.command is not None:
                return ReadPlan("send", message, read.command)
            if read.form:
                return ReadPlan(f"choose_{kind}", message, card=card)
    return ReadPlan("show", _("{name} ({kind}). Nothing to do with it just now.").format(
        name=name, kind=kind_name(kind)))


def game_over(state: dict[str, Any]) -> bool:
    """The game in `state` has ended (Spirit Island's phase, any game's outcome)."""
    return state.get("phase") == "over" or bool(state.get("outcome"))


def game_shown(state: dict[str, Any]) -> Game | None:
    """The game `state` shows (a state without a title is from before there were two games)."""
    return GAMES.get(state.get("title", DEFAULT_GAME)) if state else None


def game_of(kind: str, state: dict[str, Any] | None) -> Game | None:
    """The game a card of `kind` belongs to: the one shown when it has such cards, else the
    first in the registry that has (a card on the new-game screen, before its game is shown)."""
    shown = game_shown(state) if state else None
    if shown is not None and kind in shown.tag_kinds:
        return shown
    return next((game for game in GAMES.values() if kind in game.tag_kinds), None)


def forceable(error: str) -> str | None:
    """A refusal the players may overrule (a card out of the expected order), in plain words;
    None when the refusal is final."""
    if not FORCE_HINT.search(error):
        return None
    return FORCE_HINT.sub("", error)
