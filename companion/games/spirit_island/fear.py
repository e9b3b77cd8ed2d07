"""Fear and terror: generating fear, earning and resolving fear cards, terror rising, rituals."""

from __future__ import annotations

from dataclasses import replace

from companion.core.errors import Refused

from . import commands as c
from . import events as e
from .basics import Ending, Events, scenario_of, victory_condition
from .endings import FEAR_DECK_EMPTIED, ending
from .fear_cards import FEAR_CARDS
from .state import GameState
from .table_words import named_step
from .texts import Phrase


def generate_fear(state: GameState, amount: int, events: Events,
                  ends: list[Ending]) -> GameState:
    generated = state.fear.generated + amount
    pool_size = state.fear.pool_size
    later: Events = []
    # Each time the pool empties a card is earned and the markers go back; surplus carries over.
    while generated >= pool_size:
        generated -= pool_size
        if state.fear.deck == 0:
            continue
        state = take_fear_card(state, later, ends, earned=True)
    state = replace(state, fear=replace(state.fear, generated=generated))
    events.append(e.FearGenerated(amount, state.fear.pool, generated))
    events.extend(later)
    return state


def take_fear_card(state: GameState, events: Events, ends: list[Ending],
                   earned: bool) -> GameState:
    """The top card leaves the fear deck: earned, or put back in the box by an effect."""
    fear = state.fear
    groups = list(fear.groups)
    top = next(index for index, count in enumerate(groups) if count)
    groups[top] -= 1
    fear = replace(fear, groups=tuple(groups), earned=fear.earned + (1 if earned else 0))
    if earned:
        events.append(e.FearCardEarned(fear.resolved + fear.earned + fear.discarded,
                                       fear.earned, fear.deck))
    hidden = []
    uncovered: list[tuple[int, str | None]] = []
    for above, stage, card in fear.hidden_invaders:
        if above <= 1:
            uncovered.append((stage, card))
        else:
            hidden.append((above - 1, stage, card))
    state = replace(state, fear=replace(fear, hidden_invaders=tuple(hidden)))
    for stage, card in uncovered:
        state = _uncover_invader_card(state, stage, card, events)
    return _raise_terror(state, events, ends, earned)


def _uncover_invader_card(state: GameState, stage: int, card: str | None,
                          events: Events) -> GameState:
    """Russia 5+: an invader card under the earned fear card goes to the Build space at once."""
    track = state.invader
    if card is None:  # a physical card: the players name it (reveal)
        events.append(e.InvaderCardUncovered(stage, None))
        return replace(state, invader=replace(track, uncovered=track.uncovered + (stage,)))
    events.append(e.InvaderCardUncovered(stage, card))
    return replace(state, invader=replace(track, build=track.build + (card,)))


def _raise_terror(state: GameState, events: Events, ends: list[Ending],
                  earned: bool = True) -> GameState:
    """Uncovered dividers raise the terror level; a spent deck is the fear victory, even when a
    correction took the last card out: the Victory space under the deck lies open."""
    fear = state.fear
    if not fear.dividers:
        return state
    if fear.deck == 0:
        level = 4
    else:
        level = max(fear.terror_level,
                    1 + next(index for index, count in enumerate(fear.groups) if count))
    for raised in range(fear.terror_level + 1, level + 1):
        events.append(e.TerrorLevelRaised(raised, victory_condition(state.setup, raised)))
    if level == 4 and fear.terror_level < 4:
        scenario = scenario_of(state.setup)
        if (scenario is None or scenario.fear_deck_victory) and earned:
            ends.append(ending(state, "victory", "fear"))
        elif scenario is None or scenario.fear_deck_victory:
            ends.append(("victory", "fear", Phrase(FEAR_DECK_EMPTIED).render()))
    return replace(state, fear=replace(fear, terror_level=level))


def _resolving_allowed(state: GameState) -> Phrase | None:
    """Why earned fear cards cannot be resolved now, or None when they can."""
    scenario = scenario_of(state.setup)
    if scenario and scenario.rituals_of_terror:
        if state.fear.ritual_cards:
            return None
        if state.fear.ritual_at == (state.round, state.step) and state.fear.earned:
            return Phrase("the ritual has resolved every card that waited when it was "
                          "performed; a card earned since waits for the next ritual")
        return Phrase("in Rituals of Terror, earned fear cards are resolved right after a ritual, "
                      "in the fast or slow power phase")
    if state.step != "fear":
        return Phrase("earned fear cards are resolved in the Fear step of the Invader phase; now "
                      "it is {step}", step=named_step(state.step))
    return None


def resolve_fear(state: GameState, command: c.ResolveFear, events: Events) -> GameState:
    why = _resolving_allowed(state)
    if why:
        raise Refused(why)
    if not state.fear.earned:
        raise Refused(Phrase("no earned fear card is waiting"))
    if command.card is not None:
        state = name_fear_card(state, command.card, command.force, events)
    fear = state.fear
    # A card named earlier keeps the level it was turned over at; one resolved without a
    # name is resolved at the current level. A card has no Victory side: level 3 at most.
    level = fear.card_level or min(fear.terror_level, 3)
    fear = replace(
        fear,
        earned=fear.earned - 1,
        resolved=fear.resolved + 1,
        resolved_this_round=fear.resolved_this_round + 1,
        card=None,
        card_level=None,
        seen=fear.seen + ((fear.card,) if fear.card else ()),
        ritual_cards=max(fear.ritual_cards - 1, 0),
    )
    events.append(e.FearCardResolved(fear.resolved, level, fear.earned, state.fear.card))
    return replace(state, fear=fear)


def name_fear_card(state: GameState, card_id: str, force: bool, events: Events) -> GameState:
    why = _resolving_allowed(state)
    if why:
        raise Refused(why)
    if not state.fear.earned:
        raise Refused(Phrase("no earned fear card is waiting to be turned over"))
    card = FEAR_CARDS.get(card_id)
    if card is None:
        raise Refused(Phrase("unknown fear card {card}; fear cards are named like "
                             "avoid-the-dahan or trade-suffers (see the catalogue)",
                             card=repr(card_id)))
    if card_id in state.fear.seen and not force:
        raise Refused(Phrase("{name} was already resolved in this game", name=Phrase(card.name)),
                      " (send force: true if it came back into the deck)")
    # Naming the card again (a correction) keeps the level it was turned over at.
    level = state.fear.card_level or min(state.terror_level, 3)
    events.append(e.FearCardNamed(card_id, card.name, level, card.effect_at(level)))
    return replace(state, fear=replace(state.fear, card=card_id, card_level=level))


def ritual(state: GameState, events: Events, ends: list[Ending]) -> GameState:
    scenario = scenario_of(state.setup)
    if not (scenario and scenario.rituals_of_terror):
        raise Refused(Phrase("a Ritual of Terror belongs to the Rituals of Terror scenario"))
    if state.step not in ("fast_powers", "slow_powers"):
        raise Refused(Phrase("a Ritual of Terror is performed in the fast or slow power phase"))
    level = state.terror_level + 1
    events.append(e.RitualPerformed(level))
    events.append(e.TerrorLevelRaised(level, victory_condition(state.setup, level)))
    if level == 4:
        ends.append(ending(state, "victory", "ritual"))
    # The ritual resolves the cards waiting now; a card earned later waits for the next one.
    return replace(state, fear=replace(state.fear, terror_level=level,
                                       ritual_at=(state.round, state.step),
                                       ritual_cards=state.fear.earned))


def lose_fear(state: GameState, amount: int, events: Events) -> GameState:
    fear = state.fear
    if fear.generated == 0:
        raise Refused(Phrase("no fear has been generated toward the next fear card; nothing "
                             "to lose"))
    lost = min(amount, fear.generated)
    fear = replace(fear, generated=fear.generated - lost)
    events.append(e.FearLost(lost, fear.pool, fear.generated))
    return replace(state, fear=fear)
