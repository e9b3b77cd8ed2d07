"""Adversaries and their levels: decks, fear, difficulty, checked against the data file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.core.errors import Refused
from companion.games.spirit_island.adversaries import ADVERSARIES
from companion.games.spirit_island.cards import parse_deck_order
from companion.games.spirit_island.view import state_view
from tests.helpers import do, new_session, state

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "adversaries.md"


def table(title: str) -> dict[str, list[str]]:
    """The rows of one summary table in the data file: adversary id -> cells for L0..L6."""
    if not DATA.exists():
        pytest.skip(f"{DATA} is not beside the checkout")
    text = DATA.read_text()
    section = text[text.index(title):]
    rows: dict[str, list[str]] = {}
    for line in section.splitlines()[1:]:
        if rows and not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if cells[0] in ADVERSARIES:
            rows[cells[0]] = cells[1:8]
    assert len(rows) == 8, title
    return rows


def deck_cells(cells: list[str]) -> list[str]:
    orders: list[str] = []
    for cell in cells:
        same_as = re.match(r"same as L(\d)", cell)
        if same_as:
            orders.append(orders[int(same_as.group(1))])
        elif cell.startswith("same"):
            orders.append(orders[-1])
        else:
            found = re.match(r"[0-9CS-]+", cell)
            assert found, cell
            orders.append(found.group(0))
    return orders


LEVELS = [(a, level) for a in ADVERSARIES for level in range(7)]


@pytest.mark.parametrize(("adversary", "level"), LEVELS)
def test_each_level_has_the_difficulty_of_the_data_file(adversary: str, level: int) -> None:
    expected = int(re.match(r"\d+", table("### Difficulty by level")[adversary][level])
                   .group(0))  # type: ignore[union-attr]
    assert ADVERSARIES[adversary].levels[level].difficulty == expected


@pytest.mark.parametrize(("adversary", "level"), LEVELS)
def test_each_level_splits_the_fear_deck_as_the_data_file_says(adversary: str,
                                                               level: int) -> None:
    cell = table("### Fear cards by level")[adversary][level]
    total, top, middle, bottom = map(int, re.match(r"(\d+) \((\d+)/(\d+)/(\d+)\)", cell)
                                     .groups())  # type: ignore[union-attr]
    split = ADVERSARIES[adversary].levels[level].fear_split
    assert split == (top, middle, bottom) and sum(split) == total


@pytest.mark.parametrize(("adversary", "level"), LEVELS)
def test_each_level_stacks_the_invader_deck_as_the_data_file_says(adversary: str,
                                                                  level: int) -> None:
    orders = deck_cells(table("### Invader deck by level")[adversary])
    order = ADVERSARIES[adversary].levels[level].deck_order
    assert order == orders[level]
    if "S" not in order:
        parse_deck_order(order)


@pytest.mark.parametrize(("adversary", "level"),
                         [(a, lv) for a, lv in LEVELS
                          if "S" not in ADVERSARIES[a].levels[lv].deck_order])
def test_a_game_against_an_adversary_uses_its_level_for_deck_fear_and_difficulty(
    adversary: str, level: int,
) -> None:
    rules = ADVERSARIES[adversary].levels[level]
    session = new_session(players=3, adversary=adversary, level=level)
    now = state(session)
    stages = [e.stage for e in parse_deck_order(rules.deck_order)]
    assert [e.stage for e in now.invader.deck] == stages[1:]  # the top card was explored
    assert now.fear.split == rules.fear_split and now.fear.deck == sum(rules.fear_split)
    assert now.fear.pool_size == 3 * rules.fear_markers_per_player
    assert now.setup.difficulty == rules.difficulty
    view = state_view(now)
    assert view["adversary"]["id"] == adversary and view["adversary"]["level"] == level
    assert view["difficulty"] == rules.difficulty


def test_england_level_6_adds_a_fear_marker_per_player() -> None:
    assert state(new_session(players=2, adversary="england", level=6)).fear.pool_size == 10
    assert state(new_session(players=2, adversary="england", level=5)).fear.pool_size == 8


def test_the_thematic_map_adds_3_to_the_difficulty() -> None:
    assert state(new_session(thematic=True)).setup.difficulty == 3
    assert state(new_session(adversary="sweden", level=2, thematic=True)).setup.difficulty == 6


def test_an_adversary_without_a_level_plays_level_0() -> None:
    session = new_session(adversary="brandenburg-prussia")
    assert state(session).setup.level == 0 and state(session).setup.difficulty == 1


def test_an_unknown_adversary_is_refused_with_the_valid_ids() -> None:
    with pytest.raises(Refused, match="brandenburg-prussia, england, sweden"):
        new_session(adversary="spain")


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(Refused, match="level must be between 0 and 6"):
        new_session(adversary="england", level=7)


def test_a_level_without_an_adversary_is_refused() -> None:
    with pytest.raises(Refused, match="a level needs an adversary"):
        new_session(level=3)


def test_a_victory_against_an_adversary_scores_its_difficulty() -> None:
    session = new_session(players=2, adversary="brandenburg-prussia", level=6, island_blight=0)
    do(session, "declare", result="victory")
    do(session, "score", dahan=0, blight_on_island=0)
    # 5 x 10 + 10 + 2 per card in the deck (8 dealt, one explored)
    assert state(session).outcome is not None and state(session).outcome.score == 50 + 10 + 14


def test_special_cards_sit_at_their_fixed_places_in_the_deck() -> None:
    mining = state(new_session(adversary="habsburg-mining", level=4))
    # The initial explore took the top Stage I card; Salt Deposits is the 2nd Stage II card.
    assert [entry.card for entry in mining.invader.deck][3] == "II-salt-deposits"
    assert "II-coastal" in mining.invader.removed
    livestock = state(new_session(adversary="habsburg-livestock", level=5))
    assert [entry.card for entry in livestock.invader.deck][4] == "S-wave-of-immigration"
