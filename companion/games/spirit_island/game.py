"""The rules: given a state and a command, the next state and what happened.

`start(command)` begins a game; `decide(state, command)` does everything else a player can ask
of a running game. Both are pure: same input, same answer, and a refused command (`Refused`)
leaves nothing changed because nothing is ever changed in place.

This module walks the rounds and their steps; the other concerns live beside it: `setup`,
`invader_deck`, `fear`, `blight`, `corrections` and `endings` (and `basics`, which they share).
"""

from __future__ import annotations

import random
from dataclasses import replace

from companion.core.errors import Refused

from . import commands as c
from . import events as e
from .adversaries import FEAR_DECK_INVADERS, HIGH_IMMIGRATION
from .basics import (
    FEAR_PER_PIECE,
    TOTAL_INVADER_CARDS,
    Ending,
    Events,
    adversary_of,
    has_feature,
    level_of,
    scenario_of,
)
from .blight import add_blight, heal, next_blight_card
from .blight_cards import (
    BASE_GAME_BLIGHT_CARDS,
    BEGINNER_BLIGHT_PER_PLAYER,
    BLIGHT_CARDS,
    HEALTHY_BLIGHT_PER_PLAYER,
    SETUP_EXTRA_BLIGHT,
)
from .cards import SPECIAL_CARDS, build_virtual_deck, parse_deck_order
from .corrections import CORRECTIONS, correct
from .endings import SACRIFICE_BY_ONE_EFFECT, declared, outcome_phrase, record_score
from .fear import generate_fear, lose_fear, name_fear_card, resolve_fear, ritual
from .invader_deck import (
    awaiting_reveal,
    draw_event,
    reveal,
    reveal_request,
    reveals_for,
    slide_cards,
    start_escalation,
    turn_due_cards,
)
from .setup import event_track, fear_markers_per_player, hide_in_fear_deck, setup_from, setup_steps
from .state import (
    OVER_STEP,
    REVEAL_STEPS,
    ROUND_STEPS,
    BlightTrack,
    FearTrack,
    GameState,
    InvaderTrack,
    Outcome,
    Setup,
)
from .texts import Listing, Phrase

# --- starting a game --------------------------------------------------------------------------


def start(command: c.NewGame) -> tuple[GameState, Events]:
    """Set up a game and carry it to its first setup step."""
    if command.seed is None:
        raise Refused(Phrase("a new game needs a seed; the app picks one when none is given"))
    setup = setup_from(command)
    level = level_of(setup)
    scenario = scenario_of(setup)
    rng = random.Random(setup.seed)
    special = level.special_card if level else None
    entries = parse_deck_order(setup.deck_order, special)
    removed = level.removed_cards if level else ()
    set_aside: tuple[str | None, ...]
    if setup.deck == "virtual":
        deck, set_aside = build_virtual_deck(entries, rng, removed)
    else:
        in_deck = sum(1 for entry in entries if entry.card not in SPECIAL_CARDS)
        deck, set_aside = entries, (None,) * (TOTAL_INVADER_CARDS - in_deck - len(removed))
    if setup.mode == "advanced" and setup.blight_card is None:
        # Drawn face down: with their own cards the players learn which card it is when it
        # flips; an app that shuffles may choose now but keeps it to itself until then.
        setup = replace(setup, blight_card_hidden=True)
        if setup.deck == "virtual":
            setup = replace(setup, blight_card=rng.choice(BASE_GAME_BLIGHT_CARDS))

    per_player = HEALTHY_BLIGHT_PER_PLAYER if setup.mode == "advanced" \
        else BEGINNER_BLIGHT_PER_PLAYER
    if scenario:
        per_player += scenario.setup_blight_per_player
    errata = SETUP_EXTRA_BLIGHT if scenario is None or scenario.setup_errata_blight else 0
    on_card = per_player * setup.players + errata

    hidden: tuple[tuple[int, int, str | None], ...] = ()
    if has_feature(setup, FEAR_DECK_INVADERS):
        hidden, set_aside = hide_in_fear_deck(set_aside)
    groups = tuple(setup.fear_split)
    state = GameState(
        setup=setup,
        round=0,
        phase="setup",
        step="",
        invader=InvaderTrack(
            deck=deck, set_aside=set_aside, removed=removed,
            high_immigration=() if has_feature(setup, HIGH_IMMIGRATION) else None,
        ),
        fear=FearTrack(
            pool_size=fear_markers_per_player(setup) * setup.players,
            generated=0,
            earned=0,
            resolved=0,
            groups=groups,
            split=groups,
            dividers=not (scenario and scenario.rituals_of_terror),
            hidden_invaders=hidden,
        ),
        blight=BlightTrack(
            card=setup.blight_card, side="healthy", on_card=on_card, on_island=setup.island_blight
        ),
        events=event_track(setup),
    )
    events: Events = [
        e.GameStarted(setup.players, setup.mode, setup.deck,
                      None if setup.blight_card_hidden else setup.blight_card, setup.seed)
    ]
    ends: list[Ending] = []
    state = _enter(state, setup_steps(setup)[0], events, ends)
    return _settle(state, events, ends), events


# --- commands on a running game ---------------------------------------------------------------


def decide(state: GameState, command: c.Command) -> tuple[GameState, Events]:
    """Apply one command to a running game, or raise Refused."""
    if isinstance(command, c.Score):
        return record_score(state, command)
    if state.is_over:
        raise Refused(Phrase("the game is over: {detail} Undo takes back the last action, or "
                             "start a new game", detail=outcome_phrase(state)))
    events: Events = []
    ends: list[Ending] = []
    if isinstance(command, c.Next):
        if command.step is not None and command.step != state.step:
            raise Refused(Phrase("this was meant to finish the {step} step, but the game is at "
                                 "{current} already; nothing was changed",
                                 step=repr(command.step), current=repr(state.step)))
        state = _complete_step(state, events, ends)
    elif isinstance(command, c.SpiritDone):
        state = _spirit_done(state, command, events)
    elif isinstance(command, c.Reveal):
        state = reveal(state, command, events, ends)
    elif isinstance(command, c.ResolveFear):
        state = resolve_fear(state, command, events)
    elif isinstance(command, c.NameFearCard):
        state = name_fear_card(state, command.card, command.force, events)
    elif isinstance(command, c.Ritual):
        state = ritual(state, events, ends)
    elif isinstance(command, c.NextBlightCard):
        state = next_blight_card(state, command, events, ends)
    elif isinstance(command, c.Declare):
        ends.append(declared(state, command))
    elif isinstance(command, c.Effect):
        for part in command.commands:
            state = _quick_change(state, part, events, ends)
    elif isinstance(command, c.EFFECT_PARTS):
        state = _quick_change(state, command, events, ends)
    elif isinstance(command, CORRECTIONS):
        state = correct(state, command, events, ends)
    else:
        raise Refused(Phrase("'{name}' is not a game action", name=command.name))
    return _settle(state, events, ends), events


def _spirit_done(state: GameState, command: c.SpiritDone, events: Events) -> GameState:
    """Who is still growing: the table's step button is not moved by it."""
    spirit, players = command.spirit, state.setup.players
    if spirit >= players:
        raise Refused(Phrase("there is no spirit {number} in a game of {players}",
                             number=spirit + 1, players=players))
    if state.phase != "spirit":
        raise Refused(Phrase("the Spirit phase of this round is over; nothing was changed"))
    if command.done == (spirit in state.spirits_done):
        raise Refused(Phrase("spirit {number} has said so already", number=spirit + 1))
    done = (*state.spirits_done, spirit) if command.done \
        else tuple(other for other in state.spirits_done if other != spirit)
    events.append(e.SpiritDone(spirit, command.done,
                               tuple(other for other in range(players) if other not in done)))
    return replace(state, spirits_done=done)


def _quick_change(state: GameState, command: c.Command, events: Events,
                  ends: list[Ending]) -> GameState:
    if isinstance(command, c.GenerateFear):
        return generate_fear(state, command.amount, events, ends)
    if isinstance(command, c.Destroy):
        fear = FEAR_PER_PIECE[command.piece] * command.count
        events.append(e.PiecesDestroyed(command.piece, command.count, fear))
        return generate_fear(state, fear, events, ends)
    if isinstance(command, c.AddBlight):
        return add_blight(state, command.amount, events, ends)
    if isinstance(command, c.Heal):
        return heal(state, command.amount, events)
    if isinstance(command, c.LoseFear):
        return lose_fear(state, command.amount, events)
    raise Refused(Phrase("'{name}' cannot be part of an effect", name=command.name))


def _settle(state: GameState, events: Events, ends: list[Ending]) -> GameState:
    """End the game if the command ended it; a win and a loss together are a sacrifice victory."""
    if not ends:
        return state
    results = {result for result, _, _ in ends}
    if "sacrifice" in results or {"victory", "defeat"} <= results:
        result, reason = "sacrifice", " and ".join(reason for _, reason, _ in ends)
        detail = Phrase(SACRIFICE_BY_ONE_EFFECT, details=Listing(
            (Phrase(detail) for _, _, detail in ends), "", joined=" ")).render()
    else:
        result, reason, detail = ends[0]
    events.append(e.GameEnded(result, reason, detail))
    return replace(
        state,
        phase=OVER_STEP[0],
        step=OVER_STEP[1],
        outcome=Outcome(result, reason, detail),
        ended_in=(state.phase, state.step),
    )


# --- rounds and steps -------------------------------------------------------------------------


def _in_game(state: GameState, step: str) -> bool:
    """Whether this game has the step at all (others are passed over without a word)."""
    if step == "event":
        return state.events is not None
    if step == "high_immigration":
        return state.invader.high_immigration is not None
    return True


def _why_skipped(state: GameState, phase: str, step: str) -> str | None:
    """Why the step (of `phase`) does not happen now, or None when it does."""
    track, scenario = state.invader, scenario_of(state.setup)
    if step == "blighted_island":
        if state.blight.side == "healthy":
            return "the island is still healthy"
        card = BLIGHT_CARDS.get(state.blight.card or "")
        if card is None or not card.acts_every_invader_phase:
            return "the blight card acts only when it flips or as a standing rule"
    if step == "event" and state.events and not state.events.deck + state.events.discard:
        return "there is no event card left to draw"
    if step == "fear":
        if scenario and scenario.rituals_of_terror:
            return "in Rituals of Terror, earned fear cards wait for a ritual"
        if state.fear.earned == 0:
            return "no fear cards have been earned"
    if step == "high_immigration" and not track.high_immigration:
        return "no card lies on the High Immigration space"
    if step == "ravage" and not track.ravage:
        return "no card lies on the Ravage space"
    if step == "build" and not track.build:
        return "no card lies on the Build space"
    if step == "explore" and reveals_for(state, phase, step) == 0:
        return "Surges of Colonization: there is no explore in odd-numbered rounds"
    return None


def _sequence(setup: Setup, phase: str) -> list[tuple[str, str]]:
    return setup_steps(setup) if phase == "setup" else list(ROUND_STEPS)


def _enter(state: GameState, where: tuple[str, str], events: Events,
           ends: list[Ending]) -> GameState:
    """Begin the step `where`, or the first step after it that applies."""
    sequence = _sequence(state.setup, where[0])
    index = sequence.index(where)
    while True:
        step = sequence[index][1]
        if not _in_game(state, step):
            index += 1
        elif why := _why_skipped(state, sequence[index][0], step):
            events.append(e.StepSkipped(step, why))
            index += 1
        else:
            break
        if index == len(sequence):  # only the setup phase can run out of steps
            return _begin_round(state, events, ends)
    phase, step = sequence[index]
    state = replace(state, phase=phase, step=step)
    if phase != "spirit" and state.spirits_done:  # said for one round's Spirit phase only
        state = replace(state, spirits_done=())
    if state.invader.special_this_step:  # a special card's effect lasts only its own step
        state = replace(state, invader=replace(state.invader, special_this_step=None))
    events.append(e.StepStarted(state.round, phase, step))
    if step in REVEAL_STEPS:
        state = replace(state, invader=replace(state.invader,
                                               reveals_due=reveals_for(state, phase, step)))
        state = turn_due_cards(state, events, ends)
    elif step == "event":
        state = draw_event(state, events)
    return state


def _complete_step(state: GameState, events: Events, ends: list[Ending]) -> GameState:
    step = state.step
    if awaiting_reveal(state):
        raise Refused(Phrase("{request} before finishing this step",
                             request=reveal_request(state)))
    if state.blight.awaiting_card and state.blight.side == "healthy":
        raise Refused(Phrase("the blight card has flipped: say which card it is "
                             "(next_blight_card) before going on"))
    if state.blight.awaiting_card:
        raise Refused(Phrase("the Still-Healthy Island card has no blight left: draw the next "
                             "blight card and name it (next_blight_card) before going on"))
    waiting = state.fear.earned if step == "fear" else state.fear.ritual_cards
    if waiting:
        raise Refused(Phrase("{waiting} earned fear card(s) still wait: resolve each one "
                             "(resolve_fear) before finishing this step", waiting=waiting))
    adversary = adversary_of(state.setup)
    if step == "escalation":
        assert adversary is not None
        if state.invader.more_escalations:  # each flagged card escalates once
            state = replace(state, invader=replace(
                state.invader, more_escalations=state.invader.more_escalations - 1))
            return start_escalation(state, events)
        if adversary.escalation_timing == "before_explore":
            return _resume_explore(state, events, ends)
        following = ("invader", "advance") if adversary.escalation_timing == "after_explore" \
            else ("slow", "slow_powers")
        return _enter(state, following, events, ends)
    if step in ("initial_explore", "advance"):
        state = slide_cards(state, events)
    if adversary and state.invader.escalation_due and state.phase == "invader" and (
            (step == "explore" and adversary.escalation_timing == "after_explore")
            or (step == "advance" and adversary.escalation_timing == "after_advance")):
        return start_escalation(state, events)
    if step == "time_passes":
        return _begin_round(state, events, ends)
    sequence = _sequence(state.setup, state.phase)
    index = sequence.index((state.phase, step)) + 1
    if index == len(sequence):
        return _begin_round(state, events, ends)
    return _enter(state, sequence[index], events, ends)


def _resume_explore(state: GameState, events: Events, ends: list[Ending]) -> GameState:
    """Back from a before-explore escalation to the explore it interrupted."""
    state = replace(state, phase="invader", step="explore")
    events.append(e.StepStarted(state.round, "invader", "explore"))
    return turn_due_cards(state, events, ends)


def _begin_round(state: GameState, events: Events, ends: list[Ending]) -> GameState:
    state = replace(state, round=state.round + 1)
    if state.fear.resolved_this_round:
        state = replace(state, fear=replace(state.fear, resolved_this_round=0))
    if state.events:
        state = replace(state, events=replace(state.events, drawn_this_round=()))
    events.append(e.RoundStarted(state.round))
    return _enter(state, ROUND_STEPS[0], events, ends)
