"""The table's words that the phones' page shows too: the names of phases and steps, and the
banner lines a command's events call for ("Fear card earned!", "Undone: …").

Pure Python: the table screen's presenter and the mirror both call these, each with its own
translator (`_`: the app's language on the table, each phone's on the mirror), so the page
and the touchscreen say the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.core.phrases import Phrase, Translate
from companion.i18n import N_

from .blight_cards import BLIGHT_CARDS
from .cards import ALL_CARDS
from .fear_cards import FEAR_CARDS
from .texts import SPIRIT_NAME, still_growing_phrase

PHASE_NAMES = {
    "setup": N_("Setup"),
    "spirit": N_("Spirit phase"),
    "fast": N_("Fast powers"),
    "invader": N_("Invader phase"),
    "slow": N_("Slow powers"),
    "time_passes": N_("Time passes"),
    "over": N_("Game over"),
}

STEP_NAMES = {
    "royal_backing": N_("Royal Backing"),
    "initial_explore": N_("Initial explore"),
    "growth": N_("Growth"),
    "gain_energy": N_("Gain energy"),
    "play_cards": N_("Choose and pay for cards"),
    "fast_powers": N_("Fast powers"),
    "blighted_island": N_("Blighted Island"),
    "event": N_("Event"),
    "fear": N_("Fear"),
    "high_immigration": N_("High Immigration"),
    "escalation": N_("Escalation"),
    "ravage": N_("Ravage"),
    "build": N_("Build"),
    "explore": N_("Explore"),
    "advance": N_("Advance invader cards"),
    "slow_powers": N_("Slow powers"),
    "time_passes": N_("Time passes"),
    "over": N_("Game over"),
}


def named_step(step: str) -> Phrase:
    """A step's name as the table shows it ("Ravage"), for a sentence about it."""
    return Phrase(STEP_NAMES.get(step, step.replace("_", " ")))


BLIGHT_SIDES = {
    "healthy": N_("Healthy Island"),
    "still_healthy": N_("Still-Healthy Island"),
    "blighted": N_("Blighted Island"),
}

RESULT_NAMES = {"victory": N_("Victory"), "defeat": N_("Defeat"),
                "sacrifice": N_("Sacrifice victory")}

ROMAN = {0: "0", 1: "I", 2: "II", 3: "III", 4: "IV"}

CORRECTION_NAMES = {
    "move_card": N_("invader card moved"),
    "accelerate": N_("invader card taken from the deck"),
    "return_fear_card": N_("fear card put back"),
    "discard_fear_card": N_("fear card discarded"),
    "add_fear_card": N_("fear card added"),
    "remove_fear_card": N_("fear card removed"),
    "set_blight": N_("blight count corrected"),
}
"""The corrections in players' words (an undo says which it took back), never a command's id."""


def names(_: Translate) -> dict[str, dict[str, str]]:
    """The words for the ids the state holds, for the phones' page: phases and steps."""
    return {"phases": {key: _(text) for key, text in PHASE_NAMES.items()},
            "steps": {key: _(text) for key, text in STEP_NAMES.items()}}


# --- announcements -------------------------------------------------------------------------------

BANNER_KINDS = {"blight_card_needed": "blight_card", "blight_card_flipped": "blight_card"}
"""Events whose news replace each other's: a card named replaces "which card is it?"."""


@dataclass(frozen=True)
class Announcement:
    """One banner line, and the kind of news it is: a banner holds one line of each kind."""

    kind: str
    text: str


def banner_lines(events: list[dict[str, Any]], state: dict[str, Any] | None,
                 _: Translate) -> list[dict[str, str]]:
    """What the banner says right after the command whose events these are: its news, or for
    an undo or redo the line saying what was taken back or done again."""
    undo = next((line for line in (undo_line(event, _) for event in events) if line), None)
    lines = [undo] if undo is not None else announce(events, state, _)
    return [{"kind": line.kind, "text": line.text} for line in lines]


def announce(events: list[dict[str, Any]], state: dict[str, Any] | None,
             _: Translate) -> list[Announcement]:
    """A command's news, one line per kind: three fear cards earned at once are one line, and
    terror rising twice says the level it reached."""
    lines: dict[str, Announcement] = {}
    earned = [event for event in events if event["type"] == "fear_card_earned"]
    for event in events:
        text: str | None
        if event["type"] == "fear_card_earned" and len(earned) > 1:
            text = _("{count} fear cards earned! {waiting} waiting for the Fear step.").format(
                count=len(earned), waiting=earned[-1]["waiting"])
        else:
            text = _announcement(event, state, _)
        if text:  # the latest of a kind, where the first of its kind stood
            kind = BANNER_KINDS.get(event["type"], event["type"])
            lines[kind] = Announcement(kind, text)
    return list(lines.values())


PIECE_NAMES = {"town": (N_("town destroyed"), N_("{count} towns destroyed")),
               "city": (N_("city destroyed"), N_("{count} cities destroyed"))}


def describe_command(command: dict[str, Any], _: Translate) -> str:
    """A command in a few words, for "Undone: …" and "Redone: …"."""
    kind = command.get("cmd", "")
    amount = command.get("amount", 1)
    if kind == "fear":
        return _("+{amount} fear").format(amount=amount)
    if kind == "destroy":
        count = command.get("count", 1)
        one, many = PIECE_NAMES[command.get("piece", "town")]
        pieces = _(one) if count == 1 else _(many).format(count=count)
        fear = count * (2 if command.get("piece") == "city" else 1)
        return _("{pieces}, +{fear} fear").format(pieces=pieces, fear=fear)
    if kind == "blight":
        return _("+{amount} blight").format(amount=amount)
    if kind == "heal":
        return _("{amount} blight healed").format(amount=amount)
    if kind == "lose_fear":
        return _("{amount} fear given back").format(amount=amount)
    if kind == "effect":
        return ", ".join(describe_command(part, _) for part in command.get("commands", []))
    if kind == "next":
        step = command.get("step")
        if step:
            return _("{step} finished").format(step=_(STEP_NAMES.get(step, step)))
        return _("step finished")
    if kind == "reveal":
        card = ALL_CARDS.get(command.get("card", ""))
        name = _(card.name) if card else command.get("card", "")
        return _("{card} turned over").format(card=name)
    if kind in ("fear_card", "resolve_fear") and command.get("card"):
        fear_card = FEAR_CARDS.get(command["card"])
        name = _(fear_card.name) if fear_card else command["card"]
        return (_("{card} turned over") if kind == "fear_card"
                else _("{card} resolved")).format(card=name)
    if kind == "resolve_fear":
        return _("fear card resolved")
    if kind == "next_blight_card":
        blight_card = BLIGHT_CARDS.get(command.get("card", ""))
        name = _(blight_card.name) if blight_card else command.get("card", "")
        return _("blight card {card} named").format(card=name)
    if kind == "ritual":
        return _("ritual")
    if kind == "spirit_done":
        spirit = _(SPIRIT_NAME).format(number=command.get("spirit", 0) + 1)
        return (_("{spirit} done") if command.get("done", True)
                else _("{spirit} not done yet")).format(spirit=spirit)
    if kind == "declare":
        return _("the game's ending")
    if kind == "score":
        return _("the score")
    return _(CORRECTION_NAMES.get(kind, N_("a correction")))


def undo_line(event: dict[str, Any], _: Translate) -> Announcement | None:
    """ "Undone: city destroyed, +2 fear" for an undo or redo event."""
    if event["type"] == "undone":
        return Announcement("undo", _("Undone: {what}").format(
            what=describe_command(event["command"], _)))
    if event["type"] == "redone":
        return Announcement("undo", _("Redone: {what}").format(
            what=describe_command(event["command"], _)))
    return None


def _announcement(event: dict[str, Any], state: dict[str, Any] | None,
                  _: Translate) -> str | None:
    """One banner line. The event's own texts are English; where the state (in the players'
    language) says the same, the state's words are used."""
    kind = event["type"]
    state = state or {}
    if kind == "fear_card_earned":
        return _("Fear card earned! {waiting} waiting for the Fear step.").format(
            waiting=event["waiting"])
    if kind == "terror_level_raised":
        condition = (state["victory_condition"]
                     if state.get("terror_level") == event["terror_level"]
                     else event["victory_condition"])
        return _("Terror rises to level {level}: now you win when {condition}.").format(
            level=ROMAN.get(event["terror_level"], "?"), condition=condition)
    if kind == "blight_card_flipped":
        blight = state.get("blight") or {}
        side = _(BLIGHT_SIDES.get(event.get("side", "blighted"), "Blighted Island"))
        return _("The blight card flips to {side}: {name}. {effect}").format(
            side=side, name=blight.get("name") or event["name"],
            effect=blight.get("effect") or _(event["effect"]))
    if kind == "blight_card_needed" and event.get("flipping"):
        return _("The blight card is out of blight: turn it over and tell the app which card "
                 "it is.")
    if kind == "blight_card_needed":
        return _("The Still-Healthy Island card is out of blight: draw the next blight card.")
    if kind == "spirit_done":
        return still_growing_phrase(event["still"]).render(_)
    if kind == "last_invader_card":
        return _("Last card in the invader deck: time is running out.")
    if kind == "invader_deck_empty":
        return _("The invader deck is empty: the next explore loses the game.")
    if kind == "step_started" and event.get("step") == "escalation" and state:
        adversary = state.get("adversary") or {}
        return _("Escalation! {effect}").format(effect=adversary.get("escalation", "")).strip()
    if kind == "high_immigration_removed":
        return _("The High Immigration space leaves the game.")
    if kind == "special_card_revealed":
        name = _(event["name"]) if event.get("name") else _("A special card")
        return _("{name} came up.").format(name=name)
    if kind == "invader_card_uncovered":
        return _("An invader card was under the fear card: it goes onto the Build space.")
    if kind == "game_ended":
        outcome = state.get("outcome") or {}
        return _("Game over: {result} ({detail}).").format(
            result=_(RESULT_NAMES.get(event["result"], event["result"])),
            detail=outcome.get("detail") or event["detail"] or event["reason"])
    return None


@dataclass(frozen=True)
class Action:
    """What the one big button does now, and what it says."""

    kind: str
    """"next", "reveal", "resolve_fear", "next_blight_card", "ritual" or "end"."""
    label: str


def next_action(state: dict[str, Any], _: Translate) -> Action:
    """What the one big button does at `state`, and its words in `_`'s language (the card
    reader asks it too: a card laid on the reader does what the button asks for)."""
    invader, fear, blight = state["invader"], state["fear"], state["blight"]
    if state["phase"] == "over":
        return Action("end", _("Score the game"))
    if blight.get("awaiting_card") and blight.get("side") == "healthy":
        return Action("next_blight_card", _("Name the blight card turned over"))
    if blight.get("awaiting_card"):
        return Action("next_blight_card", _("Name the next blight card"))
    if invader["awaiting_reveal"]:
        if state["deck_mode"] == "physical":
            return Action("reveal", _("Name the card turned over"))
        return Action("next", _("Turn over the card"))
    if fear["earned"] and state["step"] == "fear":
        if fear.get("card"):
            return Action("resolve_fear", _("Done: card resolved"))
        return Action("resolve_fear",
                      _("Resolve fear card ({waiting} waiting)").format(waiting=fear["earned"]))
    return Action("next", _("Done"))
