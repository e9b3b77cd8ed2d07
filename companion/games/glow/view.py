"""The game as players and other programs see it: plain dicts, ready for JSON or a screen.

`view` has the contract's fields (title, day, phase, start_player, deck_count, players with
score, reroll_tokens and final, outcome) and extras: each player's lap and track space, usable
reroll tokens, glowworm threshold, companions and board values; the pick order, the encounter
track, the graveyard and the supply; the prompt, the reminders and the "nothing forgotten?"
gate (message id, text, values); the board's numbers and which of them are unverified. Texts
are rendered through the `translate` it is handed; ids, values and every other field are the
same in every language.
"""

from __future__ import annotations

from typing import Any

from companion.core.game import PublicFields, public_part
from companion.core.phrases import Listing, Phrase, Translate, as_written, message, render

from . import events as e
from .data import (
    ADVENTURERS,
    BOATS,
    COMPANIONS,
    DAYS,
    DECK,
    GAME_ID,
    OVER,
    ROW,
    SMALL_DICE,
    SPELLS,
    START_SCORE,
    UNVERIFIED,
)
from .encounter import dice_wanted, small_dice_in_play
from .end_scoring import rerolls_needed, suggested_end_score
from .rerolls import track_reroll_costs
from .state import Player, State
from .texts import GATES, PROMPTS, REMINDERS, SETUP_ITEMS, WORDS, word


def who(state: State, i: int) -> str | Phrase:
    """A player's name (a proper name, never translated), or "Player n"."""
    name = state.setup.names[i]
    return name if name else word("player", number=i + 1)


def _players(state: State, players: tuple[int, ...] | list[int]) -> Listing:
    return Listing((who(state, i) for i in players), WORDS["nobody"])


def prompt(state: State, translate: Translate = as_written) -> dict[str, Any]:
    phase = state.phase
    if phase == OVER:
        needed = rerolls_needed(state)
        if state.ranking is None and needed:
            return message(PROMPTS, "glow-prompt-tie-rerolls", translate,
                           players=_players(state, needed))
        if state.ranking is None:
            missing = sum(p.final is None for p in state.players)
            return message(PROMPTS, "glow-prompt-end-scoring", translate, missing=missing)
        best = state.ranking[0]
        final = state.players[best[0]].final
        assert final is not None
        key = "glow-prompt-result" if len(best) == 1 else "glow-prompt-result-shared"
        return message(PROMPTS, key, translate, winners=_players(state, best), score=final.total)
    if phase == "morning":
        if state.day == 1 and not state.picked and not state.dice_entered:
            return message(PROMPTS, "glow-prompt-setup-roll", translate,
                           player=who(state, state.start_player))
        if state.needs_discard:
            return message(PROMPTS, "glow-prompt-discard", translate,
                           player=who(state, state.start_player))
        if state.picker is not None:
            return message(PROMPTS, "glow-prompt-pick", translate,
                           player=who(state, state.picker))
        return message(PROMPTS, "glow-prompt-morning-done", translate)
    if phase == "late_morning":
        return message(PROMPTS, "glow-prompt-late-morning", translate)
    if phase == "noon":
        return message(PROMPTS, "glow-prompt-noon", translate)
    if phase == "afternoon":
        return message(PROMPTS, f"glow-prompt-afternoon-{state.setup.board}", translate)
    if state.deck_count == 0:
        return message(PROMPTS, "glow-prompt-evening-last", translate)
    return message(PROMPTS, "glow-prompt-evening", translate, day=state.day)


def gate(state: State, translate: Translate = as_written) -> dict[str, Any] | None:
    """The question the screen asks before it sends this phase's `next`, or None."""
    key = f"glow-gate-{state.phase}"
    return message(GATES, key, translate) if key in GATES else None


def reminders(state: State, translate: Translate = as_written) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def add(key: str, **values: Any) -> None:
        out.append(message(REMINDERS, key, translate, **values))

    phase = state.phase
    if phase == "morning":
        add("glow-rem-pick-order", order=Listing((who(state, i) for i in state.pick_order),
                                                 WORDS["nobody"], ", "))
        waiting = [i for i in state.pick_order if i not in state.picked]
        if state.picked and waiting:
            add("glow-rem-not-picked", players=_players(state, waiting))
        if len(state.players) == 2:
            add("glow-rem-two-players")
        add("glow-rem-sketal", supply=len(state.supply))
        if not state.black_die:
            add("glow-rem-kaar")
        elif state.kaar_owner is not None:
            add("glow-rem-kaar-owner", player=who(state, state.kaar_owner))
        if any(p.spells for p in state.players):
            add("glow-rem-spells-reveal")
    elif phase == "late_morning":
        for key in ("glow-rem-reroll", "glow-rem-set-face", "glow-rem-track-reroll"):
            add(key)
        if any(p.gained_today for p in state.players):
            add("glow-rem-tokens-tomorrow")
        if any(p.lumipili_left for p in state.players):
            add("glow-rem-lumipili")
    elif phase == "noon":
        for key in ("glow-rem-noon-order", "glow-rem-noon-again", "glow-rem-noon-mandatory",
                    "glow-rem-special-faces"):
            add(key)
        if state.black_die:
            add("glow-rem-black-die")
        held = {comp.card for p in state.players for comp in p.companions}
        names = {COMPANIONS[card].name for card in held}
        if "Xar'gok" in names:
            add("glow-rem-xargok")
        if "Cromaug" in names:
            add("glow-rem-cromaug")
        if "Sketal" in names:
            add("glow-rem-sketal-home")
        add("glow-rem-forgotten")
    elif phase == "afternoon":
        keys = (("glow-rem-realm-dice", "glow-rem-realm-trails", "glow-rem-realm-village")
                if state.setup.board == "realm" else
                ("glow-rem-sea-route", "glow-rem-sea-one-boat"))
        for key in (*keys, "glow-rem-board-symbols", "glow-rem-forgotten"):
            add(key)
    elif phase == "evening" and state.deck_count:
        add("glow-rem-evening-return")
        if not state.dice_entered:
            add("glow-rem-evening-dice")
        add("glow-rem-evening-layout")
        add("glow-rem-evening-marker",
            player=who(state, (state.start_player + 1) % len(state.players)))
    elif phase == OVER:
        add("glow-rem-glowworms")
        add("glow-rem-tie-break")
    return out


def _board_value(state: State, player: Player) -> int:
    if state.setup.board == "realm":
        return player.camp
    values = state.setup.numbers.island_values
    return sum(values[island] for island in player.boats if island < len(values))


def _player(state: State, i: int, translate: Translate) -> dict[str, Any]:
    player = state.players[i]
    length = state.setup.numbers.track_length
    final = player.final
    adventurer = state.setup.adventurers[i]
    return {
        "score": player.score,
        "reroll_tokens": player.reroll_tokens,
        "reroll_tokens_known": player.rerolls_known,
        "final": None if final is None else final.total,
        "name": render(who(state, i), translate),
        "colour": state.setup.colours[i],
        "adventurer": None if adventurer is None else {
            "card": adventurer, "name": ADVENTURERS[adventurer].name,
            "value": ADVENTURERS[adventurer].value},
        "lap": player.score // length,
        "track_space": player.score % length,
        "lapped": player.lapped,
        "reroll_tokens_usable": player.usable_rerolls,
        "reroll_tokens_gained_today": player.gained_today,
        "track_rerolls": track_reroll_costs(state, i),
        "lumipili_left": player.lumipili_left,
        "glowworm_tokens": player.glowworm_tokens,
        "glowworms": player.glowworms,
        "trails": player.trails,
        "companions": [{"card": comp.card, "name": COMPANIONS[comp.card].name,
                        "value": comp.value, "glowworms": comp.glowworms,
                        "reroll": comp.reroll, "reroll_used": comp.reroll_used,
                        "sketal_die": comp.sketal_die} for comp in player.companions],
        "companion_count": len(player.companions),
        "glowworm_threshold": {
            "glowworms": player.glowworms, "companions": len(player.companions),
            "met": player.glowworms >= len(player.companions),
            "text": word("threshold", glowworms=player.glowworms,
                         companions=len(player.companions)).render(translate)},
        "camp": player.camp if state.setup.board == "realm" else None,
        "boats": list(player.boats) if state.setup.board == "sea" else None,
        "board_value": _board_value(state, player),
        "spells": player.spells,
        "end": None if final is None else {
            "track": final.track, "cards": final.cards, "board": final.board,
            "glowworms": final.glowworms, "companions": final.companions,
            "glowworm_bonus": final.bonus, "trails": final.trails, "total": final.total},
        "end_suggested": suggested_end_score(state, i),
    }


def view(state: State, translate: Translate = as_written) -> dict[str, Any]:
    """The whole tracked state as a JSON-ready dict, its texts through `translate`."""
    setup, numbers = state.setup, state.setup.numbers
    return {
        "title": GAME_ID,
        "day": state.day,
        "phase": state.phase,
        "start_player": state.start_player,
        "deck_count": state.deck_count,
        "players": [_player(state, i, translate) for i in range(len(state.players))],
        "outcome": None if state.ranking is None else {
            "ranking": [list(group) for group in state.ranking]},
        "reroll_tokens_needed": list(rerolls_needed(state)),
        "round": state.day,  # the day, under the name the shared screens read (Home's resume)
        "phase_name": word(state.phase).render(translate),
        "days": DAYS,
        "board": setup.board,
        "board_name": word(setup.board).render(translate),
        "mode": setup.mode,
        "player_count": setup.players,
        "pick_order": list(state.pick_order),
        "picked": list(state.picked),
        "picker": state.picker,
        "needs_discard": state.needs_discard,
        "areas": [{"area": a + 1, "companion": area.companion, "card": area.card,
                   "dice": area.dice, "trails": area.trails}
                  for a, area in enumerate(state.areas)],
        "dice_entered": state.dice_entered,
        "dice_wanted": dice_wanted(state),
        "small_dice": small_dice_in_play(state),
        "graveyard": list(state.graveyard),
        "large_dice_supply": list(state.supply),
        "black_die": state.black_die,
        "kaar_owner": state.kaar_owner,
        "spell_stack": state.spell_stack,
        "track": {"length": numbers.track_length, "reroll_spaces": list(numbers.reroll_spaces)},
        "village_values": list(numbers.village_values),
        "island_values": list(numbers.island_values),
        "prompt": prompt(state, translate),
        "gate": gate(state, translate),
        "reminders": reminders(state, translate),
        "unverified": [{"numbers": table, "note": note} for table, note in UNVERIFIED],
    }


def event_view(event: e.Event) -> dict[str, Any]:
    return event.to_dict()


def setup_checklist(state: State, translate: Translate = as_written) -> list[tuple[str, str]]:
    """The setup steps for this game, as (item id, text through `translate`)."""
    setup = state.setup
    first = setup.start_player
    values: dict[str, Any] = {
        "board": word(setup.board), "score": START_SCORE, "boats": BOATS, "spells": SPELLS,
        "deck": DECK - ROW, "player": who(state, first),
        "last": who(state, (first - 1) % setup.players), "dice": SMALL_DICE,
    }
    skip = {"glow-setup-sea" if setup.board == "realm" else "glow-setup-realm"}
    if setup.players != 2:
        skip.add("glow-setup-two")
    return [(item, Phrase(text, **values).render(translate))
            for item, text in SETUP_ITEMS if item not in skip]


PUBLIC_FIELDS: PublicFields = {
    "title": True, "day": True, "phase": True, "start_player": True,
    "deck_count": True,  # the face-down companion deck: how many, never which
    "players": {
        "score": True, "reroll_tokens": True, "reroll_tokens_known": True, "final": True,
        "name": True, "colour": True,
        "adventurer": True, "lap": True, "track_space": True, "lapped": True,
        "reroll_tokens_usable": True, "reroll_tokens_gained_today": True,
        "track_rerolls": True, "lumipili_left": True, "glowworm_tokens": True,
        "glowworms": True, "trails": True, "companions": True, "companion_count": True,
        "glowworm_threshold": True, "camp": True, "boats": True, "board_value": True,
        "spells": True, "end": True, "end_suggested": True,
    },
    "outcome": True, "reroll_tokens_needed": True, "round": True, "phase_name": True,
    "days": True, "board": True,
    "board_name": True, "mode": True, "player_count": True, "pick_order": True,
    "picked": True, "picker": True, "needs_discard": True,
    "areas": True,  # the five companions laid out face up
    "dice_entered": True, "dice_wanted": True, "small_dice": True, "graveyard": True,
    "large_dice_supply": True, "black_die": True,
    "kaar_owner": True, "spell_stack": True, "track": True, "village_values": True,
    "island_values": True, "prompt": True, "gate": True, "reminders": True,
    "unverified": True,
}
"""What of `view` the whole table sees (`public_view`): everything it tracks lies open, and
the deck is only counted."""


def public_view(view: dict[str, Any]) -> dict[str, Any]:
    """The phones' part of `view`."""
    return public_part(view, PUBLIC_FIELDS)
