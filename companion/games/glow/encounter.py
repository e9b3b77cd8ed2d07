"""The encounter track's areas: recruiting from them in the morning (`pick`, and with two
players the start player's extra `discard`), and the small dice in each area, entered after the
setup roll and after the evening's return."""

from __future__ import annotations

from dataclasses import replace

from companion.core.errors import Refused
from companion.core.phrases import Phrase

from . import commands as c
from . import events as e
from .basics import Events, checked_player, only_in, set_area, set_player
from .companions import add_companion
from .data import SMALL_DICE
from .state import Area, State


def pick(state: State, command: c.Pick) -> tuple[State, Events]:
    only_in(state, "morning", Phrase("companions are recruited"))
    checked_player(state, command.player)
    if state.picker is None:
        raise Refused(Phrase("everyone has recruited this morning; tap Done for the late morning"))
    if state.needs_discard:
        raise Refused(Phrase("two players: the start player first sends one more companion to "
                             "the graveyard (discard)"))
    if command.player != state.picker:
        raise Refused(Phrase("it is player {picker}'s turn to recruit, not player {player}'s",
                             picker=state.picker, player=command.player))
    a = command.area - 1
    area = state.areas[a]
    if not area.companion:
        raise Refused(Phrase("area {area} holds no companion any more", area=command.area))
    events: Events = [e.Picked(command.player, command.area, command.card, area.dice,
                               area.trails)]
    player = state.players[command.player]
    state = set_player(state, command.player, replace(player, trails=player.trails + area.trails))
    state = set_area(state, a, Area(False, None, 0 if area.dice is not None else None, 0))
    state = replace(state, picked=state.picked + (command.player,))
    if command.card is not None:
        state = add_companion(state, command.player, command.card, events)
    return state, events


def discard(state: State, command: c.Discard) -> tuple[State, Events]:
    only_in(state, "morning", Phrase("the extra companion is sent away"))
    if not state.needs_discard:
        raise Refused(Phrase("only with two players, right after the start player's pick, does "
                             "the start player send one more companion to the graveyard"))
    a = command.area - 1
    area = state.areas[a]
    if not area.companion:
        raise Refused(Phrase("area {area} holds no companion any more", area=command.area))
    card = command.card or area.card
    events: Events = [e.Discarded(command.area, card)]
    state = set_area(state, a, replace(area, companion=False, card=None))
    return replace(state, discarded=True, graveyard=state.graveyard + (card,)), events


def small_dice_in_play(state: State) -> int:
    """The small dice on the table: the 9, and the black die once Kaar has brought it."""
    return SMALL_DICE + (1 if state.black_die else 0)


def dice_wanted(state: State) -> bool:
    """The players are asked for the small dice in each area now: after the setup roll (day 1,
    before the first pick) or after the evening's return while a next row follows; until they
    are entered."""
    if state.dice_entered:
        return False
    if state.phase == "morning":
        return state.day == 1 and not state.picked
    return state.phase == "evening" and state.deck_count > 0


def _check_all_small_dice(state: State, dice: tuple[int, ...], setup_roll: bool) -> None:
    """Every small die lies on the track after the setup roll (the 9) and after the evening's
    return (the 9, and the black die once Kaar has brought it into play)."""
    total = small_dice_in_play(state)
    if sum(dice) == total:
        return
    if setup_roll:
        raise Refused(Phrase("the start player rolls all {total} small dice at setup; these "
                             "areas hold {count}", total=total, count=sum(dice)))
    black = Phrase(", the black die among them") if state.black_die else ""
    raise Refused(Phrase("in the evening all {total} small dice go back to the track{black}; "
                         "these areas hold {count}", total=total, black=black, count=sum(dice)))


def area_dice(state: State, command: c.AreaDice) -> tuple[State, Events]:
    """The small dice in each area: after the setup roll (day 1's morning, before the first
    pick: die-less areas get their trail token at once) or after the evening's return (the
    trail tokens come with the next row)."""
    setup_roll = state.phase == "morning" and state.day == 1 and not state.picked
    if not setup_roll and state.phase != "evening":
        raise Refused(Phrase("the small dice are entered after the setup roll (day 1, before the "
                             "first pick) or when they are returned in the evening"))
    if state.dice_entered:
        raise Refused(Phrase("the small dice are entered already; undo to correct them"))
    _check_all_small_dice(state, command.dice, setup_roll)
    trailed = tuple(a for a, n in enumerate(command.dice) if n == 0) if setup_roll else ()
    areas = tuple(replace(area, dice=n, trails=area.trails + (a in trailed))
                  for a, (area, n) in enumerate(zip(state.areas, command.dice, strict=True)))
    events: Events = [e.AreaDiceSet(command.dice, tuple(a + 1 for a in trailed))]
    return replace(state, areas=areas, dice_entered=True), events
