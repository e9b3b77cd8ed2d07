"""The invader deck: which card is due and which may be named, turning cards over (surges,
escalation, Russia's hidden cards), and the Branch & Claw event deck."""

from __future__ import annotations

import random
from dataclasses import replace

from companion.core.errors import Refused

from . import commands as c
from . import events as e
from .adversaries import HIGH_IMMIGRATION_PERMANENT
from .basics import (
    SLAVE_REBELLION_DEPTH,
    Ending,
    Events,
    adversary_of,
    cards_in_play,
    has_feature,
    scenario_of,
)
from .cards import ALL_CARDS, INVADER_CARDS
from .endings import ending
from .scenarios import larger_surges
from .state import ESCALATION_STEP, REVEAL_STEPS, EventTrack, GameState, InvaderTrack
from .table_words import named_step
from .texts import Phrase, stage_phrase


def slide_cards(state: GameState, events: Events) -> GameState:
    """Every card moves one space left at once; Ravage cards go on to the discard.

    With England's High Immigration space the Ravage cards stop there first. At England level 3
    the space leaves the game when a Stage II card would reach it, and that card is discarded.
    """
    track = state.invader
    leaving = track.ravage
    discard = track.discard
    high_immigration = track.high_immigration
    if high_immigration is None:
        discard += leaving
    else:
        discard += high_immigration
        permanent = has_feature(state.setup, HIGH_IMMIGRATION_PERMANENT)
        if not permanent and any(ALL_CARDS[card].stage >= 2 for card in leaving):
            discard += leaving
            high_immigration = None
            events.append(e.HighImmigrationRemoved(leaving))
        else:
            high_immigration = leaving
    moved = replace(
        track,
        discard=discard,
        high_immigration=high_immigration,
        ravage=track.build,
        build=track.explore,
        explore=(),
    )
    events.append(e.InvaderCardsAdvanced(
        tuple(card for card in discard[len(track.discard):]), moved.ravage, moved.build,
        moved.high_immigration))
    return replace(state, invader=moved)


def reveals_for(state: GameState, phase: str, step: str) -> int:
    """How many invader cards the step turns over."""
    scenario = scenario_of(state.setup)
    if not (scenario and scenario.surges):
        return 1
    if step == "initial_explore":
        return 2
    if step == "explore" and phase != "setup":  # Blitz's extra setup explore is plain
        if state.round % 2:
            return 0
        return 3 if larger_surges(scenario, state.setup.scenario_difficulty) else 2
    return 1


def start_escalation(state: GameState, events: Events) -> GameState:
    state = replace(state, phase=ESCALATION_STEP[0], step=ESCALATION_STEP[1],
                    invader=replace(state.invader, escalation_due=False,
                                    special_this_step=None))
    events.append(e.StepStarted(state.round, *ESCALATION_STEP))
    return state


def awaiting_reveal(state: GameState) -> bool:
    """True while the players must tell the app which invader card they turned over."""
    track = state.invader
    if track.uncovered:
        return True
    if not (state.step in REVEAL_STEPS and track.reveals_due > 0):
        return False
    return bool(track.deck) or (final_surge(state) and bool(_final_surge_cards(state)[1]))


def final_surge(state: GameState) -> bool:
    """Surges of Colonization: the deck ran out after this step's normal Explore card was
    turned, so the surge's cards come from elsewhere (the Final Surge) instead of losing."""
    scenario, track = scenario_of(state.setup), state.invader
    return bool(scenario and scenario.surges and not track.deck and state.step in REVEAL_STEPS
                and 0 < track.reveals_due < reveals_for(state, state.phase, state.step))


def _final_surge_cards(state: GameState) -> tuple[str, tuple[str, ...]]:
    """Where the Final Surge's next card comes from ("box" or "discard") and which cards it
    can be: the unused Stage III cards first, then the highest-stage cards in the discard."""
    track = state.invader
    if state.setup.deck == "virtual":
        unused = tuple(card for card in track.set_aside
                       if card and INVADER_CARDS[card].stage == 3)
    elif None in track.set_aside:  # unseen cards in the box: any Stage III card not seen yet
        seen = set(_cards_seen(track))
        unused = tuple(cid for cid, card in INVADER_CARDS.items()
                       if card.stage == 3 and cid not in seen)
    else:
        unused = ()
    if unused:
        return "box", unused
    in_discard = [card for card in track.discard if card in INVADER_CARDS]
    if not in_discard:
        return "discard", ()
    top = max(INVADER_CARDS[card].stage for card in in_discard)
    return "discard", tuple(card for card in in_discard if INVADER_CARDS[card].stage == top)


def expected_stage(state: GameState) -> int:
    """The stage of the card the app waits for (from the fear deck first)."""
    track = state.invader
    if track.uncovered:
        return track.uncovered[0]
    if not track.deck and final_surge(state):
        return max(INVADER_CARDS[card].stage for card in _final_surge_cards(state)[1])
    return track.deck[0].stage


def reveal_request(state: GameState) -> Phrase:
    stage = stage_phrase(expected_stage(state))
    if state.invader.uncovered:
        return Phrase("name the {stage} invader card that came out of the fear deck (reveal)",
                      stage=stage)
    return Phrase("turn over the top invader card ({stage}) and name it (reveal)", stage=stage)


def candidates(state: GameState) -> list[str]:
    """The cards that can legally come up next from a physical deck."""
    track = state.invader
    if not awaiting_reveal(state):
        return []
    if not track.uncovered and not track.deck:  # the Final Surge
        return list(_final_surge_cards(state)[1])
    if not track.uncovered and track.deck[0].card:
        return [track.deck[0].card]
    stage = expected_stage(state)
    known = set(_cards_seen(track))
    return [cid for cid, card in INVADER_CARDS.items() if card.stage == stage
            and cid not in known]


def _cards_seen(track: InvaderTrack) -> tuple[str, ...]:
    """Every card whose place the app knows outside the deck's unseen positions."""
    fixed = tuple(entry.card for entry in track.deck if entry.card)
    removed = tuple(card for card in track.removed if card)
    return cards_in_play(track) + fixed + removed


def reveal(state: GameState, command: c.Reveal, events: Events,
           ends: list[Ending]) -> GameState:
    track = state.invader
    if not track.uncovered and state.step not in REVEAL_STEPS:
        raise Refused(Phrase("invader cards are turned over in the Explore step (and at setup); "
                             "now it is {step}", step=named_step(state.step)))
    if state.setup.deck == "virtual":
        raise Refused(Phrase("this game uses the app's virtual deck: the app turns the cards "
                             "itself"))
    if not awaiting_reveal(state):
        raise Refused(Phrase("a card was already turned over in this step; undo first if it was "
                             "the wrong one"))
    card = ALL_CARDS.get(command.card)
    if card is None:
        raise Refused(Phrase("unknown invader card {card}; cards are named like I-jungle, "
                             "II-coastal or III-mountain-sands", card=repr(command.card)))
    if not command.force:
        problem = _reveal_problem(state, command.card)
        if problem:
            raise Refused(problem, " (send force: true if your table plays it that way)")
    if track.uncovered:
        return _place_uncovered(state, command.card, events)
    if not track.deck:
        state = _turn_surge_card(state, command.card, command.force, events)
    else:
        state = _turn_card(state, command.card, command.force, events)
    return turn_due_cards(state, events, ends)


def _reveal_problem(state: GameState, card_id: str) -> Phrase | None:
    """Why `card_id` cannot be the card turned over now (the table may insist), or None."""
    track = state.invader
    if not track.uncovered and not track.deck:
        source, cards = _final_surge_cards(state)
        if card_id in cards:
            return None
        return Phrase("Final Surge: the surge card is an unused Stage III card or, when none is "
                      "left, one of the highest-stage cards in the discard ({cards}), not "
                      "{card}", cards=", ".join(cards), card=card_id)
    fixed = None if track.uncovered else track.deck[0].card
    if fixed:
        if card_id == fixed:
            return None
        return Phrase("the next card was placed at setup: it should be {expected}, not {card}",
                      expected=fixed, card=card_id)
    if card_id not in INVADER_CARDS:
        return Phrase("{card} only comes up where the adversary placed it", card=card_id)
    if card_id in _cards_seen(track):
        return Phrase("{card} has already come up, or lies elsewhere, in this game",
                      card=card_id)
    stage = expected_stage(state)
    if INVADER_CARDS[card_id].stage != stage:
        where = Phrase("the card from the fear deck") if track.uncovered else Phrase(
            "the next card in the deck")
        return Phrase("{card} is a {stage} card, but {where} is {expected}", card=card_id,
                      stage=stage_phrase(INVADER_CARDS[card_id].stage), where=where,
                      expected=stage_phrase(stage))
    return None


def turn_due_cards(state: GameState, events: Events, ends: list[Ending]) -> GameState:
    """Turn over what the step still needs: the app does it for a virtual deck."""
    while state.step in REVEAL_STEPS and state.invader.reveals_due > 0:
        if not state.invader.deck and final_surge(state):
            source, cards = _final_surge_cards(state)
            if not cards:  # no card anywhere to surge with: the surge does not happen
                state = replace(state, invader=replace(state.invader, reveals_due=0))
                break
            if state.setup.deck != "virtual":
                break
            # An unused card in the order it was set aside; from the discard, one at random.
            pick = random.Random(f"{state.setup.seed}:surge:{len(state.invader.surged)}")
            card = cards[0] if source == "box" else pick.choice(cards)
            state = _turn_surge_card(state, card, False, events)
        elif not state.invader.deck:  # the normal Explore card cannot be turned: time is up
            ends.append(ending(state, "defeat", "time"))
            break
        elif state.setup.deck != "virtual":
            break
        else:
            state = _turn_card(state, state.invader.deck[0].card or "", False, events)
        if state.step == "escalation":
            break
    return state


def _turn_surge_card(state: GameState, card_id: str, forced: bool, events: Events) -> GameState:
    """The Final Surge: a card from the box or the discard goes onto the Explore space."""
    track = state.invader
    source, _ = _final_surge_cards(state)
    set_aside, discard = list(track.set_aside), list(track.discard)
    if card_id in discard and (source == "discard" or card_id not in set_aside):
        discard.remove(card_id)
    elif card_id in set_aside:
        set_aside.remove(card_id)
    elif None in set_aside and card_id not in _cards_seen(track):
        set_aside.remove(None)  # a physical card nobody had looked at
    else:
        raise Refused(Phrase("{card} is neither in the box nor in the discard: the Final Surge "
                             "cannot take it", card=card_id))
    state = replace(state, invader=replace(track, set_aside=tuple(set_aside),
                                           discard=tuple(discard),
                                           surged=track.surged + (card_id,)))
    return _turn_card(state, card_id, forced, events, surge=True)


def _turn_card(state: GameState, card_id: str, forced: bool, events: Events,
               surge: bool = False) -> GameState:
    """Take the top card off the deck (or, for a Final Surge, the card already taken from the
    box or the discard) and put it where this step sends it."""
    track = state.invader
    rest = track.deck if surge else track.deck[1:]
    card = ALL_CARDS[card_id]
    if not card.is_invader_card:
        # A reminder card: its effect happens and the next card is turned for the same step.
        assert card.effect is not None
        events.append(e.SpecialCardRevealed(card_id, card.name, card.effect))
        return replace(state, invader=replace(
            track, deck=rest, removed=track.removed + (card_id,), special_this_step=card_id))
    due = track.reveals_due - 1
    if state.step == "royal_backing":
        track = replace(track, deck=rest, discard=track.discard + (card_id,), reveals_due=due)
        slot = "discard"
    else:
        track = replace(track, deck=rest, explore=track.explore + (card_id,), reveals_due=due)
        slot = "explore"
    events.append(e.InvaderCardRevealed(card_id, card.stage, card.terrains, card.escalation,
                                        len(rest), forced, slot))
    if surge:
        pass  # the deck was empty already and said so
    elif len(rest) == 1:
        events.append(e.LastInvaderCard())
    elif not rest:
        events.append(e.InvaderDeckEmpty())
    state = replace(state, invader=track)
    adversary = adversary_of(state.setup)
    # Only an Invader Phase's explore escalates: a flagged card turned at setup does not.
    if card.escalation and adversary and state.step == "explore" and state.phase == "invader":
        track = state.invader
        if track.escalation_due:  # a second flagged card waiting for a later escalation
            return replace(state, invader=replace(
                track, more_escalations=track.more_escalations + 1))
        state = replace(state, invader=replace(track, escalation_due=True))
        if adversary.escalation_timing == "before_explore":
            state = start_escalation(state, events)
    return state


def _place_uncovered(state: GameState, card_id: str, events: Events) -> GameState:
    track = state.invader
    events.append(e.InvaderCardUncovered(track.uncovered[0], card_id))
    return replace(state, invader=replace(
        track, uncovered=track.uncovered[1:], build=track.build + (card_id,)))




def draw_event(state: GameState, events: Events) -> GameState:
    """The event step draws a card; in the first round it is discarded unresolved."""
    assert state.events is not None
    resolve = state.round > 1
    track, kind = _draw_one(state.events, resolve, events)
    if kind == "slave_rebellion":
        # France's own event draws another event after it. In Stages I-II it then goes back
        # under the top cards; in Stage III (or unresolved) it is discarded for good.
        if resolve and (track.deck or track.discard):
            track, _ = _draw_one(track, True, events)
        if resolve and invader_stage(state) < 3:
            track = replace(track, deck=track.deck + 1,
                            slave_rebellion=min(SLAVE_REBELLION_DEPTH, track.deck))
        # Otherwise it leaves the game: a reshuffled discard must not bring it back.
    return replace(state, events=track)


def _draw_one(track: EventTrack, resolve: bool, events: Events) -> tuple[EventTrack, str]:
    track = _take_event(track, events)
    kind = "slave_rebellion" if track.slave_rebellion == 0 else "event"
    below = None if not track.slave_rebellion else track.slave_rebellion - 1
    track = replace(
        track,
        deck=track.deck - 1,
        discard=track.discard + (1 if kind == "event" else 0),
        drawn=track.drawn + 1,
        slave_rebellion=below,
        drawn_this_round=track.drawn_this_round + (kind,),
    )
    events.append(e.EventCardDrawn(kind, resolve, track.deck))
    return track, kind


def _take_event(track: EventTrack, events: Events) -> EventTrack:
    """Make sure a card can be drawn: an empty deck is refilled from the shuffled discard."""
    if track.deck == 0 and track.discard:
        track = replace(track, deck=track.discard, discard=0)
        events.append(e.EventDeckReshuffled(track.deck))
    return track


def invader_stage(state: GameState) -> int:
    """The stage events look at: the top invader card's in the deck (III when it is empty)."""
    for entry in state.invader.deck:
        if entry.stage:
            return entry.stage
    return 3
