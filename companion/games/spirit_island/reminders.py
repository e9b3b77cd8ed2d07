"""Which setup checklist items and step reminders apply to a game, and when.

The texts are in `base_table_rules.py`, `adversary_table_rules.py` and
`scenario_table_rules.py`; this module only chooses among them: the base game's setup, then
every adversary level up to the one played, then the scenario; and at each step, the reminders
whose step it is and whose condition holds.
"""

from __future__ import annotations

from typing import Any

from .adversary_table_rules import ADVERSARY_REMINDERS, ADVERSARY_SETUP
from .base_table_rules import BASE_SETUP
from .basics import cards_in_play, scenario_of
from .blight_cards import BLIGHT_CARDS
from .cards import ALL_CARDS
from .notes import Note, Reminder
from .scenario_table_rules import SCENARIO_REMINDERS, SCENARIO_SETUP
from .scenarios import SCENARIOS, larger_surges
from .state import GameState, Setup
from .texts import Translate, as_written

BEGINNER_BLIGHT = Note(
    "base-blight-space",
    "Play without a Blight Card: put {blight} Blight on the Blight space of the Invader Board.",
)
CHOSEN_BLIGHT_CARD = Note(
    "base-blight-card",
    "Take the Blight Card {blight_card}, lay it Healthy Island side up and put {blight} Blight "
    "on it.",
)
EVENT_DECK = Note(
    "base-event-deck",
    "Shuffle the Event deck ({event_deck} cards) face down beside the Invader Board, with room "
    "for its discard. The app tells you when to draw.",
)
# Rituals of Terror's fear deck has no dividers: the base game's note would put them in.
RITUALS_FEAR_DECK = Note(
    "base-fear-deck",
    "Shuffle all {fear_cards} Fear Cards together into one face-down fear deck. No Terror Level "
    "divider goes into it.",
)
# Blitz in a beginner game: its extra blight lies on the Invader Board's blight space.
BLITZ_BEGINNER_BLIGHT = Note(
    "blitz-extra-blight",
    "The Blight space holds 1 extra Blight per player in this scenario; the app has already "
    "counted it.",
)
# Notes on building the Invader deck by hand: with the app dealing the deck it follows the
# adversary's order itself, so these would only contradict its own checklist item.
DECK_STACKING_NOTES = frozenset({
    "brandenburg-prussia-2-surge-of-colonists", "brandenburg-prussia-3-efficient",
    "brandenburg-prussia-4-aggressive-timetable", "brandenburg-prussia-5-ruthlessly-efficient",
    "brandenburg-prussia-6-terrifyingly-efficient", "habsburg-livestock-3-fast-spread",
    "russia-4-accelerated-exploitation", "scotland-2-coastal-lands-card",
    "scotland-4-ambition-of-a-minor-nation",
})
SURGES_NOTE = "surges-of-colonization-explore-pattern"
LARGER_SURGES_NOTE = "surges-of-colonization-larger-surges"
VIRTUAL_DECK = Note(
    "base-invader-deck",
    "The app deals the Invader deck ({deck_order}) and tells you each card; keep the Invader "
    "Cards at hand to lay them on the board as it names them.",
)


def _values(state: GameState) -> dict[str, Any]:
    setup, fear = state.setup, state.fear
    return {
        "players": setup.players,
        "fear_pool": fear.pool_size,
        "fear_split": "/".join(str(size) for size in setup.fear_split),
        "fear_cards": sum(setup.fear_split),
        "blight": state.blight.on_card if state.phase == "setup" else "",
        "deck_order": setup.deck_order,
    }


def _entry(item: Note | Reminder, values: dict[str, Any],
           translate: Translate) -> dict[str, str]:
    return {"id": item.id, "text": translate(item.text).format(**values)}


def setup_checklist(state: GameState,
                    translate: Translate = as_written) -> list[dict[str, str]]:
    """The table's setup instructions, in order; empty once the first round has begun."""
    if state.phase != "setup":
        return []
    setup = state.setup
    notes: list[Note] = []
    for note in BASE_SETUP:
        if note.id == "base-blight-card" and setup.mode == "beginner":
            note = BEGINNER_BLIGHT
        elif note.id == "base-blight-card" and not setup.blight_card_hidden:
            note = CHOSEN_BLIGHT_CARD
        elif note.id == "base-invader-deck" and setup.deck == "virtual":
            note = VIRTUAL_DECK
        elif note.id == "base-fear-deck" and _rituals_of_terror(setup):
            note = RITUALS_FEAR_DECK
        notes.append(note)
    if setup.events:
        notes.append(EVENT_DECK)
    if setup.adversary is not None and setup.level is not None:
        by_level = ADVERSARY_SETUP.get(setup.adversary, {})
        for level in range(setup.level + 1):
            notes.extend(note for note in by_level.get(level, ())
                         if setup.deck == "physical" or note.id not in DECK_STACKING_NOTES)
    if setup.scenario is not None:
        # Surges of Colonization: the note for the variant the table plays, not both.
        larger = larger_surges(SCENARIOS[setup.scenario], setup.scenario_difficulty)
        notes.extend(BLITZ_BEGINNER_BLIGHT if note.id == BLITZ_BEGINNER_BLIGHT.id
                     and setup.mode == "beginner" else note
                     for note in SCENARIO_SETUP.get(setup.scenario, ())
                     if note.id != (LARGER_SURGES_NOTE if not larger else SURGES_NOTE))
    values = _values(state)
    if setup.blight_card is not None:
        values["blight_card"] = translate(BLIGHT_CARDS[setup.blight_card].name)
    values["event_deck"] = setup.event_deck
    return [_entry(note, values, translate) for note in notes]


def _rituals_of_terror(setup: Setup) -> bool:
    return setup.scenario is not None and SCENARIOS[setup.scenario].rituals_of_terror


def _rules_in_play(setup: Setup) -> list[Reminder]:
    rules: list[Reminder] = []
    if setup.adversary is not None and setup.level is not None:
        by_level = ADVERSARY_REMINDERS.get(setup.adversary, {})
        for level in range(setup.level + 1):
            rules.extend(by_level.get(level, ()))
    replaced = {rule.replaces for rule in rules if rule.replaces}
    rules = [rule for rule in rules if rule.id not in replaced]
    if setup.scenario is not None:
        rules.extend(SCENARIO_REMINDERS.get(setup.scenario, ()))
    return rules


def _holds(state: GameState, condition: str | None) -> bool:
    track = state.invader
    if condition is None:
        return True
    if condition == "from_round_2":
        return state.round >= 2
    if condition == "stage_3":
        return any(ALL_CARDS[card].stage == 3 for card in cards_in_play(track))
    if condition == "no_fear_resolved":
        return state.fear.resolved_this_round == 0
    if condition == "odd_round":
        return state.round % 2 == 1
    if condition == "even_round":
        return state.round % 2 == 0
    if condition in ("surge_round", "larger_surge_round"):
        larger = larger_surges(scenario_of(state.setup), state.setup.scenario_difficulty)
        return state.round % 2 == 0 and larger == (condition == "larger_surge_round")
    if condition == "high_immigration_tile":
        return track.high_immigration is not None
    if condition == "blight_card":
        return state.setup.mode == "advanced"
    if condition == "escalation":
        return (state.step == "escalation" or track.escalation_due
                or any(ALL_CARDS[card].escalation for card in track.explore))
    raise ValueError(f"unknown reminder condition {condition!r}")


def reminders(state: GameState, translate: Translate = as_written) -> list[dict[str, str]]:
    """What the adversary, the scenario and the blight card add to the current step."""
    if state.is_over:
        return []
    values = _values(state)
    out = [_entry(rule, values, translate) for rule in _rules_in_play(state.setup)
           if state.step in rule.steps and _holds(state, rule.when)]
    card = BLIGHT_CARDS.get(state.blight.card or "")
    if (card is not None and state.blight.side != "healthy"
            and card.is_standing_rule and state.step in card.reminder_steps):
        out.append({"id": f"blight-{card.id}",
                    "text": f"{translate(card.name)}: {translate(card.effect)}"})
    special = ALL_CARDS.get(state.invader.special_this_step or "")
    if special is not None and special.effect:
        out.append({"id": f"card-{special.id}",
                    "text": f"{translate(special.name)}: {translate(special.effect)}"})
    return out


def all_rule_ids(setup: Setup) -> list[str]:
    """Every reminder id this game can show (for the rules lookup to link)."""
    return [rule.id for rule in _rules_in_play(setup)]
