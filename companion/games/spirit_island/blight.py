"""Blight: on the island and the card, the card flipping or running out, healing."""

from __future__ import annotations

from dataclasses import replace

from companion.core.errors import Refused

from . import commands as c
from . import events as e
from .adversaries import SLOW_HEALING, SLOW_HEALING_PANEL_PER_PLAYER
from .basics import BOX_BLIGHT_STEPS, LIKING_FEAR_HALVES, Ending, Events, has_feature, scenario_of
from .blight_cards import BLIGHT_CARDS
from .endings import ending
from .state import GameState
from .texts import Phrase


def add_blight(state: GameState, amount: int, events: Events, ends: list[Ending]) -> GameState:
    """Take blight from the card (or board space) onto the island, one at a time."""
    before, waiting_before = state.blight.on_island, state.blight.awaiting_card
    later: Events = []
    if state.phase == "setup" and state.step in BOX_BLIGHT_STEPS:
        # Blight the table adds while setting up comes from the box (official FAQ).
        state = replace(state, blight=replace(state.blight,
                                              on_island=state.blight.on_island + amount))
        amount = 0
    for _ in range(amount):
        blight = state.blight
        if blight.awaiting_card:  # between two cards: the next card pays it back
            state = replace(state, blight=replace(
                blight, owed=blight.owed + 1, on_island=blight.on_island + 1))
            continue
        if blight.on_card == 0:  # already lost earlier in the same effect: nothing left to take
            break
        blight = replace(blight, on_card=blight.on_card - 1, on_island=blight.on_island + 1)
        state = replace(state, blight=blight)
        if blight.on_card == 0:
            state = _blight_card_emptied(state, later, ends)
    blight = state.blight
    events.append(e.BlightAdded(blight.on_island - before, blight.on_card, blight.on_island))
    events.extend(later)
    if blight.awaiting_card and not waiting_before:
        events.append(e.BlightCardNeeded(blight.owed, flipping=blight.side == "healthy"))
    return state


def _blight_card_emptied(state: GameState, events: Events, ends: list[Ending]) -> GameState:
    blight = state.blight
    card = BLIGHT_CARDS.get(blight.card or "")
    if blight.side == "healthy" and card is not None:
        return _turn_to_back(state, card.id, 0, events, ends)
    if blight.side == "healthy" and state.setup.mode == "advanced":
        # A card drawn face down flips: the players turn it over and say which it is.
        return replace(state, blight=replace(blight, awaiting_card=True))
    if blight.side == "still_healthy" and blight.card is not None:
        # Not a loss: the next blight card goes straight onto its back side.
        return replace(state, blight=replace(
            blight, awaiting_card=True, earlier_cards=blight.earlier_cards + (blight.card,)))
    ends.append(ending(state, "defeat", "blight"))
    return state


def _turn_to_back(state: GameState, card_id: str, owed: int, events: Events,
                  ends: list[Ending]) -> GameState:
    """Put `card_id` on its back side with its blight per player, less blight already owed."""
    card = BLIGHT_CARDS[card_id]
    scenario = scenario_of(state.setup)
    per_player = card.blighted_per_player
    if scenario and not card.still_healthy:  # a Still-Healthy side is not Blighted Island
        per_player += scenario.flipped_blight_per_player
    refill = max(per_player, 0) * state.setup.players
    side = "still_healthy" if card.still_healthy else "blighted"
    state = replace(state, blight=replace(
        state.blight, card=card_id, side=side, on_card=max(refill - owed, 0),
        awaiting_card=False, owed=0))
    events.append(e.BlightCardFlipped(card.id, card.name, refill, card.effect, side, card.timing))
    if card_id == "invaders-find-the-land-to-their-liking":
        state = _grow_fear_pool(state, events)
    if refill <= owed:
        state = replace(state, blight=replace(state.blight, owed=owed - refill))
        state = _blight_card_emptied(state, events, ends)
    return state


def _grow_fear_pool(state: GameState, events: Events) -> GameState:
    """More fear is needed per card from now on, by the terror level at the flip."""
    halves = LIKING_FEAR_HALVES[min(state.terror_level, 3)]
    fear = state.fear
    fear = replace(fear, pool_size=fear.pool_size + halves * state.setup.players // 2)
    events.append(e.FearPoolChanged(fear.pool_size, fear.pool))
    return replace(state, fear=fear)


def next_blight_card(state: GameState, command: c.NextBlightCard, events: Events,
                     ends: list[Ending]) -> GameState:
    blight = state.blight
    if not blight.awaiting_card:
        raise Refused(Phrase("a blight card is named only when the card drawn face down flips, "
                             "or when a Still-Healthy Island card has no blight left"))
    if command.card not in BLIGHT_CARDS:
        raise Refused(Phrase("unknown blight card {card}; known cards: {cards}",
                             card=repr(command.card), cards=", ".join(BLIGHT_CARDS)))
    if command.card in blight.earlier_cards:
        raise Refused(Phrase("{name} was already used in this game",
                             name=Phrase(BLIGHT_CARDS[command.card].name)))
    state = _turn_to_back(state, command.card, blight.owed, events, ends)
    if state.blight.awaiting_card:  # the owed blight used this card up at once
        events.append(e.BlightCardNeeded(state.blight.owed))
    return state


def heal(state: GameState, amount: int, events: Events) -> GameState:
    blight = state.blight
    if blight.awaiting_card:
        raise Refused(Phrase("name the next blight card first (next_blight_card): healed blight "
                             "goes back onto it"))
    if amount > blight.on_island:
        raise Refused(Phrase("only {on_island} blight is on the island; {amount} cannot be "
                             "removed", on_island=blight.on_island, amount=amount))
    # Removed blight goes back to the card; a flipped card stays flipped.
    blight = replace(blight, on_island=blight.on_island - amount)
    if has_feature(state.setup, SLOW_HEALING):
        # France 5+: it waits on the adversary panel; once 3 per player are there, all go back.
        blight = replace(blight, on_panel=blight.on_panel + amount)
        if blight.on_panel >= SLOW_HEALING_PANEL_PER_PLAYER * state.setup.players:
            blight = replace(blight, on_card=blight.on_card + blight.on_panel, on_panel=0)
    else:
        blight = replace(blight, on_card=blight.on_card + amount)
    events.append(e.BlightHealed(amount, blight.on_card, blight.on_island, blight.on_panel))
    return replace(state, blight=blight)
