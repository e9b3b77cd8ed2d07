"""Corrections: what a power, an event or a mistake at the table moved, put right by hand."""

from __future__ import annotations

from dataclasses import replace

from companion.core.errors import Refused

from . import commands as c
from . import events as e
from .basics import Ending, Events
from .cards import ALL_CARDS, DeckEntry
from .fear import take_fear_card
from .state import GameState
from .texts import Phrase

CORRECTIONS = (c.MoveCard, c.Accelerate, c.ReturnFearCard, c.DiscardFearCard, c.AddFearCard,
               c.RemoveFearCard, c.SetBlight)
# Where a card can be found for move_card: the Invader Board's spaces and the discard.
BOARD_PLACES = ("high_immigration", "ravage", "build", "explore", "discard")


def correct(state: GameState, command: c.Command, events: Events,
            ends: list[Ending]) -> GameState:
    fear = state.fear
    if isinstance(command, c.MoveCard):
        return _move_card(state, command, events)
    if isinstance(command, c.Accelerate):
        return _accelerate(state, events)
    if isinstance(command, c.SetBlight):
        return _set_blight(state, command, events)
    if isinstance(command, c.RemoveFearCard):
        if not fear.deck:
            raise Refused(Phrase("the fear deck is empty"))
        state = take_fear_card(state, events, ends, earned=False)
        return _fear_corrected(state, "removed", events)
    if isinstance(command, (c.ReturnFearCard, c.DiscardFearCard)) and not fear.earned:
        raise Refused(Phrase("no earned fear card is waiting"))
    if isinstance(command, c.DiscardFearCard):
        state = replace(state, fear=replace(fear, earned=fear.earned - 1,
                                            discarded=fear.discarded + 1, card=None,
                                            card_level=None,
                                            ritual_cards=max(fear.ritual_cards - 1, 0)))
        return _fear_corrected(state, "discarded", events)
    # A returned or an added card goes onto the top of the fear deck.
    groups = list(fear.groups)
    top = next((index for index, count in enumerate(groups) if count), len(groups) - 1)
    groups[top] += 1
    hidden = tuple((above + 1, stage, card) for above, stage, card in fear.hidden_invaders)
    fear = replace(fear, groups=tuple(groups), hidden_invaders=hidden)
    if isinstance(command, c.ReturnFearCard):
        state = replace(state, fear=replace(fear, earned=fear.earned - 1, card=None,
                                            card_level=None,
                                            ritual_cards=max(fear.ritual_cards - 1, 0)))
        return _fear_corrected(state, "returned", events)
    return _fear_corrected(replace(state, fear=fear), "added", events)


def _fear_corrected(state: GameState, action: str, events: Events) -> GameState:
    fear = state.fear
    events.append(e.FearDeckCorrected(action, fear.earned, fear.deck, fear.terror_level))
    return state


def _move_card(state: GameState, command: c.MoveCard, events: Events) -> GameState:
    track = state.invader
    # The track's field for each place a card can be taken from or put on.
    fields = {"high_immigration": "high_immigration", "ravage": "ravage", "build": "build",
              "explore": "explore", "discard": "discard", "box": "removed"}
    places: dict[str, tuple[str | None, ...]] = {
        place: getattr(track, field) or () for place, field in fields.items()}
    source = next((place for place, cards in places.items() if command.card in cards), None)
    if source is None:
        raise Refused(Phrase("{card} is not on the Invader Board, in the discard or in the box; "
                             "a card still in the deck leaves it with accelerate",
                             card=command.card))
    if command.to == source:
        raise Refused(Phrase("{card} is already there", card=command.card))
    if command.to == "high_immigration" and track.high_immigration is None:
        raise Refused(Phrase("this game has no High Immigration space"))
    taken = list(places[source])
    taken.remove(command.card)
    places[source] = tuple(taken)
    deck = track.deck
    entry = DeckEntry(ALL_CARDS[command.card].stage, command.card)
    if command.to == "deck_top":
        deck = (entry,) + deck
    elif command.to == "deck_bottom":
        deck = deck + (entry,)
    else:
        places[command.to] = places[command.to] + (command.card,)
    changes = {fields[place]: cards for place, cards in places.items()}
    if track.high_immigration is None:
        del changes["high_immigration"]
    events.append(e.CardMoved(command.card, source, command.to))
    return replace(state, invader=replace(track, deck=deck, **changes))  # type: ignore[arg-type]


def _accelerate(state: GameState, events: Events) -> GameState:
    track = state.invader
    stages = [entry.stage for entry in track.deck if entry.stage]
    if not stages:
        raise Refused(Phrase("no invader card is left in the deck"))
    index = next(i for i, entry in enumerate(track.deck) if entry.stage == min(stages))
    entry = track.deck[index]
    events.append(e.CardMoved(entry.card, "deck", "box"))
    return replace(state, invader=replace(
        track, deck=track.deck[:index] + track.deck[index + 1:],
        removed=track.removed + (entry.card,)))


def _set_blight(state: GameState, command: c.SetBlight, events: Events) -> GameState:
    blight = state.blight
    if blight.awaiting_card:
        raise Refused(Phrase("name the next blight card first (next_blight_card)"))
    if command.on_card == 0:
        raise Refused(Phrase("the blight card holds at least 1 blight while the game goes on; if "
                             "the last one left it, add it with blight"))
    on_island = blight.on_island if command.on_island is None else command.on_island
    state = replace(state, blight=replace(blight, on_card=command.on_card, on_island=on_island))
    events.append(e.BlightSet(command.on_card, on_island))
    return state
