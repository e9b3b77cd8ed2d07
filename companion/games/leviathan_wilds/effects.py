"""The changes every rule shares: health and corruption, grip and falling, defeat and Last Chance,
and the two ways a game ends. Each takes a state and an event list and returns the new state.
"""

from __future__ import annotations

from dataclasses import replace

from companion.core.errors import Refused
from companion.core.phrases import Phrase

from . import events as e
from .state import OVER, Guardian, Outcome, Pile, State
from .texts import word

Events = list[e.Event]


def guardian_name(state: State, i: int) -> str:
    character = state.setup.guardians[i].character
    return character if character else f"Guardian {i + 1}"


def guardian_called(state: State, i: int) -> str | Phrase:
    """The guardian as a refusal names them: the character (a proper name, never translated),
    or "Guardian n" in the players' language."""
    character = state.setup.guardians[i].character
    return character if character else word("guardian", number=i + 1)


def check_running(state: State) -> None:
    if state.outcome is not None:
        raise Refused(Phrase("the game is over ({result}); undo to go back, or start a new game",
                             result=state.outcome.result))


def check_guardian(state: State, i: int) -> Guardian:
    """The living guardian number `i`, or a refusal saying why there is none."""
    if not 0 <= i < len(state.guardians):
        raise Refused(Phrase("there is no guardian {number}; this game has guardians 0 to {last}",
                             number=i, last=len(state.guardians) - 1))
    guardian = state.guardians[i]
    if guardian.defeated:
        raise Refused(Phrase("{guardian} is defeated and out of the game",
                             guardian=guardian_called(state, i)))
    return guardian


def set_guardian(state: State, i: int, guardian: Guardian) -> State:
    return replace(state, guardians=state.guardians[:i] + (guardian,) + state.guardians[i + 1:])


def set_pile(state: State, index: int, pile: Pile) -> State:
    return replace(state, piles=state.piles[:index] + (pile,) + state.piles[index + 1:])


def cards_moved(state: State, i: int, what: str, count: int) -> e.CardsMoved:
    pile = state.pile_of(i)
    return e.CardsMoved(i, what, count, pile.deck, state.guardians[i].hand, pile.discard)


# --- health and corruption ----------------------------------------------------------------------


def change_health(state: State, i: int, amount: int, events: Events) -> State:
    guardian, numbers = state.guardians[i], state.setup.numbers
    health = max(0, min(numbers.health_max, guardian.health + amount))
    state = set_guardian(state, i, replace(guardian, health=health))
    events.append(e.HealthChanged(i, health - guardian.health, health))
    return check_defeat(state, i, events)


def change_corruption(state: State, i: int, amount: int, events: Events) -> State:
    guardian, numbers = state.guardians[i], state.setup.numbers
    corruption = max(0, min(numbers.corruption_max, guardian.corruption + amount))
    state = set_guardian(state, i, replace(guardian, corruption=corruption))
    events.append(e.CorruptionChanged(i, corruption - guardian.corruption, corruption))
    return check_defeat(state, i, events)


def check_defeat(state: State, i: int, events: Events) -> State:
    # The cubes share one track: they meet (or pass) when health falls to corruption.
    guardian = state.guardians[i]
    if guardian.defeated or guardian.health > guardian.corruption:
        return state
    return defeat(state, i, events)


# --- grip and falling ---------------------------------------------------------------------------


def lose_grip(state: State, i: int, count: int, events: Events, what: str = "grip_loss") -> State:
    """Move up to `count` cards from the top of the deck to the discard pile."""
    index = state.guardians[i].pile
    pile = state.piles[index]
    moved = min(count, pile.deck)
    state = set_pile(state, index, Pile(pile.deck - moved, pile.discard + moved))
    events.append(cards_moved(state, i, what, moved))
    return fall_if_empty(state, index, events)


def gain_grip(state: State, i: int, count: int, events: Events, what: str = "grip_gain") -> State:
    """Put up to `count` discards under the deck (there may be fewer than asked for)."""
    index = state.guardians[i].pile
    pile = state.piles[index]
    moved = min(count, pile.discard)
    state = set_pile(state, index, Pile(pile.deck + moved, pile.discard - moved))
    events.append(cards_moved(state, i, what, moved))
    return state


def draw(state: State, i: int, count: int, events: Events) -> State:
    index = state.guardians[i].pile
    pile = state.piles[index]
    moved = min(count, pile.deck)
    state = set_pile(state, index, replace(pile, deck=pile.deck - moved))
    guardian = state.guardians[i]
    state = set_guardian(state, i, replace(guardian, hand=guardian.hand + moved))
    events.append(cards_moved(state, i, "draw", moved))
    return fall_if_empty(state, index, events)


def start_falling(state: State, i: int, why: str, events: Events) -> State:
    guardian = state.guardians[i]
    if guardian.falling or guardian.defeated:
        return state
    events.append(e.FallingStarted(i, why))
    return set_guardian(state, i, replace(guardian, falling=True))


def fall_if_empty(state: State, pile: int, events: Events) -> State:
    # An empty deck makes everyone holding on with it fall: in solo, both guardians.
    if state.piles[pile].deck:
        return state
    for i, guardian in enumerate(state.guardians):
        if guardian.pile == pile:
            state = start_falling(state, i, "empty_deck", events)
    return state


# --- parry ----------------------------------------------------------------------------------

PARRIABLE = ("health", "grip", "push")
"""Parry X reduces a health loss, a grip loss or a push; never corruption, weaknesses or a
leviathan's special rules (digest 4.9)."""


def parry_options(parts: dict[str, int], x: int) -> list[dict[str, int]]:
    """Every way the players may split PARRY X over the parts of one effect (none below 0)."""
    outcomes = [dict(parts)]
    for part, amount in parts.items():
        if part not in PARRIABLE:
            continue
        outcomes = [{**o, part: amount - cut} for o in outcomes
                    for cut in range(min(amount, x) + 1)
                    if sum(parts[k] - o[k] for k in PARRIABLE if k in o) + cut <= x]
    unique = {tuple(sorted(o.items())): o for o in outcomes}
    return [unique[key] for key in sorted(unique)]


# --- the end of the game --------------------------------------------------------------------------


def defeat(state: State, i: int, events: Events) -> State:
    """The guardian is beaten: their cards go to the discard, and Last Chance begins (or goes on
    without them)."""
    guardian = state.guardians[i]
    pile = state.piles[guardian.pile]
    held = guardian.hand + (1 if guardian.ap_card and guardian.ap_card.from_hand else 0)
    # A shared solo deck stays: the other guardian still climbs with it.
    deck = pile.deck if state.setup.solo else 0
    state = set_pile(state, guardian.pile, Pile(deck, pile.discard + held + pile.deck - deck))
    state = set_guardian(state, i, replace(
        guardian, defeated=True, falling=False, hand=0, ap_card=None, ap_left=0))
    events.append(e.GuardianDefeated(i))
    standing = [g for g, other in enumerate(state.guardians) if not other.defeated]
    if not standing:
        return end_game(state, "loss", "all_defeated", events)
    if state.last_chance is None:
        count = len(state.guardians)
        order = [(state.active + k) % count for k in range(1, count + 1)]
        state = replace(state, last_chance=tuple(g for g in order if g in standing))
        events.append(e.LastChanceBegan(state.last_chance or ()))
    else:
        state = replace(state, last_chance=tuple(g for g in state.last_chance if g != i))
    if i == state.active and state.step == "activate":
        # A guardian beaten in their own activation stops at once; the threat still resolves.
        events.append(e.ActivationEnded(i, guardian.ap_left))
        state = replace(state, step="resolve")
        events.append(e.StepStarted(state.round, "resolve", i))
    return state


def won(state: State) -> bool:
    return state.crystals_left == 0 and all(c.met for c in state.win_conditions)


def check_victory(state: State, events: Events) -> State:
    if state.outcome is None and won(state):
        return end_game(state, "win", "healed", events)
    return state


def end_game(state: State, result: str, reason: str, events: Events) -> State:
    events.append(e.GameEnded(result, reason))
    return replace(state, step=OVER, outcome=Outcome(result, reason))
