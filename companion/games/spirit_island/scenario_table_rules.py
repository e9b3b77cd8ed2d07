"""What each scenario asks of the table, as data: setup checklist items and step reminders.

Setup checklist items (`Note`) and step reminders (`Reminder`) in the project's own words; facts
from ../shared/data/scenarios.md.
"""

from __future__ import annotations

from .notes import Note, Reminder

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
