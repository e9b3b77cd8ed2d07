"""The round: phases and steps in order, each with a prompt, skipping what does not apply."""

from __future__ import annotations

from companion.games.spirit_island.cards import INVADER_CARDS
from companion.games.spirit_island.session import GameSession
from companion.games.spirit_island.view import state_view
from tests.helpers import do, new_session, state

FULL_ROUND = [
    ("spirit", "growth"), ("spirit", "gain_energy"), ("spirit", "play_cards"),
    ("fast", "fast_powers"),
    ("invader", "blighted_island"), ("invader", "fear"), ("invader", "ravage"),
    ("invader", "build"), ("invader", "explore"), ("invader", "advance"),
    ("slow", "slow_powers"), ("time_passes", "time_passes"),
]


def walk_round(session: GameSession) -> list[tuple[str, str]]:
    """Complete every step of the current round; return the steps it went through."""
    start = state(session).round
    seen = []
    while state(session).round == start:
        now = state(session)
        seen.append((now.phase, now.step))
        while now.step == "fear" and state(session).fear.earned:
            do(session, "resolve_fear")
        do(session, "next")
    return seen


def test_the_first_round_skips_ravage_and_the_steps_that_do_not_apply() -> None:
    session = new_session()
    do(session, "next")
    skipped = {("invader", "blighted_island"), ("invader", "fear"), ("invader", "ravage")}
    assert walk_round(session) == [s for s in FULL_ROUND if s not in skipped]


def test_a_round_with_a_blighted_island_and_earned_fear_has_every_step() -> None:
    session = new_session(players=1)
    do(session, "next")
    walk_round(session)
    do(session, "blight", amount=3)  # flips the card
    do(session, "fear", amount=4)
    assert walk_round(session) == FULL_ROUND


def test_time_passing_starts_the_next_round() -> None:
    session = new_session()
    do(session, "next")
    for expected in (2, 3, 4):
        walk_round(session)
        assert (state(session).round, state(session).step) == (expected, "growth")


def test_every_step_tells_the_players_what_to_do() -> None:
    session = new_session(players=1)
    do(session, "next")
    do(session, "blight", amount=3)
    do(session, "fear", amount=4)
    walk_round(session)
    prompts = set()
    for _ in FULL_ROUND:
        view = state_view(state(session))
        assert len(view["prompt"]) > 20, view["step"]
        assert "{" not in view["prompt"]
        prompts.add(view["prompt"])
        while state(session).step == "fear" and state(session).fear.earned:
            do(session, "resolve_fear")
        do(session, "next")
    assert len(prompts) >= 10


def test_the_ravage_build_and_explore_prompts_name_their_lands() -> None:
    session = new_session(seed=11)
    do(session, "next")
    walk_round(session)
    while state(session).step != "ravage":
        do(session, "next")
    view = state_view(state(session))
    assert INVADER_CARDS[view["invader"]["ravage"][0]].name in view["prompt"]
