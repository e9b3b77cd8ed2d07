"""What the table screen shows, worked out from the driver's state as plain strings.

Pure Python, no Kivy: the screens copy these values into their properties, and the unit tests
check them without a window. Input is the JSON-shaped state the script driver answers with, so
the touchscreen and a script see the same game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..model.cards import ALL_CARDS, TERRAIN_NAMES
from .theme import TERRAIN_COLOURS, text_colour_on

PHASE_NAMES = {
    "setup": "Setup",
    "spirit": "Spirit phase",
    "fast": "Fast powers",
    "invader": "Invader phase",
    "slow": "Slow powers",
    "time_passes": "Time passes",
    "over": "Game over",
}

STEP_NAMES = {
    "royal_backing": "Royal Backing",
    "initial_explore": "Initial explore",
    "growth": "Growth",
    "gain_energy": "Gain energy",
    "play_cards": "Choose and pay for cards",
    "fast_powers": "Fast powers",
    "blighted_island": "Blighted Island",
    "event": "Event",
    "fear": "Fear",
    "high_immigration": "High Immigration",
    "escalation": "Escalation",
    "ravage": "Ravage",
    "build": "Build",
    "explore": "Explore",
    "advance": "Advance invader cards",
    "slow_powers": "Slow powers",
    "time_passes": "Time passes",
    "over": "Game over",
}

BLIGHT_SIDES = {
    "healthy": "Healthy Island",
    "still_healthy": "Still-Healthy Island",
    "blighted": "Blighted Island",
}

ROMAN = {0: "0", 1: "I", 2: "II", 3: "III", 4: "IV"}

SLOTS = ("high_immigration", "ravage", "build", "explore")
SLOT_NAMES = {
    "high_immigration": "High Immigration",
    "ravage": "Ravage",
    "build": "Build",
    "explore": "Explore",
}


@dataclass(frozen=True)
class TerrainChip:
    """One terrain of a card: its name and the colour the board game gives it."""

    name: str
    colour: str
    text_colour: str


@dataclass(frozen=True)
class CardFace:
    id: str
    name: str
    stage: str
    """"Stage II", or "" for a special card."""
    terrains: tuple[TerrainChip, ...]


def card_face(card_id: str) -> CardFace:
    card = ALL_CARDS.get(card_id)
    if card is None:  # a card id the app does not know: show it rather than fail
        return CardFace(card_id, card_id, "", ())
    chips = tuple(
        TerrainChip(TERRAIN_NAMES[t], TERRAIN_COLOURS[t], text_colour_on(TERRAIN_COLOURS[t]))
        for t in card.terrains
    )
    stage = f"Stage {ROMAN[card.stage]}" if card.stage else ""
    return CardFace(card.id, card.name, stage, chips)


@dataclass(frozen=True)
class Action:
    """What the one big button does now, and what it says."""

    kind: str
    """"next", "reveal", "resolve_fear", "next_blight_card", "ritual" or "end"."""
    label: str


@dataclass(frozen=True)
class TableView:
    title: str
    prompt: str
    reminders: tuple[str, ...]
    slots: dict[str, tuple[CardFace, ...]]
    deck: str
    discard: str
    fear_pool: str
    fear_earned: str
    fear_next_level: str
    terror: str
    victory: str
    loss_conditions: tuple[str, ...]
    blight_side: str
    blight_card: str
    blight_on_card: str
    blight_on_island: str
    fear_card: str
    action: Action
    physical: bool
    can_reveal: bool
    can_resolve_fear: bool
    rituals: bool


def stage_counts(stages: list[int]) -> str:
    counts = {stage: stages.count(stage) for stage in sorted(set(stages))}
    parts = [f"{ROMAN.get(stage, '?')}×{n}" if stage else f"special×{n}"
             for stage, n in counts.items()]
    return ", ".join(parts) if parts else "empty"


def step_title(state: dict[str, Any]) -> str:
    phase = PHASE_NAMES.get(state["phase"], state["phase"])
    step = STEP_NAMES.get(state["step"], state["step"].replace("_", " ").capitalize())
    if state["phase"] == "over":
        return "Game over"
    if state["phase"] == "setup":
        return f"Setup · {step}"
    if phase == step:
        return f"Round {state['round']} · {phase}"
    return f"Round {state['round']} · {phase} · {step}"


def next_action(state: dict[str, Any]) -> Action:
    invader, fear, blight = state["invader"], state["fear"], state["blight"]
    if state["phase"] == "over":
        return Action("end", "Score the game")
    if blight.get("awaiting_card"):
        return Action("next_blight_card", "Name the next blight card")
    if invader["awaiting_reveal"]:
        if state["deck_mode"] == "physical":
            return Action("reveal", "Name the card turned over")
        return Action("next", "Turn over the card")
    if fear["earned"] and state["step"] == "fear":
        if fear.get("card"):
            return Action("resolve_fear", "Done: card resolved")
        return Action("resolve_fear", f"Resolve fear card ({fear['earned']} waiting)")
    return Action("next", "Done")


def table_view(state: dict[str, Any]) -> TableView:
    invader, fear, blight = state["invader"], state["fear"], state["blight"]
    slots = {
        slot: tuple(card_face(card) for card in invader[slot])
        for slot in SLOTS
        if invader.get(slot) is not None
    }
    discard = invader["discard"]
    last = f" (top: {card_face(discard[-1]).name})" if discard else ""
    terror_level = state["terror_level"]
    named = fear.get("card")
    fear_card = ""
    if named and named.get("effect"):
        fear_card = f"{named['name']} (terror level {ROMAN[terror_level]}): {named['effect']}"
    elif named:
        fear_card = named["name"]
    rituals = state.get("scenario") == "rituals-of-terror"
    terror = f"Terror level {ROMAN.get(terror_level, 'IV')}"
    return TableView(
        title=step_title(state),
        prompt=state.get("prompt") or "",
        reminders=tuple(item["text"] for item in state.get("reminders", [])),
        slots=slots,
        deck=f"Deck: {invader['deck_count']} ({stage_counts(invader['deck_stages'])})",
        discard=f"Discard: {len(discard)}{last}",
        fear_pool=f"Fear: {fear['pool']} of {fear['pool_size']} in the pool, {fear['generated']} "
                  "generated",
        fear_earned=f"Fear cards: {fear['earned']} earned and waiting, {fear['deck']} in the deck",
        fear_next_level=_next_level(fear, rituals),
        terror=terror,
        victory=f"Victory: {state['victory_condition']}",
        loss_conditions=tuple(f"Also lose: {item['text']}"
                              for item in state.get("loss_conditions", [])),
        blight_side=BLIGHT_SIDES.get(blight["side"], blight["side"]),
        blight_card=blight.get("name") or "",
        blight_on_card=f"On the card: {blight['on_card']}",
        blight_on_island=f"On the island: {blight['on_island']}",
        fear_card=fear_card,
        action=next_action(state),
        physical=state["deck_mode"] == "physical",
        can_reveal=bool(invader["awaiting_reveal"]) and state["deck_mode"] == "physical",
        can_resolve_fear=bool(fear["earned"]) and state["step"] == "fear",
        rituals=rituals,
    )


def _next_level(fear: dict[str, Any], rituals: bool) -> str:
    if rituals:
        return "Terror rises with each ritual"
    left = fear["cards_to_next_terror_level"]
    if left is None:
        return "Last terror level: earn the rest to win"
    return f"Next terror level in {left} fear card{'s' if left != 1 else ''}"


# --- announcements -------------------------------------------------------------------------------

def announcements(events: list[dict[str, Any]], state: dict[str, Any] | None) -> list[str]:
    """The banner lines a command's events call for; quiet events give none."""
    lines: list[str] = []
    for event in events:
        text = _announcement(event, state)
        if text:
            lines.append(text)
    return lines


def _announcement(event: dict[str, Any], state: dict[str, Any] | None) -> str | None:
    kind = event["type"]
    if kind == "fear_card_earned":
        return f"Fear card earned! {event['waiting']} waiting for the Fear step."
    if kind == "terror_level_raised":
        return (f"Terror rises to level {ROMAN.get(event['terror_level'], '?')}: "
                f"now you win when {event['victory_condition']}.")
    if kind == "blight_card_flipped":
        side = BLIGHT_SIDES.get(event.get("side", "blighted"), "Blighted Island")
        return f"The blight card flips to {side}: {event['name']}. {event['effect']}"
    if kind == "blight_card_needed":
        return "The Still-Healthy Island card is out of blight: draw the next blight card."
    if kind == "last_invader_card":
        return "Last card in the invader deck: time is running out."
    if kind == "invader_deck_empty":
        return "The invader deck is empty: the next explore loses the game."
    if kind == "step_started" and event.get("step") == "escalation" and state:
        adversary = state.get("adversary") or {}
        return f"Escalation! {adversary.get('escalation', '')}".strip()
    if kind == "high_immigration_removed":
        return "The High Immigration space leaves the game."
    if kind == "special_card_revealed":
        return f"{event.get('name', 'A special card')} came up."
    if kind == "invader_card_uncovered":
        return "An invader card was under the fear card: it goes onto the Build space."
    if kind == "game_ended":
        return f"Game over: {event['result']} ({event['detail'] or event['reason']})."
    return None
