"""What each adversary level asks of the table, as data: setup checklist items and step reminders.

Setup checklist items (`Note`) and step reminders (`Reminder`) in the project's own words; facts
from ../shared/data/adversaries.md. Adversary levels are cumulative: the app collects levels
0..N, and a reminder with `replaces` hides the earlier one it names.
"""

from __future__ import annotations

from .notes import Note, Reminder

ADVERSARY_SETUP: dict[str, dict[int, tuple[Note, ...]]] = {
    "brandenburg-prussia": {
        1: (Note("brandenburg-prussia-1-fast-start", "On each board, add 1 Town to land #3."),),
        2: (Note("brandenburg-prussia-2-surge-of-colonists",
                 "When you stack the Invader deck, put one Stage III card between the Stage I "
                 "and the Stage II cards."),),
        3: (Note("brandenburg-prussia-3-efficient",
                 "Leave one more Stage I card out of the Invader deck."),),
        4: (Note("brandenburg-prussia-4-aggressive-timetable",
                 "Leave one more Stage II card out of the Invader deck."),),
        5: (Note("brandenburg-prussia-5-ruthlessly-efficient",
                 "Leave yet another Stage I card out of the Invader deck."),),
        6: (Note("brandenburg-prussia-6-terrifyingly-efficient",
                 "Leave every Stage I card out: the Invader deck starts with the moved-up Stage "
                 "III card."),),
    },
    "england": {
        2: (Note("england-2-criminals-and-malcontents",
                 "On each board, add 1 City to land #1 and 1 Town to land #2."),),
        3: (Note("england-3-high-immigration-tile",
                 "Lay the High Immigration tile just left of the Ravage space. The app adds its "
                 "Build step before every Ravage."),),
    },
    "sweden": {
        2: (Note("sweden-2-population-pressure-at-home",
                 "On each board, add 1 City to land #4. If land #4 shows Blight, put that Blight "
                 "in land #5 instead."),),
        4: (Note("sweden-4-royal-backing-discard",
                 "Once the other setup pieces are out and before the setup Explore, discard the "
                 "top Invader Card and add Towns for it; the app walks you through it at the "
                 "Royal Backing step."),),
        6: (Note("sweden-6-prospecting-outpost",
                 "On each board, add 1 Town and 1 Blight to land #8. Take that Blight from the "
                 "box, not from the Blight Card."),),
    },
    "france": {
        0: (Note("france-0-town-supply",
                 "Keep only 7 Towns per player in the supply and put the other Towns back in "
                 "the box."),),
        2: (Note("france-2-slave-rebellion-event",
                 "If you play with Events, slide the Slave Rebellion Event under the top 3 "
                 "Event Cards."),),
        3: (Note("france-3-early-plantations",
                 "On each board, add 1 Town to the highest-numbered land without a Town, and "
                 "1 Town to land #1."),),
    },
    "habsburg-livestock": {
        2: (Note("habsburg-livestock-2-rural-towns",
                 "On each board, add 1 Town to land #2 and 1 Town to the highest-numbered land "
                 "that has no setup symbols."),),
        3: (Note("habsburg-livestock-3-fast-spread",
                 "Leave one more Stage I card out of the Invader deck."),),
        5: (Note("habsburg-livestock-5-reminder-card",
                 "Before the setup Explore, tuck the Habsburg reminder card under the top 5 "
                 "Invader Cards so it is the 6th card (S in the deck order)."),),
    },
    "russia": {
        1: (Note("russia-1-beasts-and-explorers",
                 "On each board, add 1 Beasts and 1 Explorer to the highest-numbered land "
                 "without a Town or City."),),
        4: (Note("russia-4-accelerated-exploitation",
                 "When you stack the Invader deck, follow each Stage II card with one Stage III "
                 "card; the remaining Stage III cards go at the bottom."),),
        5: (Note("russia-5-invader-cards-in-fear-deck",
                 "Take one Stage II and one Stage III Invader Card left over from building the "
                 "deck. Counting only Fear Cards from the top, slip the Stage II card under the "
                 "3rd Fear Card and the Stage III card under the 7th."),),
    },
    "scotland": {
        2: (Note("scotland-2-seize-opportunity", "On each board, add 1 City to land #2."),
            Note("scotland-2-coastal-lands-card",
                 "Set the Stage II Coastal Lands card aside before picking the random Stage II "
                 "cards. It goes into the deck as the third Stage II card, where the deck order "
                 "shows C."),),
        4: (Note("scotland-4-ambition-of-a-minor-nation",
                 "Move the bottom Stage III card up into the place of the lowest Stage I card, "
                 "and put that Stage I card back in the box."),),
    },
    "habsburg-mining": {
        2: (Note("habsburg-mining-2-miners-come-from-far-and-wide",
                 "Add 1 Explorer to every land without Dahan. On each board, add 1 Disease and "
                 "1 City to the highest-numbered land whose setup symbols include a Town."),),
        4: (Note("habsburg-mining-4-untapped-salt-deposits",
                 "Take the Stage II Coastal Lands card out before picking the Stage II cards, "
                 "then put the Salt Deposits card in as the second Stage II card (S in the deck "
                 "order)."),),
        6: (Note("habsburg-mining-6-setup-explore",
                 "The Empire Ascendant already counts in the setup Explore: on boards with 3 "
                 "or fewer Blight, each land explored gets 1 more Explorer (2 lands per board "
                 "at most)."),),
    },
}

ADVERSARY_REMINDERS: dict[str, dict[int, tuple[Reminder, ...]]] = {
    "brandenburg-prussia": {},
    "england": {
        0: (Reminder("england-0-proud-and-mighty-capital",
                     "England's capital: if any land ever holds 7 or more Towns and Cities "
                     "together, you lose at once.", ("build",)),
            Reminder("england-0-capital-after-building-boom",
                     "Building Boom can bring a land to 7 Towns and Cities: check England's "
                     "loss condition once it is done.", ("escalation",), when="escalation")),
        1: (Reminder("england-1-indentured-servants-earn-land",
                     "Build cards also hit matching lands without Invaders if, before the "
                     "Build, they are next to 2 or more Towns and Cities in total.",
                     ("build",)),),
        3: (Reminder("england-3-high-immigration",
                     "Build in every land that matches the card in the High Immigration slot, "
                     "just as in the normal Build step.", ("high_immigration",)),
            Reminder("england-3-high-immigration-ends",
                     "When a Stage II card would slide onto the High Immigration slot, discard "
                     "it instead and take the tile out of the game for good.", ("advance",),
                     when="high_immigration_tile")),
        4: (Reminder("england-4-high-immigration-stays",
                     "The High Immigration tile stays all game: Stage II and III cards slide "
                     "onto it too, and the Invaders Build there each round.",
                     ("high_immigration", "advance"),
                     replaces="england-3-high-immigration-ends"),),
        5: (Reminder("england-5-local-autonomy",
                     "Towns and Cities each have 1 more Health than usual.",
                     ("fast_powers", "ravage", "slow_powers")),),
        6: (Reminder("england-6-independent-resolve",
                     "No Fear Card was resolved this Invader Phase, so do the High Immigration "
                     "Build a second time.", ("high_immigration",), when="no_fear_resolved"),),
    },
    "sweden": {
        1: (Reminder("sweden-1-heavy-mining",
                     "A Ravage that deals 6 or more Damage to a land adds 1 extra Blight there. "
                     "That extra Blight destroys no Presence and does not cascade.",
                     ("ravage",)),),
        3: (Reminder("sweden-3-fine-steel-for-tools-and-guns",
                     "Towns deal 3 Damage and Cities deal 5 Damage when they Ravage.",
                     ("ravage",)),),
        4: (Reminder("sweden-4-royal-backing",
                     "Turn over the top Invader Card and discard it. On each board, add 1 Town "
                     "to the land of that terrain with the fewest Invaders; the setup Explore "
                     "uses the next card.", ("royal_backing",)),),
        5: (Reminder("sweden-5-mining-rush",
                     "When a Ravage adds Blight to a land, also add 1 Town to a neighbouring "
                     "land without Towns or Cities. Blight from a cascade does not count.",
                     ("ravage",)),),
    },
    "france": {
        0: (Reminder("france-0-sprawling-plantations",
                     "France's Town limit: if a Town has to be placed and the supply has none "
                     "left, you lose.", ("build", "explore")),
            Reminder("france-0-towns-for-cash-crops",
                     "Demand for New Cash Crops may need Towns too: if the supply runs out of "
                     "them, you lose.", ("escalation",), when="escalation")),
        1: (Reminder("france-1-frontier-explorers",
                     "Whenever the Invaders Explore into a land that had no Town or City, add a "
                     "second Explorer there.", ("explore",)),),
        2: (Reminder("france-2-slave-labor",
                     "After the Invaders Build in a land with 2 or more Explorers, replace all "
                     "but one of those Explorers with the same number of Towns.", ("build",)),),
        4: (Reminder("france-4-triangle-trade",
                     "Each time the Invaders Build a City in a Coastal land, add 1 Town to the "
                     "neighbouring land with the fewest Towns.", ("build",)),),
        5: (Reminder("france-5-slow-healing-ecosystem",
                     "Blight taken off the island goes on the adversary panel, not the Blight "
                     "Card. Once 3 per player have piled up there, move them all back to the "
                     "Blight Card.", ("fast_powers", "slow_powers")),),
        6: (Reminder("france-6-persistent-explorers",
                     "After each Explore card, add 1 Explorer on every board to a land that has "
                     "no Explorer.", ("explore",)),
            Reminder("france-6-explorers-hold-on",
                     "Fear Cards can never remove Explorers; you may push such an Explorer "
                     "instead.", ("fear",))),
    },
    "habsburg-livestock": {
        0: (Reminder("habsburg-livestock-0-irreparable-damage",
                     "Keep a count of the Blight that leaves the Blight Card in Ravages of 8 or "
                     "more Damage to a land. Once it is higher than the number of players "
                     "({players}), you lose.",
                     ("ravage",)),),
        1: (Reminder("habsburg-livestock-1-migratory-herders",
                     "After the Build step, each land matching a Build card gathers 1 Town from "
                     "a neighbouring land that does not match, board by board and land by land. "
                     "Do this even if no Build happened.", ("build",)),),
        2: (Reminder("habsburg-livestock-2-more-rural-than-urban",
                     "When an Inland Build would add a City, add 2 Towns instead.", ("build",)),),
        4: (Reminder("habsburg-livestock-4-herds-thrive-in-verdant-lands",
                     "Towns in lands without Blight are Durable: 2 more Health. Effects that "
                     "destroy Towns deal them 2 Damage per Town instead; destroying all Towns "
                     "still works.", ("fast_powers", "ravage", "slow_powers")),),
        5: (Reminder("habsburg-livestock-5-wave-of-immigration",
                     "If the Habsburg reminder card comes up: on each board add 1 City to a "
                     "Coastal land without a City and 1 Town to each of the 3 Inland lands with "
                     "the least Blight. Then turn over the next card for this Explore.",
                     ("explore",)),),
        6: (Reminder("habsburg-livestock-6-far-flung-herds",
                     "A Ravage deals 2 more Damage in total if a neighbouring land has a Town. "
                     "Lands without Invaders still do not Ravage.", ("ravage",)),),
    },
    "russia": {
        0: (Reminder("russia-0-hunters-swarm-the-island",
                     "Beasts destroyed by Russia's rules go on the adversary panel. If the panel "
                     "ever holds more Beasts than the island, you lose.", ("ravage",)),),
        1: (Reminder("russia-1-hunters-bring-home-shell-and-hide",
                     "Explorers deal 1 more Damage. When a Ravage adds Blight to a land, "
                     "cascades included, destroy 1 Beasts there.", ("ravage",)),),
        2: (Reminder("russia-2-a-sense-for-impending-disaster",
                     "The first time each Action would destroy Explorers, push one of them "
                     "instead if you can; that earns 1 Fear.",
                     ("fast_powers", "fear", "ravage", "slow_powers")),),
        3: (Reminder("russia-3-competition-among-hunters",
                     "Ravage cards also hit every land with 3 or more Explorers, but no land "
                     "Ravages twice for the same card.", ("ravage",)),),
        5: (Reminder("russia-5-entrench-in-the-face-of-fear",
                     "If an Invader Card turns up in the fear deck, it is no Fear Card: put it "
                     "face up in the Build space at once.", ("fear",)),),
        6: (Reminder("russia-6-pressure-for-fast-profit",
                     "After the Ravage step, on each board where it added no Blight, add 1 "
                     "Explorer and 1 Town to the land with the most Explorers, if it has any.",
                     ("ravage",), when="from_round_2"),),
    },
    "scotland": {
        0: (Reminder("scotland-0-trade-hub",
                     "Scotland's trade hubs: if more Coastal lands hold a City than twice the "
                     "number of boards, you lose.", ("ravage", "build")),),
        1: (Reminder("scotland-1-trading-port",
                     "In Coastal lands, Explore adds 1 Town in place of 1 Explorer. The Coastal "
                     "Lands card does this in 2 lands per board at most.", ("explore",)),),
        3: (Reminder("scotland-3-chart-the-coastline",
                     "In Coastal lands, Build cards also hit lands without Invaders if a "
                     "neighbouring land has a City.", ("build",)),),
        5: (Reminder("scotland-5-runoff-and-bilgewater",
                     "When a Ravage adds Blight to a Coastal land, put 1 Blight from the Blight "
                     "Card in that board's Ocean too, with no cascade. The Ocean counts as a "
                     "Coastal Wetland for this and for moving or removing Blight.",
                     ("ravage",)),),
        6: (Reminder("scotland-6-exports-fuel-inward-growth",
                     "After the Ravage step, add 1 Town to every Inland land that matches a "
                     "Ravage card and is within Range 1 of a Town or City.", ("ravage",)),),
    },
    "habsburg-mining": {
        0: (Reminder("habsburg-mining-0-land-stripped-bare",
                     "At the end of the Fast Power phase, you lose if any land holds 8 or more "
                     "Invaders and Blight together.", ("fast_powers",)),),
        1: (Reminder("habsburg-mining-1-avarice-rewarded",
                     "When Blight from a Ravage would cascade, upgrade 1 Explorer or Town in "
                     "that land instead, before the Dahan fight back.", ("ravage",)),
            Reminder("habsburg-mining-1-ceaseless-mining",
                     "Lands with 3 or more Invaders are Mining lands. In the Build step, Build "
                     "cards make them Ravage instead of Build, and Disease there works on that "
                     "Ravage as on a Build.", ("ravage", "build"))),
        3: (Reminder("habsburg-mining-3-mining-boom",
                     "After the Build step, on each board pick a land with an Explorer and "
                     "upgrade 1 Explorer there.", ("build",)),),
        5: (Reminder("habsburg-mining-5-mining-boom-ii",
                     "After the Build step, on each board pick a land with an Explorer: Build "
                     "there as usual (even in a Mining land), then upgrade 1 Explorer there.",
                     ("build",), replaces="habsburg-mining-3-mining-boom"),),
        6: (Reminder("habsburg-mining-6-the-empire-ascendant",
                     "On boards with 3 or fewer Blight, each land the Invaders Explore into "
                     "gets 1 more Explorer, in 2 lands per board at most for each Explore card.",
                     ("initial_explore", "explore")),),
    },
}
