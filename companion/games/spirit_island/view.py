"""The state as players and other programs see it: a plain dict, ready for JSON or a screen.

Cards still in a virtual deck and cards set aside stay hidden, as they are face down at the table.
Texts are English unless a `translate` function (a catalogue's gettext) is given; ids, numbers
and field names never change with the language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.core.game import PublicFields, public_part

from .basics import adversary_of, scenario_of, victory_condition
from .blight_cards import BLIGHT_CARDS
from .cards import ALL_CARDS
from .endings import outcome_phrase
from .fear_cards import FEAR_CARDS
from .invader_deck import awaiting_reveal, candidates, expected_stage, invader_stage
from .reminders import reminders, setup_checklist
from .state import GameState
from .texts import (
    AWAITING_BLIGHT_CARD_PROMPT,
    AWAITING_FLIPPED_BLIGHT_CARD_PROMPT,
    AWAITING_REVEAL_PROMPT,
    AWAITING_UNCOVERED_PROMPT,
    EVENT_PROMPTS,
    ROMAN_STAGES,
    SPECIAL_CARD_PROMPT,
    STEP_PROMPTS,
    Listing,
    Phrase,
    Translate,
    as_written,
    stage_phrase,
    still_growing_phrase,
)


def state_view(state: GameState, translate: Translate = as_written) -> dict[str, Any]:
    """The game as a plain dict; `translate` turns the English texts into the reader's."""
    t = _optional(translate)
    setup, fear, track, blight = state.setup, state.fear, state.invader, state.blight
    awaiting = awaiting_reveal(state)
    card = BLIGHT_CARDS.get(blight.card or "")
    if setup.blight_card_hidden and blight.side == "healthy":
        card = None  # still face down: nobody at the table knows it yet
    named = FEAR_CARDS.get(fear.card or "")
    # The card being resolved keeps the level it was turned over at (never past III).
    level = fear.card_level or min(state.terror_level, 3)
    return {
        "round": state.round,
        "phase": state.phase,
        "step": state.step,
        "players": setup.players,
        "mode": setup.mode,
        "deck_mode": setup.deck,
        "seed": setup.seed,
        "difficulty": setup.difficulty,
        "adversary": _adversary_view(state, t),
        "scenario": setup.scenario,
        "scenario_detail": _scenario_view(state, t),
        "thematic": setup.thematic,
        "terror_level": state.terror_level,
        "victory_condition": t(victory_condition(setup, state.terror_level)),
        "loss_conditions": _loss_conditions(state, t),
        "fear": {
            "pool": fear.pool,
            "generated": fear.generated,
            "earned": fear.earned,
            "resolved": fear.resolved,
            "discarded": fear.discarded,
            "deck": fear.deck,
            "pool_size": fear.pool_size,
            "split": list(fear.split),
            "groups": list(fear.groups),
            "dividers": fear.dividers,
            "cards_to_next_terror_level": fear.cards_to_next_level,
            "card": None if named is None else {
                "id": named.id, "name": t(named.name), "terror_level": level,
                "effect": t(named.effect_at(level)),
            },
            "seen": list(fear.seen),
            "ritual_cards": fear.ritual_cards,
            "invader_cards_hidden": len(fear.hidden_invaders),
        },
        "invader": {
            "deck_count": len(track.deck),
            "deck_stages": [entry.stage for entry in track.deck],
            "stage": invader_stage(state),
            "high_immigration": None if track.high_immigration is None
            else list(track.high_immigration),
            "ravage": list(track.ravage),
            "build": list(track.build),
            "explore": list(track.explore),
            "discard": list(track.discard),
            "removed": len(track.removed),
            "set_aside": len(track.set_aside),
            "deck_order": setup.deck_order,
            "awaiting_reveal": awaiting,
            "expected_stage": expected_stage(state) if awaiting else None,
            "candidates": candidates(state),
            "special_card": track.special_this_step,
            "escalation_due": track.escalation_due,
        },
        "events": None if state.events is None else {
            "deck": state.events.deck,
            "discard": state.events.discard,
            "drawn": state.events.drawn,
            "slave_rebellion_depth": state.events.slave_rebellion,
            "drawn_this_round": list(state.events.drawn_this_round),
        },
        "blight": {
            "card": card.id if card else None,
            "side": blight.side,
            "on_card": blight.on_card,
            "on_island": blight.on_island,
            "name": t(card.name) if card else None,
            "effect": t(card.effect) if card and blight.side != "healthy" else None,
            "timing": card.timing if card and blight.side != "healthy" else None,
            "awaiting_card": blight.awaiting_card,
            "owed": blight.owed,
            "earlier_cards": list(blight.earlier_cards),
            "on_panel": blight.on_panel,
        },
        "spirits_done": list(state.spirits_done),
        "still_growing": still_growing(state, translate),
        "setup_checklist": setup_checklist(state, translate),
        "reminders": reminders(state, translate),
        "prompt": prompt(state, translate),
        "outcome": _outcome_view(state, translate),
    }


def _optional(translate: Translate) -> Callable[[str | None], Any]:
    """`translate` for texts that may be missing (None stays None)."""
    return lambda text: None if text is None else translate(text)


def _adversary_view(state: GameState, t: Callable[[str | None], Any]) -> dict[str, Any] | None:
    adversary = adversary_of(state.setup)
    if adversary is None:
        return None
    return {
        "id": adversary.id,
        "level": state.setup.level,
        "name": t(adversary.name),
        "expansion": adversary.expansion,
        "loss_condition": t(adversary.loss_condition),
        "escalation": t(adversary.escalation),
        "escalation_timing": adversary.escalation_timing,
    }


def _scenario_view(state: GameState, t: Callable[[str | None], Any]) -> dict[str, Any] | None:
    scenario = scenario_of(state.setup)
    if scenario is None:
        return None
    return {
        "id": scenario.id,
        "name": t(scenario.name),
        "expansion": scenario.expansion,
        "difficulty": scenario.difficulty,
        "loss_condition": t(scenario.loss_condition),
        "fear_deck_victory": scenario.fear_deck_victory,
    }


def _loss_conditions(state: GameState, t: Callable[[str | None], Any]) -> list[dict[str, str]]:
    """The extra ways to lose this game has, each with the `declare` reason that records it."""
    out = []
    adversary, scenario = adversary_of(state.setup), scenario_of(state.setup)
    if adversary and adversary.loss_condition:
        out.append({"reason": "adversary", "source": adversary.id,
                    "text": t(adversary.loss_condition)})
    if scenario and scenario.loss_condition:
        out.append({"reason": "scenario", "source": scenario.id,
                    "text": t(scenario.loss_condition)})
    return out


def _terrains(cards: tuple[str, ...]) -> Listing:
    return Listing((Phrase(ALL_CARDS[card].name) for card in cards), "no land")


def prompt(state: GameState, translate: Translate = as_written) -> str:
    """What the players should do now, in a sentence or three."""
    told, growing = _prompt(state), _still_growing(state)
    if growing is not None:
        told = Phrase("{prompt} {growing}", prompt=told, growing=growing)
    return told.render(translate)


def still_growing(state: GameState, translate: Translate = as_written) -> str | None:
    """Who is still growing, once a spirit's player said they are done with the Spirit phase
    (from their phone); None before that, and outside the Spirit phase."""
    growing = _still_growing(state)
    return None if growing is None else growing.render(translate)


def _still_growing(state: GameState) -> Phrase | None:
    if not state.spirits_done or state.phase != "spirit":
        return None
    return still_growing_phrase([spirit for spirit in range(state.setup.players)
                                 if spirit not in state.spirits_done])


def _prompt(state: GameState) -> Phrase:
    if state.outcome is not None:
        return outcome_phrase(state)
    if state.blight.awaiting_card and state.blight.side == "healthy":
        return Phrase(AWAITING_FLIPPED_BLIGHT_CARD_PROMPT)
    if state.blight.awaiting_card:
        return Phrase(AWAITING_BLIGHT_CARD_PROMPT)
    if awaiting_reveal(state):
        stage = stage_phrase(expected_stage(state))
        if state.invader.uncovered:
            return Phrase(AWAITING_UNCOVERED_PROMPT, stage=stage)
        if not state.invader.deck:
            return Phrase("Final Surge: the invader deck is empty. Take an unused Stage III card "
                          "from the box or, when none is left, one of the highest-stage cards "
                          "in the discard at random, and tell the app which one it is.")
        return _with_special_card(state, Phrase(AWAITING_REVEAL_PROMPT, stage=stage))
    track = state.invader
    step = state.step
    if step == "advance" and track.high_immigration is not None:
        step = "advance_high_immigration"
    slot = {"ravage": track.ravage, "build": track.build,
            "high_immigration": track.high_immigration or (),
            "royal_backing": track.discard[-1:]}.get(step, track.explore)
    card = BLIGHT_CARDS.get(state.blight.card or "")
    adversary = adversary_of(state.setup)
    values = {
        "terrains": _terrains(slot),
        "cards": Listing((Phrase(ALL_CARDS[card].name) if card in ALL_CARDS else card
                          for card in slot), "no card"),
        "effect": Phrase(card.effect) if card else "",
        # Written as the board prints it (and as the table screen shows it): I, II, III.
        "terror_level": ROMAN_STAGES.get(min(state.terror_level, 3), "III"),
        "waiting": state.fear.earned,
        "event": _event_prompt(state),
        "adversary": Phrase(adversary.name) if adversary else "",
        "escalation": Phrase(adversary.escalation) if adversary else "",
    }
    template = STEP_PROMPTS[step]
    # Only the placeholders a template names, so that a translation may leave one out.
    used = {key: value for key, value in values.items() if "{" + key + "}" in template}
    return _with_special_card(state, Phrase(template, **used))


def _with_special_card(state: GameState, text: Phrase) -> Phrase:
    special = ALL_CARDS.get(state.invader.special_this_step or "")
    if special is None or not special.effect:
        return text
    return Phrase("{special} {prompt}", special=Phrase(
        SPECIAL_CARD_PROMPT, name=Phrase(special.name), effect=Phrase(special.effect)),
        prompt=text)


def _event_prompt(state: GameState) -> Phrase | str:
    if state.events is None:
        return ""
    if state.round <= 1:
        return Phrase(EVENT_PROMPTS["first_round"])
    if "slave_rebellion" in state.events.drawn_this_round:
        gone = state.events.slave_rebellion is None
        after = EVENT_PROMPTS["slave_rebellion_gone" if gone else "slave_rebellion_back"]
        return Phrase(EVENT_PROMPTS["slave_rebellion"], after=Phrase(after))
    return Phrase(EVENT_PROMPTS["event"])


def _outcome_view(state: GameState, translate: Translate) -> dict[str, Any] | None:
    outcome = state.outcome
    if outcome is None:
        return None
    return {
        "result": outcome.result,
        "reason": outcome.reason,
        "detail": outcome_phrase(state).render(translate),
        "score": outcome.score,
        "dahan": outcome.dahan,
        "blight_on_island": outcome.blight_on_island,
        "bonus": outcome.bonus,
        "round": state.round,
    }


PUBLIC_FIELDS: PublicFields = {
    "round": True, "phase": True, "step": True, "players": True, "mode": True,
    "deck_mode": True,
    "seed": False,  # replaying it deals the app's invader deck and face-down blight card
    "difficulty": True, "adversary": True, "scenario": True, "scenario_detail": True,
    "thematic": True, "terror_level": True, "victory_condition": True,
    "loss_conditions": True,
    "fear": {
        "pool": True, "generated": True, "earned": True, "resolved": True, "discarded": True,
        "deck": True, "pool_size": True, "split": True, "groups": True, "dividers": True,
        "cards_to_next_terror_level": True, "card": True, "seen": True, "ritual_cards": True,
        "invader_cards_hidden": True,
    },
    "invader": {
        "deck_count": True,
        "deck_stages": False,  # the deck's order, stage by stage: phones get counts instead
        "stage": True, "high_immigration": True, "ravage": True, "build": True,
        "explore": True, "discard": True, "removed": True, "set_aside": True,
        "deck_order": False,  # how the deck was stacked
        "awaiting_reveal": True, "expected_stage": True,
        "candidates": False,  # the cards that may be face down on top
        "special_card": True, "escalation_due": True,
    },
    "events": {"deck": True, "discard": True, "drawn": True, "slave_rebellion_depth": True,
               "drawn_this_round": True},
    # The view names the blight card only once it is face up.
    "blight": {"card": True, "side": True, "on_card": True, "on_island": True, "name": True,
               "effect": True, "timing": True, "awaiting_card": True, "owed": True,
               "earlier_cards": True, "on_panel": True},
    "setup_checklist": True, "reminders": True, "prompt": True, "outcome": True,
    "spirits_done": True, "still_growing": True,
}
"""What of `state_view` the whole table sees (`public_view`)."""


def public_view(view: dict[str, Any]) -> dict[str, Any]:
    """The phones' part of `state_view`: what lies open on the table, and of the invader deck
    how many cards of each stage are left (as the stacked deck shows), never their order."""
    public = public_part(view, PUBLIC_FIELDS)
    stages = (view.get("invader") or {}).get("deck_stages")
    if "invader" in public and public["invader"] is not None and stages is not None:
        public["invader"]["deck_per_stage"] = [stages.count(stage) for stage in (1, 2, 3)]
    return public
