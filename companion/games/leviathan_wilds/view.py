"""The game as players and other programs see it: plain dicts, ready for JSON or a screen.

`view` has the contract's fields (title, round, step, active, threat_row, wrath, guardians,
crystals_left, outcome) and extras: the prompt and reminders (message id, English text, values),
next_slot, last_chance, crystals, the wrath track and which numbers are still unverified.
"""

from __future__ import annotations

from typing import Any

from . import events as e
from .data import GAME_ID, HAND_SIZE, LEVIATHANS, MUSHROOMS_DRAWN, SETUP_WILD, UNVERIFIED
from .effects import guardian_name
from .rules import can_decline_last, wild_at
from .state import Setup, State
from .texts import OUTCOME_REASONS, PROMPTS, REMINDERS, SETUP_ITEMS, message, render


def _half(state: State, slot: int) -> str:
    return "wild" if state.row[slot].wild else "calm"


def _slot_label(slot: int) -> int:
    return slot + 1  # players count the row 1-5 from the left


def outcome_reason(state: State) -> str:
    assert state.outcome is not None
    values: dict[str, Any] = {}
    if state.outcome.reason == "last_chance":
        values = {"crystals": state.crystals_left,
                  "conditions": sum(not w.met for w in state.win_conditions)}
    return render(OUTCOME_REASONS[state.outcome.reason], values)


def prompt(state: State) -> dict[str, Any]:
    i = state.active
    who = guardian_name(state, i)
    if state.outcome is not None:
        if state.outcome.result == "win":
            return message(PROMPTS, "lw-prompt-win")
        return message(PROMPTS, "lw-prompt-loss", reason=outcome_reason(state))
    slot = state.revealed_slot
    if state.step == "reveal":
        if slot is not None:
            return message(PROMPTS, "lw-prompt-revealed", slot=_slot_label(slot),
                           half=_half(state, slot))
        upcoming = state.next_slot or 0
        return message(PROMPTS, "lw-prompt-reveal", guardian=who, slot=_slot_label(upcoming),
                       half=_half(state, upcoming))
    if state.step == "activate":
        card = state.guardians[i].ap_card
        if card is None:
            return message(PROMPTS, "lw-prompt-activate", guardian=who)
        if not card.from_hand and state.guardians[i].ap_left == card.ap:
            return message(PROMPTS, "lw-prompt-activate-empty", guardian=who)
        return message(PROMPTS, "lw-prompt-activate-ap", guardian=who,
                       ap=state.guardians[i].ap_left)
    if state.step == "resolve":
        shown = slot if slot is not None else 0
        return message(PROMPTS, "lw-prompt-resolve", slot=_slot_label(shown),
                       half=_half(state, shown))
    if can_decline_last(state):
        return message(PROMPTS, "lw-prompt-draw-last", guardian=who, hand=HAND_SIZE)
    return message(PROMPTS, "lw-prompt-draw", guardian=who, hand=HAND_SIZE)


_STEP_REMINDERS = {
    "reveal": ("lw-rem-reveal-flip", "lw-rem-reveal-attack", "lw-rem-reveal-fast",
               "lw-rem-reveal-delayed"),
    "activate": ("lw-rem-activate-protections", "lw-rem-activate-end"),
    "resolve": ("lw-rem-resolve-order", "lw-rem-resolve-protections-off", "lw-rem-resolve-once",
                "lw-rem-resolve-nobody-hit"),
    "draw": ("lw-rem-draw-no-reshuffle",),
}


def reminders(state: State) -> list[dict[str, Any]]:
    if state.outcome is not None:
        return []
    out = [message(REMINDERS, rid) for rid in _STEP_REMINDERS[state.step]]
    if state.step == "activate" and any(c.corrupted and not c.shattered for c in state.crystals):
        out.append(message(REMINDERS, "lw-rem-activate-corrupted"))
    if can_decline_last(state):
        out.append(message(REMINDERS, "lw-rem-draw-last"))
    last = len(state.row) - 1
    if state.revealed_slot == last or (state.revealed_slot is None and state.next_slot == last):
        wrath = min(state.wrath + 1, len(state.setup.numbers.wrath_wild_counts) - 1)
        out.append(message(REMINDERS, "lw-rem-round-end", wrath=wrath,
                           wild=wild_at(state, wrath)))
    for i, guardian in enumerate(state.guardians):
        if guardian.falling:
            out.append(message(REMINDERS, "lw-rem-falling", guardian=guardian_name(state, i)))
    if state.last_chance is not None:
        names = ", ".join(guardian_name(state, i) for i in state.last_chance) or "nobody"
        out.append(message(REMINDERS, "lw-rem-last-chance", guardians=names))
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


def view(state: State) -> dict[str, Any]:
    """The whole tracked state as a JSON-ready dict."""
    setup, numbers = state.setup, state.setup.numbers
    leviathan = LEVIATHANS[setup.leviathan]
    outcome = None if state.outcome is None else {
        "result": state.outcome.result, "reason": outcome_reason(state),
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
        "prompt": prompt(state),
        "reminders": reminders(state),
        "unverified": [{"numbers": table, "note": note} for table, note in UNVERIFIED],
    }


def event_view(event: e.Event) -> dict[str, Any]:
    return event.to_dict()


def setup_checklist(target: State | Setup) -> list[tuple[str, str]]:
    """The setup steps for this game, as (item id, English text)."""
    setup = target.setup if isinstance(target, State) else target
    numbers = setup.numbers
    crystals = len(target.crystals) if isinstance(target, State) else "the printed"
    first = setup.start_guardian
    start = setup.guardians[first].character or f"Guardian {first + 1}"
    values: dict[str, Any] = {
        "leviathan": setup.leviathan, "name": LEVIATHANS[setup.leviathan].name,
        "crystals": crystals, "difficulty": setup.difficulty, "wrath_space": numbers.wrath_start,
        "wild": SETUP_WILD[setup.difficulty], "health": numbers.health_start,
        "corruption": numbers.corruption_start, "hand": HAND_SIZE, "guardian": start,
        "mushrooms": MUSHROOMS_DRAWN,
    }
    skip = {"lw-setup-guardian-decks" if setup.solo else "lw-setup-solo-deck"}
    if not SETUP_WILD[setup.difficulty]:
        skip.add("lw-setup-wild")
    return [(item, text.format(**values)) for item, text in SETUP_ITEMS if item not in skip]
