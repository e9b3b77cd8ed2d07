"""Glow as the core plays it: the one `Game` record that plugs this folder in."""

from __future__ import annotations

from typing import Any

from companion.core.game import Course, Game, model_fields
from companion.core.phrases import render

from . import api, data, seats, table_words
from .about import GLOW as LISTED
from .history import HISTORY, help_step, standings
from .reads import plan_read
from .state import State
from .texts import catalogue_texts
from .view import public_view, who


def summary(state: State) -> dict[str, Any]:
    """The saved games' columns: the shared ones, and the mode (a whole game or scoring only).
    A finished game's result names the winners, its score is the best final score."""
    finished = state.ranking is not None
    best = state.ranking[0] if state.ranking else ()
    top = state.players[best[0]].final if best else None
    return {
        "status": "finished" if finished else "active",
        "players": state.setup.players,
        "rounds": state.day,
        "mode": state.setup.mode,
        "result": ", ".join(render(who(state, i)) for i in best) if finished else None,
        "reason": ("shared" if len(best) > 1 else "win") if finished else None,
        "score": None if top is None else top.total,
        **standings(state),
    }


def rounds(course: Course) -> list[dict[str, Any]]:
    """Each day's end: every player's score and reroll tokens as the day closed."""
    series: dict[int, dict[str, Any]] = {}
    for _command, _events, state in course:
        series[state.day] = {
            "round": state.day, "phase": state.phase,
            "scores": [p.score for p in state.players],
            "reroll_tokens": [p.reroll_tokens for p in state.players],
        }
    return [series[day] for day in sorted(series)]


def catalogue() -> dict[str, Any]:
    """What a new-game form offers: board sides, modes, player counts, adventurers, the
    companions' card list and the numbers still to be checked against a printed copy."""
    return {
        "boards": list(data.BOARDS),
        "modes": list(data.MODES),
        "players": list(range(data.MIN_PLAYERS, data.MAX_PLAYERS + 1)),
        "adventurers": [{"id": card.id, "name": card.name, "value": card.value}
                        for card in data.ADVENTURERS.values()],
        "companions": [{"id": card.id, "name": card.name, "value": card.value,
                        "glowworms": card.glowworms, "reroll": card.reroll,
                        "sketal": card.sketal, "black_die": card.black_die}
                       for card in data.COMPANIONS.values()],
        "track_length": data.TRACK_LENGTH,
        "reroll_spaces": list(data.REROLL_SPACES),
        "village_values": list(data.VILLAGE_VALUES),
        "island_values": list(data.ISLAND_VALUES),
        "unverified": [{"numbers": table, "note": note} for table, note in data.UNVERIFIED],
    }


def tag_cards() -> dict[str, list[dict[str, Any]]]:
    """The cards a reader's tag may stand for: the companions, by the names on the cards."""
    return {"companion": [{"id": card.id, "name": card.name, "stage": None}
                          for card in data.COMPANIONS.values()]}


GLOW = Game(
    **LISTED.fields(),
    # Its start draws the start player when new_game names none: the seed replays the draw.
    **model_fields(api),
    summary=summary,
    rounds=rounds,
    catalogue=catalogue,
    public_view=public_view,
    catalogue_texts=catalogue_texts,
    layouts="glow",
    table_screen="companion.games.glow.ui.table:GlowTableScreen",
    setup_form="companion.games.glow.ui.setup:GlowForm",
    banner=lambda events, state, words: table_words.banner_lines(events, state, words.gettext),
    names=table_words.names,
    tag_cards=tag_cards,
    plan_read=plan_read,
    history=HISTORY,
    help_step=help_step,
    # Each player's own actions from their phone (issue 31).
    seat_rules=seats.SEAT_RULES,
)
