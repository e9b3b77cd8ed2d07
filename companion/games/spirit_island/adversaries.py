"""The adversaries: what each level does to the decks, the fear pool and the difficulty.

Facts from ../shared/data/adversaries.md (decided conflicts included: Brandenburg-Prussia's
levels 5 and 6 use `1-3-222-3333` and `3-222-3333`; England level 6 is difficulty 10 as the base
game's table prints it). Levels are cumulative; each row holds the totals for that level.
"""

from __future__ import annotations

from dataclasses import dataclass

# Rules of some levels that change how the app moves cards, not only the starting decks.
HIGH_IMMIGRATION = "high_immigration"
"""England 3+: an extra Build space left of Ravage (cards slide Ravage -> it -> discard)."""
HIGH_IMMIGRATION_PERMANENT = "high_immigration_permanent"
"""England 4+: the High Immigration space stays when a Stage II card reaches it."""
HIGH_IMMIGRATION_TWICE = "high_immigration_twice"
"""England 6: its build happens twice in an invader phase without a resolved fear card."""
ROYAL_BACKING = "royal_backing"
"""Sweden 4+: the top invader card is discarded at setup, before the initial explore."""
FEAR_DECK_INVADERS = "fear_deck_invaders"
"""Russia 5+: unused Stage II and III cards wait under fear cards 3 and 7; earned, they build."""
SLAVE_REBELLION = "slave_rebellion"
"""France 2+: the Slave Rebellion event goes under the top 3 event cards at setup."""
SLOW_HEALING = "slow_healing"
"""France 5+: healed blight waits on the adversary panel until 3 per player gather there."""
PROSPECTING_OUTPOST = "prospecting_outpost"
"""Sweden 6: each board's land #8 starts with 1 more blight, from the box."""

# France 5+: blight per player that gathers on the adversary panel before it all goes back.
SLOW_HEALING_PANEL_PER_PLAYER = 3

# Russia 5+: (fear cards above it, stage) for each invader card hidden in the fear deck.
FEAR_DECK_INVADER_PLACES = ((3, 2), (7, 3))


@dataclass(frozen=True)
class Level:
    difficulty: int
    fear_split: tuple[int, int, int]
    deck_order: str
    """Deck-order string; `S` marks the level's special card (see `special_card`)."""
    fear_markers_per_player: int = 4
    special_card: str | None = None
    """The card `S` stands for in the deck order (an id of cards.SPECIAL_CARDS)."""
    removed_cards: tuple[str, ...] = ()
    """Invader cards taken out of the game before the deck is built."""
    features: frozenset[str] = frozenset()
    """The card-moving rules above that this level (with the levels below it) adds."""


@dataclass(frozen=True)
class Adversary:
    id: str
    name: str
    expansion: str
    loss_condition: str | None
    """The adversary's extra way to lose, in the project's words (None: it adds none)."""
    escalation: str
    escalation_timing: str  # "before_explore" | "after_explore" | "after_advance"
    levels: tuple[Level, ...]
    """Levels 0 to 6."""


STANDARD = "111-2222-33333"


def _levels(difficulty: tuple[int, ...], fear: tuple[tuple[int, int, int], ...],
            decks: tuple[str, ...], markers: tuple[int, ...] = (4,) * 7,
            special: tuple[int, str] | None = None,
            removed: tuple[int, tuple[str, ...]] | None = None,
            features: tuple[tuple[int, str], ...] = ()) -> tuple[Level, ...]:
    """Build levels 0-6; `special`, `removed` and `features` name the level they start at."""
    rows = []
    for level, row in enumerate(zip(difficulty, fear, decks, markers, strict=True)):
        rows.append(Level(
            *row,
            special_card=special[1] if special and level >= special[0] else None,
            removed_cards=removed[1] if removed and level >= removed[0] else (),
            features=frozenset(name for start, name in features if level >= start),
        ))
    return tuple(rows)


ADVERSARIES: dict[str, Adversary] = {a.id: a for a in (
    Adversary(
        "brandenburg-prussia", "Kingdom of Brandenburg-Prussia", "base", None,
        "Land Rush: on each board with a town or city, add a town to a land of that board "
        "without one.", "before_explore",
        _levels((1, 2, 4, 6, 7, 9, 10),
                ((3, 3, 3), (3, 3, 3), (3, 3, 3), (3, 4, 3), (4, 4, 3), (4, 4, 3), (4, 4, 4)),
                (STANDARD, STANDARD, "111-3-2222-3333", "11-3-2222-3333", "11-3-222-3333",
                 "1-3-222-3333", "3-222-3333")),
    ),
    Adversary(
        "england", "Kingdom of England", "base",
        "Proud and Mighty Capital: the players lose if any land holds 7 or more towns and "
        "cities together.",
        "Building Boom: on each board with towns or cities, build in its land with the most "
        "towns and cities together.",
        "before_explore",
        _levels((1, 3, 4, 6, 7, 9, 10),
                ((3, 3, 3), (3, 4, 3), (4, 4, 3), (4, 5, 4), (4, 5, 5), (4, 5, 5), (4, 5, 4)),
                (STANDARD,) * 7,
                # Level 6 adds one fear marker per player to the pool.
                markers=(4, 4, 4, 4, 4, 4, 5),
                features=((3, HIGH_IMMIGRATION), (4, HIGH_IMMIGRATION_PERMANENT),
                          (6, HIGH_IMMIGRATION_TWICE))),
    ),
    Adversary(
        "sweden", "Kingdom of Sweden", "base", None,
        "Swayed by the Invaders: after exploring, in each land explored into this phase that "
        "now has at least as many invaders as dahan, replace one dahan with a town.",
        "after_explore",
        _levels((1, 2, 3, 5, 6, 7, 8),
                ((3, 3, 3), (3, 3, 3), (3, 4, 3), (3, 4, 3), (3, 4, 4), (4, 4, 4), (4, 4, 5)),
                (STANDARD,) * 7, features=((4, ROYAL_BACKING), (6, PROSPECTING_OUTPOST))),
    ),
    Adversary(
        "france", "Kingdom of France (Plantation Colony)", "branch-and-claw",
        "Sprawling Plantations: only 7 towns per player go into the supply; the players lose "
        "when a town must be placed and none is left.",
        "Demand for New Cash Crops: after exploring, on each board pick a land of the revealed "
        "terrain; add a blight if it has a town or city, otherwise a town.", "after_explore",
        _levels((2, 3, 5, 7, 8, 9, 10),
                ((3, 3, 3), (3, 3, 3), (3, 4, 3), (4, 4, 3), (4, 4, 4), (4, 5, 4), (4, 5, 5)),
                (STANDARD,) * 7, features=((2, SLAVE_REBELLION), (5, SLOW_HEALING))),
    ),
    Adversary(
        "habsburg-livestock", "Habsburg Monarchy (Livestock Colony)", "jagged-earth",
        "Irreparable Damage: count the blight that ravages of 8 or more damage take from the "
        "blight card; the players lose when the count exceeds the number of players.",
        "Seek Prime Territory: after exploring, each board with 4 or fewer blight gets a town in "
        "a land without town or blight; boards with 2 or fewer blight get a second one.",
        "after_explore",
        _levels((2, 3, 5, 6, 8, 9, 10),
                ((3, 3, 3), (3, 4, 3), (4, 5, 2), (4, 5, 3), (4, 5, 3), (4, 6, 3), (5, 6, 3)),
                (STANDARD, STANDARD, STANDARD, "11-2222-33333", "11-2222-33333",
                 "11-222S2-33333", "11-222S2-33333"),
                special=(5, "S-wave-of-immigration")),
    ),
    Adversary(
        "russia", "Tsardom of Russia", "jagged-earth",
        "Hunters Swarm the Island: the players lose if the adversary panel ever holds more "
        "beasts than the island.",
        "Stalk the Predators: before exploring, each board adds 2 explorers among its lands "
        "with beasts (on another board if it has none).", "before_explore",
        _levels((1, 3, 4, 6, 7, 9, 11),
                ((3, 3, 3), (3, 3, 4), (4, 3, 4), (4, 4, 3), (4, 4, 4), (4, 5, 4), (5, 5, 4)),
                (STANDARD, STANDARD, STANDARD, STANDARD, "111-2-3-2-3-2-3-2-33",
                 "111-2-3-2-3-2-3-2-33", "111-2-3-2-3-2-3-2-33"),
                features=((5, FEAR_DECK_INVADERS),)),
    ),
    Adversary(
        "scotland", "Kingdom of Scotland", "promo-pack-2",
        "Trade Hub: the players lose if more coastal lands hold a city than twice the number "
        "of boards.",
        "Ports Sprawl Outward: before exploring, on the board with the most coastal towns and "
        "cities, add a town to each of the lands with the fewest towns, one land per player.",
        "before_explore",
        _levels((1, 3, 4, 6, 7, 8, 10),
                ((3, 3, 3), (3, 4, 3), (4, 4, 3), (4, 5, 4), (5, 5, 4), (5, 6, 4), (6, 6, 4)),
                (STANDARD, STANDARD, "11-22-1-C2-33333", "11-22-1-C2-33333", "11-22-3-C2-3333",
                 "11-22-3-C2-3333", "11-22-3-C2-3333")),
    ),
    Adversary(
        "habsburg-mining", "Habsburg Mining Expedition", "nature-incarnate",
        "Land Stripped Bare: the players lose if, at the end of the fast phase, a land holds 8 "
        "or more invaders and blight together.",
        "Mining Tunnels: after advancing the invader cards, on each board explore into 2 lands "
        "whose terrain matches neither the Ravage nor the Build card (no source needed).",
        "after_advance",
        _levels((1, 3, 4, 5, 7, 9, 10),
                ((3, 3, 3), (3, 3, 3), (3, 3, 4), (3, 4, 4), (4, 4, 4), (4, 5, 4), (4, 5, 4)),
                (STANDARD, STANDARD, STANDARD, STANDARD, "111-2S22-33333", "111-2S22-33333",
                 "111-2S22-33333"),
                special=(4, "II-salt-deposits"), removed=(4, ("II-coastal",))),
    ),
)}

THEMATIC_MAP_DIFFICULTY = 3
