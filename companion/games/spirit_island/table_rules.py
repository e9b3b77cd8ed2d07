"""What the base game, each adversary level and each scenario ask of the table, as data.

Setup checklist items (`Note`) and step reminders (`Reminder`) in the project's own words; facts
from ../shared/data/adversaries.md and scenarios.md. Adversary levels are cumulative: the app
collects levels 0..N, and a reminder with `replaces` hides the earlier one it names.
"""

from __future__ import annotations

from .notes import Note, Reminder

# Everything the app tracks itself (fear deck split, fear pool, Blight count, deck order) reaches
# the players through the placeholders, so the texts never repeat those numbers by hand.
BASE_SETUP: tuple[Note, ...] = (
    Note("base-island-boards",
         "Take {players} island boards at random and fit them together into one island."),
    Note("base-printed-pieces",
         "Put out the pieces each land's symbols show: Dahan, Blight, Explorers, Towns and "
         "Cities. Keep the rest of the pieces and the Energy tokens where everyone can reach."),
    Note("base-spirits",
         "Each player chooses a Spirit and a colour, and takes its panel, its 4 Unique Power "
         "Cards and every Presence and marker of that colour."),
    Note("base-presence",
         "Each player begins on a board of their own and sets up as the back of their Spirit "
         "panel says, extra instructions included. Then fill the Presence tracks, leaving the "
         "leftmost space of each track open."),
    Note("base-power-decks",
         "Shuffle the Minor and the Major Power decks apart and leave room for a discard pile "
         "beside each."),
    Note("base-fear-deck",
         "Deal {fear_cards} Fear Cards face down and stack them {fear_split} from the top: the "
         "Terror Level II divider goes under the first group, Terror Level III under the "
         "second."),
    Note("base-fear-pool", "Put {fear_pool} Fear markers in the fear pool."),
    Note("base-blight-card",
         "Draw a Blight Card at random, lay it Healthy Island side up and put {blight} Blight "
         "on it."),
    Note("base-invader-deck",
         "Sort the Invader Cards by stage and shuffle each pile. Stack the deck face down on the "
         "Explore space, top card first: {deck_order} (each digit is a random card of that "
         "stage)."),
)

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

SCENARIO_SETUP: dict[str, tuple[Note, ...]] = {
    "blitz": (
        Note("blitz-extra-blight",
             "The Blight Card holds 1 extra Blight per player in this scenario; the app has "
             "already counted it."),
        Note("blitz-head-start",
             "Right after the setup Explore, the app runs one more Build and Explore, so the "
             "Invaders start a step ahead."),
    ),
    "guard-the-isles-heart": (
        Note("guard-the-isles-heart-inner-lands",
             "Each board has one Inner Land: land #7 with 1 or 2 players; with 3 or 4, the "
             "land of each board that the scenario card marks, where the boards meet."),
        Note("guard-the-isles-heart-last-step",
             "After all other setup, remove every Town. In each Inner Land add 1 Explorer and 1 "
             "Presence of the Spirit that started on that board, or the nearest land of that "
             "board it may use."),
        Note("guard-the-isles-heart-extra-powers",
             "Each Spirit starts with 1 Minor and 1 Major Power more, drawn from the decks."),
    ),
    "rituals-of-terror": (
        Note("rituals-of-terror-fear-deck",
             "The app builds the fear deck from every Fear Card with no dividers in it. Keep "
             "both Terror Level dividers beside the Invader Board."),
        Note("rituals-of-terror-victory",
             "Terror Levels rise only through Rituals of Terror; the third one brings Terror "
             "Victory. An empty fear deck does not win, it only means no more Fear Cards can "
             "be earned."),
    ),
    "dahan-insurrection": (
        Note("dahan-insurrection-victory",
             "Fear alone does not win. At Terror II you win once no land has more Towns and "
             "Cities than Dahan; at Terror III, once fewer lands than {players} do."),
        Note("dahan-insurrection-loss",
             "You also lose if fewer than 2 Dahan per player are left on the island."),
    ),
    "powers-long-forgotten": (
        Note("powers-long-forgotten-markers",
             "Shuffle the numbered Scenario Markers 1 to 8 face down and draw one more than "
             "the number of players. Mix them with blank markers, 3 per player minus 1."),
        Note("powers-long-forgotten-placing",
             "Place 4 of these face down on each board, in lands without Dahan. With an extra "
             "board, count boards instead of players."),
        Note("powers-long-forgotten-scoring",
             "At the end, score 2 more points for each found source of power you never used."),
    ),
    "second-wave": (
        Note("second-wave-follow-up",
             "Second Wave follows a finished game, with different Spirits against the same "
             "adversary. Before clearing up, each old Spirit sets one of its Power Cards "
             "aside."),
        Note("second-wave-what-stays",
             "Take all Presence and Invaders off the island. Keep 1 of each token type per "
             "player, 2 Blight per player (the rest goes back to the Blight Card) and all "
             "Dahan."),
        Note("second-wave-dahan",
             "Thin out lands with 3 or more Dahan, then add 1 Dahan to each board with 2 to 4, "
             "and cut any board with 9 or more down to 8."),
        Note("second-wave-blight-card",
             "If the Blight Card was still Healthy, raise the adversary level by 1. If it was "
             "Blighted, turn it back to Healthy with 2 Blight per player on it and keep the "
             "rest beside it."),
        Note("second-wave-new-pieces",
             "Skip the printed tokens, Blight and Dahan. Printed Invaders of lands #6 to #8 go "
             "to the land numbered 3 lower. On each board add 1 Town to land #5."),
        Note("second-wave-adversary-blight",
             "Adversary setup still applies, but any Blight it adds comes from the Blight "
             "pool."),
    ),
    "ward-the-shores": (
        Note("ward-the-shores-wards",
             "Set out 4 blank Scenario Markers per player to use as Wards."),
        Note("ward-the-shores-fear-deck",
             "The app puts every unused Fear Card under the fear deck; the dividers stay where "
             "they are, so Terror III runs long."),
        Note("ward-the-shores-victory",
             "Fear alone does not win: at Terror II or higher, you win once every Coastal land "
             "has a Ward."),
    ),
    "rituals-of-the-destroying-flame": (
        Note("rituals-of-the-destroying-flame-markers",
             "Keep Scenario Markers at hand as Flame Markers. There is no limit to them, and "
             "once placed they stay."),
    ),
    "elemental-invocation": (
        Note("elemental-invocation-markers",
             "Keep the Element Markers within reach of every Spirit."),
        Note("elemental-invocation-if-the-card-asks",
             "If your scenario card asks for it: take one Stage I card out of the Invader deck, "
             "add 1 Town to land #6 of each board, and add 1 Fear Card to the Terror I group."),
    ),
    "despicable-theft": (
        Note("despicable-theft-thieves",
             "Keep the Thieves in a pool beside the island. They are not Invaders; your "
             "Actions treat them like Explorers with 1 Health."),
    ),
    "the-great-river": (
        Note("the-great-river-layout",
             "Use the balanced board sides. Join the boards top to bottom with every Ocean on "
             "the west side, forming the river; boards B, C and F suit it best."),
        Note("the-great-river-loss",
             "You also lose once more than 3 Towns per player have left the island onto the "
             "scenario card."),
    ),
    "varied-terrains": (
        Note("varied-terrains-overview",
             "Every terrain has a twist: Mountains draw more Explorers (the setup Explore "
             "included), Jungles and Wetlands change the Build, and Blight in Sands always "
             "cascades after setup."),
    ),
    "a-diversity-of-spirits": (
        Note("a-diversity-of-spirits-table-talk",
             "Players may not openly share strategy or plans with each other this game."),
        Note("a-diversity-of-spirits-if-the-card-says",
             "If your scenario card says so, adding Presence to a land where another Spirit is "
             "present gains 1 Energy or reclaims 1 Minor Power."),
    ),
    "destiny-unfolds": (
        Note("destiny-unfolds-draft",
             "Before play, run the scenario's Power Card draft as its card describes; at least "
             "2 players must take part. Follow the card for anything else it changes."),
    ),
    "surges-of-colonization": (
        Note("surges-of-colonization-explore-pattern",
             "The app handles the surges: no Explore card in odd rounds and two in even "
             "rounds. Play it with an adversary, since it needs Escalation."),
        Note("surges-of-colonization-larger-surges",
             "Larger Surges: the app handles them, with no Explore card in odd rounds and three "
             "in even rounds, and one more Fear Card in each Terror group ({fear_split}). Play "
             "it with an adversary, since it needs Escalation."),
    ),
}

SCENARIO_REMINDERS: dict[str, tuple[Reminder, ...]] = {
    "blitz": (
        Reminder("blitz-cheap-fast-powers",
                 "Fast Powers cost 1 Energy less; a Fast Power that would cost 0 gives 1 Energy "
                 "instead.", ("play_cards",)),
        Reminder("blitz-blighted-island",
                 "If the Blight Card flips to Blighted Island, put 1 Blight per player fewer on "
                 "it than it shows.", ("ravage",), when="blight_card"),
    ),
    "guard-the-isles-heart": (
        Reminder("guard-the-isles-heart-inner-lands-held",
                 "From the end of round 1 on, you lose as soon as a Town or City stands in an "
                 "Inner Land.", ("build", "time_passes")),
    ),
    "rituals-of-terror": (
        Reminder("rituals-of-terror-fear-waits",
                 "Earned Fear Cards are not resolved now: they wait for the next Ritual of "
                 "Terror.", ("fear",)),
        Reminder("rituals-of-terror-ritual",
                 "Ritual of Terror: in a land with at least 1 Presence of every Spirit and 3 or "
                 "more Dahan per player, pay 3 Energy together and destroy 3 Presence there. "
                 "Terror rises one level, waiting Fear Cards resolve, then push all Dahan out "
                 "evenly.",
                 ("fast_powers", "slow_powers")),
    ),
    "dahan-insurrection": (
        Reminder("dahan-insurrection-constant-raiding",
                 "After any Action that moved Dahan, each moved Dahan deals 1 Damage in the "
                 "land where it ended up.", ("fast_powers", "ravage", "slow_powers")),
        Reminder("dahan-insurrection-military-response",
                 "Once an effect is done, each City it destroyed adds 1 Town and each Town 1 "
                 "Explorer, in the nearest land with Dahan.",
                 ("fast_powers", "ravage", "slow_powers")),
        Reminder("dahan-insurrection-terror-victory",
                 "If Terror reaches Victory, the Dahan in every land deal their Damage at once; "
                 "if the scenario's win is not met after that, you lose.", ("fear",)),
    ),
    "powers-long-forgotten": (
        Reminder("powers-long-forgotten-searching",
                 "Spirits search a land with 3 or more Dahan; Invaders search one with 2 or "
                 "more Invaders (3 against France). Flip its marker: discard a blank, and a "
                 "number gives its power to whoever found it.",
                 ("fast_powers", "ravage", "build", "explore", "slow_powers")),
    ),
    "second-wave": (
        Reminder("second-wave-set-aside-powers",
                 "Each set-aside Power Card may now be used once in the Spirit Phase, free: no "
                 "Energy, no Card Play, any land. Thresholds needing 10 or fewer Elements "
                 "count as met.", ("play_cards",), when="stage_3"),
        Reminder("second-wave-blighted-again",
                 "If the Blight Card flips again, use the Blight set beside it instead of the "
                 "printed amount.", ("ravage",)),
    ),
    "ward-the-shores": (
        Reminder("ward-the-shores-ward-power",
                 "Once per round each Spirit may play a Power Card face down as a Slow Power, "
                 "Range 0 from a Sacred Site, cost 0. It adds a Ward for 2 Energy per Blight "
                 "and per Town or City in that land.", ("play_cards",)),
        Reminder("ward-the-shores-ward-holds",
                 "A Ward gives Defend 3 in its land and is lost when Blight is added there.",
                 ("ravage",)),
        Reminder("ward-the-shores-stage-3",
                 "Each Explore card now adds 1 Town as well as the Explorer.", ("explore",),
                 when="stage_3"),
    ),
    "rituals-of-the-destroying-flame": (
        Reminder("rituals-of-the-destroying-flame-ritual",
                 "A Spirit may forget a Fire Power to add a Flame Marker and 1 Blight in one of "
                 "its lands. It gains Energy equal to the Invader Stage; with Invaders there, "
                 "that much Fear too, and 1 Damage per Dahan.", ("growth",)),
        Reminder("rituals-of-the-destroying-flame-immunity",
                 "Damage to Invaders and destroying them does nothing unless a Flame Marker is "
                 "within Range 1 or the acting Spirit pays 2 Energy.",
                 ("fast_powers", "slow_powers")),
        Reminder("rituals-of-the-destroying-flame-other-harm",
                 "Events, Fear Cards and Dahan fighting back only harm Invaders near a Flame "
                 "Marker, unless a Spirit pays 2 Energy per land or per counter-attack.",
                 ("event", "fear", "ravage")),
    ),
    "elemental-invocation": (
        Reminder("elemental-invocation-element-markers",
                 "Once per Spirit Phase, each Spirit may pay to put 1 Element Marker on a free "
                 "corner of one of its lands: 1 Energy plus 1 per neighbouring corner with a "
                 "marker. Only Elements on its Power Cards may be chosen.", ("play_cards",)),
        Reminder("elemental-invocation-corner-elements",
                 "Powers aimed at a land gain the Elements on its corners. Each marker counts as "
                 "2 Energy toward aided-by choices of its Element in Events.",
                 ("fast_powers", "event", "slow_powers")),
    ),
    "despicable-theft": (
        Reminder("despicable-theft-thieves-escape",
                 "Before the Ravage, Thieves next to the Ocean escape: 4 earned Fear lost each "
                 "(if you have it), and a numbered Thief Accelerates the Invader deck that many "
                 "times. Other Thieves move 1 land toward their Ocean.", ("ravage",)),
        Reminder("despicable-theft-thieves-arrive",
                 "Each successful Explore into a land numbered 6 or higher also adds 1 Thief "
                 "from the pool.", ("explore",)),
        Reminder("despicable-theft-catching-thieves",
                 "Thieves can only be destroyed, removed or replaced in a land with no Town or "
                 "City and 2 or more Dahan; elsewhere push them. Each Thief destroyed gives 1 "
                 "Fear.", ("fast_powers", "slow_powers")),
    ),
    "the-great-river": (
        Reminder("the-great-river-coastal-build",
                 "After the Build step, the Invaders Build in every Coastal land that has "
                 "Explorers but no Town or City.", ("build",)),
        Reminder("the-great-river-coastal-explore",
                 "After the Explore step, the Invaders Explore into every Coastal land without "
                 "a Town or City.", ("explore",)),
        Reminder("the-great-river-towns-drift",
                 "At the end of the Slow Power phase, every Town moves one land inland, the most "
                 "inland first, spread evenly from the north; Isolate holds one only if a Spirit "
                 "pays 1 Energy. Towns at the eastern edge leave onto the scenario card.",
                 ("slow_powers",)),
    ),
    "varied-terrains": (
        Reminder("varied-terrains-mountains",
                 "Each Mountain the Invaders Explore into gets 1 extra Explorer.",
                 ("initial_explore", "explore")),
        Reminder("varied-terrains-jungles-and-wetlands",
                 "A Jungle where the Invaders Build 1 or more Cities also gets 1 Blight. A "
                 "Wetland with a successful Build gets a second Build.", ("build",)),
        Reminder("varied-terrains-sands",
                 "Blight added to Sands always cascades, even when the land had no Blight yet.",
                 ("ravage",)),
    ),
    "a-diversity-of-spirits": (),
    "destiny-unfolds": (),
    "surges-of-colonization": (
        Reminder("surges-of-colonization-quiet-round",
                 "Odd round: skip the normal Explore this round.", ("explore",),
                 when="odd_round"),
        Reminder("surges-of-colonization-surge",
                 "Surge: resolve one extra Explore card. If too few Invader Cards are left, use "
                 "unused Stage III cards, then random top-Stage cards from the discard; you "
                 "lose only when the normal Explore card cannot be turned over.",
                 ("explore",), when="surge_round"),
        Reminder("surges-of-colonization-larger-surge",
                 "Larger Surge: resolve two extra Explore cards. When the deck runs short, take "
                 "unused Stage III cards, then highest-Stage cards from the discard at random; "
                 "only a normal Explore card that cannot be turned over loses the game.",
                 ("explore",), when="larger_surge_round"),
        Reminder("surges-of-colonization-explorer-sources",
                 "Explorers count as a source of Invaders for Explore cards.", ("explore",)),
    ),
}
