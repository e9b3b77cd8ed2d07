"""The rules of the day: `start` sets a game up, `decide` answers every command after that.

Both are pure: same input, same answer; a refused command (`Refused`) changes nothing, because
nothing is ever changed in place. A day is morning → late morning → noon → afternoon → evening;
the evening that finds the deck empty (day 8's) ends the game, and the end scoring follows.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from companion.core.errors import Refused
from companion.core.phrases import Phrase

from . import commands as c
from . import events as e
from .data import (
    ADVENTURERS,
    BOATS,
    COMPANIONS,
    DECK,
    ISLAND_VALUES,
    LARGE_DICE_SUPPLY,
    OVER,
    PHASES,
    REROLL_SPACES,
    ROW,
    SMALL_DICE,
    SPELLS,
    START_REROLLS,
    START_SCORE,
    TRACK_LENGTH,
    VILLAGE_VALUES,
)
from .dice import trails_for_route
from .state import Area, Companion, Final, Numbers, Player, Setup, State
from .texts import WORDS

Events = list[e.Event]

# --- starting a game ------------------------------------------------------------------------------


def _numbers(command: c.NewGame) -> Numbers:
    length = command.track_length or TRACK_LENGTH
    spaces = command.reroll_spaces if command.reroll_spaces is not None else REROLL_SPACES
    if spaces and spaces[-1] >= length:
        raise Refused(Phrase("a reroll space {space} lies beyond a score track of {length} "
                             "spaces (0 to {last})", space=spaces[-1], length=length,
                             last=length - 1))
    return Numbers(length, spaces, command.village_values or VILLAGE_VALUES,
                   command.island_values or ISLAND_VALUES)


def _per_player(command: c.NewGame, key: str, values: tuple[str, ...]) -> tuple[str | None, ...]:
    if len(values) > command.players:
        raise Refused(Phrase("{count} {key} were given for {players} players", count=len(values),
                             key=key, players=command.players))
    return (*values, *(None,) * (command.players - len(values)))


def start(command: c.NewGame, seed: int) -> tuple[State, Events]:
    """Set up a game (digest section 3): everyone on 10, two reroll tokens to the player right
    of the start player, 35 cards left after the first row, and stop at day 1's morning. In
    scoring mode the game is over at once, waiting for the end scores."""
    players = command.players
    first = command.start_player
    if first is None:
        first = random.Random(seed).randrange(players)
    elif first >= players:
        raise Refused(Phrase("there is no player {player} to start; the players are 0 to {last}",
                             player=first, last=players - 1))
    adventurers = _per_player(command, "adventurers", command.adventurers)
    taken = [a for a in adventurers if a is not None]
    if len(set(taken)) != len(taken):
        raise Refused(Phrase("each adventurer can be played by one player only"))
    numbers = _numbers(command)
    setup = Setup(players, command.board, command.mode, seed, first,
                  _per_player(command, "names", command.names),
                  _per_player(command, "colours", command.colours), adventurers, numbers)
    last = (first - 1) % players
    boats = (0,) * BOATS if command.board == "sea" else ()
    # In scoring mode the game was played without the app: its reroll tokens are unknown
    # until entered (the setup's count stays in the field, as the contract recorded it).
    known = command.mode != "scoring"
    roster = tuple(
        Player(score=START_SCORE, reroll_tokens=START_REROLLS if i == last else 0, boats=boats,
               rerolls_known=known)
        for i in range(players))
    events: Events = [e.GameStarted(players, command.board, command.mode, first, seed)]
    if command.mode == "scoring":
        state = State(setup=setup, day=8, phase=OVER, start_player=first, deck_count=0,
                      players=roster, areas=(), supply=LARGE_DICE_SUPPLY, spell_stack=SPELLS)
        events.append(e.GameOver(8))
        return state, events
    state = State(setup=setup, day=1, phase="morning", start_player=first,
                  deck_count=DECK - ROW, players=roster,
                  areas=tuple(Area(companion=True) for _ in range(ROW)),
                  supply=LARGE_DICE_SUPPLY, spell_stack=SPELLS)
    events.append(e.PhaseStarted(1, "morning", first))
    return state, events


# --- small helpers ------------------------------------------------------------------------------


def _player(state: State, i: int) -> Player:
    if i >= len(state.players):
        raise Refused(Phrase("there is no player {player}; the players are 0 to {last}", player=i,
                             last=len(state.players) - 1))
    return state.players[i]


def _set_player(state: State, i: int, player: Player) -> State:
    players = list(state.players)
    players[i] = player
    return replace(state, players=tuple(players))


def _set_area(state: State, area: int, value: Area) -> State:
    areas = list(state.areas)
    areas[area] = value
    return replace(state, areas=tuple(areas))


def _phase_word(phase: str) -> Phrase:
    """A phase's name inside a refusal: "late morning"; the game's end as "over"."""
    return Phrase("over") if phase == OVER else Phrase(WORDS[phase])


def _only_in(state: State, phase: str, what: Phrase) -> None:
    if state.phase != phase:
        raise Refused(Phrase("{what} only in the {phase}; it is the {now} now", what=what,
                             phase=_phase_word(phase), now=_phase_word(state.phase)))


def move_score(state: State, i: int, amount: int, events: Events) -> State:
    """Shards move the marker at once; it never goes below space 0, and passing the track's
    end is a lap: from then on no score-track rerolls."""
    player = state.players[i]
    score = max(0, player.score + amount)
    lapped = player.lapped or score >= state.setup.numbers.track_length
    events.append(e.ScoreChanged(i, score - player.score, score, lapped))
    return _set_player(state, i, replace(player, score=score, lapped=lapped))


def track_reroll_target(state: State, i: int) -> int | None:
    """The next reroll space below the player's marker; None when there is none or the player
    has lapped (staying on a reroll space or moving forward never gives a reroll)."""
    player = state.players[i]
    if player.lapped:
        return None
    below = [space for space in state.setup.numbers.reroll_spaces if space < player.score]
    return below[-1] if below else None


def track_reroll_costs(state: State, i: int, count: int = 3) -> list[int]:
    """The score after each of the next `count` score-track rerolls (fewer if fewer remain)."""
    out: list[int] = []
    for _ in range(count):
        target = track_reroll_target(state, i)
        if target is None:
            break
        out.append(target)
        state = _set_player(state, i, replace(state.players[i], score=target))
    return out


# --- the day ------------------------------------------------------------------------------------


def _begin(state: State, phase: str, events: Events) -> State:
    events.append(e.PhaseStarted(state.day, phase, state.start_player))
    return replace(state, phase=phase, dice_entered=False)


def _end_morning(state: State, events: Events) -> State:
    """Companions nobody recruited go to the graveyard; their dice and trails stay."""
    left = [(a, area.card) for a, area in enumerate(state.areas) if area.companion]
    if left:
        events.append(e.SentToGraveyard(tuple(a + 1 for a, _ in left),
                                        tuple(card for _, card in left)))
    areas = tuple(replace(area, companion=False, card=None) for area in state.areas)
    return replace(state, areas=areas,
                   graveyard=state.graveyard + tuple(card for _, card in left))


def _end_evening(state: State, events: Events) -> State:
    """Deck empty: the game ends. Otherwise lay out the next row, a trail token on every area
    holding no die, pass the start marker left, and begin the next day."""
    if state.deck_count == 0:
        events.append(e.GameOver(state.day))
        return replace(state, phase=OVER, dice_entered=False, picked=(), discarded=False)
    deck = state.deck_count - ROW
    if state.dice_entered:
        trailed = tuple(a for a, area in enumerate(state.areas) if area.dice == 0)
        areas = tuple(Area(True, None, area.dice, area.trails + (a in trailed))
                      for a, area in enumerate(state.areas))
    else:  # the returned dice were not entered: the track's dice are unknown now
        trailed = ()
        areas = tuple(Area(True, None, None, area.trails) for area in state.areas)
    events.append(e.RowLaidOut(deck, tuple(a + 1 for a in trailed)))
    start_player = (state.start_player + 1) % len(state.players)
    events.append(e.StartMarkerPassed(start_player))
    players = tuple(
        replace(p, gained_today=0, boat_moved=None,
                companions=tuple(replace(comp, reroll_used=False) for comp in p.companions))
        for p in state.players)
    state = replace(state, day=state.day + 1, deck_count=deck, areas=areas, players=players,
                    start_player=start_player, picked=(), discarded=False)
    return _begin(state, "morning", events)


def next_phase(state: State, command: c.Next) -> tuple[State, Events]:
    if command.phase is not None and command.phase != state.phase:
        # A second tap on Done, meant for a phase already finished: refused, so that it is
        # neither logged nor undone.
        raise Refused(Phrase("this was meant to finish the {phase}, but it is the {now} already; "
                             "nothing was changed", phase=_phase_word(command.phase),
                             now=_phase_word(state.phase)))
    if state.phase == OVER:
        raise Refused(Phrase("the game is over: enter each player's end score"))
    # Noon and afternoon end on a plain `next` too: the contract (issue 19) says `next`
    # finishes the phase, so "nothing forgotten?" is the screen's to ask before it sends one,
    # and `confirm` is accepted and ignored (issue 25).
    events: Events = []
    if state.phase == "morning":
        state = _end_morning(state, events)
    if state.phase == "evening":
        return _end_evening(state, events), events
    return _begin(state, PHASES[state.phase_index + 1], events), events


# --- the morning --------------------------------------------------------------------------------


def _add_companion(state: State, i: int, card: str, events: Events, value: int | None = None,
                   glowworms: int | None = None, die: str | None = None) -> State:
    for holder, other in enumerate(state.players):
        if any(comp.card == card for comp in other.companions):
            raise Refused(Phrase("{card} ({name}) is already in player {holder}'s row", card=card,
                                 name=COMPANIONS[card].name, holder=holder))
    data = COMPANIONS[card]
    if die is not None and data.sketal != "any":
        raise Refused(Phrase("only the many-coloured Sketal chooses its die; {card} is {name}",
                             card=card, name=data.name))
    taken: str | None = None
    if data.sketal is not None:
        wanted = data.sketal if data.sketal != "any" else die
        if wanted is None:
            taken = state.supply[0] if state.supply else None
        elif wanted in state.supply:
            taken = wanted
        supply = list(state.supply)
        if taken is not None:
            supply.remove(taken)
        state = replace(state, supply=tuple(supply))
    brings_black = data.black_die and not state.black_die
    if data.black_die:  # Kaar's owner is whoever holds Kaar now (a fetched Kaar changes hands)
        state = replace(state, black_die=True, kaar_owner=i)
    companion = Companion(card, data.value if value is None else value,
                          data.glowworms if glowworms is None else glowworms, data.reroll,
                          sketal_die=taken)
    graveyard = list(state.graveyard)
    if card in graveyard:  # fetched back (Cromaug)
        graveyard.remove(card)
    state = replace(state, graveyard=tuple(graveyard))
    player = state.players[i]
    events.append(e.CompanionAdded(i, card, taken, brings_black))
    return _set_player(state, i, replace(player, companions=player.companions + (companion,)))


def _remove_companion(state: State, i: int, card: str, events: Events) -> State:
    player = state.players[i]
    found = next((comp for comp in player.companions if comp.card == card), None)
    if found is None:
        raise Refused(Phrase("player {player} has no {card} ({name}) in play", player=i,
                             card=card, name=COMPANIONS[card].name))
    supply = state.supply
    if found.sketal_die is not None:
        supply = tuple(d for d in LARGE_DICE_SUPPLY if d in supply or d == found.sketal_die)
    events.append(e.CompanionRemoved(i, card, found.sketal_die))
    # The black die stays in play, but a Kaar in the graveyard protects nobody.
    owner = None if COMPANIONS[card].black_die else state.kaar_owner
    state = replace(state, supply=supply, graveyard=state.graveyard + (card,), kaar_owner=owner)
    return _set_player(state, i, replace(
        player, companions=tuple(comp for comp in player.companions if comp is not found)))


def pick(state: State, command: c.Pick) -> tuple[State, Events]:
    _only_in(state, "morning", Phrase("companions are recruited"))
    _player(state, command.player)
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
    state = _set_player(state, command.player, replace(player, trails=player.trails + area.trails))
    state = _set_area(state, a, Area(False, None, 0 if area.dice is not None else None, 0))
    state = replace(state, picked=state.picked + (command.player,))
    if command.card is not None:
        state = _add_companion(state, command.player, command.card, events)
    return state, events


def discard(state: State, command: c.Discard) -> tuple[State, Events]:
    _only_in(state, "morning", Phrase("the extra companion is sent away"))
    if not state.needs_discard:
        raise Refused(Phrase("only with two players, right after the start player's pick, does "
                             "the start player send one more companion to the graveyard"))
    a = command.area - 1
    area = state.areas[a]
    if not area.companion:
        raise Refused(Phrase("area {area} holds no companion any more", area=command.area))
    card = command.card or area.card
    events: Events = [e.Discarded(command.area, card)]
    state = _set_area(state, a, replace(area, companion=False, card=None))
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


# --- counters -----------------------------------------------------------------------------------


def _running(state: State) -> None:
    if state.phase == OVER:
        raise Refused(Phrase("the game is over: only the end scores (end_score) can be entered "
                             "now"))


def score(state: State, command: c.Score) -> tuple[State, Events]:
    _player(state, command.player)
    events: Events = []
    return move_score(state, command.player, command.amount, events), events


def rerolls(state: State, command: c.Rerolls) -> tuple[State, Events]:
    player = _player(state, command.player)
    if command.amount > 0:
        player = replace(player, reroll_tokens=player.reroll_tokens + command.amount,
                         gained_today=player.gained_today + command.amount)
    else:
        _only_in(state, "late_morning", Phrase("reroll tokens are spent"))
        spend = -command.amount
        if spend > player.usable_rerolls:
            raise Refused(_not_usable(command.player, player, spend))
        player = replace(player, reroll_tokens=player.reroll_tokens - spend)
    events: Events = [e.RerollsChanged(command.player, command.amount, player.reroll_tokens,
                                       player.usable_rerolls)]
    return _set_player(state, command.player, player), events


def _not_usable(i: int, player: Player, spend: int) -> Phrase:
    waiting: Phrase | str = (Phrase("; {count} gained today can be used from tomorrow",
                                    count=player.gained_today) if player.gained_today else "")
    return Phrase("player {player} can spend {usable} reroll tokens, not {spend}{waiting}",
                  player=i, usable=player.usable_rerolls, spend=spend, waiting=waiting)


def _tokens(kind: str) -> Callable[[State, Any], tuple[State, Events]]:
    def change(state: State, command: c.Glowworms | c.Trails) -> tuple[State, Events]:
        player = _player(state, command.player)
        value = getattr(player, "glowworm_tokens" if kind == "glowworms" else "trails")
        if value + command.amount < 0:
            raise Refused(Phrase("player {player} has {kind} worth {value}; {amount} cannot be "
                                 "given back", player=command.player,
                                 kind=Phrase("glowworms") if kind == "glowworms"
                                 else Phrase("trails"), value=value, amount=-command.amount))
        field = "glowworm_tokens" if kind == "glowworms" else "trails"
        state = _set_player(state, command.player,
                            replace(player, **{field: value + command.amount}))
        return state, [e.TokensChanged(command.player, kind, command.amount,
                                       value + command.amount)]
    return change


def track_reroll(state: State, command: c.TrackReroll) -> tuple[State, Events]:
    _only_in(state, "late_morning", Phrase("rerolls are taken"))
    player = _player(state, command.player)
    target = track_reroll_target(state, command.player)
    if target is None:
        raise Refused(Phrase("player {player} has passed the end of the score track: no "
                             "score-track reroll", player=command.player) if player.lapped
                      else Phrase("player {player} has no reroll space below their marker: no "
                                  "score-track reroll", player=command.player))
    events: Events = [e.TrackRerolled(command.player, target, player.score - target)]
    return _set_player(state, command.player, replace(player, score=target)), events


def _use_lumipili(state: State, i: int, events: Events) -> State:
    player = state.players[i]
    index = next((k for k, comp in enumerate(player.companions)
                  if comp.reroll and not comp.reroll_used), None)
    if index is None:
        raise Refused(Phrase("player {player} has no Lumipili with its reroll left today",
                             player=i))
    companions = list(player.companions)
    companions[index] = replace(companions[index], reroll_used=True)
    events.append(e.LumipiliUsed(i, companions[index].card))
    return _set_player(state, i, replace(player, companions=tuple(companions)))


def lumipili(state: State, command: c.Lumipili) -> tuple[State, Events]:
    _only_in(state, "late_morning", Phrase("rerolls are taken"))
    _player(state, command.player)
    events: Events = []
    return _use_lumipili(state, command.player, events), events


def set_face(state: State, command: c.SetFace) -> tuple[State, Events]:
    """Three rerolls from any mix of sources turn one die to any face."""
    _only_in(state, "late_morning", Phrase("rerolls are taken"))
    player = _player(state, command.player)
    if command.lumipili + command.tokens + command.track != 3:
        raise Refused(Phrase("setting a die to a face takes exactly 3 rerolls (lumipili + tokens "
                             "+ track), not {count}",
                             count=command.lumipili + command.tokens + command.track))
    if command.tokens > player.usable_rerolls:
        raise Refused(_not_usable(command.player, player, command.tokens))
    events: Events = []
    for _ in range(command.lumipili):
        state = _use_lumipili(state, command.player, events)
    for _ in range(command.track):
        state, more = track_reroll(state, c.TrackReroll(command.player))
        events += more
    player = state.players[command.player]
    state = _set_player(state, command.player,
                        replace(player, reroll_tokens=player.reroll_tokens - command.tokens))
    events.append(e.FaceSet(command.player, command.lumipili, command.tokens, command.track))
    return state, events


def companion(state: State, command: c.CompanionCard) -> tuple[State, Events]:
    _player(state, command.player)
    events: Events = []
    if command.remove:
        if (command.value, command.glowworms, command.die) != (None, None, None):
            raise Refused(Phrase("a companion sent to the graveyard takes no value, glowworms or "
                                 "die"))
        return _remove_companion(state, command.player, command.card, events), events
    return _add_companion(state, command.player, command.card, events, command.value,
                          command.glowworms, command.die), events


def _board_move(state: State, correction: bool, what: Phrase) -> None:
    """Markers move on the board in the afternoon only, unless a mistake is put right."""
    if state.phase != "afternoon" and not correction:
        raise Refused(Phrase("{what} only in the afternoon; it is the {now} now. To put a "
                             "marker right, send correction: true", what=what,
                             now=_phase_word(state.phase)))


def camp(state: State, command: c.Camp) -> tuple[State, Events]:
    player = _player(state, command.player)
    if state.setup.board != "realm":
        raise Refused(Phrase("camps are on the Realm of Shadows side; this game is on the Sea of "
                             "Darkness"))
    _board_move(state, command.correction, Phrase("the camp moves"))
    values = state.setup.numbers.village_values
    if command.value != 0 and command.value not in values:
        raise Refused(Phrase("no village is worth {value}; the villages are worth {values} (0: "
                             "the start space)", value=command.value,
                             values=", ".join(map(str, values))))
    events: Events = [e.CampMoved(command.player, command.value)]
    return _set_player(state, command.player, replace(player, camp=command.value)), events


def boat(state: State, command: c.Boat) -> tuple[State, Events]:
    player = _player(state, command.player)
    if state.setup.board != "sea":
        raise Refused(Phrase("boats sail on the Sea of Darkness side; this game is on the Realm "
                             "of Shadows"))
    _board_move(state, command.correction, Phrase("boats move"))
    if not command.correction and player.boat_moved is not None:
        raise Refused(Phrase("player {player} has moved boat {boat} today already: one boat "
                             "moves a day. Undo to change that move, or send correction: true "
                             "to put a boat right", player=command.player,
                             boat=player.boat_moved))
    islands = len(state.setup.numbers.island_values)
    if command.island >= islands:
        raise Refused(Phrase("there is no island {island}; the islands are 0 (the centre) to "
                             "{last}", island=command.island, last=islands - 1))
    others = [b for k, b in enumerate(player.boats) if k != command.boat]
    if command.island != 0 and command.island in others:
        raise Refused(Phrase("player {player} already has a boat on island {island}; one of "
                             "your own boats per island", player=command.player,
                             island=command.island))
    spent = 0
    if (command.elements is None) != (command.route is None):
        raise Refused(Phrase("to check a route, give both elements (different elements your "
                             "dice show) and route ([n] or [low, high])"))
    if command.elements is not None and command.route is not None:
        cost = trails_for_route(command.elements, command.route, player.trails)
        if cost is None:
            raise Refused(_route_refusal(command.elements, command.route, player.trails))
        spent = cost
    boats = list(player.boats)
    boats[command.boat] = command.island
    moved = player.boat_moved if command.correction else command.boat
    events: Events = [e.BoatMoved(command.player, command.boat, command.island, spent)]
    if spent:
        events.append(e.TokensChanged(command.player, "trails", -spent, player.trails - spent))
    return _set_player(state, command.player, replace(
        player, boats=tuple(boats), trails=player.trails - spent, boat_moved=moved)), events


def _route_refusal(elements: int, route: tuple[int, ...], trails: int) -> Phrase:
    demand = "–".join(map(str, route))
    if elements > route[-1]:
        return Phrase("the route asks for exactly {demand} different elements and the dice "
                      "show {elements}; trails cannot take elements away", demand=demand,
                      elements=elements)
    return Phrase("the route asks for {demand} different elements, the dice show {elements}, "
                  "and {needed} trails would be needed, not {trails}", demand=demand,
                  elements=elements, needed=route[0] - elements, trails=trails)


def spell(state: State, command: c.Spell) -> tuple[State, Events]:
    player = _player(state, command.player)
    if command.amount > state.spell_stack:
        raise Refused(Phrase("only {count} spell tiles are left in the stack",
                             count=state.spell_stack))
    if player.spells + command.amount < 0:
        raise Refused(Phrase("player {player} holds {count} spell tiles", player=command.player,
                             count=player.spells))
    stack = state.spell_stack - max(0, command.amount)  # used or broken ones go to the box
    player = replace(player, spells=player.spells + command.amount)
    events: Events = [e.SpellsChanged(command.player, player.spells, stack)]
    return replace(_set_player(state, command.player, player), spell_stack=stack), events


# --- the end ------------------------------------------------------------------------------------


def rerolls_needed(state: State) -> tuple[int, ...]:
    """Once everyone is scored: the players level on light shards with someone whose reroll
    tokens the app does not know (scoring mode). The tie-break asks for theirs, and only
    theirs; the ranking waits for them."""
    if any(p.final is None for p in state.players):
        return ()
    totals = [p.final.total for p in state.players if p.final is not None]
    return tuple(i for i, p in enumerate(state.players)
                 if totals.count(totals[i]) > 1 and not p.rerolls_known)


def rank(state: State) -> tuple[tuple[int, ...], ...]:
    """Best first by final score, then by reroll tokens left; still tied players share a rank."""
    def key(i: int) -> tuple[int, int]:
        final = state.players[i].final
        assert final is not None
        return (final.total, state.players[i].reroll_tokens)
    order = sorted(range(len(state.players)), key=lambda i: (-key(i)[0], -key(i)[1], i))
    ranks: list[list[int]] = []
    for i in order:
        if ranks and key(ranks[-1][0]) == key(i):
            ranks[-1].append(i)
        else:
            ranks.append([i])
    return tuple(tuple(group) for group in ranks)


def end_score(state: State, command: c.EndScore) -> tuple[State, Events]:
    if state.phase != OVER:
        raise Refused(Phrase("the end scoring comes after day 8's evening; it is day {day}'s "
                             "{phase} now", day=state.day, phase=_phase_word(state.phase)))
    player = _player(state, command.player)
    if state.setup.mode == "scoring" and command.score is None and player.final is None:
        raise Refused(Phrase("scoring mode: give the player's score on the track (score) too"))
    track = player.score if command.score is None else command.score
    tokens = player.reroll_tokens if command.reroll_tokens is None else command.reroll_tokens
    known = player.rerolls_known or command.reroll_tokens is not None
    final = Final(track, command.cards, command.board, command.glowworms, command.companions,
                  command.trails)
    lapped = player.lapped or track >= state.setup.numbers.track_length
    state = _set_player(state, command.player, replace(
        player, score=track, lapped=lapped, reroll_tokens=tokens, final=final,
        rerolls_known=known))
    events: Events = [e.EndScored(command.player, track, final.cards, final.board, final.bonus,
                                  final.trails, final.total)]
    if all(p.final is not None for p in state.players) and not rerolls_needed(state):
        ranking = rank(state)
        events.append(e.Ranked(ranking))
        return replace(state, ranking=ranking), events
    return replace(state, ranking=None), events


def suggested_end_score(state: State, i: int) -> dict[str, int]:
    """What the tracked state says each end category is (the players confirm or correct)."""
    player = state.players[i]
    adventurer = state.setup.adventurers[i]
    cards = sum(comp.value for comp in player.companions) + (
        ADVENTURERS[adventurer].value if adventurer else 0)
    values = state.setup.numbers.island_values
    board = player.camp if state.setup.board == "realm" else sum(
        values[island] for island in player.boats if island < len(values))
    return {"cards": cards, "board": board, "glowworms": player.glowworms,
            "companions": len(player.companions), "trails": player.trails}


# --- deciding -----------------------------------------------------------------------------------

Handler = Callable[[State, Any], tuple[State, Events]]

HANDLERS: dict[type[c.Command], Handler] = {
    c.Next: next_phase,
    c.Score: score,
    c.Rerolls: rerolls,
    c.Glowworms: _tokens("glowworms"),
    c.Trails: _tokens("trails"),
    c.Pick: pick,
    c.Discard: discard,
    c.AreaDice: area_dice,
    c.TrackReroll: track_reroll,
    c.Lumipili: lumipili,
    c.SetFace: set_face,
    c.CompanionCard: companion,
    c.Camp: camp,
    c.Boat: boat,
    c.Spell: spell,
}


def decide(state: State, command: c.Command) -> tuple[State, Events]:
    """The state after `command`, and what happened; `Refused` if it cannot be done."""
    if isinstance(command, c.ShowState):
        return state, []
    if isinstance(command, (c.Undo, c.Redo)):
        raise Refused(Phrase("{command} is kept by the session, not by the rules",
                             command=command.name))
    if isinstance(command, c.NewGame):
        raise Refused(Phrase("a new game is started with start(), not inside a running game"))
    if isinstance(command, c.EndScore):
        return end_score(state, command)
    if not isinstance(command, c.Next):
        _running(state)
    handler = HANDLERS.get(type(command))
    if handler is None:
        raise Refused(Phrase("'{command}' is not a Glow command", command=command.name))
    return handler(state, command)
