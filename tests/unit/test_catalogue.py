"""The fear and blight card catalogues, checked row by row against the shared data files."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from companion.games.spirit_island.blight_cards import (
    ACTIVE_BLIGHT_CARDS,
    BASE_GAME_BLIGHT_CARDS,
    BLIGHT_CARDS,
    BLIGHT_EXPANSIONS,
    blight_cards_by_expansion,
)
from companion.games.spirit_island.fear_cards import (
    EXPANSION_NAMES,
    EXPANSIONS,
    FEAR_CARDS,
    fear_cards_by_expansion,
)

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
if not DATA.is_dir():
    pytest.skip(f"{DATA} is not beside the checkout", allow_module_level=True)

EXPANSION_CODES = {
    "Base": "base",
    "B&C": "branch-and-claw",
    "Branch & Claw": "branch-and-claw",
    "Branch & Claw (retired)": "branch-and-claw",
    "JE": "jagged-earth",
    "Jagged Earth": "jagged-earth",
    "P2": "promo-pack-2",
    "NI": "nature-incarnate",
    "Nature Incarnate": "nature-incarnate",
}
TIMING_OF_WHEN = {
    "each Invader Phase (start)": "each_invader_phase",
    "each Invader Phase": "each_invader_phase",
    "immediately, once": "on_flip",
    "immediately (cards then usable every turn)": "on_flip",
    "ongoing from next turn": "ongoing",
    "ongoing, every Spirit Phase": "each_spirit_phase",
    "immediately (choice) + each Invader Phase": "on_flip_and_each_invader_phase",
    "now and each Invader Phase until replaced": "on_flip_and_each_invader_phase",
}
ALLOWED_REMINDER_STEPS = {
    "growth", "gain_energy", "play_cards", "fast_powers", "blighted_island",
    "ravage", "build", "explore", "slow_powers",
}


def card_rows(file_name: str, columns: int) -> dict[str, list[str]]:
    """The card table of a data file: id -> the other cells of its row, in column order."""
    rows: dict[str, list[str]] = {}
    for line in (DATA / file_name).read_text().splitlines():
        if not line.startswith("| `"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        assert len(cells) == columns, line
        rows[cells[0].strip("`")] = cells[1:]
    return rows


FEAR_ROWS = card_rows("fear-cards.md", 6)  # name, exp, terror 1, terror 2, terror 3
BLIGHT_ROWS = card_rows("blight-cards.md", 7)  # name, expansion, type, BPP, when, effect


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text.replace("**", "").casefold())


# Fear cards


def test_every_fear_card_of_the_data_file_is_in_the_catalogue() -> None:
    assert set(FEAR_ROWS) - set(FEAR_CARDS) == set()


def test_every_fear_card_of_the_catalogue_is_in_the_data_file() -> None:
    assert set(FEAR_CARDS) - set(FEAR_ROWS) == set()


def test_the_fear_cards_keep_the_order_of_the_data_file() -> None:
    assert list(FEAR_CARDS) == list(FEAR_ROWS)


@pytest.mark.parametrize("card_id", list(FEAR_ROWS))
def test_each_fear_card_has_the_name_and_box_of_the_data_file(card_id: str) -> None:
    name, code = FEAR_ROWS[card_id][:2]
    card = FEAR_CARDS[card_id]
    assert (card.id, card.name, card.expansion) == (card_id, name, EXPANSION_CODES[code])


def test_each_box_holds_as_many_fear_cards_as_the_data_file_counts() -> None:
    counts = Counter(card.expansion for card in FEAR_CARDS.values())
    assert counts == {"base": 15, "branch-and-claw": 15, "jagged-earth": 6,
                      "promo-pack-2": 5, "nature-incarnate": 9}


@pytest.mark.parametrize("card_id", list(FEAR_ROWS))
def test_each_fear_card_says_something_of_its_own_at_every_terror_level(card_id: str) -> None:
    card = FEAR_CARDS[card_id]
    for level, (ours, theirs) in enumerate(zip(card.effects, FEAR_ROWS[card_id][2:], strict=True),
                                           start=1):
        assert ours.strip(), (card_id, level)
        assert "…" not in ours and not ours.startswith("Same"), (card_id, level)
        assert words(ours) != words(theirs), (card_id, level)


@pytest.mark.parametrize("card_id", list(FEAR_ROWS))
def test_a_fear_card_past_terror_level_three_reads_as_at_level_three(card_id: str) -> None:
    card = FEAR_CARDS[card_id]
    assert [card.effect_at(level) for level in (1, 2, 3)] == list(card.effects)
    assert card.effect_at(4) == card.effect_at(3)


def test_there_is_no_terror_level_below_one() -> None:
    with pytest.raises(ValueError):
        FEAR_CARDS["retreat"].effect_at(0)


def test_every_fear_box_has_a_display_name() -> None:
    assert set(EXPANSION_NAMES) == set(EXPANSIONS)


def test_fear_cards_by_box_lists_every_card_once_sorted_by_name() -> None:
    groups = fear_cards_by_expansion()
    assert list(groups) == [x for x in EXPANSIONS if groups.get(x)]
    listed = [card.id for cards in groups.values() for card in cards]
    assert sorted(listed) == sorted(FEAR_CARDS)
    for expansion, cards in groups.items():
        assert cards, expansion
        assert all(card.expansion == expansion for card in cards)
        assert [card.name for card in cards] == sorted(card.name for card in cards)


# Blight cards


def test_every_blight_card_of_the_data_file_is_in_the_catalogue() -> None:
    assert set(BLIGHT_ROWS) - set(BLIGHT_CARDS) == set()


def test_every_blight_card_of_the_catalogue_is_in_the_data_file() -> None:
    assert set(BLIGHT_CARDS) - set(BLIGHT_ROWS) == set()


@pytest.mark.parametrize("card_id", list(BLIGHT_ROWS))
def test_each_blight_card_matches_the_data_file(card_id: str) -> None:
    name, code, kind, per_player, when, _ = BLIGHT_ROWS[card_id]
    card = BLIGHT_CARDS[card_id]
    assert (card.name, card.expansion) == (name, EXPANSION_CODES[code])
    assert card.blighted_per_player == int(per_player)
    assert card.still_healthy == (kind == "Still-Healthy")
    assert kind in ("Blighted", "Still-Healthy")
    assert card.timing == TIMING_OF_WHEN[when]


@pytest.mark.parametrize("card_id", list(BLIGHT_ROWS))
def test_each_blight_card_says_something_of_its_own(card_id: str) -> None:
    card = BLIGHT_CARDS[card_id]
    assert card.effect.strip()
    assert words(card.effect) != words(BLIGHT_ROWS[card_id][-1])


def test_each_box_holds_as_many_blight_cards_as_the_data_file_counts() -> None:
    counts = Counter(card.expansion for card in BLIGHT_CARDS.values())
    assert counts == {"base": 2, "branch-and-claw": 7, "jagged-earth": 7, "nature-incarnate": 8}


def test_the_base_game_blight_cards_are_the_two_of_the_core_box() -> None:
    assert BASE_GAME_BLIGHT_CARDS == ("downward-spiral", "memory-fades-to-dust")


def test_tipping_point_is_retired_and_never_active() -> None:
    assert BLIGHT_CARDS["tipping-point"].retired
    assert "tipping-point" not in ACTIVE_BLIGHT_CARDS


def test_every_other_blight_card_is_active() -> None:
    assert set(ACTIVE_BLIGHT_CARDS) == set(BLIGHT_CARDS) - {"tipping-point"}
    assert len(ACTIVE_BLIGHT_CARDS) == len(set(ACTIVE_BLIGHT_CARDS)) == 23


@pytest.mark.parametrize("card_id", list(BLIGHT_ROWS))
def test_reminders_name_only_known_steps_of_the_round(card_id: str) -> None:
    assert set(BLIGHT_CARDS[card_id].reminder_steps) <= ALLOWED_REMINDER_STEPS


@pytest.mark.parametrize(
    "card_id",
    [c.id for c in BLIGHT_CARDS.values() if c.timing in ("ongoing", "each_spirit_phase")],
)
def test_a_standing_blight_effect_is_shown_at_some_step(card_id: str) -> None:
    assert BLIGHT_CARDS[card_id].reminder_steps


@pytest.mark.parametrize("include_retired", [False, True])
def test_blight_cards_by_box_lists_every_card_once_sorted_by_name(include_retired: bool) -> None:
    groups = blight_cards_by_expansion(include_retired=include_retired)
    assert list(groups) == list(BLIGHT_EXPANSIONS)
    listed = [card.id for cards in groups.values() for card in cards]
    expected = list(BLIGHT_CARDS) if include_retired else list(ACTIVE_BLIGHT_CARDS)
    assert sorted(listed) == sorted(expected)
    for expansion, cards in groups.items():
        assert all(card.expansion == expansion for card in cards)
        assert [card.name for card in cards] == sorted(card.name for card in cards)

