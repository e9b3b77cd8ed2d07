"""What a card laid on the reader means at this moment of the game (pure: no Kivy, no serial).

The reader says only "this tag is here". With the tag registry's answer and the game state the
driver reports, `plan_read` decides what the app does, the same way a touch would:

- an invader card while the table waits for the card turned over (physical deck): reveal it;
- a fear card in the Fear step with earned cards waiting: resolve the next one as that card;
- a blight card on the new-game screen: choose it; when the table waits for the next blight
  card: name it;
- a command tag on the table: finish the step (like the big button), undo or redo;
- anything else: show what the card is and change nothing; an unknown tag: offer to enrol it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..games.spirit_island.ui.presenter import next_action
from ..i18n import N_, _
from ..reader.tags import TagMeaning, card_name

FORCE_HINT = re.compile(r"\s*\(send force: true[^)]*\)")
KIND_NAMES = {"invader": N_("invader card"), "fear": N_("fear card"),
              "blight": N_("blight card"), "command": N_("command tag")}


@dataclass(frozen=True)
class ReadPlan:
    kind: str
    """"send" (a driver command), "act" (the big button), "choose_blight" (new-game form),
    "show" (say what it is, change nothing) or "enrol" (unknown tag)."""
    message: str
    """What the app says about the read."""
    command: dict[str, Any] | None = None
    card: str | None = None
    """The card's id, for "choose_blight"."""


def tag_name(kind: str, card: str) -> str:
    """What players call the card (or command) a tag stands for, in the language in use."""
    return card_name(TagMeaning(kind, card), _)


def plan_read(uid: str, tag: dict[str, Any] | None, state: dict[str, Any] | None,
              screen: str) -> ReadPlan:
    """What to do with a read of `uid` (`tag`: its registry entry or None) on `screen`."""
    if tag is None:
        return ReadPlan("enrol", _("This tag ({uid}) is not enrolled yet. Enrol it?").format(
            uid=uid))
    kind, card = tag["kind"], tag["card"]
    name = tag_name(kind, card)
    playing = screen == "table" and bool(state) and state is not None \
        and state.get("phase") != "over"
    action = next_action(state).kind if playing and state is not None else None
    if kind == "command":
        if not playing:
            return ReadPlan("show", _("Command tag: {name}. It works on the table during a "
                                      "game.").format(name=name))
        if card == "done":
            return ReadPlan("act", _("Tag: {name}").format(name=name))
        return ReadPlan("send", _("Tag: {name}").format(name=name), {"cmd": card})
    if kind == "invader" and action == "reveal":
        return ReadPlan("send", _("Card read: {name}").format(name=name),
                        {"cmd": "reveal", "card": card})
    if kind == "fear" and action == "resolve_fear":  # turned over: its effect shows until Done
        return ReadPlan("send", _("Fear card read: {name}").format(name=name),
                        {"cmd": "fear_card", "card": card})
    if kind == "blight" and screen == "new_game":
        return ReadPlan("choose_blight", _("Blight card read: {name}").format(name=name),
                        card=card)
    if kind == "blight" and action == "next_blight_card":
        return ReadPlan("send", _("Blight card read: {name}").format(name=name),
                        {"cmd": "next_blight_card", "card": card})
    return ReadPlan("show", _("{name} ({kind}). Nothing to do with it just now.").format(
        name=name, kind=_(KIND_NAMES[kind])))



def forceable(error: str) -> str | None:
    """A refusal the players may overrule (a card out of the expected order), in plain words;
    None when the refusal is final."""
    if not FORCE_HINT.search(error):
        return None
    return FORCE_HINT.sub("", error)
