"""What guardians do during a turn: health, corruption, grip, the AP card and its actions,
strikes on crystals, terrain, falling, focus and weaknesses; and corrections to the crystals,
win conditions and leviathan counters. Each handler is pure: (state, command) → (state, events).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from companion.core.errors import Refused
from companion.core.phrases import Phrase

from . import commands as c
from . import events as e
from .data import ACTION_COST, DICE_PER_COLOUR
from .effects import (
    Events,
    cards_moved,
    change_corruption,
    change_health,
    check_guardian,
    check_victory,
    draw,
    gain_grip,
    guardian_called,
    lose_grip,
    set_guardian,
    set_pile,
    start_falling,
)
from .state import ApCard, Crystal, Guardian, State, WinCondition


def _health(state: State, command: c.Health) -> tuple[State, Events]:
    check_guardian(state, command.guardian)
    events: Events = []
    return change_health(state, command.guardian, command.amount, events), events


def _corruption(state: State, command: c.Corruption) -> tuple[State, Events]:
    check_guardian(state, command.guardian)
    events: Events = []
    return change_corruption(state, command.guardian, command.amount, events), events


def _grip(state: State, command: c.Grip) -> tuple[State, Events]:
    check_guardian(state, command.guardian)
    events: Events = []
    if command.amount < 0:
        return lose_grip(state, command.guardian, -command.amount, events), events
    return gain_grip(state, command.guardian, command.amount, events), events


def _draw(state: State, command: c.Draw) -> tuple[State, Events]:
    check_guardian(state, command.guardian)
    if not state.pile_of(command.guardian).deck:
        raise Refused(Phrase("{guardian}'s deck is empty: there is nothing to draw",
                             guardian=guardian_called(state, command.guardian)))
    events: Events = []
    return draw(state, command.guardian, command.count, events), events


def _discard(state: State, command: c.Discard) -> tuple[State, Events]:
    i = command.guardian
    guardian = check_guardian(state, i)
    if command.count > guardian.hand:
        raise Refused(Phrase("{guardian} holds {hand} cards, not {count}",
                             guardian=guardian_called(state, i), hand=guardian.hand,
                             count=command.count))
    pile = state.pile_of(i)
    state = set_guardian(state, i, replace(guardian, hand=guardian.hand - command.count))
    state = set_pile(state, guardian.pile, replace(pile, discard=pile.discard + command.count))
    return state, [cards_moved(state, i, "discard", command.count)]


# --- the activation: AP card and standard actions -------------------------------------------------


def _in_activation(state: State) -> Guardian:
    if state.step != "activate":
        raise Refused(Phrase("AP are spent only in step 2, the active guardian's activation"))
    return state.guardians[state.active]


def _play_ap_card(state: State, command: c.PlayApCard) -> tuple[State, Events]:
    guardian = _in_activation(state)
    name = guardian_called(state, state.active)
    if guardian.ap_card is not None:
        what = Phrase("an AP card") if guardian.ap_card.from_hand else Phrase(
            "2 AP from an empty hand")
        raise Refused(Phrase("{guardian} already has {what} this activation", guardian=name,
                             what=what))
    if not guardian.hand:
        raise Refused(Phrase("{guardian} has no cards in hand, so takes 2 AP without a card",
                             guardian=name))
    card = ApCard(command.ap, command.protections)
    state = set_guardian(state, state.active, replace(
        guardian, hand=guardian.hand - 1, ap_card=card, ap_left=command.ap))
    return state, [e.ApCardPlayed(state.active, command.ap, command.protections)]


def _spend(state: State, i: int, cost: int) -> State:
    """Pay `cost` AP for guardian `i`'s standard action or strike."""
    guardian = _in_activation(state)
    name = guardian_called(state, i)
    if i != state.active:
        raise Refused(Phrase("only the active guardian spends AP; it is {active}'s activation, "
                             "not {guardian}'s", active=guardian_called(state, state.active),
                             guardian=name))
    if guardian.falling:
        raise Refused(Phrase("{guardian} is falling, and no AP may be spent while falling",
                             guardian=name))
    if guardian.ap_card is None:
        raise Refused(Phrase("{guardian} has not played an AP card yet (ap_card)", guardian=name))
    if cost > guardian.ap_left:
        raise Refused(Phrase("that costs {cost} AP, and {guardian} has {left} left", cost=cost,
                             guardian=name, left=guardian.ap_left))
    return set_guardian(state, i, replace(guardian, ap_left=guardian.ap_left - cost))


def _act(state: State, command: c.Act) -> tuple[State, Events]:
    i = state.active
    if command.action != "glide" and command.x != 1:
        raise Refused(Phrase("the standard {action} has no X; moves from abilities cost no AP "
                             "and need no command", action=command.action))
    cost = command.x if command.action == "glide" else ACTION_COST[command.action]
    state = _spend(state, i, cost)
    events: Events = [e.ActionTaken(i, command.action, command.x,
                                    state.guardians[i].ap_left)]
    if command.action == "heal":
        state = change_health(state, i, 1, events)
    elif command.action == "rest":
        state = _rest(state, i, events)
    return state, events


def _rest(state: State, i: int, events: Events) -> State:
    # The AP card stays in its slot, so it is not among the discards shuffled back in.
    if state.setup.solo:
        return gain_grip(state, i, state.setup.numbers.solo_rest_grip, events, "rest")
    return gain_grip(state, i, state.pile_of(i).discard, events, "rest")


def _protected(state: State, i: int, against: str) -> bool:
    """An AP card's symbol guards only its guardian, only during their own activation."""
    card = state.guardians[i].ap_card
    return (state.step == "activate" and i == state.active and card is not None
            and against in card.protections)


# --- crystals ---------------------------------------------------------------------------------


def strike_dice(dice: tuple[int, ...], x: int) -> tuple[int, ...]:
    """Strike X: a die that would drop below 1 is removed and the rest of the damage goes on to
    the next (a regular crystal is a giant crystal of one die)."""
    left = list(dice)
    while left and x:
        if left[0] - x < 1:
            x -= left.pop(0)
        else:
            left[0] -= x
            x = 0
    return tuple(left)


def _crystal(state: State, index: int) -> Crystal:
    if not 0 <= index < len(state.crystals):
        raise Refused(Phrase("there is no crystal {crystal}; the crystals are 0 to {last}",
                             crystal=index, last=len(state.crystals) - 1))
    return state.crystals[index]


def _set_crystal(state: State, index: int, crystal: Crystal) -> State:
    return replace(state, crystals=state.crystals[:index] + (crystal,)
                   + state.crystals[index + 1:])


def check_crystal_dice(crystals: tuple[Crystal, ...]) -> None:
    """The box holds 6 purple and 6 turquoise dice: crystals still standing cannot use more of
    one colour (a shattered crystal's dice are back in the box)."""
    for corrupted, colour in ((False, Phrase("regular (purple)")),
                              (True, Phrase("corrupted (turquoise)"))):
        used = sum(len(crystal.dice) for crystal in crystals if crystal.corrupted == corrupted)
        if used > DICE_PER_COLOUR:
            raise Refused(Phrase("the crystals would need {count} {colour} dice, but the box "
                                 "holds only {most} of each colour", count=used, colour=colour,
                                 most=DICE_PER_COLOUR))


def _strike(state: State, command: c.Strike) -> tuple[State, Events]:
    i = state.active if command.guardian is None else command.guardian
    check_guardian(state, i)
    crystal = _crystal(state, command.crystal)
    if crystal.shattered:
        raise Refused(Phrase("crystal {crystal} is already shattered", crystal=command.crystal))
    paid = command.ap
    if paid is None:  # AP pay for it when the striker is the one spending AP right now
        paid = (state.step == "activate" and i == state.active
                and state.guardians[i].ap_card is not None)
    if paid:
        state = _spend(state, i, command.amount)
    dice = strike_dice(crystal.dice, command.amount)
    state = _set_crystal(state, command.crystal, replace(crystal, dice=dice))
    events: Events = [e.CrystalStruck(command.crystal, i, command.amount, dice, not dice)]
    state = check_victory(state, events)
    if state.outcome is not None or not crystal.corrupted:
        return state, events
    protected = command.protected
    if protected is None:
        protected = _protected(state, i, "corrupt")
    if protected:
        events.append(e.Protected(i, "corrupt"))
        return state, events
    return change_corruption(state, i, 1, events), events


def _add_crystal(state: State, command: c.AddCrystal) -> tuple[State, Events]:
    if len(state.crystals) >= 100:
        raise Refused(Phrase("no leviathan carries 100 crystals"))
    state = replace(state, crystals=state.crystals + (
        Crystal(command.dice, command.corrupted, command.dice),))
    check_crystal_dice(state.crystals)
    return state, [e.CrystalChanged(len(state.crystals) - 1, command.dice, command.corrupted)]


def _set_crystal_cmd(state: State, command: c.SetCrystal) -> tuple[State, Events]:
    crystal = _crystal(state, command.crystal)
    corrupted = crystal.corrupted if command.corrupted is None else command.corrupted
    start = crystal.start if len(command.dice) <= len(crystal.start) else command.dice
    state = _set_crystal(state, command.crystal, Crystal(command.dice, corrupted, start))
    check_crystal_dice(state.crystals)
    events: Events = [e.CrystalChanged(command.crystal, command.dice, corrupted)]
    return check_victory(state, events), events


def _win_condition(state: State, command: c.SetWinCondition) -> tuple[State, Events]:
    if not 0 <= command.condition < len(state.win_conditions):
        raise Refused(Phrase("there is no win condition {condition}; this game has {count}",
                             condition=command.condition, count=len(state.win_conditions)))
    conditions = list(state.win_conditions)
    conditions[command.condition] = WinCondition(conditions[command.condition].label,
                                                 command.met)
    state = replace(state, win_conditions=tuple(conditions))
    events: Events = [e.WinConditionChanged(command.condition, command.met)]
    return check_victory(state, events), events


def _counter(state: State, command: c.Counter) -> tuple[State, Events]:
    counters = dict(state.counters)
    value = max(0, counters.get(command.counter, 0) + command.amount)
    counters[command.counter] = value
    state = replace(state, counters=tuple(sorted(counters.items())))
    return state, [e.CounterChanged(command.counter, value)]


# --- terrain, falling, focus, weaknesses ----------------------------------------------------------


def _terrain(state: State, command: c.Terrain) -> tuple[State, Events]:
    i = command.guardian
    check_guardian(state, i)
    events: Events = []
    if command.kind == "open":
        return start_falling(state, i, "open_space", events), events
    if _protected(state, i, command.kind):
        return state, [e.Protected(i, command.kind)]
    if command.kind == "harmful":
        return change_health(state, i, -1, events), events
    return lose_grip(state, i, 1, events), events


def _fall(state: State, command: c.Fall) -> tuple[State, Events]:
    check_guardian(state, command.guardian)
    events: Events = []
    return start_falling(state, command.guardian, "let_go", events), events


def _land(state: State, command: c.Land) -> tuple[State, Events]:
    guardian = check_guardian(state, command.guardian)
    if not guardian.falling:
        return state, []
    state = set_guardian(state, command.guardian, replace(guardian, falling=False))
    return state, [e.Landed(command.guardian)]


def _focus(state: State, command: c.Focus) -> tuple[State, Events]:
    guardian = check_guardian(state, command.guardian)
    state = set_guardian(state, command.guardian, replace(guardian, focus_ready=command.ready))
    return state, [e.FocusChanged(command.guardian, command.ready)]


def _weakness(state: State, command: c.Weakness) -> tuple[State, Events]:
    i = command.guardian
    guardian = check_guardian(state, i)
    name = guardian_called(state, i)
    held = guardian.weaknesses
    if command.remove:
        if command.card is not None and command.card not in held:
            raise Refused(Phrase("{guardian} does not hold {card}", guardian=name,
                                 card=command.card))
        card = command.card if command.card is not None else (
            held[0] if len(held) == 1 else None)
        if card is None and None not in held:
            raise Refused(Phrase("{guardian} holds {count} weaknesses; name the one to discard",
                                 guardian=name, count=len(held))
                          if held else Phrase("{guardian} holds no weakness", guardian=name))
        rest = list(held)
        rest.remove(card)
        state = replace(set_guardian(state, i, replace(guardian, weaknesses=tuple(rest))),
                        weakness_deck=state.weakness_deck + 1)
        return state, [e.WeaknessDiscarded(i, card, state.weakness_deck)]
    if not state.weakness_deck:
        raise Refused(Phrase("the weakness deck is empty"))
    if command.card is not None:
        for j, other in enumerate(state.guardians):
            if command.card in other.weaknesses:
                raise Refused(Phrase("{card} is already held by {guardian}", card=command.card,
                                     guardian=guardian_called(state, j)))
    state = replace(set_guardian(state, i, replace(guardian, weaknesses=held + (command.card,))),
                    weakness_deck=state.weakness_deck - 1)
    return state, [e.WeaknessDrawn(i, command.card, state.weakness_deck)]


HANDLERS: dict[type[c.Command], Callable[[State, Any], tuple[State, Events]]] = {
    c.Health: _health,
    c.Corruption: _corruption,
    c.Grip: _grip,
    c.Draw: _draw,
    c.Discard: _discard,
    c.PlayApCard: _play_ap_card,
    c.Act: _act,
    c.Strike: _strike,
    c.Terrain: _terrain,
    c.Fall: _fall,
    c.Land: _land,
    c.Focus: _focus,
    c.Weakness: _weakness,
    c.AddCrystal: _add_crystal,
    c.SetCrystal: _set_crystal_cmd,
    c.SetWinCondition: _win_condition,
    c.Counter: _counter,
}
