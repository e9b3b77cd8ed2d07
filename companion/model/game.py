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
from .adversaries import (
    ADVERSARIES,
    FEAR_DECK_INVADER_PLACES,
    FEAR_DECK_INVADERS,
    HIGH_IMMIGRATION,
    HIGH_IMMIGRATION_PERMANENT,
    PROSPECTING_OUTPOST,
    ROYAL_BACKING,
    SLAVE_REBELLION,
    SLOW_HEALING,
    SLOW_HEALING_PANEL_PER_PLAYER,
    THEMATIC_MAP_DIFFICULTY,
    Adversary,
    Level,
)
from .blight_cards import (
    BASE_GAME_BLIGHT_CARDS,
    BEGINNER_BLIGHT_PER_PLAYER,
    BLIGHT_CARDS,
    HEALTHY_BLIGHT_PER_PLAYER,
    SETUP_EXTRA_BLIGHT,
)
from .cards import (
    ALL_CARDS,
    DEFAULT_DECK_ORDER,
    INVADER_CARDS,
    SPECIAL_CARDS,
    DeckEntry,
    build_virtual_deck,
    parse_deck_order,
)
from .errors import Refused
from .fear_cards import FEAR_CARDS
from .scenarios import FEAR_CARDS_IN_BASE_BOX, SCENARIOS, Scenario, larger_surges
from .state import (
    ESCALATION_STEP,
    OVER_STEP,
    REVEAL_STEPS,
    ROUND_STEPS,
    BlightTrack,
    EventTrack,
    FearTrack,
    GameState,
    InvaderTrack,
    Outcome,
    Setup,
)
from .texts import VICTORY_CONDITIONS, Listing, Phrase, stage_name, stage_phrase

FEAR_MARKERS_PER_PLAYER = 4
DEFAULT_FEAR_SPLIT = (3, 3, 3)
FEAR_PER_PIECE = {"town": 1, "city": 2}
TOTAL_INVADER_CARDS = len(INVADER_CARDS)
# Branch & Claw's event deck, without France's Slave Rebellion.
BRANCH_AND_CLAW_EVENT_CARDS = 25
# France 2+: Slave Rebellion goes (and goes back) under this many event cards.
SLAVE_REBELLION_DEPTH = 3
# Setup steps during which added blight comes from the box, not the card: the pieces of setup
# are put out then. Blitz's extra Build and Explore are invader actions, as in play.
BOX_BLIGHT_STEPS = ("royal_backing", "initial_explore")
# Invaders Find the Land to Their Liking: fear markers added per player at terror level 1-3,
# in halves (level 2 adds one and a half per player, rounded down).
LIKING_FEAR_HALVES = {1: 2, 2: 3, 3: 4}

Events = list[e.Event]
# A game end noticed while a command runs: (result, reason, words for the players).
Ending = tuple[str, str, str]


def level_of(setup: Setup) -> Level | None:
    if setup.adversary is None or setup.level is None:
        return None
    return ADVERSARIES[setup.adversary].levels[setup.level]


def adversary_of(setup: Setup) -> Adversary | None:
    return ADVERSARIES[setup.adversary] if setup.adversary else None


def scenario_of(setup: Setup) -> Scenario | None:
    return SCENARIOS[setup.scenario] if setup.scenario else None


def has_feature(setup: Setup, feature: str) -> bool:
    level = level_of(setup)
    return level is not None and feature in level.features


# --- starting a game --------------------------------------------------------------------------


def start(command: c.NewGame) -> tuple[GameState, Events]:
    """Set up a game and carry it to its first setup step."""
    if command.seed is None:
        raise Refused("a new game needs a seed; the app picks one when none is given")
    setup = _setup_from(command)
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
        hidden, set_aside = _hide_in_fear_deck(set_aside)
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
            pool_size=_fear_markers_per_player(setup) * setup.players,
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
        events=_event_track(setup),
    )
    events: Events = [
        e.GameStarted(setup.players, setup.mode, setup.deck,
                      None if setup.blight_card_hidden else setup.blight_card, setup.seed)
    ]
    ends: list[Ending] = []
    state = _enter(state, _setup_steps(setup)[0], events, ends)
    return _settle(state, events, ends), events


def _hide_in_fear_deck(
    set_aside: tuple[str | None, ...],
) -> tuple[tuple[tuple[int, int, str | None], ...], tuple[str | None, ...]]:
    """Russia 5+: one unused card of each named stage goes under a fear card."""
    rest = list(set_aside)
    hidden: list[tuple[int, int, str | None]] = []
    for above, stage in FEAR_DECK_INVADER_PLACES:
        known = [card for card in rest if card and INVADER_CARDS[card].stage == stage]
        if known:
            rest.remove(known[0])
            hidden.append((above, stage, known[0]))
        else:  # a physical deck: the players took an unseen card of that stage
            rest.remove(None)
            hidden.append((above, stage, None))
    return tuple(hidden), tuple(rest)


def _event_track(setup: Setup) -> EventTrack | None:
    if not setup.events:
        return None
    if has_feature(setup, SLAVE_REBELLION):
        return EventTrack(deck=setup.event_deck + 1,
                          slave_rebellion=min(SLAVE_REBELLION_DEPTH, setup.event_deck))
    return EventTrack(deck=setup.event_deck)


def _setup_from(command: c.NewGame) -> Setup:
    assert command.seed is not None
    if command.mode == "beginner" and command.blight_card is not None:
        raise Refused("a beginner game uses the Invader Board's blight space, not a blight card; "
                      "choose the advanced mode to play with a blight card")
    if command.blight_card is not None and command.blight_card not in BLIGHT_CARDS:
        raise Refused(f"unknown blight card {command.blight_card!r}; known cards: "
                      f"{', '.join(BLIGHT_CARDS)}")
    level = _adversary_level(command)
    scenario = _scenario(command)
    if command.deck_order is not None:  # a house rule overrides the adversary's order
        deck_order = command.deck_order
    else:
        deck_order = level.deck_order if level else DEFAULT_DECK_ORDER
    try:
        parse_deck_order(deck_order, level.special_card if level else None)
    except ValueError as error:
        raise Refused(str(error)) from None
    if command.event_deck is not None and not command.events:
        raise Refused("event_deck counts the event cards; it needs events: true")
    difficulty = setup_difficulty(command)
    return Setup(
        players=command.players,
        mode=command.mode,
        deck=command.deck,
        seed=command.seed,
        deck_order=deck_order,
        fear_split=_fear_split(command, level, scenario),
        blight_card=command.blight_card,
        island_blight=_island_blight(command, level, scenario),
        difficulty=difficulty,
        adversary=command.adversary,
        level=(command.level or 0) if command.adversary else None,
        thematic=command.thematic,
        scenario=command.scenario,
        events=command.events,
        event_deck=(command.event_deck or BRANCH_AND_CLAW_EVENT_CARDS) if command.events else 0,
        scenario_difficulty=command.scenario_difficulty if scenario else None,
    )


def _island_blight(command: c.NewGame, level: Level | None, scenario: Scenario | None) -> int:
    """Blight on the island boards at the start, all of it from the box (not from the card)."""
    if command.island_blight is not None:
        return command.island_blight
    # Each base-game island board shows one blight; Second Wave keeps 2 per player instead.
    per_player = 1
    if scenario and scenario.island_blight_per_player is not None:
        per_player = scenario.island_blight_per_player
    blight = per_player * command.players
    if level and PROSPECTING_OUTPOST in level.features:  # Sweden 6: 1 more in each land #8
        blight += command.players
    return blight


def _fear_split(command: c.NewGame, level: Level | None,
                scenario: Scenario | None) -> tuple[int, ...]:
    split = command.fear_split or (level.fear_split if level else DEFAULT_FEAR_SPLIT)
    owned = command.fear_cards or FEAR_CARDS_IN_BASE_BOX
    if scenario and scenario.rituals_of_terror:
        return (owned,)  # every fear card in one deck, without dividers
    if scenario and scenario.unused_fear_cards_under_deck:
        unused = max(0, owned - sum(split))
        return (*split[:-1], split[-1] + unused)
    if larger_surges(scenario, command.scenario_difficulty):
        return tuple(size + 1 for size in split)
    return tuple(split)


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


def _scenario(command: c.NewGame) -> Scenario | None:
    if command.scenario is None:
        if command.scenario_difficulty is not None:
            raise Refused("scenario_difficulty needs a scenario; scenarios: "
                          + ", ".join(SCENARIOS))
        return None
    scenario = SCENARIOS.get(command.scenario)
    if scenario is None:
        raise Refused(f"unknown scenario {command.scenario!r}; scenarios: "
                      f"{', '.join(SCENARIOS)}")
    return scenario


def setup_difficulty(command: c.NewGame) -> int:
    """The difficulty of a game set up this way: adversary level, scenario, thematic map.

    Refused like `new_game` when a choice is not valid; the setup screen shows it live.
    """
    level = _adversary_level(command)
    return (
        (level.difficulty if level else 0)
        + _scenario_difficulty(command, _scenario(command))
        + (THEMATIC_MAP_DIFFICULTY if command.thematic else 0)
    )


def _scenario_difficulty(command: c.NewGame, scenario: Scenario | None) -> int:
    if scenario is None:
        return 0
    if command.scenario_difficulty is None:
        return scenario.difficulty
    choices = (scenario.difficulty, *scenario.difficulty_choices)
    if command.scenario_difficulty not in choices:
        raise Refused(f"{scenario.name} is printed with difficulty "
                      f"{' or '.join(str(d) for d in choices)}, not {command.scenario_difficulty}")
    return command.scenario_difficulty


def _fear_markers_per_player(setup: Setup) -> int:
    level = level_of(setup)
    return level.fear_markers_per_player if level else FEAR_MARKERS_PER_PLAYER


def _setup_steps(setup: Setup) -> list[tuple[str, str]]:
    """The steps of the setup phase this game has, in order."""
    steps = []
    if has_feature(setup, ROYAL_BACKING):
        steps.append(("setup", "royal_backing"))
    steps.append(("setup", "initial_explore"))
    scenario = scenario_of(setup)
    if scenario and scenario.extra_invader_actions_at_setup:
        steps += [("setup", "build"), ("setup", "explore"), ("setup", "advance")]
    return steps


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
        if command.step is not None and command.step != state.step:
            raise Refused(f"this was meant to finish the {command.step!r} step, but the game "
                          f"is at {state.step!r} already; nothing was changed")
        state = _complete_step(state, events, ends)
    elif isinstance(command, c.Reveal):
        state = _reveal(state, command, events, ends)
    elif isinstance(command, c.ResolveFear):
        state = _resolve_fear(state, command, events)
    elif isinstance(command, c.NameFearCard):
        state = _name_fear_card(state, command.card, command.force, events)
    elif isinstance(command, c.Ritual):
        state = _ritual(state, events, ends)
    elif isinstance(command, c.NextBlightCard):
        state = _next_blight_card(state, command, events, ends)
    elif isinstance(command, c.Declare):
        ends.append(_declared(state, command))
    elif isinstance(command, c.Effect):
        for part in command.commands:
            state = _quick_change(state, part, events, ends)
    elif isinstance(command, c.EFFECT_PARTS):
        state = _quick_change(state, command, events, ends)
    elif isinstance(command, CORRECTIONS):
        state = _correct(state, command, events, ends)
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
    if isinstance(command, c.LoseFear):
        return _lose_fear(state, command.amount, events)
    raise Refused(f"'{command.name}' cannot be part of an effect")


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
    if step == "explore" and _reveals_for(state, phase, step) == 0:
        return "Surges of Colonization: there is no explore in odd-numbered rounds"
    return None


def _reveals_for(state: GameState, phase: str, step: str) -> int:
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


def _sequence(setup: Setup, phase: str) -> list[tuple[str, str]]:
    return _setup_steps(setup) if phase == "setup" else list(ROUND_STEPS)


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
    if state.invader.special_this_step:  # a special card's effect lasts only its own step
        state = replace(state, invader=replace(state.invader, special_this_step=None))
    events.append(e.StepStarted(state.round, phase, step))
    if step in REVEAL_STEPS:
        state = replace(state, invader=replace(state.invader,
                                               reveals_due=_reveals_for(state, phase, step)))
        state = _turn_due_cards(state, events, ends)
    elif step == "event":
        state = _draw_event(state, events)
    return state


def _complete_step(state: GameState, events: Events, ends: list[Ending]) -> GameState:
    step = state.step
    if awaiting_reveal(state):
        raise Refused(f"{_reveal_request(state)} before finishing this step")
    if state.blight.awaiting_card and state.blight.side == "healthy":
        raise Refused("the blight card has flipped: say which card it is (next_blight_card) "
                      "before going on")
    if state.blight.awaiting_card:
        raise Refused("the Still-Healthy Island card has no blight left: draw the next blight "
                      "card and name it (next_blight_card) before going on")
    waiting = state.fear.earned if step == "fear" else state.fear.ritual_cards
    if waiting:
        raise Refused(f"{waiting} earned fear card(s) still wait: resolve each one "
                      "(resolve_fear) before finishing this step")
    adversary = adversary_of(state.setup)
    if step == "escalation":
        assert adversary is not None
        if state.invader.more_escalations:  # each flagged card escalates once
            state = replace(state, invader=replace(
                state.invader, more_escalations=state.invader.more_escalations - 1))
            return _start_escalation(state, events)
        if adversary.escalation_timing == "before_explore":
            return _resume_explore(state, events, ends)
        following = ("invader", "advance") if adversary.escalation_timing == "after_explore" \
            else ("slow", "slow_powers")
        return _enter(state, following, events, ends)
    if step in ("initial_explore", "advance"):
        state = _slide_cards(state, events)
    if adversary and state.invader.escalation_due and state.phase == "invader" and (
            (step == "explore" and adversary.escalation_timing == "after_explore")
            or (step == "advance" and adversary.escalation_timing == "after_advance")):
        return _start_escalation(state, events)
    if step == "time_passes":
        return _begin_round(state, events, ends)
    sequence = _sequence(state.setup, state.phase)
    index = sequence.index((state.phase, step)) + 1
    if index == len(sequence):
        return _begin_round(state, events, ends)
    return _enter(state, sequence[index], events, ends)


def _start_escalation(state: GameState, events: Events) -> GameState:
    state = replace(state, phase=ESCALATION_STEP[0], step=ESCALATION_STEP[1],
                    invader=replace(state.invader, escalation_due=False,
                                    special_this_step=None))
    events.append(e.StepStarted(state.round, *ESCALATION_STEP))
    return state


def _resume_explore(state: GameState, events: Events, ends: list[Ending]) -> GameState:
    """Back from a before-explore escalation to the explore it interrupted."""
    state = replace(state, phase="invader", step="explore")
    events.append(e.StepStarted(state.round, "invader", "explore"))
    return _turn_due_cards(state, events, ends)


def _begin_round(state: GameState, events: Events, ends: list[Ending]) -> GameState:
    state = replace(state, round=state.round + 1)
    if state.fear.resolved_this_round:
        state = replace(state, fear=replace(state.fear, resolved_this_round=0))
    if state.events:
        state = replace(state, events=replace(state.events, drawn_this_round=()))
    events.append(e.RoundStarted(state.round))
    return _enter(state, ROUND_STEPS[0], events, ends)


# --- the invader deck -------------------------------------------------------------------------


def _slide_cards(state: GameState, events: Events) -> GameState:
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
                and 0 < track.reveals_due < _reveals_for(state, state.phase, state.step))


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


def _reveal_request(state: GameState) -> str:
    stage = expected_stage(state)
    if state.invader.uncovered:
        return (f"name the {stage_name(stage)} invader card that came out of the fear deck "
                "(reveal)")
    return f"turn over the top invader card ({stage_name(stage)}) and name it (reveal)"


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


def cards_in_play(track: InvaderTrack) -> tuple[str, ...]:
    """Invader cards on the board's spaces and in the discard."""
    return ((track.high_immigration or ()) + track.ravage + track.build + track.explore
            + track.discard)


def _cards_seen(track: InvaderTrack) -> tuple[str, ...]:
    """Every card whose place the app knows outside the deck's unseen positions."""
    fixed = tuple(entry.card for entry in track.deck if entry.card)
    removed = tuple(card for card in track.removed if card)
    return cards_in_play(track) + fixed + removed


def _reveal(state: GameState, command: c.Reveal, events: Events,
            ends: list[Ending]) -> GameState:
    track = state.invader
    if not track.uncovered and state.step not in REVEAL_STEPS:
        raise Refused("invader cards are turned over in the Explore step (and at setup); "
                      f"the game is in the {state.step.replace('_', ' ')} step")
    if state.setup.deck == "virtual":
        raise Refused("this game uses the app's virtual deck: the app turns the cards itself")
    if not awaiting_reveal(state):
        raise Refused("a card was already turned over in this step; undo first if it was the "
                      "wrong one")
    card = ALL_CARDS.get(command.card)
    if card is None:
        raise Refused(f"unknown invader card {command.card!r}; cards are named like "
                      "I-jungle, II-coastal or III-mountain-sands")
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
    return _turn_due_cards(state, events, ends)


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


def _turn_due_cards(state: GameState, events: Events, ends: list[Ending]) -> GameState:
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
            ends.append(_ending(state, "defeat", "time"))
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
            state = _start_escalation(state, events)
    return state


def _place_uncovered(state: GameState, card_id: str, events: Events) -> GameState:
    track = state.invader
    events.append(e.InvaderCardUncovered(track.uncovered[0], card_id))
    return replace(state, invader=replace(
        track, uncovered=track.uncovered[1:], build=track.build + (card_id,)))


# --- the event deck (Branch & Claw) -----------------------------------------------------------


def _draw_event(state: GameState, events: Events) -> GameState:
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


# --- fear and terror --------------------------------------------------------------------------


def _generate_fear(state: GameState, amount: int, events: Events,
                   ends: list[Ending]) -> GameState:
    generated = state.fear.generated + amount
    pool_size = state.fear.pool_size
    later: Events = []
    # Each time the pool empties a card is earned and the markers go back; surplus carries over.
    while generated >= pool_size:
        generated -= pool_size
        if state.fear.deck == 0:
            continue
        state = _take_fear_card(state, later, ends, earned=True)
    state = replace(state, fear=replace(state.fear, generated=generated))
    events.append(e.FearGenerated(amount, state.fear.pool, generated))
    events.extend(later)
    return state


def _take_fear_card(state: GameState, events: Events, ends: list[Ending],
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
            ends.append(_ending(state, "victory", "fear"))
        elif scenario is None or scenario.fear_deck_victory:
            ends.append(("victory", "fear", Phrase(FEAR_DECK_EMPTIED).render()))
    return replace(state, fear=replace(fear, terror_level=level))


def victory_condition(setup: Setup, terror_level: int) -> str:
    scenario = scenario_of(setup)
    if scenario and scenario.victory_conditions and terror_level in scenario.victory_conditions:
        return scenario.victory_conditions[terror_level]
    return VICTORY_CONDITIONS[terror_level]


def _resolving_allowed(state: GameState) -> str | None:
    """Why earned fear cards cannot be resolved now, or None when they can."""
    scenario = scenario_of(state.setup)
    if scenario and scenario.rituals_of_terror:
        if state.fear.ritual_cards:
            return None
        if state.fear.ritual_at == (state.round, state.step) and state.fear.earned:
            return ("the ritual has resolved every card that waited when it was performed; a "
                    "card earned since waits for the next ritual")
        return ("in Rituals of Terror, earned fear cards are resolved right after a ritual, in "
                "the fast or slow power phase")
    if state.step != "fear":
        return ("earned fear cards are resolved in the Fear step of the Invader phase; the game "
                f"is in the {state.step.replace('_', ' ')} step")
    return None


def _resolve_fear(state: GameState, command: c.ResolveFear, events: Events) -> GameState:
    why = _resolving_allowed(state)
    if why:
        raise Refused(why)
    if not state.fear.earned:
        raise Refused("no earned fear card is waiting")
    if command.card is not None:
        state = _name_fear_card(state, command.card, command.force, events)
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


def _name_fear_card(state: GameState, card_id: str, force: bool, events: Events) -> GameState:
    why = _resolving_allowed(state)
    if why:
        raise Refused(why)
    if not state.fear.earned:
        raise Refused("no earned fear card is waiting to be turned over")
    card = FEAR_CARDS.get(card_id)
    if card is None:
        raise Refused(f"unknown fear card {card_id!r}; fear cards are named like "
                      "avoid-the-dahan or trade-suffers (see the catalogue)")
    if card_id in state.fear.seen and not force:
        raise Refused(Phrase("{name} was already resolved in this game", name=Phrase(card.name)),
                      " (send force: true if it came back into the deck)")
    # Naming the card again (a correction) keeps the level it was turned over at.
    level = state.fear.card_level or min(state.terror_level, 3)
    events.append(e.FearCardNamed(card_id, card.name, level, card.effect_at(level)))
    return replace(state, fear=replace(state.fear, card=card_id, card_level=level))


def _ritual(state: GameState, events: Events, ends: list[Ending]) -> GameState:
    scenario = scenario_of(state.setup)
    if not (scenario and scenario.rituals_of_terror):
        raise Refused("a Ritual of Terror belongs to the Rituals of Terror scenario")
    if state.step not in ("fast_powers", "slow_powers"):
        raise Refused("a Ritual of Terror is performed in the fast or slow power phase")
    level = state.terror_level + 1
    events.append(e.RitualPerformed(level))
    events.append(e.TerrorLevelRaised(level, victory_condition(state.setup, level)))
    if level == 4:
        ends.append(_ending(state, "victory", "ritual"))
    # The ritual resolves the cards waiting now; a card earned later waits for the next one.
    return replace(state, fear=replace(state.fear, terror_level=level,
                                       ritual_at=(state.round, state.step),
                                       ritual_cards=state.fear.earned))


def _lose_fear(state: GameState, amount: int, events: Events) -> GameState:
    fear = state.fear
    if fear.generated == 0:
        raise Refused("no fear has been generated toward the next fear card; nothing to lose")
    lost = min(amount, fear.generated)
    fear = replace(fear, generated=fear.generated - lost)
    events.append(e.FearLost(lost, fear.pool, fear.generated))
    return replace(state, fear=fear)


# --- blight -----------------------------------------------------------------------------------


def _add_blight(state: GameState, amount: int, events: Events, ends: list[Ending]) -> GameState:
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
    ends.append(_ending(state, "defeat", "blight"))
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


def _next_blight_card(state: GameState, command: c.NextBlightCard, events: Events,
                      ends: list[Ending]) -> GameState:
    blight = state.blight
    if not blight.awaiting_card:
        raise Refused("a blight card is named only when the card drawn face down flips, or "
                      "when a Still-Healthy Island card has no blight left")
    if command.card not in BLIGHT_CARDS:
        raise Refused(f"unknown blight card {command.card!r}; known cards: "
                      f"{', '.join(BLIGHT_CARDS)}")
    if command.card in blight.earlier_cards:
        raise Refused(f"{BLIGHT_CARDS[command.card].name} was already used in this game")
    state = _turn_to_back(state, command.card, blight.owed, events, ends)
    if state.blight.awaiting_card:  # the owed blight used this card up at once
        events.append(e.BlightCardNeeded(state.blight.owed))
    return state


def _heal(state: GameState, amount: int, events: Events) -> GameState:
    blight = state.blight
    if blight.awaiting_card:
        raise Refused("name the next blight card first (next_blight_card): healed blight goes "
                      "back onto it")
    if amount > blight.on_island:
        raise Refused(f"only {blight.on_island} blight is on the island; "
                      f"{amount} cannot be removed")
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


# --- corrections ------------------------------------------------------------------------------

CORRECTIONS = (c.MoveCard, c.Accelerate, c.ReturnFearCard, c.DiscardFearCard, c.AddFearCard,
               c.RemoveFearCard, c.SetBlight)
# Where a card can be found for move_card: the Invader Board's spaces and the discard.
BOARD_PLACES = ("high_immigration", "ravage", "build", "explore", "discard")


def _correct(state: GameState, command: c.Command, events: Events,
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
            raise Refused("the fear deck is empty")
        state = _take_fear_card(state, events, ends, earned=False)
        return _fear_corrected(state, "removed", events)
    if isinstance(command, (c.ReturnFearCard, c.DiscardFearCard)) and not fear.earned:
        raise Refused("no earned fear card is waiting")
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
        raise Refused(f"{command.card} is not on the Invader Board, in the discard or in the "
                      "box; a card still in the deck leaves it with accelerate")
    if command.to == source:
        raise Refused(f"{command.card} is already there")
    if command.to == "high_immigration" and track.high_immigration is None:
        raise Refused("this game has no High Immigration space")
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
        raise Refused("no invader card is left in the deck")
    index = next(i for i, entry in enumerate(track.deck) if entry.stage == min(stages))
    entry = track.deck[index]
    events.append(e.CardMoved(entry.card, "deck", "box"))
    return replace(state, invader=replace(
        track, deck=track.deck[:index] + track.deck[index + 1:],
        removed=track.removed + (entry.card,)))


def _set_blight(state: GameState, command: c.SetBlight, events: Events) -> GameState:
    blight = state.blight
    if blight.awaiting_card:
        raise Refused("name the next blight card first (next_blight_card)")
    if command.on_card == 0:
        raise Refused("the blight card holds at least 1 blight while the game goes on; if the "
                      "last one left it, add it with blight")
    on_island = blight.on_island if command.on_island is None else command.on_island
    state = replace(state, blight=replace(blight, on_card=command.on_card, on_island=on_island))
    events.append(e.BlightSet(command.on_card, on_island))
    return state


# --- the end of the game ----------------------------------------------------------------------


def _declared(state: GameState, command: c.Declare) -> Ending:
    setup = state.setup
    if command.result == "victory":
        return _ending(state, "victory", command.reason or "terror_condition")
    if command.result == "defeat":
        reason = command.reason or "spirit_destroyed"
        if reason == setup.adversary:
            reason = "adversary"
        elif reason == setup.scenario:
            reason = "scenario"
        if reason == "adversary" and getattr(adversary_of(setup), "loss_condition", None) is None:
            raise Refused("this game's adversary adds no way to lose")
        if reason == "scenario" and getattr(scenario_of(setup), "loss_condition", None) is None:
            raise Refused("this game's scenario adds no way to lose")
        return _ending(state, "defeat", reason)
    return _ending(state, "sacrifice", command.reason or "sacrifice")


def _ending(state: GameState, result: str, reason: str) -> Ending:
    return (result, reason, ending_phrase(state, result, reason).render())


# Why a game ended, for the reasons the app decides by itself.
ENDINGS = {
    "time": "Time ran out: an invader card had to be turned over, but the invader deck is empty.",
    "fear": "The last fear card was earned: the invaders flee the island in terror.",
    "ritual": "The third Ritual of Terror is done: the invaders flee the island.",
    "blight": "The last blight left the blight card: the island is overwhelmed.",
    "spirit_destroyed": "A Spirit has no Presence left on the island.",
}
# A correction (remove_fear_card) that takes the last card out earns nothing, but the deck is
# spent all the same: still the fear victory, told as what it is.
FEAR_DECK_EMPTIED = ("The fear deck is empty: its last card was taken out by a correction, not "
                     "earned, but the Victory space lies open and the invaders flee the island.")
# Other words a recorded ending may have for its reason.
ENDING_VARIANTS = {"fear": (FEAR_DECK_EMPTIED,)}
VICTORY_REASONS = ("fear", "ritual")
SACRIFICE_DECLARED = "One effect both won and lost the game: a sacrifice victory."
SACRIFICE_BY_ONE_EFFECT = (
    "The same effect both won and lost the game: a sacrifice victory. {details}")
TERROR_CONDITION_MET = "The players met the terror level {level} condition: {condition}"
DEFEAT_DECLARED = "The players declared a defeat: {reason}."
LOSS_CONDITION_MET = "{name}: {condition}"


def ending_phrase(state: GameState, result: str, reason: str) -> Phrase:
    """Why the game ended, as the players read it."""
    setup = state.setup
    if result == "sacrifice":
        return Phrase(SACRIFICE_DECLARED)
    if reason in ENDINGS and (reason in VICTORY_REASONS) == (result == "victory"):
        return Phrase(ENDINGS[reason])
    if result == "victory":
        level = state.terror_level
        return Phrase(TERROR_CONDITION_MET, level=level,
                      condition=Phrase(victory_condition(setup, level)))
    rule = adversary_of(setup) if reason == "adversary" else (
        scenario_of(setup) if reason == "scenario" else None)
    if rule is not None and rule.loss_condition is not None:
        return Phrase(LOSS_CONDITION_MET, name=Phrase(rule.name),
                      condition=Phrase(rule.loss_condition))
    return Phrase(DEFEAT_DECLARED, reason=reason.replace("_", " "))


def outcome_phrase(state: GameState) -> Phrase:
    """The recorded ending, to be shown in any language. A game that ended through one effect
    that both won and lost names each part; should the record say something the rules here
    would word differently, the record stands."""
    outcome = state.outcome
    assert outcome is not None
    if outcome.result == "sacrifice" and outcome.reason != "sacrifice":
        parts = outcome.reason.split(" and ")
        phrase = Phrase(SACRIFICE_BY_ONE_EFFECT, details=Listing(
            (ending_phrase(state, "victory" if part in VICTORY_REASONS else "defeat", part)
             for part in parts), "", joined=" "))
    else:
        phrase = ending_phrase(state, outcome.result, outcome.reason)
    if phrase.render() == outcome.detail:
        return phrase
    variants = (Phrase(text) for text in ENDING_VARIANTS.get(outcome.reason, ()))
    return next((variant for variant in variants if variant.render() == outcome.detail),
                Phrase(outcome.detail))


def score(state: GameState, dahan: int, blight_on_island: int, bonus: int = 0) -> int:
    """The published score: it rewards difficulty, a quick win or a long stand, dahan kept."""
    assert state.outcome is not None
    difficulty = state.setup.difficulty
    players = state.setup.players
    if state.outcome.result in ("victory", "sacrifice"):
        invader_cards_left = sum(1 for entry in state.invader.deck if entry.stage)
        points = 5 * difficulty + 10 + 2 * invader_cards_left
    else:
        points = 2 * difficulty + len(cards_in_play(state.invader))
    return points + dahan // players - blight_on_island // players + bonus


def _score(state: GameState, command: c.Score) -> tuple[GameState, Events]:
    if state.outcome is None:
        raise Refused("the score is counted when the game is over")
    blight = state.blight.on_island if command.blight_on_island is None \
        else command.blight_on_island
    bonus = command.bonus or 0
    points = score(state, command.dahan, blight, bonus)
    outcome = replace(state.outcome, score=points, dahan=command.dahan, blight_on_island=blight,
                      bonus=command.bonus)
    return replace(state, outcome=outcome), [e.ScoreRecorded(points, command.dahan, blight)]
