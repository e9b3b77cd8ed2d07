"""Glow as the core plays it: the one `Game` record that plugs this folder in."""

from __future__ import annotations

from typing import Any

from companion.core.events import Event
from companion.core.game import Course, Game
from companion.core.phrases import Translate, render

from . import data, table_words
from .about import GLOW as LISTED
from .commands import COMMANDS, NewGame
from .history import HISTORY, help_step, standings
from .parse import command_to_dict, parse_command
from .reads import plan_read
from .record import state_from_record, state_to_record
from .rules import decide, start
from .state import State
from .texts import catalogue_texts
from .view import public_view, setup_checklist, view, who


def start_game(command: NewGame) -> tuple[State, list[Event]]:
    """`start` with the seed the session recorded: it draws the start player when new_game
    names none, so a replay draws the same one."""
    return start(command, command.seed or 0)


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


def checklist(state: State, translate: Translate) -> list[dict[str, str]]:
    return [{"id": item, "text": text} for item, text in setup_checklist(state, translate)]


GLOW = Game(
    id=LISTED.id,
    name=LISTED.name,
    commands=COMMANDS,
    new_game=NewGame,
    parse_command=parse_command,
    command_to_dict=command_to_dict,
    start=start_game,
    decide=decide,
    view=view,
    state_to_record=state_to_record,
    state_from_record=state_from_record,
    summary=summary,
    rounds=rounds,
    catalogue=catalogue,
    public_view=public_view,
    setup_checklist=checklist,
    catalogue_domains=LISTED.catalogue_domains,
    catalogue_texts=catalogue_texts,
    layouts="glow",
    table_screen="companion.games.glow.ui.table:GlowTableScreen",
    setup_form="companion.games.glow.ui.setup:GlowForm",
    banner=lambda events, state, words: table_words.banner_lines(events, state, words.gettext),
    names=table_words.names,
    tag_cards=tag_cards,
    tag_kinds=LISTED.tag_kinds,
    plan_read=plan_read,
    history=HISTORY,
    help_step=help_step,
)
