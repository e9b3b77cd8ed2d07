"""Rules that hold after any sequence of table actions (hypothesis property tests).

Each example starts a random game (1-6 players, beginner or advanced, virtual or physical deck,
a seed, sometimes an adversary-like deck order or fear split, sometimes Surges of Colonization
at either difficulty or Rituals of Terror, those with or without Prussia or Sweden, sometimes an
adversary level that changes where blight starts or goes) and plays up to ~150 random actions
through `GameSession`: next, fear, destroy, blight, heal, resolve_fear, reveal, declare, score,
undo, redo, effect, ritual, a rare new game, and "play on" runs that press Done (resolving fear
and turning over cards as the table would) so games reach late rounds and their endings.
Refused commands are part of the game: the properties say what they must (not) do.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.errors import Refused
from companion.core.events import Event, Redone, Undone
from companion.games.spirit_island.basics import level_of
from companion.games.spirit_island.cards import INVADER_CARDS, parse_deck_order
from companion.games.spirit_island.commands import (
    AddBlight,
    Command,
    Destroy,
    Effect,
    GenerateFear,
    Heal,
    NewGame,
    NextBlightCard,
    Redo,
    Reveal,
    Undo,
    command_to_dict,
    parse_command,
)
from companion.games.spirit_island.events import BlightCardFlipped, FearCardEarned
from companion.games.spirit_island.invader_deck import awaiting_reveal, candidates
from companion.games.spirit_island.session import GameSession
from companion.games.spirit_island.state import GameState
from companion.games.spirit_island.view import state_view

TOTAL_INVADER_CARDS = 15
ALL_CARD_IDS = Counter(list(INVADER_CARDS))
CARD_IDS = sorted(INVADER_CARDS)
BLIGHT_CARD_IDS = ("downward-spiral", "memory-fades-to-dust")
FEAR_PER_PIECE = {"town": 1, "city": 2}

# Deck orders and fear splits besides the defaults: a short game that runs out of time quickly,
# an adversary-style order with the Coastal Lands card placed, and uneven fear decks.
DECK_ORDERS = ("111-2222-33333", "1-2-3", "11-2C2-333", "1122233")
FEAR_SPLITS = ([3, 3, 3], [1, 1, 1], [0, 2, 1], [4, 5, 3])
BLIGHT_ADVERSARIES = (("france", 5), ("france", 6), ("sweden", 6), ("france", 4))

# Scenarios that change the fear deck and the explores; None (no scenario) most of the time.
SCENARIO_CHOICES: tuple[dict[str, Any] | None, ...] = (
    None, None, None,
    {"scenario": "surges-of-colonization"},
    {"scenario": "surges-of-colonization", "scenario_difficulty": 7},
    {"scenario": "rituals-of-terror"},
)

SEED_FROM_SHELL = 4242
"""What the session's seed source gives when a new_game names no seed."""
MAX_ACTIONS = 150
MAX_COMMANDS = 240
"""Cap on the commands one example executes ("play on" actions expand to several)."""

PROPERTY_SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# --- random games ------------------------------------------------------------------------------


@st.composite
def new_games(draw: st.DrawFn) -> dict[str, Any]:
    """A valid new_game command as the driver would read it."""
    mode = draw(st.sampled_from(["beginner", "advanced"]))
    game: dict[str, Any] = {
        "cmd": "new_game",
        "players": draw(st.integers(1, 6)),
        "mode": mode,
        "deck": draw(st.sampled_from(["virtual", "physical"])),
        # No seed sometimes: the session fills one in from its seed source and logs it.
        "seed": draw(st.none() | st.integers(0, 2**63 - 1)),
    }
    if mode == "advanced" and draw(st.booleans()):
        game["blight_card"] = draw(st.sampled_from(BLIGHT_CARD_IDS))
    if draw(st.integers(0, 3)) == 3:
        game["deck_order"] = draw(st.sampled_from(DECK_ORDERS))
    if draw(st.integers(0, 3)) == 3:
        game["fear_split"] = draw(st.sampled_from(FEAR_SPLITS))
    scenario = draw(st.sampled_from(SCENARIO_CHOICES))
    if scenario is not None:
        game.update(scenario)
        if draw(st.booleans()):  # Surges needs an adversary's escalation to be itself
            game["adversary"] = draw(st.sampled_from(["brandenburg-prussia", "sweden"]))
            game["level"] = draw(st.integers(0, 6))
            game.pop("deck_order", None)
            game.pop("fear_split", None)
    elif draw(st.integers(0, 3)) == 3:
        # Adversary levels that change where blight starts or goes: France 5+ keeps healed
        # blight on its panel; Sweden 6 starts the island with more.
        adversary, level = draw(st.sampled_from(BLIGHT_ADVERSARIES))
        game.update(adversary=adversary, level=level)
    return game


def _part(kind: int, amount: int, piece: str) -> dict[str, Any]:
    if kind == 0:
        return {"cmd": "fear", "amount": 1 + amount % 12}
    if kind == 1:
        return {"cmd": "destroy", "piece": piece, "count": 1 + amount % 3}
    if kind == 2:
        return {"cmd": "blight", "amount": 1 + amount % 4}
    return {"cmd": "heal", "amount": 1 + amount % 3}


@st.composite
def actions(draw: st.DrawFn) -> tuple[Any, ...]:
    """One thing a table does. Reveals are resolved against the state when they are played."""
    roll = draw(st.integers(0, 999))  # shrinks towards "next"
    if roll < 280:
        return ("cmd", {"cmd": "next"})
    if roll < 360:
        # Play on for a while; now and then the table slips when it turns over a card.
        return ("play_on", draw(st.integers(1, 25)), draw(st.integers(0, 9)),
                draw(st.sampled_from(CARD_IDS)))
    if roll < 440:
        return ("cmd", {"cmd": "fear", "amount": draw(st.integers(1, 12))})
    if roll < 520:
        return ("cmd", {"cmd": "destroy", "piece": draw(st.sampled_from(["town", "city"])),
                        "count": draw(st.integers(1, 3))})
    if roll < 590:
        return ("cmd", {"cmd": "blight", "amount": draw(st.integers(1, 4))})
    if roll < 660:
        return ("cmd", {"cmd": "heal", "amount": draw(st.integers(1, 3))})
    if roll < 705:
        return ("cmd", {"cmd": "resolve_fear"})
    if roll < 720:
        return ("cmd", {"cmd": "ritual"})
    if roll < 800:
        # Mostly a card that can legally come up; sometimes any card, sometimes forced.
        how = draw(st.integers(0, 9))
        return ("reveal", how, draw(st.integers(0, 5)), draw(st.sampled_from(CARD_IDS)))
    if roll < 850:
        return ("cmd", {"cmd": "undo"})
    if roll < 870:
        return ("cmd", {"cmd": "redo"})
    if roll < 910:
        # Step back through several commands, then forward again through some of them.
        undos = draw(st.integers(1, 8))
        return ("undo_redo", undos, draw(st.integers(0, undos)))
    if roll < 950:
        parts = draw(st.lists(
            st.tuples(st.integers(0, 3), st.integers(0, 11), st.sampled_from(["town", "city"])),
            min_size=1, max_size=3))
        return ("cmd", {"cmd": "effect", "commands": [_part(*part) for part in parts]})
    if roll < 962:
        result = draw(st.sampled_from(["victory", "defeat", "sacrifice"]))
        reason = draw(st.sampled_from([None, "spirit_destroyed", "terror_condition"]))
        return ("cmd", {"cmd": "declare", "result": result, "reason": reason})
    if roll < 975:
        return ("cmd", {"cmd": "score", "dahan": draw(st.integers(0, 30)),
                        "blight_on_island": draw(st.none() | st.integers(0, 30))})
    if roll < 983:
        return ("cmd", draw(new_games()))
    # Commands that read fine but the rules should refuse (or that rarely fit).
    return ("cmd", draw(st.sampled_from([
        {"cmd": "new_game", "players": 2, "mode": "beginner", "blight_card": "downward-spiral",
         "seed": 1},
        {"cmd": "new_game", "players": 2, "deck_order": "111-2222-333333", "seed": 1},
        {"cmd": "reveal", "card": "IV-ocean"},
        {"cmd": "reveal", "card": "IV-ocean", "force": True},
        {"cmd": "heal", "amount": 1000},
        {"cmd": "fear", "amount": 1000},
        {"cmd": "blight", "amount": 1000},
        {"cmd": "effect", "commands": [{"cmd": "fear", "amount": 3}, {"cmd": "heal",
                                                                      "amount": 1000}]},
    ])))


@st.composite
def plans(draw: st.DrawFn) -> list[tuple[Any, ...]]:
    """Up to MAX_ACTIONS actions; the length is drawn first so long games are common."""
    length = draw(st.integers(0, MAX_ACTIONS))
    return draw(st.lists(actions(), min_size=length, max_size=length))


games = st.tuples(new_games(), plans())


# --- playing them ------------------------------------------------------------------------------


@dataclass
class Step:
    """One command the session was asked to carry out, and what became of it."""

    command: Command
    before: GameState | None
    after: GameState | None
    accepted: bool
    events: list[Event] = field(default_factory=list)
    logged: Command | None = None
    refusal: str | None = None
    history_before: tuple[int, int] = (0, 0)
    """How many commands undo and redo could take back / apply again, before and after."""
    history_after: tuple[int, int] = (0, 0)


Observer = Callable[[GameSession, Step], None]


def _history(session: GameSession) -> tuple[int, int]:
    return session.undo_count, session.redo_count


def execute(session: GameSession, command: Command) -> Step:
    before, history = session.state, _history(session)
    try:
        events, logged = session.execute(command)
    except Refused as refusal:
        return Step(command, before, session.state, False, refusal=str(refusal),
                    history_before=history, history_after=_history(session))
    return Step(command, before, session.state, True, events, logged, None, history,
                _history(session))


def _natural(state: GameState) -> Command:
    """What a table that just plays on does next: resolve fear, turn over a card, or Done."""
    if state.is_over:
        return parse_command({"cmd": "score", "dahan": 2 * state.setup.players})
    if (state.step == "fear" and state.fear.earned) or state.fear.ritual_cards:
        return parse_command({"cmd": "resolve_fear"})
    if state.blight.awaiting_card:  # the table turns the card over and names it
        unused = [card for card in BLIGHT_CARD_IDS if card not in state.blight.earlier_cards]
        return parse_command({"cmd": "next_blight_card", "card": unused[0]})
    if _awaiting_reveal(state):
        legal = candidates(state)
        if legal:
            return Reveal(legal[0])
        # Only forced reveals earlier can leave no legal card; the table forces one too.
        return Reveal(CARD_IDS[0], force=True)
    return parse_command({"cmd": "next"})


def _awaiting_reveal(state: GameState) -> bool:
    # The Final Surge (Surges of Colonization) asks for a card when the deck is empty too.
    return (state.setup.deck == "physical" and state.step in ("explore", "initial_explore")
            and awaiting_reveal(state))


def commands_for(action: tuple[Any, ...], session: GameSession) -> Iterator[Command]:
    """The commands one action stands for, read against the state as they are played."""
    kind = action[0]
    if kind == "cmd":
        yield parse_command(action[1])
    elif kind == "reveal":
        _, how, index, card = action
        legal = candidates(session.state) if session.state is not None else []
        candidate = legal[index % len(legal)] if legal else card
        seen = _cards_out(session.state) if session.state is not None else ()
        if how <= 5:
            yield Reveal(candidate)
        elif how == 6:
            yield Reveal(card)
        elif how == 7:  # a card that has already come up: refused unless forced
            yield Reveal(seen[index % len(seen)] if seen else card)
        else:
            yield Reveal(card if how == 8 else candidate, force=True)
    elif kind == "undo_redo":
        _, undos, redos = action
        yield from [Undo()] * undos + [Redo()] * redos
    elif kind == "play_on":
        _, count, slip, card = action
        for _ in range(count):
            state = session.state
            if state is None:
                return
            if slip >= 7 and _awaiting_reveal(state):
                # 7: names a card that already came up, 8: any card, 9: forces any card.
                seen = _cards_out(state)
                yield Reveal(seen[-1] if slip == 7 and seen else card, force=slip == 9)
                slip = 0
                continue
            yield _natural(state)
            if state.is_over:
                return
    else:  # pragma: no cover - a test bug
        raise AssertionError(f"unknown action {action!r}")


def play(game: dict[str, Any], plan: list[tuple[Any, ...]],
         observer: Observer | None = None) -> tuple[GameSession, list[Step]]:
    """Start the game, play the plan; every command executed is returned as a Step."""
    session = GameSession(seed_source=lambda: SEED_FROM_SHELL)
    first = execute(session, parse_command(game))
    assert first.accepted, first.refusal
    steps = [first]
    if observer is not None:
        observer(session, first)
    for action in plan:
        for command in commands_for(action, session):
            if len(steps) >= MAX_COMMANDS:
                return session, steps
            step = execute(session, command)
            steps.append(step)
            if observer is not None:
                observer(session, step)
    return session, steps


def _is_game_action(command: Command) -> bool:
    """A command that moves the game on (not a new game, undo or redo)."""
    return not isinstance(command, NewGame | Undo | Redo)


def _parts(command: Command) -> tuple[Command, ...]:
    return command.commands if isinstance(command, Effect) else (command,)


def fear_in(command: Command) -> int:
    """Fear the command generates: its amount, 1 per town and 2 per city destroyed."""
    total = 0
    for part in _parts(command):
        if isinstance(part, GenerateFear):
            total += part.amount
        elif isinstance(part, Destroy):
            total += FEAR_PER_PIECE[part.piece] * part.count
    return total


def blight_moved_in(command: Command) -> tuple[int, int]:
    """Blight the command asks to add to the island, and to heal from it."""
    added = sum(p.amount for p in _parts(command) if isinstance(p, AddBlight))
    healed = sum(p.amount for p in _parts(command) if isinstance(p, Heal))
    return added, healed


def _cards_out(state: GameState) -> tuple[str, ...]:
    """Every card turned over so far, in the order it came up."""
    track = state.invader
    return track.discard + track.ravage + track.build + track.explore


def _slow_healing(state: GameState) -> bool:
    return state.setup.adversary == "france" and (state.setup.level or 0) >= 5


def _game_states(steps: list[Step]) -> Iterator[tuple[Step, GameState]]:
    for step in steps:
        assert step.after is not None
        yield step, step.after


# --- the properties ----------------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(games)
def test_invader_cards_are_conserved_deck_slots_discard_and_set_aside_always_make_15(
    game: tuple[dict[str, Any], list[tuple[Any, ...]]],
) -> None:
    _, steps = play(*game)
    forced = False
    for step, state in _game_states(steps):
        if step.accepted and isinstance(step.command, NewGame):
            forced = False
        if step.accepted and isinstance(step.command, Reveal) and step.command.force:
            forced = True
        track = state.invader
        out = _cards_out(state)
        # Cards in the box: left out at setup, or removed by the adversary (Prussia 4+).
        boxed = list(track.set_aside) + list(track.removed)
        assert len(track.deck) + len(out) + len(boxed) == TOTAL_INVADER_CARDS, step
        order = parse_deck_order(state.setup.deck_order)
        if state.setup.deck == "virtual":
            every = [entry.card for entry in track.deck] + list(out) + boxed
            assert Counter(every) == ALL_CARD_IDS, step
        elif forced:
            continue
        else:
            assert len(set(out)) == len(out), f"a card came up twice: {out}"
            assert all(card is None for card in track.set_aside)
        if track.surged:  # a Final Surge took cards from outside the deck's order
            continue
        # Cards come up in the order's stages, fixed cards at their places, top of deck next.
        assert len(out) + len(track.deck) == len(order)
        positions = [(INVADER_CARDS[card].stage, card) for card in out] + [
            (entry.stage, entry.card) for entry in track.deck]
        for (stage, card), wanted in zip(positions, order, strict=True):
            assert stage == wanted.stage, (positions, order)
            if wanted.card is not None:
                assert card == wanted.card, (positions, order)


@PROPERTY_SETTINGS
@given(games)
def test_fear_is_conserved_every_marker_generated_is_on_the_track_or_in_an_earned_card(
    game: tuple[dict[str, Any], list[tuple[Any, ...]]],
) -> None:
    _, steps = play(*game)
    # Total fear generated by the commands that led to the current state, kept the way the
    # session keeps its history so that undo and redo bring back the right total.
    total, past, future = 0, [], []
    for step, state in _game_states(steps):
        fear = state.fear
        command = step.command
        if step.accepted:
            if isinstance(command, NewGame):
                total, past, future = 0, [], []
            elif isinstance(command, Undo):
                future.append(total)
                total = past.pop()
            elif isinstance(command, Redo):
                past.append(total)
                total = future.pop()
            else:
                past.append(total)
                future.clear()
                total += fear_in(command)
                assert step.before is not None
                earned_now = sum(1 for ev in step.events if isinstance(ev, FearCardEarned))
                assert earned_now == step.before.fear.deck - fear.deck
        assert fear.pool + fear.generated == fear.pool_size
        assert 0 <= fear.generated < fear.pool_size
        assert fear.earned >= 0 and fear.resolved >= 0 and fear.deck >= 0
        assert fear.earned + fear.resolved + fear.deck == sum(fear.split)
        assert 0 <= fear.ritual_cards <= fear.earned
        assert fear.pool_size == _fear_markers(state) * state.setup.players
        if fear.deck > 0:  # once the last card is earned (fear victory) surplus is not kept
            cards_earned = sum(fear.split) - fear.deck
            assert total == fear.pool_size * cards_earned + fear.generated, (total, fear)
        elif fear.dividers:
            assert state.outcome is not None and state.outcome.result in ("victory",
                                                                           "sacrifice")
        else:  # Rituals of Terror: a spent fear deck does not win
            assert state.outcome is None or state.outcome.reason != "fear"


def _fear_markers(state: GameState) -> int:
    """Fear markers per player: 4, or what the adversary's level says."""
    level = level_of(state.setup)
    return level.fear_markers_per_player if level else 4


@PROPERTY_SETTINGS
@given(games)
def test_undo_after_any_accepted_command_restores_the_previous_state_and_redo_the_next(
    game: tuple[dict[str, Any], list[tuple[Any, ...]]],
) -> None:
    # The history as the rules describe it: every earlier state, and the undone ones.
    past: list[GameState] = []
    future: list[GameState] = []

    def observe(session: GameSession, step: Step) -> None:
        command = step.command
        if isinstance(command, NewGame):
            if step.accepted:
                past.clear()
                future.clear()
        elif isinstance(command, Undo):
            assert step.accepted == bool(past), step.refusal
            if step.accepted:
                assert step.after == past.pop()
                assert step.before is not None
                future.append(step.before)
        elif isinstance(command, Redo):
            assert step.accepted == bool(future), step.refusal
            if step.accepted:
                assert step.after == future.pop()
                assert step.before is not None
                past.append(step.before)
        elif step.accepted:
            assert step.before is not None and step.after is not None
            past.append(step.before)
            future.clear()
            # Probe: undo gives back exactly the state before, redo exactly the state after.
            events, _ = session.execute(Undo())
            assert session.state == step.before
            assert [ev.command for ev in events if isinstance(ev, Undone)] == [
                command_to_dict(command)]
            events, _ = session.execute(Redo())
            assert session.state == step.after
            assert [ev.command for ev in events if isinstance(ev, Redone)] == [
                command_to_dict(command)]
        assert _history(session) == (len(past), len(future))

    session, _ = play(*game, observer=observe)
    # Undo walks all the way back to the start of the game, one exact state at a time.
    while past:
        session.execute(Undo())
        assert session.state == past.pop()
    assert not session.can_undo


@PROPERTY_SETTINGS
@given(games)
def test_a_refused_command_changes_nothing(
    game: tuple[dict[str, Any], list[tuple[Any, ...]]],
) -> None:
    _, steps = play(*game)
    for step in steps:
        if step.accepted:
            assert step.refusal is None
            continue
        assert step.refusal, "a refusal says why"
        assert step.after == step.before, step
        assert step.history_after == step.history_before, step


@PROPERTY_SETTINGS
@given(games)
def test_blight_only_moves_between_card_and_island_except_when_the_card_flips(
    game: tuple[dict[str, Any], list[tuple[Any, ...]]],
) -> None:
    _, steps = play(*game)
    for step, state in _game_states(steps):
        blight = state.blight
        assert blight.on_card >= 0 and blight.on_island >= 0
        if state.setup.mode == "beginner":
            assert blight.card is None and blight.side == "healthy"
        elif blight.card is None:  # drawn face down: unknown until it flips and is named
            assert state.setup.blight_card_hidden and blight.side == "healthy"
        else:
            assert blight.card in BLIGHT_CARD_IDS
        if not state.is_over and not blight.awaiting_card:
            assert blight.on_card > 0, "taking the last blight flips the card or ends the game"
        assert blight.on_panel >= 0
        if not _slow_healing(state):
            assert blight.on_panel == 0
        else:
            assert blight.on_panel < 3 * state.setup.players, "a full panel goes to the card"
        if not (step.accepted and _is_game_action(step.command)):
            continue
        assert step.before is not None
        was = step.before.blight
        flips = [ev for ev in step.events if isinstance(ev, BlightCardFlipped)]
        assert len(flips) <= 1
        if isinstance(step.command, NextBlightCard):  # the card turned over is named
            assert was.awaiting_card and [flip.card for flip in flips] == [blight.card]
            assert blight.on_card == max(flips[0].refilled - was.owed, 0)
            continue
        assert blight.card == was.card
        if flips:
            assert (was.side, blight.side) == ("healthy", "blighted")
        else:
            assert blight.side == was.side, "a flipped card never flips back"
        added, healed = blight_moved_in(step.command)
        if not added and not healed:
            assert blight == was, step.command
            continue
        refilled = sum(flip.refilled for flip in flips)
        # Blight added during setup comes from the box, not from the card.
        from_box = added if step.before.step in ("royal_backing", "initial_explore") else 0
        # Blight taken while the players name a card is owed by that card: a negative count;
        # France 5+ keeps healed blight on its panel until it all goes back to the card.
        net = blight.on_card - blight.owed + blight.on_panel
        net_was = was.on_card - was.owed + was.on_panel
        assert (net + blight.on_island) - (net_was + was.on_island) == refilled + from_box
        if not state.is_over:
            assert blight.on_island - was.on_island == added - healed
            assert net - net_was == healed - added + refilled + from_box


@PROPERTY_SETTINGS
@given(games)
def test_replaying_the_accepted_command_log_reproduces_the_identical_final_state(
    game: tuple[dict[str, Any], list[tuple[Any, ...]]],
) -> None:
    session, steps = play(*game)
    log = [step.logged for step in steps if step.accepted and step.logged is not None]
    assert all(not isinstance(c, NewGame) or c.seed is not None for c in log), \
        "a logged new game names its seed"

    replayed = GameSession(seed_source=lambda: SEED_FROM_SHELL + 1)  # the log fixes the seed
    replayed.replay(log)
    assert replayed.state == session.state
    assert (replayed.can_undo, replayed.can_redo) == (session.can_undo, session.can_redo)

    # The log survives being written out as JSON lines and read back.
    lines = [json.dumps(command_to_dict(command)) for command in log]
    read_back = [parse_command(json.loads(line)) for line in lines]
    assert read_back == log
    from_file = GameSession(seed_source=lambda: SEED_FROM_SHELL + 2)
    from_file.replay(read_back)
    assert from_file.state == session.state


@PROPERTY_SETTINGS
@given(games)
def test_every_state_a_game_reaches_can_be_shown_as_json(
    game: tuple[dict[str, Any], list[tuple[Any, ...]]],
) -> None:
    _, steps = play(*game)
    for _, state in _game_states(steps):
        view = json.loads(json.dumps(state_view(state)))
        assert view["fear"]["pool"] + view["fear"]["generated"] == view["fear"]["pool_size"]
        assert view["invader"]["deck_count"] == len(state.invader.deck)
        assert view["blight"]["on_island"] == state.blight.on_island
        assert (view["outcome"] is None) == (state.outcome is None)


@PROPERTY_SETTINGS
@given(games, st.lists(st.sampled_from([Undo(), Redo()]), max_size=80))
def test_a_session_restored_from_its_snapshot_undoes_and_redoes_exactly_like_the_original(
    game: tuple[dict[str, Any], list[tuple[Any, ...]]], moves: list[Command],
) -> None:
    session, _ = play(*game)
    snapshot = json.loads(json.dumps(session.snapshot()))  # as the store writes it
    restored = GameSession.restore(snapshot, seed_source=lambda: SEED_FROM_SHELL + 3)
    assert restored.state == session.state
    assert (restored.undo_count, restored.redo_count) == (session.undo_count,
                                                          session.redo_count)
    for move in moves:
        original, copy = execute(session, move), execute(restored, move)
        assert (copy.accepted, copy.after) == (original.accepted, original.after)
    # All the way back to the start of the game, then forward to where the history ends.
    for move in (Undo(), Redo()):
        while True:
            original, copy = execute(session, move), execute(restored, move)
            assert (copy.accepted, copy.after) == (original.accepted, original.after)
            if not original.accepted:
                break
    assert restored.snapshot() == session.snapshot()
