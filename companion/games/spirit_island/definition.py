"""Spirit Island as the core plays it: the one `Game` record that plugs this folder in."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.game import Course, Game

from . import commands as c
from . import seats, table_words
from .about import SPIRIT_ISLAND as LISTED
from .catalogue import catalogue
from .codec import state_from_record, state_to_record
from .course import round_series
from .game import decide, start
from .history import HISTORY
from .reads import plan_read
from .reminders import setup_checklist
from .state import GameState
from .texts import ROMAN_STAGES
from .view import public_view, state_view


def summary(state: GameState) -> dict[str, Any]:
    """The columns the games list, history and statistics read."""
    outcome = state.outcome
    return {
        "status": "finished" if outcome else "active",
        "players": state.setup.players,
        "mode": state.setup.mode,
        "deck_mode": state.setup.deck,
        "adversary": state.setup.adversary,
        "adversary_level": state.setup.level,
        "scenario": state.setup.scenario,
        "difficulty": state.setup.difficulty,
        "result": outcome.result if outcome else None,
        "reason": outcome.reason if outcome else None,
        "score": outcome.score if outcome else None,
        "rounds": state.round,
    }


def rounds(course: Course) -> list[dict[str, Any]]:
    return [tally.to_dict() for tally in round_series(course)]


def tag_cards() -> Mapping[str, list[dict[str, Any]]]:
    """Invader cards (named with their stage), fear cards and blight cards, in catalogue order."""
    data = catalogue()
    return {
        "invader": [{"id": card["id"], "name": card["name"],
                     "stage": ROMAN_STAGES.get(card["stage"])} for card in data["invader_cards"]],
        "fear": [{"id": card["id"], "name": card["name"], "stage": None}
                 for cards in data["fear_cards"].values() for card in cards],
        "blight": [{"id": card["id"], "name": card["name"], "stage": None}
                   for cards in data["blight_cards"].values() for card in cards],
    }




def help_step(state: dict[str, Any]) -> str | None:
    """The rules' step for the table's "?": the phase and its step, "invader/ravage"."""
    return f"{state.get('phase', '')}/{state.get('step', '')}"




SPIRIT_ISLAND = Game(
    **LISTED.fields(),
    commands=c.COMMANDS,
    new_game=c.NewGame,
    parse_command=c.parse_command,
    start=start,
    decide=decide,
    view=state_view,
    state_to_record=state_to_record,
    state_from_record=state_from_record,
    summary=summary,
    rounds=rounds,
    catalogue=catalogue,
    public_view=public_view,
    tag_cards=tag_cards,
    plan_read=plan_read,
    layouts="spirit_island",
    table_screen="companion.games.spirit_island.ui.table:TableScreen",
    setup_form="companion.games.spirit_island.ui.setup:SpiritIslandForm",
    screens={"end": "companion.games.spirit_island.ui.end:EndScreen"},
    setup_checklist=setup_checklist,
    banner=lambda events, state, words: table_words.banner_lines(events, state, words.gettext),
    names=table_words.names,
    history=HISTORY,
    help_step=help_step,
    # Each player's own actions from their phone (issue 31).
    seat_rules=seats.SEAT_RULES,
)
