"""Small helpers that let tests say what a player does at the table."""

from __future__ import annotations

from typing import Any

from companion.core.events import Event
from companion.games.spirit_island.commands import parse_command
from companion.games.spirit_island.invader_deck import awaiting_reveal, candidates
from companion.games.spirit_island.session import GameSession
from companion.games.spirit_island.state import GameState


def new_session(**new_game: Any) -> GameSession:
    """A session with a game started; virtual deck, 2 players and seed 1 unless told otherwise."""
    session = GameSession(seed_source=lambda: 4242)
    options = {"players": 2, "seed": 1, **new_game}
    session.execute(parse_command({"cmd": "new_game", **options}))
    return session


def do(session: GameSession, cmd: str, **fields: Any) -> list[Event]:
    events, _ = session.execute(parse_command({"cmd": cmd, **fields}))
    return events


def kinds(events: list[Event]) -> list[str]:
    return [event.type for event in events]


def state(session: GameSession) -> GameState:
    assert session.state is not None
    return session.state


def advance_to(session: GameSession, step: str, max_steps: int = 200) -> None:
    """Press Done until the game reaches `step` (revealing candidates in a physical deck)."""
    for _ in range(max_steps):
        current = state(session)
        if current.step == step:
            return
        if current.step == "fear":
            while state(session).fear.earned:
                do(session, "resolve_fear")
        if awaiting_reveal(current):
            do(session, "reveal", card=candidates(current)[0])
            continue
        do(session, "next")
    raise AssertionError(f"never reached step {step!r}")


def next_until(session: GameSession, step: str) -> list[Event]:
    """Press Done until the game reaches `step` (or ends); return every event on the way."""
    collected: list[Event] = []
    while state(session).step != step and not state(session).is_over:
        collected += do(session, "next")
    return collected


def playing(**new_game: Any) -> GameSession:
    """A game (as `new_session`) carried past setup to round 1's first step: blight added
    during setup comes from the box, in play it comes off the blight card."""
    session = new_session(**new_game)
    advance_to(session, "growth")
    return session
