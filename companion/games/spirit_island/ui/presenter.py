"""What the table screen shows, worked out from the driver's state as plain strings.

Pure Python, no Kivy: the screens copy these values into their properties, and the unit tests
check them without a window. Input is the JSON-shaped state the script driver answers with, so
the touchscreen and a script see the same game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.i18n import N_, _
from companion.ui.palette import DEFAULT_PALETTE, TERRAIN_SYMBOLS, terrain_colour
from companion.ui.theme import text_colour_on

from .. import table_words
from ..cards import ALL_CARDS, TERRAIN_NAMES
from ..table_words import BLIGHT_SIDES, PHASE_NAMES, STEP_NAMES, Action
from ..table_words import RESULT_NAMES as RESULT_NAMES  # the end screen's
from ..table_words import ROMAN as ROMAN
from ..table_words import Announcement as Announcement
from ..texts import STEP_PROMPTS

# The side's name as the blight card's tile says it, short enough for a small tile.
BLIGHT_SIDE_LABELS = {
    "healthy": N_("Healthy"),
    "still_healthy": N_("Still healthy"),
    "blighted": N_("Blighted"),
}

SLOTS = ("high_immigration", "ravage", "build", "explore")


@dataclass(frozen=True)
class TerrainChip:
    """One terrain of a card: its name, the colour the board game gives it (in the palette
    chosen) and its symbol."""

    name: str
    colour: str
    text_colour: str
    terrain: str = ""
    symbol: str = ""


@dataclass(frozen=True)
class CardFace:
    id: str
    name: str
    stage: str
    """"Stage II", or "" for a special card."""
    terrains: tuple[TerrainChip, ...]


def card_face(card_id: str, palette: str = DEFAULT_PALETTE) -> CardFace:
    card = ALL_CARDS.get(card_id)
    if card is None:  # a card id the app does not know: show it rather than fail
        return CardFace(card_id, card_id, "", ())
    chips = tuple(
        TerrainChip(_(TERRAIN_NAMES[t]), terrain_colour(t, palette),
                    text_colour_on(terrain_colour(t, palette)), t, TERRAIN_SYMBOLS[t])
        for t in card.terrains
    )
    stage = _("Stage {stage}").format(stage=ROMAN[card.stage]) if card.stage else ""
    return CardFace(card.id, _(card.name), stage, chips)


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
    glance: Glance


@dataclass(frozen=True)
class StageRun:
    """Cards of one stage lying together in the invader deck: a label and a count of pips."""

    label: str
    """"I", "II", "III", or "★" for special cards."""
    stage: int
    count: int


@dataclass(frozen=True)
class Glance:
    """The Invader Board as numbers and shapes, for reading at arm's length."""

    terror_level: int
    """1-3, 4 = Victory."""
    terror_numeral: str
    """"I", "II", "III", or "Victory" in the players' language."""
    victory_condition: str
    """The current terror level's condition alone, without "Victory:"."""
    terror_goal: str
    """What the fear cards do next: "3 fear cards to terror II", "4 fear cards to victory"."""
    fear_pool: int
    fear_pool_size: int
    fear_generated: int
    fear_earned: int
    """Earned fear cards waiting to be resolved."""
    fear_deck: int
    blight_on_card: int
    blight_on_island: int
    blight_side: str
    """"healthy", "still_healthy" or "blighted"."""
    blight_side_label: str
    """The side in a word or two, in the players' language."""
    blight_card_name: str
    """The blight card's name once its back is face up ("" while the Healthy Island side shows,
    as on the table), so it stays in sight after the flip's banner has gone."""
    blight_warning: bool
    """At most one player's worth of blight is left on the card."""
    deck_count: int
    deck_runs: tuple[StageRun, ...]
    """The deck's stages top first, one run per group of equal stages."""
    discard_count: int
    fear_details: tuple[str, ...]
    """The terror, victory, loss and fear sentences behind the numbers."""
    blight_details: tuple[str, ...]
    """The blight card's side, name, effect and counts in sentences."""
    deck_details: tuple[str, ...]
    """The deck and discard in sentences."""


def stage_counts(stages: list[int]) -> str:
    counts = {stage: stages.count(stage) for stage in sorted(set(stages))}
    parts = [f"{ROMAN.get(stage, '?')}×{n}" if stage else _("special×{count}").format(count=n)
             for stage, n in counts.items()]
    return ", ".join(parts) if parts else _("empty")


SPIRIT_STEPS = ("growth", "gain_energy", "play_cards")
"""The Spirit phase's steps, which a table may take as one."""


def spirit_phase_prompt(translate: Callable[[str], str]) -> str:
    """The whole Spirit phase in one prompt, for tables that take it as one step."""
    return "\n".join(translate(STEP_PROMPTS[step]) for step in SPIRIT_STEPS)


def stage_runs(stages: list[int]) -> tuple[StageRun, ...]:
    """The deck's stages, top first, with equal neighbours counted together."""
    runs: list[StageRun] = []
    for stage in stages:
        if runs and runs[-1].stage == stage:
            runs[-1] = StageRun(runs[-1].label, stage, runs[-1].count + 1)
        else:
            runs.append(StageRun(ROMAN.get(stage, "?") if stage else "★", stage, 1))
    return tuple(runs)


def step_title(state: dict[str, Any]) -> str:
    phase = _(PHASE_NAMES.get(state["phase"], state["phase"]))
    step = _(STEP_NAMES.get(state["step"], state["step"].replace("_", " ").capitalize()))
    if state["phase"] == "over":
        return _("Game over")
    if state["phase"] == "setup":
        return _("Setup · {step}").format(step=step)
    if phase == step:
        return _("Round {round} · {phase}").format(round=state["round"], phase=phase)
    return _("Round {round} · {phase} · {step}").format(round=state["round"], phase=phase,
                                                         step=step)


def next_action(state: dict[str, Any]) -> Action:
    """What the big button does now, in the language in use."""
    return table_words.next_action(state, _)


def table_view(state: dict[str, Any]) -> TableView:
    invader, fear, blight = state["invader"], state["fear"], state["blight"]
    slots = {
        slot: tuple(card_face(card) for card in invader[slot])
        for slot in SLOTS
        if invader.get(slot) is not None
    }
    discard = invader["discard"]
    last = _(" (top: {name})").format(name=card_face(discard[-1]).name) if discard else ""
    terror_level = state["terror_level"]
    named = fear.get("card")
    fear_card = ""
    if named and named.get("effect"):
        # The level the card is resolved at (the model's, never the Victory level).
        level = named.get("terror_level") or min(terror_level, 3)
        fear_card = _("{name} (terror level {level}): {effect}").format(
            name=named["name"], level=ROMAN[level], effect=named["effect"])
    elif named:
        fear_card = named["name"]
    rituals = state.get("scenario") == "rituals-of-terror"
    terror = _("Terror level {level}").format(level=ROMAN.get(terror_level, "IV"))
    deck = _("Deck: {count} ({stages})").format(count=invader["deck_count"],
                                                stages=stage_counts(invader["deck_stages"]))
    discard_line = _("Discard: {count}").format(count=len(discard)) + last
    fear_pool = _("Fear: {pool} of {size} in the pool, {generated} generated").format(
        pool=fear["pool"], size=fear["pool_size"], generated=fear["generated"])
    fear_earned = _("Fear cards: {earned} earned and waiting, {deck} in the deck").format(
        earned=fear["earned"], deck=fear["deck"])
    fear_next_level = _next_level(state, rituals)
    victory = _("Victory: {condition}").format(condition=state["victory_condition"])
    loss_conditions = tuple(_("Also lose: {condition}").format(condition=item["text"])
                            for item in state.get("loss_conditions", []))
    blight_side = _(BLIGHT_SIDES.get(blight["side"], blight["side"]))
    on_card = _("On the card: {count}").format(count=blight["on_card"])
    on_island = _("On the island: {count}").format(count=blight["on_island"])
    glance = Glance(
        terror_level=terror_level,
        terror_numeral=ROMAN[terror_level] if terror_level < 4 else _("Victory"),
        victory_condition=state["victory_condition"],
        terror_goal=_terror_goal(state, rituals),
        fear_pool=fear["pool"],
        fear_pool_size=fear["pool_size"],
        fear_generated=fear["generated"],
        fear_earned=fear["earned"],
        fear_deck=fear["deck"],
        blight_on_card=blight["on_card"],
        blight_on_island=blight["on_island"],
        blight_side=blight["side"],
        blight_side_label=_(BLIGHT_SIDE_LABELS.get(blight["side"], blight["side"])),
        blight_warning=blight["on_card"] <= state["players"],
        blight_card_name=(blight.get("name") or "") if blight["side"] != "healthy" else "",
        deck_count=invader["deck_count"],
        deck_runs=stage_runs(invader["deck_stages"]),
        discard_count=len(discard),
        fear_details=(terror, victory, *loss_conditions, fear_pool, fear_earned,
                      fear_next_level),
        blight_details=tuple(filter(None, (blight_side, blight.get("name") or "",
                                           blight.get("effect") or "", on_card, on_island,
                                           _panel_line(state)))),
        deck_details=(deck, discard_line),
    )
    return TableView(
        title=step_title(state),
        prompt=state.get("prompt") or "",
        reminders=tuple(item["text"] for item in state.get("reminders", [])),
        slots=slots,
        deck=deck,
        discard=discard_line,
        fear_pool=fear_pool,
        fear_earned=fear_earned,
        fear_next_level=fear_next_level,
        terror=terror,
        victory=victory,
        loss_conditions=loss_conditions,
        blight_side=blight_side,
        blight_card=blight.get("name") or "",
        blight_on_card=on_card,
        blight_on_island=on_island,
        fear_card=fear_card,
        action=next_action(state),
        physical=state["deck_mode"] == "physical",
        can_reveal=bool(invader["awaiting_reveal"]) and state["deck_mode"] == "physical",
        can_resolve_fear=bool(fear["earned"]) and state["step"] == "fear",
        rituals=rituals,
        glance=glance,
    )


def _fear_wins(state: dict[str, Any]) -> bool:
    """Earning the last fear card wins (some scenarios take that away)."""
    detail = state.get("scenario_detail") or {}
    return bool(detail.get("fear_deck_victory", True))


def _panel_line(state: dict[str, Any]) -> str:
    """France 5+: healed blight waiting on the adversary panel, and when it goes back."""
    on_panel = state["blight"].get("on_panel") or 0
    if not on_panel:
        return ""
    return _("On the adversary panel: {count} (all back to the card at {limit})").format(
        count=on_panel, limit=3 * state["players"])


def _next_level(state: dict[str, Any], rituals: bool) -> str:
    """The sentence for the details: what the next fear cards do."""
    fear, level = state["fear"], state["terror_level"]
    if rituals:
        return _("Terror rises with each ritual")
    if level >= 4:
        return _("Terror has reached Victory")
    left = fear["cards_to_next_terror_level"]
    if level == 3:
        if not _fear_wins(state):
            return _("Last terror level: the empty fear deck does not win in this scenario")
        if left == 1:
            return _("Last terror level: 1 more fear card wins")
        return _("Last terror level: {count} more fear cards win").format(count=left)
    if left == 1:
        return _("Next terror level in 1 fear card")
    return _("Next terror level in {count} fear cards").format(count=left)


def _terror_goal(state: dict[str, Any], rituals: bool) -> str:
    """The short line beside the fear cards: how many to the next level or to victory."""
    level, left = state["terror_level"], state["fear"]["cards_to_next_terror_level"]
    if rituals:
        return _("Each ritual raises terror")
    if level >= 4:
        return ""
    if level == 3:
        if not _fear_wins(state):
            return _("{count} fear cards left").format(count=left)
        if left == 1:
            return _("1 fear card to victory")
        return _("{count} fear cards to victory").format(count=left)
    if left == 1:
        return _("1 fear card to terror {level}").format(level=ROMAN[level + 1])
    return _("{count} fear cards to terror {level}").format(count=left, level=ROMAN[level + 1])


# --- announcements (their words are the table's and the phones': table_words) ---------------

def announcements(events: list[dict[str, Any]], state: dict[str, Any] | None) -> list[str]:
    """The banner lines a command's events call for; quiet events give none."""
    return [line.text for line in announce(events, state)]


def announce(events: list[dict[str, Any]], state: dict[str, Any] | None) -> list[Announcement]:
    """A command's news in the players' language, one line per kind."""
    return table_words.announce(events, state, _)


def describe_command(command: dict[str, Any]) -> str:
    """A command in a few words, for "Undone: …" and "Redone: …"."""
    return table_words.describe_command(command, _)


def undo_line(event: dict[str, Any]) -> Announcement | None:
    """ "Undone: city destroyed, +2 fear" for an undo or redo event."""
    return table_words.undo_line(event, _)
