"""The rules of the turn: `start` sets a game up, `decide` answers every command after that.

Both are pure: same input, same answer; a refused command (`Refused`) changes nothing, because
nothing is ever changed in place. A turn is reveal → activate → resolve → draw; after the turn
whose reveal turned the fifth threat face up, the round ends by itself (the data says how many
threats turn wild; a wrong count is put right with `wild` or undo).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from companion.core.commands import outside_the_rules
from companion.core.errors import Refused
from companion.core.phrases import Phrase

from . import actions
from . import commands as c
from . import events as e
from .data import (
    CORRUPTION_MAX,
    DEFAULT_CRYSTALS,
    EMPTY_HAND_AP,
    GUARDIAN_DECK,
    HAND_SIZE,
    HEALTH_MAX,
    HEALTH_START,
    LEVIATHANS,
    SETUP_WILD,
    SOLO_DECK,
    SOLO_REST_GRIP,
    THREAT_SLOTS,
    WEAKNESS_CARDS,
    WRATH_START,
    WRATH_WILD_COUNTS,
    threats_of,
)
from .effects import (
    Events,
    check_running,
    draw,
    end_game,
    set_guardian,
    set_pile,
)
from .state import (
    ApCard,
    Crystal,
    Guardian,
    GuardianSetup,
    Numbers,
    Pile,
    Setup,
    State,
    ThreatSlot,
    WinCondition,
)

# --- starting a game ------------------------------------------------------------------------------


def _numbers(command: c.NewGame, solo: bool) -> Numbers:
    counts = command.wrath_wild_counts or WRATH_WILD_COUNTS
    start = WRATH_START[command.difficulty] if command.wrath_start is None else command.wrath_start
    if start >= len(counts):
        raise Refused(Phrase("the wrath marker cannot start on space {start}: the track has "
                             "spaces 0 to {last}", start=start, last=len(counts) - 1))
    top = HEALTH_MAX if command.health_max is None else command.health_max
    health = min(HEALTH_START, top) if command.health_start is None else command.health_start
    if health > top:
        raise Refused(Phrase("health cannot start at {health}, above the track's top of {top}",
                             health=health, top=top))
    return Numbers(
        wrath_wild_counts=counts,
        wrath_start=start,
        health_start=health,
        corruption_start=0,
        health_max=top,
        corruption_max=CORRUPTION_MAX if command.health_max is None else command.health_max,
        deck_size=command.deck_size or (SOLO_DECK if solo else GUARDIAN_DECK),
        solo_rest_grip=command.solo_rest_grip or SOLO_REST_GRIP,
    )


def start(command: c.NewGame, seed: int) -> tuple[State, Events]:
    """Set up a game (digest section 3) and stop before the start player's first reveal."""
    solo = command.players == 1
    count = 2 if solo else command.players
    numbers = _numbers(command, solo)
    specs = command.guardians or tuple(GuardianSetup() for _ in range(count))
    if len(specs) != count:
        described = {"count": count, "described": len(specs)}
        raise Refused(Phrase("solo has {count} guardians, but {described} were described",
                             **described) if solo else
                      Phrase("this game has {count} guardians, but {described} were described",
                             **described))
    if command.start_guardian >= count:
        raise Refused(Phrase("there is no guardian {number} to start; the guardians are 0 to "
                             "{last}", number=command.start_guardian, last=count - 1))
    holders = count if solo else 1
    if numbers.deck_size < HAND_SIZE * holders:
        raise Refused(Phrase("a deck of {deck} cards cannot deal the opening hands of {hand}",
                             deck=numbers.deck_size, hand=HAND_SIZE))
    setup = Setup(command.leviathan, command.difficulty, command.players, seed, specs,
                  command.start_guardian, numbers)
    piles = (Pile(numbers.deck_size - HAND_SIZE * holders, 0),) * (1 if solo else count)
    guardians = tuple(
        Guardian(pile=0 if solo else i, hand=HAND_SIZE, health=numbers.health_start,
                 corruption=numbers.corruption_start)
        for i in range(count))
    crystals = tuple(Crystal(dice, corrupted, dice)
                     for dice, corrupted in command.crystals or DEFAULT_CRYSTALS)
    actions.check_crystal_dice(crystals)
    state = State(
        setup=setup, round=1, step="reveal", active=command.start_guardian,
        row=(ThreatSlot(),) * THREAT_SLOTS, revealed_slot=None, wrath=numbers.wrath_start,
        guardians=guardians, piles=piles, crystals=crystals,
        win_conditions=tuple(WinCondition(label) for label in command.win_conditions),
        weakness_deck=WEAKNESS_CARDS)
    events: Events = [e.GameStarted(command.leviathan, command.difficulty, command.players,
                                    count, seed)]
    state = make_wild(state, SETUP_WILD[command.difficulty], events)
    events.append(e.StepStarted(1, "reveal", state.active))
    return state, events


# --- the threat row -------------------------------------------------------------------------------


def make_wild(state: State, count: int, events: Events) -> State:
    """WILD X: the X leftmost face-down calm threats turn wild; fewer if fewer are calm."""
    if count <= 0:
        return state
    row, turned = list(state.row), list[int]()
    for i, slot in enumerate(row):
        if len(turned) == count:
            break
        if not slot.face_up and not slot.wild:
            row[i] = replace(slot, wild=True)
            turned.append(i)
    events.append(e.ThreatsMadeWild(tuple(turned), count))
    return replace(state, row=tuple(row))


def wild_at(state: State, space: int) -> int:
    counts = state.setup.numbers.wrath_wild_counts
    return counts[min(space, len(counts) - 1)]


def round_end(state: State, events: Events) -> State:
    """Reshuffle the row face down and calm, move wrath one space right, make N wild."""
    last = len(state.setup.numbers.wrath_wild_counts) - 1
    wrath = min(state.wrath + 1, last)
    wild = wild_at(state, wrath)
    events.append(e.RoundEnded(state.round, wrath, wild))
    state = replace(state, row=(ThreatSlot(),) * THREAT_SLOTS, wrath=wrath, round=state.round + 1)
    return make_wild(state, wild, events)


def _check_threat_card(state: State, card: str, slot: int) -> None:
    leviathan = state.setup.leviathan
    if card not in threats_of(leviathan):
        theirs = int(card.split("-")[2])
        raise Refused(Phrase("{card} is a threat of leviathan {theirs} ({their_name}); this "
                             "game is against leviathan {ours} ({our_name})", card=card,
                             theirs=theirs, their_name=LEVIATHANS[theirs].name, ours=leviathan,
                             our_name=LEVIATHANS[leviathan].name))
    for i, other in enumerate(state.row):
        if other.card == card and i != slot:
            raise Refused(Phrase("{card} already lies face up in slot {slot}", card=card, slot=i))


def reveal(state: State, command: c.Reveal) -> tuple[State, Events]:
    if state.step != "reveal":
        raise Refused(Phrase("threats are revealed in step 1; this turn's threat is already "
                             "face up"))
    events: Events = []
    slot = state.revealed_slot
    if slot is None:
        return _turn_over(state, command.card, events), events
    if command.card is None:
        raise Refused(Phrase("this turn's threat is already face up in slot {slot}; name its "
                             "card to record which one it is", slot=slot))
    _check_threat_card(state, command.card, slot)
    row = list(state.row)
    row[slot] = replace(row[slot], card=command.card)
    events.append(e.ThreatNamed(slot, command.card))
    return replace(state, row=tuple(row)), events


def _turn_over(state: State, card: str | None, events: Events) -> State:
    slot = state.next_slot
    if slot is None:  # a round end always follows the fifth reveal; kept for safety
        raise Refused(Phrase("every threat is already face up"))
    if card is not None:
        _check_threat_card(state, card, slot)
    row = list(state.row)
    row[slot] = replace(row[slot], face_up=True, card=card)
    events.append(e.ThreatRevealed(slot, row[slot].wild, card))
    return replace(state, row=tuple(row), revealed_slot=slot)


# --- the turn -------------------------------------------------------------------------------------


def _begin(state: State, step: str, events: Events) -> State:
    state = replace(state, step=step)
    events.append(e.StepStarted(state.round, step, state.active))
    if step != "activate":
        return state
    guardian = state.guardians[state.active]
    if guardian.hand:
        events.append(e.ActivationStarted(state.active, None))
        return state
    events.append(e.ActivationStarted(state.active, EMPTY_HAND_AP))
    return set_guardian(state, state.active, replace(
        guardian, ap_card=ApCard(EMPTY_HAND_AP, (), from_hand=False), ap_left=EMPTY_HAND_AP))


def _end_activation(state: State, events: Events) -> State:
    i = state.active
    guardian = state.guardians[i]
    if guardian.ap_card is not None and guardian.ap_card.from_hand:
        pile = state.pile_of(i)
        state = set_pile(state, guardian.pile, replace(pile, discard=pile.discard + 1))
        events.append(e.CardsMoved(i, "ap_card", 1, pile.deck, guardian.hand, pile.discard + 1))
    events.append(e.ActivationEnded(i, guardian.ap_left))
    return set_guardian(state, i, replace(state.guardians[i], ap_card=None, ap_left=0))


def can_decline_last(state: State) -> bool:
    """Step 4's last-strength option applies: refilling would take the deck's last card."""
    if state.step != "draw" or state.guardians[state.active].defeated:
        return False
    need = HAND_SIZE - state.guardians[state.active].hand
    deck = state.pile_of(state.active).deck
    return 0 < deck <= need


def _refill(state: State, decline_last: bool, events: Events) -> State:
    i = state.active
    if state.guardians[i].defeated:
        return state
    need = max(0, HAND_SIZE - state.guardians[i].hand)
    if decline_last:
        if not can_decline_last(state):
            raise Refused(Phrase("the last card may be declined only when drawing up to {hand} "
                                 "would take the last card of the deck", hand=HAND_SIZE))
        state = draw(state, i, state.pile_of(i).deck - 1, events)
        events.append(cards_declined(state, i))
        return state
    return draw(state, i, need, events) if need else state


def cards_declined(state: State, i: int) -> e.CardsMoved:
    pile = state.pile_of(i)
    return e.CardsMoved(i, "declined_last", 0, pile.deck, state.guardians[i].hand, pile.discard)


def _next_clockwise(state: State) -> int:
    count = len(state.guardians)
    for k in range(1, count + 1):
        i = (state.active + k) % count
        if not state.guardians[i].defeated:
            return i
    return state.active


def _end_turn(state: State, events: Events) -> State:
    state = replace(state, revealed_slot=None)
    if state.last_chance == ():
        return end_game(state, "loss", "last_chance", events)
    if state.next_slot is None:
        state = round_end(state, events)
    if state.last_chance is not None:
        state = replace(state, active=state.last_chance[0], last_chance=state.last_chance[1:])
    else:
        state = replace(state, active=_next_clockwise(state))
    return _begin(state, "reveal", events)


def next_step(state: State, command: c.Next) -> tuple[State, Events]:
    if command.step is not None and command.step != state.step:
        # A second tap on Done, meant for a step already finished: refused, so that it is
        # neither logged nor undone (as Spirit Island's `next` does).
        raise Refused(Phrase("this was meant to finish the '{step}' step, but the game is at "
                             "'{current}' already; nothing was changed", step=command.step,
                             current=state.step))
    if command.decline_last and state.step != "draw":
        raise Refused(Phrase("the last card may be declined only in step 4, when drawing up"))
    events: Events = []
    if state.step == "reveal":
        if state.revealed_slot is None:
            state = _turn_over(state, None, events)
        # A guardian beaten by a fast threat has no activation; the threat still resolves.
        beaten = state.guardians[state.active].defeated
        state = _begin(state, "resolve" if beaten else "activate", events)
    elif state.step == "activate":
        state = _begin(_end_activation(state, events), "resolve", events)
    elif state.step == "resolve":
        if state.guardians[state.active].defeated:
            state = _end_turn(state, events)
        else:
            state = _begin(state, "draw", events)
    else:
        state = _end_turn(_refill(state, command.decline_last, events), events)
    return state, events


# --- deciding ---------------------------------------------------------------------------------


def _wild(state: State, command: c.Wild) -> tuple[State, Events]:
    events: Events = []
    return make_wild(state, command.count, events), events


Handler = Callable[[State, Any], tuple[State, Events]]

HANDLERS: dict[type[c.Command], Handler] = {
    c.Next: next_step,
    c.Reveal: reveal,
    c.Wild: _wild,
    **actions.HANDLERS,
}


def decide(state: State, command: c.Command) -> tuple[State, Events]:
    """The state after `command`, and what happened; `Refused` if it cannot be done."""
    if outside_the_rules(command, c.NewGame):
        return state, []
    check_running(state)
    handler = HANDLERS.get(type(command))
    if handler is None:
        raise Refused(Phrase("'{command}' is not a Leviathan Wilds command",
                             command=command.name))
    return handler(state, command)
