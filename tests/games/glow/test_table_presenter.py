"""The words Glow's table screen and panels show, worked out without a window (the presenter
is pure Python)."""

from __future__ import annotations

from typing import Any

from companion.games.glow.ui import presenter


def test_tied_players_share_a_rank_and_the_next_rank_skips() -> None:
    assert presenter.rank_numbers([[0, 2], [1], [3]]) == {0: 1, 2: 1, 1: 3, 3: 4}


def test_the_end_line_shows_each_category_apart_with_a_negative_card_value_signed() -> None:
    end = {"track": 60, "cards": -4, "board": 5, "glowworm_bonus": 10, "trails": 3, "total": 74}
    assert presenter.end_line(end) == \
        "60 + cards -4 + board 5 + glowworms 10 + trails 3 = 74"


def test_only_players_level_on_light_shards_get_a_tie_break_line() -> None:
    players: list[dict[str, Any]] = [
        {"name": "Ada", "final": 70, "reroll_tokens": 3},
        {"name": "Bo", "final": 70, "reroll_tokens": 1},
        {"name": "Cy", "final": 50, "reroll_tokens": 5}]
    state = {"players": players, "outcome": {"ranking": [[0], [1], [2]]}}
    assert presenter.tie_break_text(state) == \
        "Ada and Bo both have 70: Ada keeps more reroll tokens (3 to 1)"
    assert presenter.tie_break_text({"players": players, "outcome": None}) == ""


def test_the_lap_and_the_rerolls_gained_today_are_shown_apart() -> None:
    player = {"lap": 1, "track_space": 4, "reroll_tokens_usable": 2,
              "reroll_tokens_gained_today": 1}
    assert presenter.lap_text(player) == "space 4, lap 2"
    assert presenter.rerolls_text(player) == "Rerolls 2\n+1 tomorrow"


def test_an_area_button_says_what_goes_with_its_companion() -> None:
    area = {"area": 2, "companion": True, "dice": 1, "trails": 2}
    assert presenter.area_action_text("pick", area) == "Area 2: recruit\n1 die · 2 trails"
    assert presenter.area_action_text("discard", area) == "Area 2: to the graveyard"
    assert presenter.area_action_text("pick", {**area, "companion": False}) == "Area 2: taken"
    assert presenter.area_action_text("dice", area) == ""


def test_the_board_line_names_the_camp_or_the_boats_islands() -> None:
    assert presenter.board_text({"board": "realm"}, {"camp": 0}) == "Camp: start space"
    sea = {"board": "sea"}
    assert presenter.board_text(sea, {"boats": [0, 0]}) == "Boats: all in the centre"
    assert presenter.board_text(sea, {"boats": [2, 0, 5], "board_value": 9}) == \
        "Boats: islands 2, 5 = 9"


def test_only_a_glow_state_is_a_glow_state() -> None:
    assert presenter.is_glow({"title": "glow"})
    assert not presenter.is_glow({"title": "spirit_island"})
    assert not presenter.is_glow(None)
