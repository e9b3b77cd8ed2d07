"""Setting a game up: the setup record from a new_game command, the difficulty, the fear and
event decks, and which setup steps this game has."""

from __future__ import annotations

from companion.core.errors import Refused

from . import commands as c
from .adversaries import (
    ADVERSARIES,
    FEAR_DECK_INVADER_PLACES,
    PROSPECTING_OUTPOST,
    ROYAL_BACKING,
    SLAVE_REBELLION,
    THEMATIC_MAP_DIFFICULTY,
    Level,
)
from .basics import (
    BRANCH_AND_CLAW_EVENT_CARDS,
    DEFAULT_FEAR_SPLIT,
    FEAR_MARKERS_PER_PLAYER,
    SLAVE_REBELLION_DEPTH,
    has_feature,
    level_of,
    scenario_of,
)
from .blight_cards import BLIGHT_CARDS
from .cards import DEFAULT_DECK_ORDER, INVADER_CARDS, DeckOrderError, parse_deck_order
from .scenarios import FEAR_CARDS_IN_BASE_BOX, SCENARIOS, Scenario, larger_surges
from .state import EventTrack, Setup
from .texts import Phrase


def hide_in_fear_deck(
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


def event_track(setup: Setup) -> EventTrack | None:
    if not setup.events:
        return None
    if has_feature(setup, SLAVE_REBELLION):
        return EventTrack(deck=setup.event_deck + 1,
                          slave_rebellion=min(SLAVE_REBELLION_DEPTH, setup.event_deck))
    return EventTrack(deck=setup.event_deck)


def setup_from(command: c.NewGame) -> Setup:
    assert command.seed is not None
    if command.mode == "beginner" and command.blight_card is not None:
        raise Refused(Phrase("a beginner game uses the Invader Board's blight space, not a "
                             "blight card; choose the advanced mode to play with a blight card"))
    if command.blight_card is not None and command.blight_card not in BLIGHT_CARDS:
        raise Refused(Phrase("unknown blight card {card}; known cards: {cards}",
                             card=repr(command.blight_card), cards=", ".join(BLIGHT_CARDS)))
    level = _adversary_level(command)
    scenario = _scenario(command)
    if command.deck_order is not None:  # a house rule overrides the adversary's order
        deck_order = command.deck_order
    else:
        deck_order = level.deck_order if level else DEFAULT_DECK_ORDER
    try:
        parse_deck_order(deck_order, level.special_card if level else None)
    except DeckOrderError as error:
        raise Refused(error.phrase) from None
    if command.event_deck is not None and not command.events:
        raise Refused(Phrase("event_deck counts the event cards; it needs events: true"))
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
            raise Refused(Phrase("a level needs an adversary; adversaries: {adversaries}",
                                 adversaries=", ".join(ADVERSARIES)))
        return None
    adversary = ADVERSARIES.get(command.adversary)
    if adversary is None:
        raise Refused(Phrase("unknown adversary {adversary}; adversaries: {adversaries}",
                             adversary=repr(command.adversary),
                             adversaries=", ".join(ADVERSARIES)))
    return adversary.levels[command.level or 0]


def _scenario(command: c.NewGame) -> Scenario | None:
    if command.scenario is None:
        if command.scenario_difficulty is not None:
            raise Refused(Phrase("scenario_difficulty needs a scenario; scenarios: {scenarios}",
                                 scenarios=", ".join(SCENARIOS)))
        return None
    scenario = SCENARIOS.get(command.scenario)
    if scenario is None:
        raise Refused(Phrase("unknown scenario {scenario}; scenarios: {scenarios}",
                             scenario=repr(command.scenario), scenarios=", ".join(SCENARIOS)))
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
        raise Refused(Phrase("{scenario} is printed with one of the difficulties {choices}, not "
                             "{given}", scenario=Phrase(scenario.name),
                             choices=", ".join(str(d) for d in choices),
                             given=command.scenario_difficulty))
    return command.scenario_difficulty


def fear_markers_per_player(setup: Setup) -> int:
    level = level_of(setup)
    return level.fear_markers_per_player if level else FEAR_MARKERS_PER_PLAYER


def setup_steps(setup: Setup) -> list[tuple[str, str]]:
    """The steps of the setup phase this game has, in order."""
    steps = []
    if has_feature(setup, ROYAL_BACKING):
        steps.append(("setup", "royal_backing"))
    steps.append(("setup", "initial_explore"))
    scenario = scenario_of(setup)
    if scenario and scenario.extra_invader_actions_at_setup:
        steps += [("setup", "build"), ("setup", "explore"), ("setup", "advance")]
    return steps
