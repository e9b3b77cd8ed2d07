"""The words the game shows players: step prompts and victory conditions, in English.

English is the source language. Every text the model shows (here, in the card and rules tables)
is looked up as written in a gettext catalogue, so the view renders it in a player's language
with a `translate` function it is handed; the model itself knows no catalogue. Every sentence
here is the project's own summary of the rules.
"""

from __future__ import annotations

# The shared phrase machinery, re-exported for the model's modules.
from companion.core.phrases import AND as AND
from companion.core.phrases import Listing as Listing
from companion.core.phrases import Phrase as Phrase
from companion.core.phrases import Translate as Translate
from companion.core.phrases import as_written as as_written
from companion.core.phrases import render as render

SPIRIT_NAME = "Spirit {number}"
"""What the table calls a player's spirit (numbered from 1)."""
STILL_GROWING = "Still growing: {spirits}."
EVERY_SPIRIT_DONE = "Every spirit is done."


def still_growing_phrase(still: tuple[int, ...] | list[int]) -> Phrase:
    """Who is still growing ("Still growing: Spirit 1 and Spirit 3."), by their numbers from 0;
    none: every spirit is done."""
    names = [Phrase(SPIRIT_NAME, number=spirit + 1) for spirit in still]
    return Phrase(STILL_GROWING, spirits=Listing(names, "")) if names \
        else Phrase(EVERY_SPIRIT_DONE)


VICTORY_CONDITIONS = {
    1: "no invaders of any kind remain on the island",
    2: "no towns and no cities remain on the island",
    3: "no cities remain on the island",
    4: "every fear card is earned: the invaders flee, and you win at once",
}

STEP_PROMPTS = {
    "royal_backing": (
        "Royal Backing: the top invader card, {cards}, goes face up to the discard. On each "
        "board add 1 Town to the {terrains} land with the fewest Invaders; then tap Done for "
        "the initial explore."
    ),
    "initial_explore": (
        "The invaders land: put one explorer in every {terrains} land, then tap Done to lay "
        "the card on the Build space."
    ),
    "growth": (
        "Growth: every Spirit picks one growth option on its panel and carries out all of it."
    ),
    "gain_energy": (
        "Energy: every Spirit takes energy equal to the highest number uncovered on its "
        "energy track."
    ),
    "play_cards": (
        "Choose cards: every Spirit picks power cards, no more than its card plays allow, and "
        "pays their energy now, slow cards included."
    ),
    "fast_powers": (
        "Fast powers: resolve the fast cards in play and fast innate powers, one at a time, in "
        "whatever order the table agrees."
    ),
    "blighted_island": "The blight card acts: {effect}",
    "event": "{event}",
    "high_immigration": (
        "High Immigration: build in {terrains} before the Ravage, as the Build step would."
    ),
    "escalation": "Escalation, {adversary}: {escalation}",
    "fear": (
        "Fear: turn the earned fear cards over and resolve them one at a time, oldest first, "
        "using the effect for terror level {terror_level}. {waiting} left."
    ),
    "ravage": (
        "Ravage in {terrains}: wherever such a land has invaders, add up their damage (an "
        "explorer deals 1, a town 2, a city 3). Two or more damage to the land adds one blight; "
        "every 2 damage destroys a dahan; surviving dahan then strike back for 2 each."
    ),
    "build": (
        "Build in {terrains}: each such land with invaders gains a city if it has more towns "
        "than cities, otherwise a town."
    ),
    "explore": (
        "Explore {terrains}: add one explorer to each such land that holds a town or city, or "
        "borders one or the ocean. Never two in one land."
    ),
    "advance": (
        "Slide the invader cards one space left: Ravage to the discard, Build to Ravage, "
        "Explore to Build."
    ),
    "advance_high_immigration": (
        "Slide the invader cards one space left: High Immigration to the discard, Ravage to "
        "High Immigration, Build to Ravage, Explore to Build."
    ),
    "slow_powers": (
        "Slow powers: resolve the slow cards in play and slow innate powers, one at a time."
    ),
    "time_passes": (
        "Time passes: discard the cards played this round, heal all damage to invaders and "
        "dahan, let elements lapse, and take back markers placed for this round only."
    ),
}

AWAITING_REVEAL_PROMPT = (
    "Turn over the top card of the invader deck ({stage}) and tell the app which one it is."
)
AWAITING_UNCOVERED_PROMPT = (
    "An invader card ({stage}) lay under the fear card just earned: tell the app which one it "
    "is. It goes face up onto the Build space at once."
)
AWAITING_FLIPPED_BLIGHT_CARD_PROMPT = (
    "The blight card has no blight left: turn it over to its back side and tell the app which "
    "card it is. Its blight and its effect follow that card."
)
AWAITING_BLIGHT_CARD_PROMPT = (
    "The Still-Healthy Island card has no blight left. Draw the next blight card, tell the app "
    "which one it is, and lay it straight on its back side."
)

EVENT_PROMPTS = {
    "first_round": (
        "Events: draw the top event card and discard it without resolving it; no event happens "
        "in the first round."
    ),
    "event": (
        "Events: draw the top event card and resolve it: its main event first, then its token "
        "event, then its Dahan event. Skip the parts that cannot happen."
    ),
    "slave_rebellion": (
        "Events: the card drawn is France's Slave Rebellion. Resolve its half for the current "
        "invader stage, then draw and resolve the next event card. {after}"
    ),
    "slave_rebellion_back": (
        "Afterwards Slave Rebellion goes back into the event deck under the top 3 cards."
    ),
    "slave_rebellion_gone": "Afterwards Slave Rebellion is discarded for good.",
}

SPECIAL_CARD_PROMPT = "{name} came up: {effect}"


ROMAN_STAGES = {1: "I", 2: "II", 3: "III"}


def stage_phrase(stage: int) -> Phrase:
    return Phrase("Stage {stage}", stage=ROMAN_STAGES[stage]) if stage else Phrase(
        "a special card")
