"""The digest's test scenarios (shared/data/glow.md 9.4), one test per rule, and the rules of
the day around them."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.errors import Refused
from companion.games.glow import api as glow
from companion.games.glow.definition import GLOW
from companion.games.glow.dice import (
    Condition,
    black_die_loss,
    effective_faces,
    times_fired,
    trails_for_route,
)
from companion.games.glow.rerolls import track_reroll_costs

from .play import do, done, new, send, to_phase

# --- 1. setup ---------------------------------------------------------------------------------


def test_setup_puts_everyone_on_10_and_gives_the_player_right_of_the_start_player_2_rerolls(
) -> None:
    state = new(players=3, start_player=0)
    assert [p.score for p in state.players] == [10, 10, 10]
    assert [p.reroll_tokens for p in state.players] == [0, 0, 2]  # P3 sits right of P1
    assert state.deck_count == 35
    assert (state.day, state.phase) == (1, "morning")
    assert state.spell_stack == 7
    assert len(state.supply) == 5


def test_the_setup_rerolls_can_be_spent_on_the_first_day() -> None:
    state = to_phase(new(players=3, start_player=0), "late_morning")
    state = do(state, "rerolls", player=2, amount=-2)
    assert state.players[2].reroll_tokens == 0


def test_a_random_start_player_comes_from_the_seed_and_replays_the_same() -> None:
    drawn = {new(players=4, start_player=None, seed=seed).start_player for seed in range(40)}
    assert drawn == {0, 1, 2, 3}
    assert new(players=4, start_player=None, seed=7) == new(players=4, start_player=None, seed=7)


# --- 2. trail tokens pile up on an area ---------------------------------------------------------


def test_trail_tokens_pile_up_on_an_area_no_die_reaches_until_someone_recruits_there() -> None:
    state = new(players=3, start_player=0)
    state = do(state, "dice", dice=[3, 2, 0, 2, 2])  # no die on area 3 (earth, say)
    assert state.areas[2].trails == 1
    state = do(state, "pick", player=0, area=1)
    state = do(state, "pick", player=1, area=2)
    state = do(state, "pick", player=2, area=4)
    state = done(state)  # nobody picked area 3: its companion goes, its token stays
    assert state.areas[2].trails == 1 and not state.areas[2].companion
    assert len(state.graveyard) == 2
    state = to_phase(state, "evening")
    state = do(state, "dice", dice=[2, 3, 0, 2, 2])  # no returned die shows earth
    state = done(state)
    assert (state.day, state.phase) == (2, "morning")
    assert state.areas[2].trails == 2
    assert state.start_player == 1
    state = do(state, "pick", player=1, area=3)
    assert state.players[1].trails == 2 and state.areas[2].trails == 0


# --- 3. two players ---------------------------------------------------------------------------


def test_two_players_the_start_player_sends_one_more_companion_away_after_picking() -> None:
    state = new(players=2, start_player=0)
    state = do(state, "dice", dice=[2, 2, 2, 2, 1])
    state = do(state, "pick", player=0, area=2, card="glow-A02")
    assert state.needs_discard
    with pytest.raises(Refused, match="discard"):
        send(state, "pick", player=1, area=1)
    state = do(state, "discard", area=4)
    state = do(state, "pick", player=1, area=1, card="glow-A01")
    state = done(state)
    assert [len(p.companions) for p in state.players] == [1, 1]
    assert len(state.graveyard) == 3  # areas 4, 3 and 5
    assert [a.dice for a in state.areas] == [0, 0, 2, 2, 1]  # dice of areas 3-5 stay


def test_only_two_players_discard() -> None:
    state = do(new(players=3, start_player=0), "pick", player=0, area=1)
    with pytest.raises(Refused, match="only with two players"):
        send(state, "discard", area=2)


def test_companions_are_recruited_from_the_start_player_clockwise() -> None:
    state = new(players=4, start_player=2)
    assert state.pick_order == (2, 3, 0, 1)
    with pytest.raises(Refused, match="player 2's turn"):
        send(state, "pick", player=0, area=1)
    state = do(state, "pick", player=2, area=5)
    with pytest.raises(Refused, match="no companion"):
        send(state, "pick", player=3, area=5)
    assert glow.view(state)["picker"] == 3


# --- 4. score-track rerolls ---------------------------------------------------------------------


def test_a_score_track_reroll_moves_the_marker_back_to_the_next_reroll_space_below() -> None:
    state = to_phase(new(players=2, start_player=0), "late_morning")
    state = do(state, "score", player=0, amount=2)  # 12
    state = do(state, "track_reroll", player=0)
    assert state.players[0].score == 11
    state = do(state, "track_reroll", player=0)
    assert state.players[0].score == 9


def test_standing_on_a_reroll_space_gives_no_reroll_the_first_goes_to_the_next_below() -> None:
    state = to_phase(new(players=2, start_player=0), "late_morning")
    state = do(state, "score", player=0, amount=1)  # 11, a reroll space
    assert track_reroll_costs(state, 0) == [9, 7, 5]
    assert do(state, "track_reroll", player=0).players[0].score == 9


@pytest.mark.parametrize("spaces", [[0, 1, 2, 3, 4, 5, 7, 9, 11, 13, 16, 19, 22, 26, 31, 37],
                                    [3, 6], []])
def test_the_rerolls_the_view_offers_are_the_ones_track_reroll_then_takes(
        spaces: list[int]) -> None:
    """The view works the next three out on the score alone; the command moves the marker."""
    for score in range(0, 41):
        state = to_phase(new(players=2, start_player=0, reroll_spaces=spaces), "late_morning")
        if score != 10:
            state = do(state, "score", player=0, amount=score - 10)
        offered, taken = track_reroll_costs(state, 0), []
        while len(taken) < 3:
            try:
                state = do(state, "track_reroll", player=0)
            except Refused:
                break
            taken.append(state.players[0].score)
        assert offered == taken, (spaces, score)


def test_a_player_past_the_end_of_the_score_track_gets_no_track_reroll() -> None:
    state = to_phase(new(players=2, start_player=0, track_length=40,
                         reroll_spaces=[0, 1, 2, 3, 4, 5, 7, 9, 11, 13, 16, 19, 22, 26, 31, 37]),
                     "late_morning")
    state = do(state, "score", player=0, amount=35)  # 45: past space 39
    assert state.players[0].lapped
    view = glow.view(state)["players"][0]
    assert (view["lap"], view["track_space"], view["track_rerolls"]) == (1, 5, [])
    state = do(state, "score", player=0, amount=-40)  # back to 5, still lapped
    with pytest.raises(Refused, match="passed the end"):
        send(state, "track_reroll", player=0)


def test_rerolls_are_taken_only_in_the_late_morning() -> None:
    state = new(players=2, start_player=0)
    with pytest.raises(Refused, match="late morning"):
        send(state, "track_reroll", player=0)


# --- 5. three rerolls set a face ---------------------------------------------------------------


def test_three_rerolls_from_any_mix_of_sources_set_one_die_to_a_face() -> None:
    state = new(players=2, start_player=1)  # player 0 sits right of the start: 2 tokens
    state = do(state, "companion", player=0, card="glow-A18")  # Lumipili
    state = to_phase(state, "late_morning")
    state = do(state, "set_face", player=0, lumipili=1, tokens=2)
    player = state.players[0]
    assert player.companions[0].reroll_used and player.reroll_tokens == 0
    with pytest.raises(Refused, match="no Lumipili"):
        send(state, "lumipili", player=0)
    with pytest.raises(Refused, match="exactly 3"):
        send(state, "set_face", player=1, track=2)


def test_a_lumipili_reroll_comes_back_the_next_day() -> None:
    state = do(new(players=2, start_player=0), "companion", player=1, card="glow-B22")
    state = do(to_phase(state, "late_morning"), "lumipili", player=1)
    state = to_phase(state, "late_morning", day=2)
    assert state.players[1].lumipili_left == 1


# --- 6-9. noon: firing, skulls, prohibitions, the black die -----------------------------------


def test_a_condition_met_twice_with_different_dice_fires_twice() -> None:
    eoles = Condition(needs=("air", "earth"))
    assert times_fired(eoles, ("air", "air", "earth", "earth", "fire")) == 2
    state = to_phase(new(players=2, start_player=0), "noon")
    state = do(state, "score", player=0, amount=20)  # 30
    for _ in range(2):  # +2 shards and a glowworm each time
        state = do(state, "score", player=0, amount=2)
        state = do(state, "glowworms", player=0, amount=1)
    assert (state.players[0].score, state.players[0].glowworm_tokens) == (34, 2)


def test_a_skull_fires_once_and_the_sketal_takes_its_die_home() -> None:
    sketal = Condition(needs=("earth", "earth"), once=True)
    assert times_fired(sketal, ("earth",) * 4) == 1
    state = do(new(players=2, start_player=0), "companion", player=0, card="glow-A15")
    assert state.players[0].companions[0].sketal_die == "green"
    assert "green" not in state.supply
    state = to_phase(state, "noon")
    state = do(state, "score", player=0, amount=2)
    state, events = send(state, "companion", player=0, card="glow-A15", remove=True)
    assert state.players[0].score == 12
    assert state.graveyard[-1] == "glow-A15" and not state.players[0].companions
    assert "green" in state.supply
    assert events[0].to_dict()["die"] == "green"


def test_a_sketal_finds_no_die_when_the_supply_has_none_of_its_colour() -> None:
    state = do(new(players=2, start_player=0), "companion", player=0, card="glow-B21",
               die="green")  # the many-coloured one takes green
    state = do(state, "companion", player=1, card="glow-A15")
    assert state.players[1].companions[0].sketal_die is None


def test_a_prohibition_fires_once_and_its_reroll_token_waits_for_tomorrow() -> None:
    donillilu = Condition(absent=("water",))
    assert times_fired(donillilu, ("fire", "air", "earth")) == 1
    assert times_fired(donillilu, ("water", "air")) == 0
    state = to_phase(new(players=3, start_player=0), "noon")
    state = do(state, "score", player=0, amount=2)
    state = do(state, "rerolls", player=0, amount=1)
    assert (state.players[0].reroll_tokens, state.players[0].gained_today) == (1, 1)
    state = done(state)  # afternoon
    with pytest.raises(Refused):
        send(state, "rerolls", player=0, amount=-1)
    state = to_phase(state, "late_morning", day=2)
    state = do(state, "rerolls", player=0, amount=-1)
    assert state.players[0].reroll_tokens == 0


def test_a_token_gained_today_cannot_be_spent_today() -> None:
    state = to_phase(new(players=3, start_player=0), "late_morning")
    state = do(state, "rerolls", player=0, amount=1)
    with pytest.raises(Refused, match="1 gained today can be used from tomorrow"):
        send(state, "rerolls", player=0, amount=-1)


def test_the_black_die_cancels_its_element_and_costs_2_on_its_minus_face() -> None:
    two_fire = Condition(needs=("fire", "fire"))
    rolled = ("fire", "fire", "water")
    assert times_fired(two_fire, effective_faces(rolled + ("fire",), "fire", immune=False)) == 0
    assert times_fired(two_fire, effective_faces(rolled, "fire", immune=True)) == 1
    assert black_die_loss("minus2", immune=False) == 2
    assert black_die_loss("minus2", immune=True) == 0
    state = do(new(players=3, start_player=0), "companion", player=0, card="glow-A20")  # Kaar
    assert state.black_die and state.kaar_owner == 0
    state = do(to_phase(state, "noon"), "score", player=1, amount=-2)
    assert state.players[1].score == 8


def test_a_kaar_in_the_graveyard_protects_nobody_but_the_black_die_stays() -> None:
    # "Besitzt du Kaar" (002:591): the owner is whoever holds Kaar now.
    state = do(new(players=3, start_player=0), "companion", player=0, card="glow-A20")
    state = do(state, "companion", player=0, card="glow-A20", remove=True)
    assert state.black_die and state.kaar_owner is None


# --- 10-12. end scoring -----------------------------------------------------------------------


def over(players: int = 2, board: str = "realm") -> glow.State:
    return new(players=players, board=board, start_player=0, mode="scoring")


def test_the_rulebook_s_scoring_example_ends_on_72() -> None:
    state = over()
    state = do(state, "end_score", player=0, score=60, cards=5 - 1, board=5, glowworms=3,
               companions=7, trails=3)
    final = state.players[0].final
    assert final is not None and (final.bonus, final.total) == (0, 72)


def test_glowworms_exactly_as_many_as_companions_give_10() -> None:
    state = new(players=2, start_player=0)
    for card in ("glow-A01", "glow-A02", "glow-A03", "glow-A07", "glow-A08", "glow-A09"):
        state = do(state, "companion", player=0, card=card)  # Likyar shows 2 glowworms
    state = do(state, "glowworms", player=0, amount=4)
    assert glow.view(state)["players"][0]["glowworm_threshold"]["text"] == (
        "glowworms 6 / companions 6")
    state = to_phase(state, "over")
    suggested = glow.view(state)["players"][0]["end_suggested"]
    state = do(state, "end_score", player=0, **suggested)
    final = state.players[0].final
    assert final is not None and final.bonus == 10
    state = do(state, "end_score", player=0, **{**suggested, "glowworms": 5})
    assert state.players[0].final is not None and state.players[0].final.bonus == 0


def test_a_tie_goes_to_the_most_reroll_tokens_and_then_the_rank_is_shared() -> None:
    scores = {"cards": 0, "board": 0, "glowworms": 0, "companions": 1, "trails": 0}
    state = do(over(3), "end_score", player=0, score=85, reroll_tokens=1, **scores)
    state = do(state, "end_score", player=1, score=85, reroll_tokens=2, **scores)
    state = do(state, "end_score", player=2, score=40, **scores)
    assert state.ranking == ((1,), (0,), (2,))
    state = do(state, "end_score", player=1, score=85, reroll_tokens=1, **scores)
    assert state.ranking == ((0, 1), (2,))
    assert glow.view(state)["outcome"] == {"ranking": [[0, 1], [2]]}
    assert glow.view(state)["prompt"]["id"] == "glow-prompt-result-shared"
    assert GLOW.summary(state) | {"rounds": 8} == {
        "status": "finished", "players": 3, "rounds": 8, "mode": "scoring",
        "result": "Player 1, Player 2", "reason": "shared", "score": 85 + 0 + 0 + 0 + 0,
        "board": "realm", "standings": [  # the history's details: every final score by rank
            {"rank": 1, "player": 0, "name": None, "score": 85},
            {"rank": 1, "player": 1, "name": None, "score": 85},
            {"rank": 2, "player": 2, "name": None, "score": 40}]}


def test_scoring_mode_knows_no_reroll_tokens_and_asks_for_them_only_on_a_tie() -> None:
    # A game played without the app: the setup's 2 tokens of the last player are not known
    # to be there at the end, so they decide nothing; a tie waits for the tied players'.
    scores = {"cards": 0, "board": 0, "glowworms": 0, "companions": 1, "trails": 0}
    state = over(3)
    assert [p["reroll_tokens_known"] for p in glow.view(state)["players"]] == [False] * 3
    state = do(state, "end_score", player=0, score=85, **scores)
    state = do(state, "end_score", player=1, score=85, **scores)  # the one given 2 at setup
    state = do(state, "end_score", player=2, score=40, **scores)
    view = glow.view(state)
    assert state.ranking is None and view["outcome"] is None
    assert view["reroll_tokens_needed"] == [0, 1]  # not player 2: no tie there
    assert view["prompt"]["id"] == "glow-prompt-tie-rerolls"
    assert view["prompt"]["values"] == {"players": "Player 1 and Player 2"}
    state = do(state, "end_score", player=0, score=85, reroll_tokens=0, **scores)
    assert state.ranking is None and glow.view(state)["reroll_tokens_needed"] == [1]
    state = do(state, "end_score", player=1, score=85, reroll_tokens=0, **scores)
    assert state.ranking == ((0, 1), (2,))  # 0 against 0 entered: a shared rank
    assert [p["reroll_tokens_known"] for p in glow.view(state)["players"]] == [
        True, True, False]


def test_scoring_mode_without_a_tie_never_asks_for_reroll_tokens() -> None:
    scores = {"cards": 0, "board": 0, "glowworms": 0, "companions": 1, "trails": 0}
    state = over(2)
    state = do(state, "end_score", player=0, score=50, **scores)
    state = do(state, "end_score", player=1, score=60, **scores)
    assert state.ranking == ((1,), (0,))
    assert glow.view(state)["reroll_tokens_needed"] == []


def test_a_game_played_with_the_app_breaks_a_tie_with_the_tokens_it_tracked() -> None:
    scores = {"cards": 0, "board": 0, "glowworms": 0, "companions": 1, "trails": 0}
    state = to_phase(new(players=2, start_player=0), "over")
    state = do(state, "end_score", player=0, **scores)
    state = do(state, "end_score", player=1, **scores)
    assert state.ranking == ((1,), (0,))  # the 2 tokens of the setup, tracked all game


def test_scoring_mode_needs_the_track_score() -> None:
    with pytest.raises(Refused, match="score"):
        send(over(), "end_score", player=0, cards=0, board=0, glowworms=0, companions=0,
             trails=0)


def test_the_end_scoring_waits_for_the_game_s_end() -> None:
    with pytest.raises(Refused, match="after day 8"):
        send(new(), "end_score", player=0, cards=0, board=0, glowworms=0, companions=0, trails=0)


# --- 13. the game's end -----------------------------------------------------------------------


def test_the_game_ends_at_the_evening_of_day_8_when_the_deck_is_empty() -> None:
    state = new(players=3, start_player=0)
    assert state.deck_count == 35
    state = to_phase(state, "morning", day=8)
    assert state.deck_count == 0
    state = to_phase(state, "evening", day=8)
    assert glow.view(state)["prompt"]["id"] == "glow-prompt-evening-last"
    state = done(state)
    assert (state.day, state.phase) == (8, "over")
    with pytest.raises(Refused, match="over"):
        send(state, "next")
    with pytest.raises(Refused, match="end_score"):
        send(state, "score", player=0, amount=1)


def test_the_start_marker_passes_left_each_evening() -> None:
    state = new(players=4, start_player=3)
    starts = []
    for day in range(1, 6):
        state = to_phase(state, "morning", day=day)
        starts.append(state.start_player)
    assert starts == [3, 0, 1, 2, 3]


# --- 14. Sea of Darkness routes ---------------------------------------------------------------


def test_a_route_needs_exactly_its_count_of_elements_and_trails_fill_only_missing_ones() -> None:
    assert trails_for_route(2, (3,), trails=0) is None
    assert trails_for_route(2, (3,), trails=1) == 1
    assert trails_for_route(2, (1,), trails=5) is None
    assert trails_for_route(2, (1, 2), trails=0) == 0
    state = do(new(players=2, board="sea", start_player=0), "trails", player=0, amount=1)
    state = to_phase(state, "afternoon")
    with pytest.raises(Refused, match="exactly 1"):
        send(state, "boat", player=0, boat=0, island=1, elements=2, route=[1])
    state = do(state, "boat", player=0, boat=0, island=3, elements=2, route=[3])
    assert state.players[0].boats == (3, 0, 0, 0) and state.players[0].trails == 0


def test_never_two_of_your_own_boats_on_one_island_but_all_start_in_the_centre() -> None:
    state = to_phase(new(players=2, board="sea", start_player=0), "afternoon")
    state = do(state, "boat", player=0, boat=0, island=9)
    with pytest.raises(Refused, match="already has a boat on island 9"):
        send(state, "boat", player=0, boat=1, island=9, correction=True)
    state = do(state, "boat", player=1, boat=0, island=9)  # another player's boat may share
    state = do(state, "boat", player=0, boat=1, island=4, correction=True)
    assert glow.view(state)["players"][0]["board_value"] == 8 + 5


def test_the_camp_scores_the_village_it_stands_in() -> None:
    state = do(to_phase(new(players=2, start_player=0), "afternoon"), "camp", player=1,
               value=15)
    assert glow.view(state)["players"][1]["end_suggested"]["board"] == 15
    with pytest.raises(Refused, match="no village is worth 4"):
        send(state, "camp", player=1, value=4)
    with pytest.raises(Refused, match="Realm of Shadows"):
        send(new(players=2, board="sea"), "camp", player=0, value=5)


# --- the day's gates and corrections ---------------------------------------------------------


@pytest.mark.parametrize(("phase", "following"), [("noon", "afternoon"),
                                                  ("afternoon", "evening")])
def test_a_plain_next_finishes_noon_and_afternoon_and_confirm_is_accepted_and_ignored(
        phase: str, following: str) -> None:
    # The contract of issue 19: `next` finishes the current phase. "Nothing forgotten?" is
    # the screen's question (the view's gate), asked before the screen sends `next`.
    state = to_phase(new(), phase)
    assert glow.view(state)["gate"]["id"] == f"glow-gate-{phase}"
    plain, plain_events = send(state, "next")
    confirmed, confirmed_events = send(state, "next", confirm=True)
    assert plain.phase == following
    assert plain == confirmed and plain_events == confirmed_events


def test_a_second_tap_meant_for_a_finished_phase_changes_nothing() -> None:
    state = do(new(), "next", phase="morning")
    with pytest.raises(Refused, match="already"):
        send(state, "next", phase="morning")


def test_the_score_never_goes_below_space_0() -> None:
    state, events = send(new(), "score", player=0, amount=-15)
    assert state.players[0].score == 0 and events[0].to_dict()["by"] == -10


def test_corrected_board_numbers_replace_the_unverified_ones() -> None:
    state = new(track_length=50, reroll_spaces=[0, 5, 10], village_values=[2, 4])
    numbers = state.setup.numbers
    assert (numbers.track_length, numbers.reroll_spaces, numbers.village_values) == (
        50, (0, 5, 10), (2, 4))
    with pytest.raises(Refused, match="beyond"):
        new(track_length=20, reroll_spaces=[0, 30])
    assert {entry["numbers"] for entry in glow.view(state)["unverified"]} >= {
        "score_track", "realm", "sea", "companions"}


def test_a_companion_fetched_from_the_graveyard_leaves_it_and_becomes_the_newest() -> None:
    state = do(new(players=2, start_player=0), "companion", player=1, card="glow-A11")
    state = do(state, "companion", player=1, card="glow-B18")  # Cromaug
    state = do(state, "companion", player=1, card="glow-A11", remove=True)
    state = do(state, "companion", player=1, card="glow-B18", remove=True)
    assert state.graveyard == ("glow-A11", "glow-B18")
    state = do(state, "companion", player=0, card="glow-A11")
    assert state.graveyard == ("glow-B18",)
    assert [comp.card for comp in state.players[0].companions] == ["glow-A11"]
    with pytest.raises(Refused, match="already in player 0's row"):
        send(state, "companion", player=1, card="glow-A11")


def asks_to_enter(view: dict[str, Any]) -> bool:
    """The prompt or a reminder asks the players to enter something."""
    texts = [view["prompt"]["text"], *(r["text"] for r in view["reminders"])]
    return any("enter" in text.lower() for text in texts)


def test_every_step_that_asks_for_a_number_says_which_control_answers_it() -> None:
    # The table shows a control for each thing a prompt asks to enter: the dice per area
    # (dice_wanted), the end scoring (phase over) and the tie's reroll tokens
    # (reroll_tokens_needed). A prompt asking for something else would have none.
    state = new(players=2, start_player=0)
    seen = set()
    for _ in range(80):
        view = glow.view(state)
        answered = bool(view["dice_wanted"]) or view["phase"] == "over"
        assert asks_to_enter(view) == answered, (view["day"], view["phase"],
                                                 view["prompt"]["text"])
        seen.add((view["phase"], bool(view["dice_wanted"])))
        if view["phase"] == "over":
            break
        if view["dice_wanted"]:
            state = do(state, "dice", dice=[2, 2, 2, 2, 1])
            assert not glow.view(state)["dice_wanted"]
            continue
        state = done(state)
    assert {("morning", True), ("evening", True), ("evening", False), ("over", False)} <= seen
    scores = {"cards": 0, "board": 0, "glowworms": 0, "companions": 1, "trails": 0}
    state = over(2)
    state = do(state, "end_score", player=0, score=50, **scores)
    state = do(state, "end_score", player=1, score=50, **scores)
    view = glow.view(state)
    assert asks_to_enter(view) and view["reroll_tokens_needed"] == [0, 1]
