"""The game as players and other programs see it: plain dicts, ready for JSON or a screen.

`view` has the contract's fields (title, round, step, active, threat_row, wrath, guardians,
crystals_left, outcome) and extras: the prompt and reminders (message id, text, values),
next_slot, last_chance, crystals, the wrath track and which numbers are still unverified. The
texts are rendered through the `translate` it is handed (English as written by default); ids,
values and every other field are the same in every language.
"""

from __future__ import annotations

from typing import Any

from companion.core.game import PublicFields, public_part
from companion.core.phrases import Listing, Phrase, Translate, as_written, message

from . import events as e
from .data import GAME_ID, HAND_SIZE, LEVIATHANS, MUSHROOMS_DRAWN, SETUP_WILD, UNVERIFIED
from .effects import guardian_name
from .rules import can_decline_last, wild_at
from .state import Setup, State
from .texts import OUTCOME_REASONS, PROMPTS, REMINDERS, SETUP_ITEMS, WORDS, word


def _half(state: State, slot: int) -> Phrase:
    return word("wild" if state.row[slot].wild else "calm")


def _who(state: State, i: int) -> str | Phrase:
    """The guardian's character name (a proper name, never translated), or "Guardian n"."""
    character = state.setup.guardians[i].character
    return character if character else word("guardian", number=i + 1)


def _slot_label(slot: int) -> int:
    return slot + 1  # players count the row 1-5 from the left


def _outcome_reason(state: State) -> Phrase:
    assert state.outcome is not None
    values: dict[str, Any] = {}
    if state.outcome.reason == "last_chance":
        values = {"crystals": state.crystals_left,
                  "conditions": sum(not w.met for w in state.win_conditions)}
    return Phrase(OUTCOME_REASONS[state.outcome.reason], **values)


def outcome_reason(state: State, translate: Translate = as_written) -> str:
    return _outcome_reason(state).render(translate)


def prompt(state: State, translate: Translate = as_written) -> dict[str, Any]:
    i = state.active
    who = _who(state, i)
    if state.outcome is not None:
        if state.outcome.result == "win":
            return message(PROMPTS, "lw-prompt-win", translate)
        return message(PROMPTS, "lw-prompt-loss", translate, reason=_outcome_reason(state))
    slot = state.revealed_slot
    beaten = state.guardians[i].defeated  # their turn goes on without them: never named
    if state.step == "reveal":
        if slot is None and beaten:
            upcoming = state.next_slot or 0
            return message(PROMPTS, "lw-prompt-reveal-defeated", translate,
                           slot=_slot_label(upcoming), half=_half(state, upcoming))
        if slot is not None:
            return message(PROMPTS, "lw-prompt-revealed", translate, slot=_slot_label(slot),
                           half=_half(state, slot))
        upcoming = state.next_slot or 0
        return message(PROMPTS, "lw-prompt-reveal", translate, guardian=who,
                       slot=_slot_label(upcoming), half=_half(state, upcoming))
    if state.step == "activate":
        card = state.guardians[i].ap_card
        if card is None:
            return message(PROMPTS, "lw-prompt-activate", translate, guardian=who)
        if not card.from_hand and state.guardians[i].ap_left == card.ap:
            return message(PROMPTS, "lw-prompt-activate-empty", translate, guardian=who)
        return message(PROMPTS, "lw-prompt-activate-ap", translate, guardian=who,
                       ap=state.guardians[i].ap_left)
    if state.step == "resolve":
        shown = slot if slot is not None else 0
        return message(PROMPTS, "lw-prompt-resolve", translate, slot=_slot_label(shown),
                       half=_half(state, shown))
    if beaten:
        return message(PROMPTS, "lw-prompt-draw-defeated", translate)
    if can_decline_last(state):
        return message(PROMPTS, "lw-prompt-draw-last", translate, guardian=who, hand=HAND_SIZE)
    return message(PROMPTS, "lw-prompt-draw", translate, guardian=who, hand=HAND_SIZE)


_STEP_REMINDERS = {
    "reveal": ("lw-rem-reveal-flip", "lw-rem-reveal-attack", "lw-rem-reveal-fast",
               "lw-rem-reveal-delayed"),
    "activate": ("lw-rem-activate-protections", "lw-rem-activate-end"),
    "resolve": ("lw-rem-resolve-order", "lw-rem-resolve-protections-off", "lw-rem-resolve-once",
                "lw-rem-resolve-nobody-hit"),
    "draw": ("lw-rem-draw-no-reshuffle",),
}


def reminders(state: State, translate: Translate = as_written) -> list[dict[str, Any]]:
    if state.outcome is not None:
        return []
    out = [message(REMINDERS, rid, translate) for rid in _STEP_REMINDERS[state.step]]
    if state.step == "activate" and any(c.corrupted and not c.shattered for c in state.crystals):
        out.append(message(REMINDERS, "lw-rem-activate-corrupted", translate))
    if can_decline_last(state):
        out.append(message(REMINDERS, "lw-rem-draw-last", translate))
    last = len(state.row) - 1
    if state.revealed_slot == last or (state.revealed_slot is None and state.next_slot == last):
        wrath = min(state.wrath + 1, len(state.setup.numbers.wrath_wild_counts) - 1)
        # Players count the track's spaces from 1, as the new-game form and the table do.
        out.append(message(REMINDERS, "lw-rem-round-end", translate, wrath=wrath + 1,
                           wild=wild_at(state, wrath)))
    for i, guardian in enumerate(state.guardians):
        if guardian.falling:
            out.append(message(REMINDERS, "lw-rem-falling", translate, guardian=_who(state, i)))
    if state.last_chance is not None:
        names = Listing((_who(state, i) for i in state.last_chance), WORDS["nobody"], ", ")
        out.append(message(REMINDERS, "lw-rem-last-chance", translate, guardians=names))
    return out


def _guardian(state: State, i: int) -> dict[str, Any]:
    guardian, pile, spec = state.guardians[i], state.pile_of(i), state.setup.guardians[i]
    card = guardian.ap_card
    return {
        "health": guardian.health,
        "corruption": guardian.corruption,
        "deck": pile.deck,
        "hand": guardian.hand,
        "discard": pile.discard,
        "defeated": guardian.defeated,
        "name": guardian_name(state, i),
        "character": spec.character,
        "class": spec.guardian_class,
        "falling": guardian.falling,
        "focus_ready": guardian.focus_ready,
        "weaknesses": list(guardian.weaknesses),
        "ap_card": None if card is None else {
            "ap": card.ap, "protections": list(card.protections), "from_hand": card.from_hand},
        "ap_left": guardian.ap_left,
        "pile": guardian.pile,
    }


def view(state: State, translate: Translate = as_written) -> dict[str, Any]:
    """The whole tracked state as a JSON-ready dict, its texts through `translate`."""
    setup, numbers = state.setup, state.setup.numbers
    leviathan = LEVIATHANS[setup.leviathan]
    outcome = None if state.outcome is None else {
        "result": state.outcome.result, "reason": outcome_reason(state, translate),
        "reason_id": state.outcome.reason}
    return {
        "title": GAME_ID,
        "round": state.round,
        "step": state.step,
        "active": state.active,
        "threat_row": [{"face_up": s.face_up, "wild": s.wild, "card": s.card}
                       for s in state.row],
        "wrath": state.wrath,
        "guardians": [_guardian(state, i) for i in range(len(state.guardians))],
        "crystals_left": state.crystals_left,
        "outcome": outcome,
        "leviathan": {"number": leviathan.number, "name": leviathan.name,
                      "complexity": leviathan.complexity},
        "difficulty": setup.difficulty,
        "players": setup.players,
        "solo": setup.solo,
        "next_slot": state.next_slot,
        "revealed_slot": state.revealed_slot,
        "wrath_track": {"position": state.wrath, "wild_counts": list(numbers.wrath_wild_counts),
                        "wild_now": wild_at(state, state.wrath)},
        "crystals": [{"dice": list(c.dice), "start": list(c.start), "corrupted": c.corrupted,
                      "giant": c.giant, "shattered": c.shattered} for c in state.crystals],
        "win_conditions": [{"label": w.label, "met": w.met} for w in state.win_conditions],
        "counters": dict(state.counters),
        "weakness_deck": state.weakness_deck,
        "last_chance": None if state.last_chance is None else list(state.last_chance),
        "can_decline_last": can_decline_last(state),
        "prompt": prompt(state, translate),
        "reminders": reminders(state, translate),
        "unverified": [{"numbers": table, "note": note} for table, note in UNVERIFIED],
    }


def event_view(event: e.Event) -> dict[str, Any]:
    return event.to_dict()


def setup_checklist(target: State | Setup,
                    translate: Translate = as_written) -> list[tuple[str, str]]:
    """The setup steps for this game, as (item id, text through `translate`)."""
    setup = target.setup if isinstance(target, State) else target
    numbers = setup.numbers
    crystals = len(target.crystals) if isinstance(target, State) else word("printed")
    first = setup.start_guardian
    start = setup.guardians[first].character or word("guardian", number=first + 1)
    values: dict[str, Any] = {
        "leviathan": setup.leviathan, "name": LEVIATHANS[setup.leviathan].name,
        "crystals": crystals, "difficulty": word(setup.difficulty),
        "wrath_space": numbers.wrath_start + 1,  # counted from 1, as on the form
        "wild": SETUP_WILD[setup.difficulty], "health": numbers.health_start,
        "corruption": numbers.corruption_start, "hand": HAND_SIZE, "guardian": start,
        "mushrooms": MUSHROOMS_DRAWN,
    }
    skip = {"lw-setup-guardian-decks" if setup.solo else "lw-setup-solo-deck"}
    if not SETUP_WILD[setup.difficulty]:
        skip.add("lw-setup-wild")
    return [(item, Phrase(text, **values).render(translate))
            for item, text in SETUP_ITEMS if item not in skip]


PUBLIC_FIELDS: PublicFields = {
    "title": True, "round": True, "step": True, "active": True,
    # Both halves show on a face-down threat, so calm or wild is seen; its card is not.
    "threat_row": {"face_up": True, "wild": True, "card": True},
    "wrath": True,
    "guardians": {
        "health": True, "corruption": True,
        "deck": True, "hand": True, "discard": True,  # how many cards, never which
        "defeated": True, "name": True, "character": True, "class": True, "falling": True,
        "focus_ready": True, "weaknesses": True, "ap_card": True, "ap_left": True,
        "pile": True,
    },
    "crystals_left": True, "outcome": True, "leviathan": True, "difficulty": True,
    "players": True, "solo": True, "next_slot": True, "revealed_slot": True,
    "wrath_track": True, "crystals": True, "win_conditions": True, "counters": True,
    "weakness_deck": True, "last_chance": True, "can_decline_last": True, "prompt": True,
    "reminders": True, "unverified": True,
}
"""What of `view` the whole table sees (`public_view`)."""


def public_view(view: dict[str, Any]) -> dict[str, Any]:
    """The phones' part of `view`: the open table; a threat's card only while it lies face up
    (the model never knows a face-down one, and the phones must not learn one if it did)."""
    public = public_part(view, PUBLIC_FIELDS)
    for slot in public.get("threat_row") or ():
        if slot is not None and not slot.get("face_up"):
            slot["card"] = None
    return public
