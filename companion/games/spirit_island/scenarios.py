"""The scenarios: difficulty, and the changes to victory, loss, decks and steps the app runs.

Facts from ../shared/data/scenarios.md. Only rules that change what the app tracks are
mechanics here; everything players do by hand is in the setup checklist and the step
reminders (`scenario_table_rules.py`). Where the data file says a detail is unverified, the app
prompts the players instead of changing the tracked state by itself.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    expansion: str
    difficulty: int
    difficulty_choices: tuple[int, ...] = ()
    """Other printed difficulties a table may pick (Second Wave is printed +/-1)."""
    victory_conditions: dict[int, str] | None = None
    """Replaces the terror-level victory conditions (keys 1-4) where given."""
    loss_condition: str | None = None
    fear_deck_victory: bool = True
    """False: earning the last fear card does not win by itself."""
    setup_blight_per_player: int = 0
    """Extra blight per player on the blight card at setup."""
    flipped_blight_per_player: int = 0
    """Change to the blight per player put on a card flipped to its Blighted Island side (a
    Still-Healthy Island side is healthy, so it keeps its printed amount)."""
    setup_errata_blight: bool = True
    """False: the blight card starts without the setup errata's extra blight (Second Wave)."""
    island_blight_per_player: int | None = None
    """Blight the island starts with per player, from the box, where a scenario says."""
    extra_invader_actions_at_setup: bool = False
    """Blitz: a Build, an Explore and an Advance follow the initial explore."""
    rituals_of_terror: bool = False
    """All fear cards shuffled without dividers; terror rises only by a ritual."""
    unused_fear_cards_under_deck: bool = False
    """Ward the Shores: every unused fear card goes under the fear deck."""
    surges: bool = False
    """Surges of Colonization: no explore in odd rounds, two explore cards in even rounds."""


SCENARIOS: dict[str, Scenario] = {s.id: s for s in (
    Scenario("blitz", "Blitz", "base", 0, setup_blight_per_player=1,
             flipped_blight_per_player=-1, extra_invader_actions_at_setup=True),
    Scenario("guard-the-isles-heart", "Guard the Isle's Heart", "base", 0,
             loss_condition="From the end of the first round on, the players lose as soon as a "
                            "Town or City stands in an Inner Land."),
    Scenario("rituals-of-terror", "Rituals of Terror", "base", 3, rituals_of_terror=True,
             fear_deck_victory=False,
             victory_conditions={4: "the third Ritual of Terror is done: you win at once"}),
    Scenario("dahan-insurrection", "Dahan Insurrection", "base", 4,
             victory_conditions={
                 1: "no victory by terror at this level: raise the terror level first",
                 2: "no land has more Towns and Cities together than Dahan",
                 3: "fewer lands than players have more Towns and Cities together than Dahan",
                 4: "the fear deck is spent: every land's Dahan strike back now; then you win "
                    "if fewer lands than players have more Towns and Cities than Dahan, and "
                    "lose otherwise (declare which)",
             },
             loss_condition="The players lose when fewer than 2 Dahan per player are left on "
                            "the island.",
             fear_deck_victory=False),
    Scenario("powers-long-forgotten", "Powers Long Forgotten", "branch-and-claw", 1),
    # The blight card is reset to 2 per player without the errata's +1 (official FAQ), and 2
    # per player stay on the island from the first game.
    Scenario("second-wave", "Second Wave", "branch-and-claw", 1, difficulty_choices=(-1,),
             setup_errata_blight=False, island_blight_per_player=2),
    Scenario("ward-the-shores", "Ward the Shores", "branch-and-claw", 2,
             victory_conditions={
                 1: "no victory by terror at this level: raise the terror level first",
                 2: "every Coastal land holds a Ward",
                 3: "every Coastal land holds a Ward",
                 4: "every Coastal land holds a Ward",
             },
             # Its victory replaces the fear victory: a spent fear deck does not win.
             fear_deck_victory=False, unused_fear_cards_under_deck=True),
    Scenario("rituals-of-the-destroying-flame", "Rituals of the Destroying Flame",
             "branch-and-claw", 3),
    Scenario("elemental-invocation", "Elemental Invocation", "jagged-earth", 1),
    Scenario("despicable-theft", "Despicable Theft", "jagged-earth", 2),
    Scenario("the-great-river", "The Great River", "jagged-earth", 3,
             loss_condition="The players lose when more than 3 Towns per player have moved off "
                            "the island onto the scenario card."),
    Scenario("varied-terrains", "Varied Terrains", "promo-pack-2", 2),
    Scenario("a-diversity-of-spirits", "A Diversity of Spirits", "promo-pack-2", 0),
    Scenario("destiny-unfolds", "Destiny Unfolds", "nature-incarnate", -1),
    Scenario("surges-of-colonization", "Surges of Colonization", "nature-incarnate", 2,
             difficulty_choices=(7,), surges=True),
)}

# Surges of Colonization played at this difficulty is its Larger Surges variant: one more fear
# card in each terror group, and one more Explore card in even rounds.
LARGER_SURGES_DIFFICULTY = 7


def larger_surges(scenario: Scenario | None, chosen_difficulty: int | None) -> bool:
    return bool(scenario and scenario.surges and chosen_difficulty == LARGER_SURGES_DIFFICULTY)


# The base game box holds 15 fear cards; Rituals of Terror and Ward the Shores use them all.
FEAR_CARDS_IN_BASE_BOX = 15
