"""The rules: given a state and a command, the next state and what happened.

`start(command)` begins a game; `decide(state, command)` does everything else a player can ask
of a running game. Both are pure: same input, same answer, and a refused command (`Refused`)
leaves nothing changed because nothing is ever changed in place.
"""

from __future__ import annotations

import random
from dataclasses import replace

from . import commands as c
from . import events as e
from .adversaries import ADVERSARIES, THEMATIC_MAP_DIFFICULTY, Level
from .blight_cards import (
    BASE_GAME_BLIGHT_CARDS,
    BEGINNER_BLIGHT_PER_PLAYER,
    BLIGHT_CARDS,
    HEALTHY_BLIGHT_PER_PLAYER,
    SETUP_EXTRA_BLIGHT,
)
from .cards import DEFAULT_DECK_ORDER, INVADER_CARDS, build_virtual_deck, parse_deck_order
from .errors import Refused
from .state import (
    OVER_STEP,
    ROUND_STEPS,
    SETUP_STEP,
    BlightTrack,
    FearTrack,
    GameState,
    InvaderTrack,
    Outcome,
    Setup,
)
from .texts import VICTORY_CONDITIONS, stage_name

FEAR_MARKERS_PER_PLAYER = 4
DEFAULT_FEAR_SPLIT = (3, 3, 3)
FEAR_PER_PIECE = {"town": 1, "city": 2}
TOTAL_INVADER_CARDS = len(INVADER_CARDS)

Events = list[e.Event]
# A game end noticed while a command runs: (result, reason, words for the players).
Ending = tuple[str, str, str]


# --- starting a game --------------------------------------------------------------------------


def start(command: c.NewGame) -> tuple[GameState, Events]:
    """Set up a game and carry it to the initial explore."""
    if command.seed is None:
        raise Refused("a new game needs a seed; the app picks one when none is given")
    setup = _setup_from(command)
    rng = random.Random(setup.seed)
    entries = parse_deck_order(setup.deck_order)
    set_aside: tuple[str | None, ...]
    if setup.deck == "virtual":
        deck, set_aside = build_virtual_deck(entries, rng)
    else:
        deck, set_aside = entries, (None,) * (TOTAL_INVADER_CARDS - len(entries))
    if setup.mode == "advanced" and setup.blight_card is None:
        setup = replace(setup, blight_card=rng.choice(BASE_GAME_BLIGHT_CARDS))

    if setup.mode == "advanced":
        on_card = HEALTHY_BLIGHT_PER_PLAYER * setup.players + SETUP_EXTRA_BLIGHT
    else:
        on_card = BEGINNER_BLIGHT_PER_PLAYER * setup.players + SETUP_EXTRA_BLIGHT
    state = GameState(
        setup=setup,
        round=0,
        phase=SETUP_STEP[0],
        step=SETUP_STEP[1],
        invader=InvaderTrack(deck=deck, set_aside=set_aside),
        fear=FearTrack(
            pool_size=_fear_markers_per_player(setup) * setup.players,
            generated=0,
            earned=0,
            resolved=0,
            deck=sum(setup.fear_split),
            split=setup.fear_split,
        ),
        blight=BlightTrack(
            card=setup.blight_card, side="healthy", on_card=on_card, on_island=setup.island_blight
        ),
    )
    events: Events = [
        e.GameStarted(setup.players, setup.mode, setup.deck, setup.blight_card, setup.seed)
    ]
    ends: list[Ending] = []
    state = _enter(state, SETUP_STEP, events, ends)
    return _settle(state, events, ends), events


def _setup_from(command: c.NewGame) -> Setup:
    assert command.seed is not None
    if command.mode == "beginner" and command.blight_card is not None:
        raise Refused("a beginner game uses the Invader Board's blight space, not a blight card; "
                      "choose the advanced mode to play with a blight card")
    if command.blight_card is not None and command.blight_card not in BLIGHT_CARDS:
        raise Refused(f"unknown blight card {command.blight_card!r}; known cards: "
                      f"{', '.join(BLIGHT_CARDS)}")
    level = _adversary_level(command)
    if command.deck_order is not None:  # a house rule overrides the adversary's order
        deck_order = command.deck_order
    else:
        deck_order = level.deck_order if level else DEFAULT_DECK_ORDER
    try:
        parse_deck_order(deck_order)
    except ValueError as error:
        raise Refused(str(error)) from None
    difficulty = (level.difficulty if level else 0) + (
        THEMATIC_MAP_DIFFICULTY if command.thematic else 0)
    return Setup(
        players=command.players,
        mode=command.mode,
        deck=command.deck,
        seed=command.seed,
        deck_order=deck_order,
        fear_split=command.fear_split or (level.fear_split if level else DEFAULT_FEAR_SPLIT),
        blight_card=command.blight_card,
        # Each base-game island board starts with one blight from the box (not from the card).
        island_blight=command.players if command.island_blight is None else command.island_blight,
        difficulty=difficulty,
        adversary=command.adversary,
        level=(command.level or 0) if command.adversary else None,
        thematic=command.thematic,
    )


def _adversary_level(command: c.NewGame) -> Level | None:
    if command.adversary is None:
        if command.level is not None:
            raise Refused("a level needs an adversary; adversaries: " + ", ".join(ADVERSARIES))
        return None
    adversary = ADVERSARIES.get(command.adversary)
    if adversary is None:
        raise Refused(f"unknown adversary {command.adversary!r}; adversaries: "
                      f"{', '.join(ADVERSARIES)}")
    return adversary.levels[command.level or 0]


def _fear_markers_per_player(setup: Setup) -> int:
    if setup.adversary is None or setup.level is None:
        return FEAR_MARKERS_PER_PLAYER
    return ADVERSARIES[setup.adversary].levels[setup.level].fear_markers_per_player


# --- commands on a running game ---------------------------------------------------------------


def decide(state: GameState, command: c.Command) -> tuple[GameState, Events]:
    """Apply one command to a running game, or raise Refused."""
    if isinstance(command, c.Score):
        return _score(state, command)
    if state.is_over:
        assert state.outcome is not None
        ended = f"{state.outcome.result}: {state.outcome.detail.rstrip('.')}"
        raise Refused(f"the game is over ({ended}); undo to take back the last action, "
                      "or start a new game")
    events: Events = []
    ends: list[Ending] = []
    if isinstance(command, c.Next):
        state = _complete_step(state, events, ends)
    elif isinstance(command, c.Reveal):
        state = _reveal(state, command, events, ends)
    elif isinstance(command, c.ResolveFear):
        state = _resolve_fear(state, events)
    elif isinstance(command, c.Declare):
        ends.append(_declared(state, command))
    elif isinstance(command, c.Effect):
        for part in command.commands:
            state = _quick_change(state, part, events, ends)
    elif isinstance(command, c.EFFECT_PARTS):
        state = _quick_change(state, command, events, ends)
    else:
        raise Refused(f"'{command.name}' is not a game action")
    return _settle(state, events, ends), events


def _quick_change(state: GameState, command: c.Command, events: Events,
                  ends: list[Ending]) -> GameState:
    if isinstance(command, c.GenerateFear):
        return _generate_fear(state, command.amount, events, ends)
    if isinstance(command, c.Destroy):
        fear = FEAR_PER_PIECE[command.piece] * command.count
        events.append(e.PiecesDestroyed(command.piece, command.count, fear))
        return _generate_fear(state, fear, events, ends)
    if isinstance(command, c.AddBlight):
        return _add_blight(state, command.amount, events, ends)
    if isinstance(command, c.Heal):
        return _heal(state, command.amount, events)
    raise Refused(f"'{command.name}' cannot be part of an effect")


def _settle(state: GameState, events: Events, ends: list[Ending]) -> GameState:
    """End the game if the command ended it; a win and a loss together are a sacrifice victory."""
    if not ends:
        return state
    results = {result for result, _, _ in ends}
    if "sacrifice" in results or {"victory", "defeat"} <= results:
        reasons = " and ".join(reason for _, reason, _ in ends)
        result, reason = "sacrifice", reasons
        detail = ("The same effect both won and lost the game: a sacrifice victory. "
                  + " ".join(detail for _, _, detail in ends))
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


def _why_skipped(state: GameState, step: str) -> str | None:
    """Why the step does not happen now, or None when it does."""
    if step == "blighted_island" and state.blight.side != "blighted":
        return "the island is still healthy"
    if step == "fear" and state.fear.earned == 0:
        return "no fear cards have been earned"
    if step == "ravage" and not state.invader.ravage:
        return "no card lies on the Ravage space"
    if step == "build" and not state.invader.build:
        return "no card lies on the Build space"
    return None


def _enter(state: GameState, where: tuple[str, str], events: Events,
           ends: list[Ending]) -> GameState:
    """Begin the step `where`, or the first step after it that applies."""
    index = ROUND_STEPS.index(where) if where in ROUND_STEPS else -1
    while index >= 0 and (why := _why_skipped(state, ROUND_STEPS[index][1])):
        events.append(e.StepSkipped(ROUND_STEPS[index][1], why))
        index += 1
    phase, step = ROUND_STEPS[index] if index >= 0 else where
    state = replace(state, phase=phase, step=step)
    events.append(e.StepStarted(state.round, phase, step))
    if step in ("explore", "initial_explore"):
        state = replace(state, invader=replace(state.invader, revealed_this_step=False))
        if not state.invader.deck:
            ends.append(("defeat", "time",
                         "Time ran out: an invader card had to be turned over, "
                         "but the invader deck is empty."))
        elif state.setup.deck == "virtual":
            state = _put_on_explore(state, state.invader.deck[0].card or "", False, events)
    return state


def _complete_step(state: GameState, events: Events, ends: list[Ending]) -> GameState:
    step = state.step
    if awaiting_reveal(state):
        stage = stage_name(state.invader.deck[0].stage)
        raise Refused(f"turn over the top invader card ({stage}) and tell the app which one it "
                      "is (reveal) before finishing this step")
    if step == "fear" and state.fear.earned:
        raise Refused(f"{state.fear.earned} earned fear card(s) still wait: resolve each one "
                      "(resolve_fear) before finishing the Fear step")
    if step == "initial_explore":
        state = _slide_cards(state, events)
        return _begin_round(state, events, ends)
    if step == "advance":
        state = _slide_cards(state, events)
    if step == "time_passes":
        return _begin_round(state, events, ends)
    following = ROUND_STEPS[ROUND_STEPS.index((state.phase, step)) + 1]
    return _enter(state, following, events, ends)


def _begin_round(state: GameState, events: Events, ends: list[Ending]) -> GameState:
    state = replace(state, round=state.round + 1)
    events.append(e.RoundStarted(state.round))
    return _enter(state, ROUND_STEPS[0], events, ends)


# --- the invader deck -------------------------------------------------------------------------


def _slide_cards(state: GameState, events: Events) -> GameState:
    """Every card moves one space left at once; Ravage cards go to the discard."""
    track = state.invader
    moved = replace(
        track,
        discard=track.discard + track.ravage,
        ravage=track.build,
        build=track.explore,
        explore=(),
    )
    events.append(e.InvaderCardsAdvanced(track.ravage, moved.ravage, moved.build))
    return replace(state, invader=moved)


def awaiting_reveal(state: GameState) -> bool:
    """True while the step needs a card turned over before it can be finished."""
    return (state.step in ("explore", "initial_explore")
            and not state.invader.revealed_this_step and bool(state.invader.deck))


def candidates(state: GameState) -> list[str]:
    """The cards that can legally come up next from a physical deck."""
    track = state.invader
    if not track.deck:
        return []
    top = track.deck[0]
    if top.card:
        return [top.card]
    seen = set(_cards_out(track))
    return [cid for cid, card in INVADER_CARDS.items() if card.stage == top.stage
            and cid not in seen and not _fixed_later(track, cid)]


def _cards_out(track: InvaderTrack) -> tuple[str, ...]:
    return track.ravage + track.build + track.explore + track.discard


def _fixed_later(track: InvaderTrack, card: str) -> bool:
    return any(entry.card == card for entry in track.deck[1:])


def _reveal(state: GameState, command: c.Reveal, events: Events,
            ends: list[Ending]) -> GameState:
    if state.step not in ("explore", "initial_explore"):
        raise Refused("invader cards are turned over in the Explore step (and once at setup); "
                      f"the game is in the {state.step.replace('_', ' ')} step")
    if state.setup.deck == "virtual":
        raise Refused("this game uses the app's virtual deck: the app turns the cards itself")
    if state.invader.revealed_this_step:
        raise Refused("a card was already turned over in this step; undo first if it was the "
                      "wrong one")
    card = INVADER_CARDS.get(command.card)
    if card is None:
        raise Refused(f"unknown invader card {command.card!r}; cards are named like "
                      "I-jungle, II-coastal or III-mountain-sands")
    if not command.force:
        problem = _reveal_problem(state.invader, command.card)
        if problem:
            raise Refused(problem + " (send force: true if your table plays it that way)")
    return _put_on_explore(state, command.card, command.force, events)


def _reveal_problem(track: InvaderTrack, card_id: str) -> str | None:
    card = INVADER_CARDS[card_id]
    top = track.deck[0]
    if card_id in _cards_out(track):
        return f"{card_id} has already come up in this game"
    if top.card and top.card != card_id:
        return f"the next card was placed at setup: it should be {top.card}, not {card_id}"
    if card.stage != top.stage:
        return (f"{card_id} is a {stage_name(card.stage)} card, but the next card in the deck "
                f"is {stage_name(top.stage)}")
    if _fixed_later(track, card_id):
        return f"{card_id} was placed further down the deck at setup; it cannot come up now"
    return None


def _put_on_explore(state: GameState, card_id: str, forced: bool, events: Events) -> GameState:
    track = state.invader
    rest = track.deck[1:]
    state = replace(state, invader=replace(
        track, deck=rest, explore=track.explore + (card_id,), revealed_this_step=True))
    card = INVADER_CARDS[card_id]
    events.append(e.InvaderCardRevealed(card_id, card.stage, card.terrains, card.escalation,
                                        len(rest), forced))
    if len(rest) == 1:
        events.append(e.LastInvaderCard())
    elif not rest:
        events.append(e.InvaderDeckEmpty())
    return state


# --- fear and terror --------------------------------------------------------------------------


def _generate_fear(state: GameState, amount: int, events: Events,
                   ends: list[Ending]) -> GameState:
    fear = state.fear
    generated = fear.generated + amount
    earned, deck = fear.earned, fear.deck
    level = fear.terror_level
    new_events: Events = []
    # Each time the pool empties a card is earned and the markers go back; surplus carries over.
    while generated >= fear.pool_size:
        generated -= fear.pool_size
        if deck == 0:
            continue
        earned, deck = earned + 1, deck - 1
        after = replace(fear, earned=earned, deck=deck)
        new_events.append(e.FearCardEarned(after.total_cards - deck, earned, deck))
        if after.terror_level > level:
            level = after.terror_level
            new_events.append(e.TerrorLevelRaised(level, VICTORY_CONDITIONS[level]))
        if deck == 0:
            ends.append(("victory", "fear",
                         "The last fear card was earned: the invaders flee the island in terror."))
    fear = replace(fear, generated=generated, earned=earned, deck=deck)
    events.append(e.FearGenerated(amount, fear.pool, fear.generated))
    events.extend(new_events)
    return replace(state, fear=fear)


def _resolve_fear(state: GameState, events: Events) -> GameState:
    if state.step != "fear":
        raise Refused("earned fear cards are resolved in the Fear step of the Invader phase; "
                      f"the game is in the {state.step.replace('_', ' ')} step")
    fear = state.fear
    if not fear.earned:
        raise Refused("no earned fear card is waiting")
    fear = replace(fear, earned=fear.earned - 1, resolved=fear.resolved + 1)
    events.append(e.FearCardResolved(fear.resolved, fear.terror_level, fear.earned))
    return replace(state, fear=fear)


# --- blight -----------------------------------------------------------------------------------


def _add_blight(state: GameState, amount: int, events: Events, ends: list[Ending]) -> GameState:
    """Take blight from the card (or board space) onto the island, one at a time."""
    blight = state.blight
    on_card, on_island, side = blight.on_card, blight.on_island, blight.side
    flipped: e.Event | None = None
    for _ in range(amount):
        if on_card == 0:  # already lost earlier in the same effect: nothing left to take
            break
        on_card, on_island = on_card - 1, on_island + 1
        if on_card > 0:
            continue
        if side == "healthy" and blight.card is not None:
            card = BLIGHT_CARDS[blight.card]
            side = "blighted"
            on_card = card.blighted_per_player * state.setup.players
            flipped = e.BlightCardFlipped(card.id, card.name, on_card, card.effect)
            continue
        ends.append(("defeat", "blight",
                     "The last blight left the blight card: the island is overwhelmed."))
        break
    events.append(e.BlightAdded(on_island - blight.on_island, on_card, on_island))
    if flipped is not None:
        events.append(flipped)
    blight = replace(blight, on_card=on_card, on_island=on_island, side=side)
    return replace(state, blight=blight)


def _heal(state: GameState, amount: int, events: Events) -> GameState:
    blight = state.blight
    if amount > blight.on_island:
        raise Refused(f"only {blight.on_island} blight is on the island; "
                      f"{amount} cannot be removed")
    # Removed blight goes back to the card; a flipped card stays flipped.
    blight = replace(blight, on_card=blight.on_card + amount, on_island=blight.on_island - amount)
    events.append(e.BlightHealed(amount, blight.on_card, blight.on_island))
    return replace(state, blight=blight)


# --- the end of the game ----------------------------------------------------------------------


def _declared(state: GameState, command: c.Declare) -> Ending:
    if command.result == "victory":
        level = state.terror_level
        return ("victory", command.reason or "terror_condition",
                f"The players met the terror level {level} condition: "
                f"{VICTORY_CONDITIONS[level]}")
    if command.result == "defeat":
        reason = command.reason or "spirit_destroyed"
        detail = ("A Spirit has no Presence left on the island." if reason == "spirit_destroyed"
                  else f"The players declared a defeat: {reason.replace('_', ' ')}.")
        return ("defeat", reason, detail)
    return ("sacrifice", command.reason or "sacrifice",
            "One effect both won and lost the game: a sacrifice victory.")


def score(state: GameState, dahan: int, blight_on_island: int) -> int:
    """The published score: it rewards difficulty, a quick win or a long stand, dahan kept."""
    assert state.outcome is not None
    difficulty = state.setup.difficulty
    players = state.setup.players
    if state.outcome.result in ("victory", "sacrifice"):
        points = 5 * difficulty + 10 + 2 * len(state.invader.deck)
    else:
        points = 2 * difficulty + len(_cards_out(state.invader))
    return points + dahan // players - blight_on_island // players


def _score(state: GameState, command: c.Score) -> tuple[GameState, Events]:
    if state.outcome is None:
        raise Refused("the score is counted when the game is over")
    blight = state.blight.on_island if command.blight_on_island is None \
        else command.blight_on_island
    points = score(state, command.dahan, blight)
    outcome = replace(state.outcome, score=points, dahan=command.dahan, blight_on_island=blight)
    return replace(state, outcome=outcome), [e.ScoreRecorded(points, command.dahan, blight)]
