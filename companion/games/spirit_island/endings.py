"""The end of the game: endings noticed or declared, their words, and the score."""

from __future__ import annotations

from dataclasses import replace

from companion.core.errors import Refused

from . import commands as c
from . import events as e
from .basics import Ending, Events, adversary_of, cards_in_play, scenario_of, victory_condition
from .state import GameState
from .texts import Listing, Phrase


def declared(state: GameState, command: c.Declare) -> Ending:
    setup = state.setup
    if command.result == "victory":
        return ending(state, "victory", command.reason or "terror_condition")
    if command.result == "defeat":
        reason = command.reason or "spirit_destroyed"
        if reason == setup.adversary:
            reason = "adversary"
        elif reason == setup.scenario:
            reason = "scenario"
        if reason == "adversary" and getattr(adversary_of(setup), "loss_condition", None) is None:
            raise Refused(Phrase("this game's adversary adds no way to lose"))
        if reason == "scenario" and getattr(scenario_of(setup), "loss_condition", None) is None:
            raise Refused(Phrase("this game's scenario adds no way to lose"))
        return ending(state, "defeat", reason)
    return ending(state, "sacrifice", command.reason or "sacrifice")


def ending(state: GameState, result: str, reason: str) -> Ending:
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


def record_score(state: GameState, command: c.Score) -> tuple[GameState, Events]:
    if state.outcome is None:
        raise Refused(Phrase("the score is counted when the game is over"))
    blight = state.blight.on_island if command.blight_on_island is None \
        else command.blight_on_island
    bonus = command.bonus or 0
    points = score(state, command.dahan, blight, bonus)
    outcome = replace(state.outcome, score=points, dahan=command.dahan, blight_on_island=blight,
                      bonus=command.bonus)
    return replace(state, outcome=outcome), [e.ScoreRecorded(points, command.dahan, blight)]
