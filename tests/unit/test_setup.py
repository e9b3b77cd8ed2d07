"""Setting up a game: players, modes, the invader deck, fear pool and blight."""

from __future__ import annotations

import pytest

from companion.core.errors import Refused
from companion.games.spirit_island.cards import INVADER_CARDS, parse_deck_order
from tests.helpers import do, new_session, state


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_the_fear_pool_holds_four_markers_per_player(players: int) -> None:
    fear = state(new_session(players=players)).fear
    assert (fear.pool, fear.generated, fear.pool_size) == (4 * players, 0, 4 * players)


@pytest.mark.parametrize("players", [0, 7, -1])
def test_a_game_is_for_one_to_six_players(players: int) -> None:
    with pytest.raises(Refused, match="players must be between 1 and 6"):
        new_session(players=players)


def test_the_standard_deck_stacks_three_stage_i_over_four_stage_ii_over_five_stage_iii() -> None:
    track = state(new_session()).invader
    # The initial explore has already taken the top (Stage I) card.
    assert [e.stage for e in track.deck] == [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3]
    assert INVADER_CARDS[track.explore[0]].stage == 1


def test_one_card_of_each_stage_is_set_aside_unseen() -> None:
    track = state(new_session()).invader
    assert sorted(INVADER_CARDS[card].stage for card in track.set_aside) == [1, 2, 3]
    in_play = [e.card for e in track.deck] + list(track.explore)
    assert not set(track.set_aside) & set(in_play)
    assert sorted(in_play + list(track.set_aside)) == sorted(INVADER_CARDS)


def test_the_same_seed_deals_the_same_deck_and_another_seed_another() -> None:
    def deal(seed: int) -> list[str | None]:
        return [e.card for e in state(new_session(seed=seed)).invader.deck]

    assert deal(5) == deal(5)
    assert any(deal(5) != deal(seed) for seed in range(6, 12))


def test_every_stage_ii_card_but_coastal_lands_carries_the_escalation_flag() -> None:
    flagged = {cid for cid, card in INVADER_CARDS.items() if card.escalation}
    assert flagged == {"II-jungle", "II-mountain", "II-sands", "II-wetland"}


def test_stage_iii_cards_name_two_terrains() -> None:
    assert INVADER_CARDS["III-mountain-sands"].terrains == ("mountain", "sands")
    assert all(len(c.terrains) == 2 for c in INVADER_CARDS.values() if c.stage == 3)


def test_the_deck_builder_reads_adversary_deck_orders() -> None:
    entries = parse_deck_order("11-22-1-C2-33333")
    assert [e.stage for e in entries] == [1, 1, 2, 2, 1, 2, 2, 3, 3, 3, 3, 3]
    assert entries[5].card == "II-coastal"
    session = new_session(deck_order="11-22-1-C2-33333", seed=3)
    deck = state(session).invader.deck
    assert deck[4].card == "II-coastal"  # the top card went to the initial explore
    assert [e.card for e in deck].count("II-coastal") == 1


@pytest.mark.parametrize(
    ("order", "reason"),
    [("", "names no cards"), ("11x", "has 'x'"), ("11111", "needs 5 Stage I"),
     ("C-C", "same fixed card twice")],
)
def test_a_deck_order_that_cannot_be_dealt_is_refused(order: str, reason: str) -> None:
    with pytest.raises(Refused, match=reason):
        new_session(deck_order=order)


def test_setup_ends_with_the_initial_explore_laying_the_card_on_build() -> None:
    session = new_session()
    at_setup = state(session)
    assert (at_setup.round, at_setup.phase, at_setup.step) == (0, "setup", "initial_explore")
    top = at_setup.invader.explore[0]
    do(session, "next")
    after = state(session)
    assert after.invader.build == (top,) and after.invader.explore == ()
    assert (after.round, after.phase, after.step) == (1, "spirit", "growth")


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_an_advanced_game_puts_two_blight_per_player_plus_one_on_the_healthy_card(
    players: int,
) -> None:
    blight = state(new_session(players=players, mode="advanced")).blight
    assert (blight.side, blight.on_card) == ("healthy", 2 * players + 1)


@pytest.mark.parametrize("players", [1, 2, 4])
def test_a_beginner_game_uses_five_blight_per_player_plus_one_and_no_card(players: int) -> None:
    blight = state(new_session(players=players, mode="beginner")).blight
    assert (blight.card, blight.on_card) == (None, 5 * players + 1)


def test_a_blight_card_is_drawn_from_the_base_game_when_none_is_named() -> None:
    drawn = {state(new_session(seed=seed)).blight.card for seed in range(20)}
    assert drawn == {"downward-spiral", "memory-fades-to-dust"}


def test_a_named_blight_card_is_used() -> None:
    assert state(new_session(blight_card="memory-fades-to-dust")).blight.card == \
        "memory-fades-to-dust"


def test_a_beginner_game_refuses_a_blight_card() -> None:
    with pytest.raises(Refused, match="beginner game"):
        new_session(mode="beginner", blight_card="downward-spiral")


def test_an_unknown_blight_card_is_refused_with_the_known_ones() -> None:
    with pytest.raises(Refused, match="downward-spiral"):
        new_session(blight_card="tipping-the-scales")


def test_the_island_starts_with_one_blight_per_board_from_the_box() -> None:
    assert state(new_session(players=3)).blight.on_island == 3
    assert state(new_session(players=3, island_blight=0)).blight.on_island == 0
