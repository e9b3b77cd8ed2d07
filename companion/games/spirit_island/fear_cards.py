"""Fear cards the tracker knows: name, box and what each card does at terror level 1, 2 and 3.

Ids, names and boxes follow ../shared/data/fear-cards.md. The effect texts are the project's own
short summaries of that file; each level is written out in full so it reads alone on screen.
"""

from __future__ import annotations

from dataclasses import dataclass

EXPANSIONS = ("base", "branch-and-claw", "jagged-earth", "promo-pack-2", "nature-incarnate")
EXPANSION_NAMES = {
    "base": "Base game",
    "branch-and-claw": "Branch & Claw",
    "jagged-earth": "Jagged Earth",
    "promo-pack-2": "Promo Pack 2",
    "nature-incarnate": "Nature Incarnate",
}

# Repeated clauses, kept in one place so cards that share a rule also share its wording.
_LESS_HEALTH = "For this turn, Invaders have 1 less Health per Strife on them (minimum 1)."
_STRIFE_TURNS_INWARD = "Then Invaders with Strife deal Damage to the other Invaders in their land."
_SACRED_SITE_ENERGY = (
    "Each Spirit also gains 1 Energy for each of its Sacred Sites in a land with Invaders."
)
_DAMAGE_SLOWS = "Invaders deal 1 less Damage for each Damage they have taken."


@dataclass(frozen=True)
class FearCard:
    id: str
    name: str
    expansion: str
    """One of EXPANSIONS."""
    effects: tuple[str, str, str]
    """What the card does at terror level 1, 2 and 3, in the project's words."""

    def effect_at(self, terror_level: int) -> str:
        """The text for a terror level; past level 3 (a won game) the level 3 text still holds."""
        if terror_level < 1:
            raise ValueError(f"terror level starts at 1, not {terror_level}")
        return self.effects[min(terror_level, 3) - 1]


def _card(card_id: str, name: str, expansion: str, one: str, two: str, three: str) -> FearCard:
    return FearCard(card_id, name, expansion, (one, two, three))


FEAR_CARDS: dict[str, FearCard] = {
    c.id: c
    for c in (
        # Base game
        _card(
            "avoid-the-dahan", "Avoid the Dahan", "base",
            "Invaders do not Explore into lands that have 2 or more Dahan.",
            "Invaders do not Build in lands where the Dahan outnumber the Towns and Cities.",
            "Invaders do not Build in any land that has Dahan.",
        ),
        _card(
            "belief-takes-root", "Belief Takes Root", "base",
            "Every land with Presence gets Defend 2.",
            f"Every land with Presence gets Defend 2. {_SACRED_SITE_ENERGY}",
            "Each player chooses a different land and removes Invaders there worth up to "
            "2 Health for each Presence in it.",
        ),
        _card(
            "dahan-enheartened", "Dahan Enheartened", "base",
            "Each player may move 1 Dahan: push it out of a land with Invaders, or gather it "
            "into one.",
            "Each player chooses a different land, gathers up to 2 Dahan into it, then deals "
            "1 Damage there if any Dahan are present.",
            "Each player chooses a different land, gathers up to 2 Dahan into it, then deals "
            "1 Damage there for each Dahan.",
        ),
        _card(
            "dahan-on-their-guard", "Dahan on their Guard", "base",
            "Each land with Dahan gets Defend 1 for every Dahan in it.",
            "Each land with Dahan gets Defend 1, plus 1 more for every Dahan in it.",
            "Each land with Dahan gets Defend 2 for every Dahan in it.",
        ),
        _card(
            "dahan-raid", "Dahan Raid", "base",
            "Each player chooses a different land with Dahan and deals 1 Damage there.",
            "Each player chooses a different land with Dahan and deals 1 Damage there for each "
            "Dahan.",
            "Each player chooses a different land with Dahan and deals 2 Damage there for each "
            "Dahan.",
        ),
        _card(
            "emigration-accelerates", "Emigration Accelerates", "base",
            "In a Coastal land, each player removes 1 Explorer.",
            "In a Coastal land, each player removes 1 Explorer or Town.",
            "In any land, each player removes 1 Explorer or Town.",
        ),
        _card(
            "fear-of-the-unseen", "Fear of the Unseen", "base",
            "Each player removes 1 Explorer or Town where there is a Sacred Site.",
            "Each player removes 1 Explorer or Town where there is Presence.",
            "Each player removes 1 Explorer or Town where there is Presence, or instead 1 City "
            "where there is a Sacred Site.",
        ),
        _card(
            "isolation", "Isolation", "base",
            "Each player removes an Explorer or Town that is the only Invader in its land.",
            "Each player removes an Explorer or Town from a land with no more than 2 Invaders.",
            "Each player removes any one Invader from a land with no more than 2 Invaders.",
        ),
        _card(
            "overseas-trade-seems-safer", "Overseas Trade Seems Safer", "base",
            "Every Coastal land gets Defend 3.",
            "Every Coastal land gets Defend 6, and no Cities are built in Coastal lands.",
            "Every Coastal land gets Defend 9, and Invaders do not Build in Coastal lands.",
        ),
        _card(
            "retreat", "Retreat!", "base",
            "Out of an Inland land, each player may push up to 2 Explorers.",
            "Out of an Inland land, each player may push up to 3 Explorers or Towns.",
            "Out of a single land, each player may push any number of Explorers and Towns.",
        ),
        _card(
            "scapegoats", "Scapegoats", "base",
            "Every Town destroys 1 Explorer in the same land.",
            "Every Town destroys 1 Explorer and every City destroys 2 Explorers in the same land.",
            "All Explorers in lands with Towns or Cities are destroyed, and every City destroys "
            "1 Town in the same land.",
        ),
        _card(
            "seek-safety", "Seek Safety", "base",
            "Each player may push 1 Explorer into a land that has more Towns and Cities than the "
            "land it left.",
            "Each player may gather one piece: an Explorer into a land with Towns or Cities, or a "
            "Town into a land with a City.",
            "Each player may remove Invaders worth up to 3 Health from a land that has no City.",
        ),
        _card(
            "tall-tales-of-savagery", "Tall Tales of Savagery", "base",
            "From a land with Dahan, each player removes 1 Explorer.",
            "From a land with Dahan, each player removes 2 Explorers or 1 Town.",
            "Every land with Dahan loses 2 Explorers or 1 Town; where there are 2 or more Dahan, "
            "1 City is removed as well.",
        ),
        _card(
            "trade-suffers", "Trade Suffers", "base",
            "Invaders do not Build in lands that have a City.",
            "In a Coastal land, each player may downgrade 1 Town, turning it into an Explorer.",
            "In a Coastal land, each player may downgrade 1 Town or City.",
        ),
        _card(
            "wary-of-the-interior", "Wary of the Interior", "base",
            "From an Inland land, each player removes 1 Explorer.",
            "From an Inland land, each player removes 1 Explorer or Town.",
            "From any land, each player removes 1 Explorer or Town.",
        ),
        # Branch & Claw
        _card(
            "dahan-attack", "Dahan Attack", "branch-and-claw",
            "From a land with Dahan, each player removes 1 Explorer.",
            "Each player chooses a different land with Dahan and deals 1 Damage there for each "
            "Dahan.",
            "Each player chooses a different land with Towns or Cities, gathers 1 Dahan into it, "
            "then deals 2 Damage there for each Dahan.",
        ),
        _card(
            "dahan-threaten", "Dahan Threaten", "branch-and-claw",
            "In a land with Dahan, each player adds 1 Strife.",
            f"In a land with Dahan, each player adds 1 Strife. {_LESS_HEALTH}",
            "In a land with Dahan, each player adds 1 Strife. Then every land with Strife takes "
            "1 Damage for each Dahan in it.",
        ),
        _card(
            "demoralized", "Demoralized", "branch-and-claw",
            "Every land gets Defend 1.",
            "Every land gets Defend 2.",
            "Every land gets Defend 3.",
        ),
        _card(
            "depart-the-dangerous-land", "Depart the Dangerous Land", "branch-and-claw",
            "From a land with Beasts, with Disease or with at least 2 Dahan, each player removes "
            "1 Explorer.",
            "From a land with Beasts, with Disease or with at least 2 Dahan, each player removes "
            "1 Explorer or Town.",
            "From a land with Beasts, with Disease or with at least 2 Dahan, each player removes "
            "Invaders worth up to 4 Health.",
        ),
        _card(
            "discord", "Discord", "branch-and-claw",
            "Each player picks a different land with 2 or more Invaders and adds 1 Strife there.",
            "Each player picks a different land with 2 or more Invaders and adds 1 Strife there. "
            "Then each Invader takes 1 Damage for each Strife it has.",
            "Each player picks a different land with 2 or more Invaders and adds 1 Strife there. "
            f"{_STRIFE_TURNS_INWARD}",
        ),
        _card(
            "explorers-are-reluctant", "Explorers are Reluctant", "branch-and-claw",
            "In the next normal Explore, the lowest-numbered land that matches is skipped on "
            "each board.",
            "The next normal Explore is skipped; in the next Invader Phase, draw one more Explore "
            "card.",
            "The next normal Explore is skipped, but its card is still revealed (with any "
            "Escalation) and the cards advance as usual.",
        ),
        _card(
            "flee-the-pestilent-land", "Flee the Pestilent Land", "branch-and-claw",
            "Each player removes 1 Explorer or Town from a land that has Disease.",
            "Each player removes either Invaders worth up to 3 Health from a land with Disease, "
            "or 1 Explorer from an Inland land.",
            "Each player removes either Invaders worth up to 5 Health from a land with Disease, "
            "or 1 Explorer or Town from an Inland land.",
        ),
        _card(
            "immigration-slows", "Immigration Slows", "branch-and-claw",
            "In the next normal Build, the lowest-numbered land that matches is skipped on each "
            "board.",
            "The next normal Build is skipped, and its card stays where it is instead of moving "
            "on.",
            "The next normal Build is skipped; the Invader cards advance as usual.",
        ),
        _card(
            "panic", "Panic", "branch-and-claw",
            "In a land with Beasts, Disease or Dahan, each player adds 1 Strife.",
            f"In a land with Beasts, Disease or Dahan, each player adds 1 Strife. {_LESS_HEALTH}",
            f"Each player adds 1 Strife to any Invader. {_LESS_HEALTH}",
        ),
        _card(
            "panicked-by-wild-beasts", "Panicked by Wild Beasts", "branch-and-claw",
            "In a land with Beasts or beside Beasts, each player adds 1 Strife.",
            "In a land with Beasts or beside Beasts, each player adds 1 Strife. Invaders do not "
            "Explore or Build normally in lands with Beasts.",
            "In a land with Beasts or beside Beasts, each player adds 1 Strife. Invaders take no "
            "normal actions in lands with Beasts.",
        ),
        _card(
            "plan-for-departure", "Plan for Departure", "branch-and-claw",
            "Each player may gather a single Town into a Coastal land.",
            "Each player may gather 1 Explorer or Town into a Coastal land. Coastal lands get "
            "Defend 2.",
            "Each player may gather up to 2 Explorers or Towns into a Coastal land. Coastal "
            "lands get Defend 4.",
        ),
        _card(
            "quarantine", "Quarantine", "branch-and-claw",
            "Invaders do not Explore into Coastal lands.",
            "Invaders do not Explore into Coastal lands, and lands with Disease cannot be the "
            "source of an Explore.",
            "Invaders do not Explore into Coastal lands, and they take no actions in lands with "
            "Disease.",
        ),
        _card(
            "too-many-monsters", "Too Many Monsters", "branch-and-claw",
            "Each player removes 1 Explorer or Town where there are Beasts.",
            "Each player removes 1 Explorer and 1 Town where there are Beasts, or else "
            "1 Explorer from a land adjacent to Beasts.",
            "Each player removes 2 Explorers and 2 Towns where there are Beasts, or else "
            "1 Explorer or Town from a land adjacent to Beasts.",
        ),
        _card(
            "tread-carefully", "Tread Carefully", "branch-and-claw",
            "Each player may choose a land that has Dahan or is next to at least 5 Dahan; "
            "Invaders do not Ravage there.",
            "Each player may choose a land that has Dahan or is next to at least 3 Dahan; "
            "Invaders do not Ravage there.",
            "Each player may choose a land that has Dahan or is next to any Dahan; Invaders do "
            "not Ravage there.",
        ),
        _card(
            "unrest", "Unrest", "branch-and-claw",
            "Each player puts 1 Strife on a Town.",
            f"Each player puts 1 Strife on a Town. {_LESS_HEALTH}",
            f"Each player puts 1 Strife on any Invader. {_LESS_HEALTH}",
        ),
        # Jagged Earth
        _card(
            "beset-by-many-troubles", "Beset by Many Troubles", "jagged-earth",
            "Every land with Badlands, Beasts, Disease, Wilds or Strife gets Defend 3.",
            "Every land that has Badlands, Beasts, Disease, Wilds or Strife, or is next to 3 or "
            "more of those tokens, gets Defend 5.",
            "Each Badlands, Beasts, Disease, Wilds or Strife token gives Defend 3 to its own land "
            "and to every adjacent land.",
        ),
        _card(
            "dahan-reclaim-fishing-grounds", "Dahan Reclaim Fishing Grounds", "jagged-earth",
            "Each player chooses a different Coastal land with Dahan and deals 1 Damage there for "
            "each Dahan.",
            "Each player chooses a different Coastal land, gathers up to 1 Dahan into it, then "
            "deals 1 Damage there for each Dahan.",
            "Each player chooses a different Coastal land, gathers up to 1 Dahan into it, then "
            "deals 2 Damage there for each Dahan.",
        ),
        _card(
            "flee-from-dangerous-lands", "Flee from Dangerous Lands", "jagged-earth",
            "Per board, 1 Explorer or Town is pushed out of a land with Badlands, Wilds or Dahan.",
            "Per board, 1 Explorer or Town is removed from a land with Badlands, Wilds or Dahan.",
            "Per board, remove 1 Explorer or Town from anywhere, or 1 City from a land with "
            "Badlands, Wilds or Dahan.",
        ),
        _card(
            "nerves-fray", "Nerves Fray", "jagged-earth",
            "In a land that does not match a Ravage card, each player adds 1 Strife.",
            "In one land that does not match a Ravage card, each player adds 2 Strife.",
            "In one land that does not match a Ravage card, each player adds 2 Strife; the "
            "players also generate 1 Fear each.",
        ),
        _card(
            "sense-of-dread", "Sense of Dread", "jagged-earth",
            "In a land that matches a Ravage card, remove 1 Explorer on each board.",
            "In a land that matches a Ravage card, remove 1 Explorer or Town on each board.",
            "In a land that matches a Ravage card, remove any 1 Invader on each board.",
        ),
        _card(
            "theological-strife", "Theological Strife", "jagged-earth",
            "In a land with Presence, each player adds 1 Strife.",
            f"In a land with Presence, each player adds 1 Strife. {_SACRED_SITE_ENERGY}",
            f"In a land with Presence, each player adds 1 Strife. {_STRIFE_TURNS_INWARD}",
        ),
        # Promo Pack 2
        _card(
            "angry-mobs", "Angry Mobs", "promo-pack-2",
            "Each player may replace 1 Town with 2 Explorers; generate 1 Fear for every player "
            "who does.",
            "In every land with 2 or more Explorers, destroy 1 Explorer or Town for every "
            "2 Explorers there.",
            "In every land with 2 or more Explorers, destroy 1 Invader for every 2 Explorers "
            "there.",
        ),
        _card(
            "communities-in-disarray", "Communities in Disarray", "promo-pack-2",
            "Cities deal 1 less Damage when they Ravage, and Invaders do not heal their Damage at "
            "the end of this turn.",
            "Towns and Cities deal 1 less Damage, and Invaders do not heal their Damage at the "
            "end of this turn.",
            "Towns and Cities deal 2 less Damage, and Invaders do not heal their Damage at the "
            "end of this turn.",
        ),
        _card(
            "depopulation", "Depopulation", "promo-pack-2",
            "On each board, 1 Town is replaced by an Explorer.",
            "On each board, 1 Town is removed.",
            "On each board, either 1 Town is removed or 1 City is replaced by a Town.",
        ),
        _card(
            "mimic-the-dahan", "Mimic the Dahan", "promo-pack-2",
            "Each player removes 1 Explorer or Town from a land that has at least 2 Dahan.",
            "In a land with at least 2 Dahan, each player replaces 1 Explorer or Town with "
            "1 Dahan.",
            "In a land that has Dahan or is next to at least 3 Dahan, each player replaces "
            "1 Explorer or Town with 1 Dahan.",
        ),
        _card(
            "spreading-timidity", "Spreading Timidity", "promo-pack-2",
            "Each player chooses a land to Isolate.",
            "Each player Isolates a different land, which also gets Defend 2.",
            "Each player Isolates a different land, which also gets Defend 4.",
        ),
        # Nature Incarnate
        _card(
            "civil-unrest", "Civil Unrest", "nature-incarnate",
            "On each board, put 1 Strife on a Town or City in a land that does not match a Ravage "
            "card.",
            "On each board, put 1 Strife on a Town or City in a land that does not match a Ravage "
            "card; every Invader in that land then takes 1 Damage for each Strife it has.",
            "On each board, add 1 Strife in any land; then every Invader takes 1 Damage for each "
            "Strife it has.",
        ),
        _card(
            "dahan-gain-the-edge", "Dahan Gain the Edge", "nature-incarnate",
            "Each player chooses a different land with Dahan; it gets Defend 2.",
            "Each player chooses a different land with Dahan, deals 1 Damage there, and it gets "
            "Defend 3.",
            "Each player chooses a different land with Dahan, deals 2 Damage there, and it gets "
            "Defend 4.",
        ),
        _card(
            "daunted-by-the-dahan", "Daunted by the Dahan", "nature-incarnate",
            "Generate 1 Fear for each board that has both Invaders and Dahan. In each land, "
            "Ravage deals 6 less Damage to the Dahan.",
            "Generate 1 Fear for each board that has both Invaders and Dahan. In each land, "
            "Ravage deals 6 less Damage to the Dahan. Lands with Dahan get Defend 3.",
            "Generate 1 Fear for each board that has both Invaders and Dahan. In each land, "
            "Ravage deals 6 less Damage to the Dahan. Every land with Dahan is Isolated.",
        ),
        _card(
            "distracted-by-local-troubles", "Distracted by Local Troubles", "nature-incarnate",
            "On each board, deal 1 Damage in a land that matches a Ravage card.",
            f"{_DAMAGE_SLOWS} On each board, deal 1 Damage to each of up to 2 Invaders in a land "
            "that matches a Ravage card.",
            f"{_DAMAGE_SLOWS} On each board, deal 2 Damage in each of two lands that match a "
            "Ravage card.",
        ),
        _card(
            "restlessness", "Restlessness", "nature-incarnate",
            "Each player pushes up to 1 Explorer or Town out of a land that does not match a "
            "Build card.",
            "Each player pushes up to 3 Explorers or Towns out of a land that does not match a "
            "Build card.",
            "Each player removes up to 3 Explorers or Towns from a land that does not match a "
            "Build card.",
        ),
        _card(
            "seek-company", "Seek Company", "nature-incarnate",
            "On each board, up to 1 Explorer is gathered into a land where 2 or more Invaders "
            "already stand.",
            "On each board, gather up to 3 Explorers or Towns from a single land into a land with "
            "at least 2 Invaders.",
            "On each board, gather up to 4 Explorers or Towns in total into lands with at least "
            "2 Invaders.",
        ),
        _card(
            "struggles-over-farmland", "Struggles over Farmland", "nature-incarnate",
            "In a land with Blight, each player adds 1 Strife.",
            "Each player adds 1 Strife, either on a Town or in a land that has Blight.",
            "Each player adds 1 Strife in any land. In every land with Blight, 1 Invader with "
            "Strife deals Damage to the other Invaders there.",
        ),
        _card(
            "supply-chains-abandoned", "Supply Chains Abandoned", "nature-incarnate",
            "Isolate 1 land on each board.",
            "Isolate 1 land on each board; if it has Towns or Cities, Invaders skip all Builds "
            "there.",
            "Isolate 2 lands on each board; Invaders skip Builds in those that have Towns or "
            "Cities.",
        ),
        _card(
            "unsettled", "Unsettled", "nature-incarnate",
            "On each board, downgrade 1 Town or City in a land with Beasts, Strife or Dahan.",
            "On each board, in a land with Beasts, Strife or Dahan, either downgrade 1 Town or "
            "City or skip the next Build there this turn.",
            "On each board, in a land with Beasts, Strife or Dahan, either remove 1 Invader or "
            "skip the next Build there this turn.",
        ),
    )
}


def fear_cards_by_expansion() -> dict[str, list[FearCard]]:
    """Expansion id -> its cards sorted by name, boxes in EXPANSIONS order, empty boxes left out."""
    groups: dict[str, list[FearCard]] = {}
    for expansion in EXPANSIONS:
        cards = sorted(
            (c for c in FEAR_CARDS.values() if c.expansion == expansion), key=lambda c: c.name
        )
        if cards:
            groups[expansion] = cards
    return groups
