"""The table screen's words and colours, worked out without a window."""

from __future__ import annotations

import pytest

from companion.games.spirit_island.ui import presenter
from companion.ui.palette import PALETTES, PLAYER_COLOURS, TERRAIN_COLOURS
from companion.ui.theme import (
    AA_GRAPHICS,
    AA_NORMAL_TEXT,
    GRAPHIC_PAIRS,
    TEXT_PAIRS,
    THEMES,
    contrast_ratio,
    text_colour_on,
)
from tests.table_player import Table


@pytest.mark.parametrize("theme", list(THEMES))
def test_every_text_colour_passes_wcag_aa_on_its_background(theme: str) -> None:
    colours = THEMES[theme]
    for text, background in TEXT_PAIRS:
        assert contrast_ratio(colours[text], colours[background]) >= AA_NORMAL_TEXT, \
            (theme, text, background)


@pytest.mark.parametrize("palette", PALETTES)
def test_terrain_and_player_names_are_readable_on_their_colour(palette: str) -> None:
    """In both palettes (palette.py), black or white text on every terrain's and every Glow
    player's colour reaches WCAG AA."""
    for colour in (*TERRAIN_COLOURS[palette].values(), *PLAYER_COLOURS[palette].values()):
        assert contrast_ratio(text_colour_on(colour), colour) >= AA_NORMAL_TEXT, (palette, colour)


def test_contrast_ratio_matches_the_wcag_extremes() -> None:
    assert contrast_ratio("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert contrast_ratio("#777777", "#777777") == pytest.approx(1.0)


def test_the_board_shows_each_card_with_its_terrains_by_name() -> None:
    table = Table(players=2, seed=3)
    table.do("next")
    view = presenter.table_view(table.state)
    (card,) = view.slots["build"]
    assert card.stage == "Stage I"
    assert [chip.name for chip in card.terrains] == [card.name]
    assert "high_immigration" not in view.slots


def test_england_three_adds_the_high_immigration_space() -> None:
    table = Table(players=2, adversary="england", level=3, seed=3)
    view = presenter.table_view(table.state)
    assert view.slots["high_immigration"] == ()
    assert any(line.startswith("Also lose: Proud and Mighty Capital") for line in
               view.loss_conditions)


def test_the_big_button_asks_for_what_the_step_still_needs() -> None:
    physical = Table(players=2, deck="physical", seed=3)
    assert presenter.table_view(physical.state).action.kind == "reveal"
    virtual = Table(players=2, seed=3)
    assert presenter.table_view(virtual.state).action == presenter.Action("next", "Done")


def test_announcements_name_the_fear_card_and_the_new_terror_level() -> None:
    events = [{"type": "fear_card_earned", "number": 3, "waiting": 1, "deck_left": 6},
              {"type": "terror_level_raised", "terror_level": 2,
               "victory_condition": "no towns and no cities remain on the island"},
              {"type": "fear_generated", "amount": 1}]
    lines = presenter.announcements(events, None)
    assert lines == ["Fear card earned! 1 waiting for the Fear step.",
                     "Terror rises to level II: now you win when no towns and no cities "
                     "remain on the island."]


def test_deck_counts_are_grouped_by_stage() -> None:
    assert presenter.stage_counts([1, 1, 2, 3, 3, 3]) == "I×2, II×1, III×3"
    assert presenter.stage_counts([]) == "empty"


def test_a_blight_card_named_replaces_the_banner_that_asked_for_it() -> None:
    asked = presenter.announce([{"type": "blight_card_needed", "owed": 0, "flipping": True}],
                               None)
    named = presenter.announce([{"type": "blight_card_flipped", "card": "downward-spiral",
                                 "name": "Downward Spiral", "refilled": 4, "effect": "x",
                                 "side": "blighted", "timing": "once"}], None)
    assert asked[0].kind == named[0].kind == "blight_card"


def test_undo_and_redo_lines_say_what_was_taken_back_in_a_few_words() -> None:
    undone = presenter.undo_line({"type": "undone",
                                  "command": {"cmd": "destroy", "piece": "city"}})
    assert undone is not None and undone.text == "Undone: city destroyed, +2 fear"
    redone = presenter.undo_line({"type": "redone",
                                  "command": {"cmd": "destroy", "piece": "town", "count": 3}})
    assert redone is not None and redone.text == "Redone: 3 towns destroyed, +3 fear"
    assert presenter.describe_command({"cmd": "next", "step": "build"}) == "Build finished"
    assert presenter.describe_command({"cmd": "fear_card", "card": "avoid-the-dahan"}) == \
        "Avoid the Dahan turned over"
    assert presenter.undo_line({"type": "fear_generated"}) is None


@pytest.mark.parametrize("theme", list(THEMES))
def test_every_chart_colour_stands_out_from_its_panel(theme: str) -> None:
    colours = THEMES[theme]
    for graphic, background in GRAPHIC_PAIRS:
        assert contrast_ratio(colours[graphic], colours[background]) >= AA_GRAPHICS, \
            (theme, graphic, background)


def test_the_deck_is_shown_as_runs_of_stage_pips_top_first() -> None:
    runs = presenter.stage_runs([1, 1, 2, 0, 2, 3, 3])
    assert [(run.label, run.count) for run in runs] == [
        ("I", 2), ("II", 1), ("★", 1), ("II", 1), ("III", 2)]
    assert presenter.stage_runs([]) == ()


def test_the_glance_gives_the_board_as_numbers() -> None:
    table = Table(players=2, seed=3)
    table.do("next")
    table.do("fear", amount=3)
    glance = presenter.table_view(table.state).glance
    state = table.state
    assert (glance.terror_level, glance.terror_numeral) == (1, "I")
    assert glance.victory_condition == state["victory_condition"]
    assert (glance.fear_pool, glance.fear_pool_size, glance.fear_generated) == (5, 8, 3)
    assert (glance.fear_earned, glance.fear_deck) == (0, 9)
    assert glance.terror_goal == "3 fear cards to terror II"
    assert glance.deck_count == state["invader"]["deck_count"]
    assert sum(run.count for run in glance.deck_runs) == glance.deck_count
    assert [run.label for run in glance.deck_runs] == ["I", "II", "III"]
    assert glance.discard_count == 0
    assert glance.blight_side == "healthy" and glance.blight_side_label == "Healthy"
    assert glance.blight_on_card == state["blight"]["on_card"]
    assert glance.blight_on_island == state["blight"]["on_island"]
    assert glance.fear_details[:2] == ("Terror level I", f"Victory: {state['victory_condition']}")
    assert "Fear: 5 of 8 in the pool, 3 generated" in glance.fear_details
    assert glance.deck_details[0].startswith("Deck: ")


def test_the_loss_conditions_wait_behind_the_fear_panel() -> None:
    table = Table(players=2, adversary="england", level=3, seed=3)
    details = presenter.table_view(table.state).glance.fear_details
    assert any(line.startswith("Also lose: Proud and Mighty Capital") for line in details)


def test_at_terror_level_three_the_fear_cards_count_down_to_victory() -> None:
    table = Table(players=2, seed=3)
    for _ in range(6):  # six fear cards: terror III
        table.do("fear", amount=8)
    state = table.state
    assert state["terror_level"] == 3
    view = presenter.table_view(state)
    left = state["fear"]["cards_to_next_terror_level"]
    assert view.glance.terror_numeral == "III"
    assert view.glance.terror_goal == f"{left} fear cards to victory"
    assert view.fear_next_level == f"Last terror level: {left} more fear cards win"


def test_the_victory_level_is_named_not_numbered() -> None:
    table = Table(players=1, seed=3)
    table.do("next")
    table.do("fear", amount=4 * 9)
    state = table.state
    assert state["terror_level"] == 4
    glance = presenter.table_view(state).glance
    assert glance.terror_numeral == "Victory"
    assert glance.terror_goal == ""


def test_blight_warns_when_one_player_s_worth_is_left_on_the_card() -> None:
    table = Table(players=3, seed=3)
    table.until("growth")  # blight added during setup comes from the box
    on_card = table.state["blight"]["on_card"]
    assert not presenter.table_view(table.state).glance.blight_warning
    table.do("blight", amount=on_card - 3)
    glance = presenter.table_view(table.state).glance
    assert glance.blight_on_card == 3 and glance.blight_warning


def test_france_5_s_panel_is_one_tap_away_on_the_blight_panel() -> None:
    table = Table(players=2, seed=3, adversary="france", level=5)
    table.until("growth")
    table.do("blight", amount=2)
    table.do("heal", amount=1)
    details = presenter.table_view(table.state).glance.blight_details
    assert "On the adversary panel: 1 (all back to the card at 6)" in details
