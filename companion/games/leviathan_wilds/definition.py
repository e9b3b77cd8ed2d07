"""Leviathan Wilds as the core plays it: the one `Game` record that plugs this folder in."""

from __future__ import annotations

from typing import Any

from companion.core.game import Course, Game, model_fields

from . import api, data, seats, table_words
from .about import LEVIATHAN_WILDS as LISTED
from .history import HISTORY
from .reads import plan_read
from .state import State
from .texts import TAG_WORDS, catalogue_texts
from .view import outcome_reason, public_view, view


def summary(state: State) -> dict[str, Any]:
    """The saved games' columns: the shared ones, and the number of guardians (a detail).
    Read from the state, not its view: this is taken with every tap, the whole view is not."""
    outcome = state.outcome
    return {
        "status": "finished" if outcome else "active",
        "players": state.setup.players,
        "rounds": state.round,
        "result": outcome.result if outcome else None,
        "reason": outcome_reason(state) if outcome else None,
        "score": None,
        "guardians": len(state.setup.guardians),
    }


def rounds(course: Course) -> list[dict[str, Any]]:
    """Each round's end: the wrath, the crystals left and the guardians still standing."""
    series: dict[int, dict[str, Any]] = {}
    for _command, _events, state in course:
        shown = view(state)
        series[shown["round"]] = {
            "round": shown["round"], "wrath": shown["wrath"],
            "crystals_left": shown["crystals_left"],
            "guardians_standing": sum(not g["defeated"] for g in shown["guardians"]),
        }
    return [series[number] for number in sorted(series)]


def catalogue() -> dict[str, Any]:
    """What a new-game form offers: the leviathans, the difficulties, the player counts."""
    return {
        "leviathans": [{"number": lev.number, "name": lev.name, "complexity": lev.complexity}
                       for lev in data.LEVIATHANS.values()],
        "difficulties": list(data.DIFFICULTIES),
        "players": [1, 2, 3, 4],
        "unverified": [{"numbers": table, "note": note} for table, note in data.UNVERIFIED],
        "numbers": {  # what a game uses unless new_game corrects it
            "wrath_wild_counts": list(data.WRATH_WILD_COUNTS),
            "wrath_start": dict(data.WRATH_START),
            "health_start": data.HEALTH_START,
            "health_max": data.HEALTH_MAX,
            "deck_size": {"guardian": data.GUARDIAN_DECK, "solo": data.SOLO_DECK},
            "solo_rest_grip": data.SOLO_REST_GRIP,
            "crystals": [{"dice": list(dice), "corrupted": corrupted}
                         for dice, corrupted in data.DEFAULT_CRYSTALS],
        },
    }


def tag_cards() -> dict[str, list[dict[str, Any]]]:
    """The cards a reader's tag may stand for: each leviathan's 5 threat cards, in book order,
    named "3 Storm · threat 2"; the weakness deck's cards, named "Weakness 7" (the ids number
    them in the order the players enrol them: the model needs only to tell them apart)."""
    return {
        "threat": [{"id": data.threat_card_id(lev.number, n), "name": TAG_WORDS["threat-name"],
                    "stage": None, "values": {"number": lev.number, "leviathan": lev.name,
                                              "card": n}}
                   for lev in data.LEVIATHANS.values()
                   for n in range(1, data.THREATS_PER_LEVIATHAN + 1)],
        "weakness": [{"id": card, "name": TAG_WORDS["weakness-name"], "stage": None,
                      "values": {"number": n}}
                     for n, card in enumerate(data.WEAKNESS_CARD_IDS, start=1)],
    }


def help_step(state: dict[str, Any]) -> str | None:
    """The rules' step for the table's "?": the turn's step, "leviathan-wilds/activate"."""
    step = state.get("step")
    return f"{data.GAME_ID}/{step}" if step else None


LEVIATHAN_WILDS = Game(
    **LISTED.fields(),
    # Nothing in its start is random: the seed is kept only so that every game's log reads alike.
    **model_fields(api),
    # The saved games, the translations and the phones' page.
    summary=summary,
    rounds=rounds,
    history=HISTORY,
    catalogue=catalogue,
    catalogue_texts=catalogue_texts,
    public_view=public_view,
    names=table_words.names,
    banner=lambda events, state, words: table_words.banner_lines(
        events, state, words.gettext, words.ngettext),
    # The card reader, the rules help and the screens.
    tag_cards=tag_cards,
    plan_read=plan_read,
    help_step=help_step,
    layouts="leviathan_wilds",
    table_screen="companion.games.leviathan_wilds.ui.table:LeviathanTableScreen",
    setup_form="companion.games.leviathan_wilds.ui.setup:LeviathanForm",
    # Each player's own actions from their phone (issue 31).
    seat_rules=seats.SEAT_RULES,
)
