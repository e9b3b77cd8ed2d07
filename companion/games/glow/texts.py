"""The words Glow shows players: prompts, reminders, the "nothing forgotten?" gates and the setup
checklist.

Each text has a stable message id and an English template with {placeholders}; the English is
the msgid of the game's gettext template ("glow"), translated when the view renders it. Every
sentence is the project's own summary of the rules digest (shared/data/glow.md).
"""

from __future__ import annotations

from typing import Any

from companion.core.phrases import Phrase

CATALOGUE_DOMAIN = "glow"
"""The gettext template of these texts: companion/locale/glow.pot and its .po files."""

PROMPTS: dict[str, str] = {
    "glow-prompt-setup-roll": (
        "{player} rolls the 9 small dice into the areas of their elements. Enter how many lie "
        "in each area; then {player} recruits first."),
    "glow-prompt-pick": (
        "{player}: recruit a companion, taking the dice and trail tokens lying in its area."),
    "glow-prompt-discard": (
        "{player}: as start player, send one more companion to the graveyard; its dice and "
        "tokens stay on the track."),
    "glow-prompt-morning-done": (
        "Everyone has recruited. Tap Done: the companions left go to the graveyard, their dice "
        "and tokens stay."),
    "glow-prompt-late-morning": (
        "Everyone rolls all their dice at once and rerolls as they like. Tap Done when the "
        "rerolls are over: noon locks them."),
    "glow-prompt-noon": (
        "Everyone checks each of their cards against their dice and carries out every effect "
        "that fires. Then tap Done."),
    "glow-prompt-afternoon-realm": (
        "Everyone may move their group with their dice and trails; stopping on a village moves "
        "the camp there. Then tap Done."),
    "glow-prompt-afternoon-sea": (
        "Everyone may sail one boat to a neighbouring island whose route their dice allow. "
        "Then tap Done."),
    "glow-prompt-evening": (
        "Evening of day {day}: return the small dice, lay out the next row, put trail tokens "
        "out and pass the start marker. Then tap Done."),
    "glow-prompt-evening-last": (
        "The deck is empty: this evening ends the game. Tap Done for the end scoring."),
    "glow-prompt-end-scoring": (
        "End scoring: enter cards, board, glowworms and trails for each player ({missing} "
        "still to score)."),
    "glow-prompt-tie-rerolls": (
        "A tie on light shards: enter the reroll tokens {players} have left; the most wins the "
        "tie."),
    "glow-prompt-result": "{winners} shines brightest with {score} light shards.",
    "glow-prompt-result-shared": "{winners} share first place with {score} light shards.",
}

GATES: dict[str, str] = {
    "glow-gate-noon": (
        "Nothing forgotten? Has everyone moved their score marker and taken every token their "
        "cards gave? What is not taken now is lost."),
    "glow-gate-afternoon": (
        "Nothing forgotten? Has everyone finished their move, with its tokens, shard losses and "
        "trail costs? Nothing can be made up later."),
}

REMINDERS: dict[str, str] = {
    "glow-rem-pick-order": "Pick order today: {order}.",
    "glow-rem-not-picked": "Not recruited yet: {players}.",
    "glow-rem-two-players": (
        "Two players: right after picking, the start player sends one more companion to the "
        "graveyard; the other player picks from the three left."),
    "glow-rem-sketal": (
        "A Sketal takes its large die from the supply at once ({supply} there now)."),
    "glow-rem-kaar": (
        "Whoever recruits Kaar rolls the black die and puts it in the area of the element it "
        "shows."),
    "glow-rem-kaar-owner": (
        "{player} owns Kaar: before picking the area holding the black die, they may move it "
        "to another area."),
    "glow-rem-spells-reveal": "Spell tiles handed out yesterday are turned face up now.",
    "glow-rem-reroll": "One reroll: reroll 1 or 2 of your dice, once. Use as many as you have.",
    "glow-rem-set-face": "Three rerolls together turn one die to the face of your choice.",
    "glow-rem-tokens-tomorrow": "Reroll tokens gained today can be spent from tomorrow on.",
    "glow-rem-track-reroll": (
        "A score-track reroll moves your marker back to the next reroll space below it; not "
        "once you have passed the end of the track."),
    "glow-rem-lumipili": "Each Lumipili gives one reroll a day.",
    "glow-rem-noon-order": (
        "Check every card (adventurer, companions, a face-up spell) against all your dice, in "
        "the order you like; one die may serve several cards."),
    "glow-rem-noon-again": (
        "A condition met again with other dice fires again; skulls and prohibitions fire once "
        "a day."),
    "glow-rem-noon-mandatory": "Every effect that fires is carried out, good or bad.",
    "glow-rem-special-faces": "Purple trail face: 2 trails. Yellow shard face: 3 light shards.",
    "glow-rem-black-die": (
        "The black die curses whoever rolled it, unless they own Kaar: its element cancels "
        "their dice of that element, its −2 face costs 2 light shards."),
    "glow-rem-xargok": (
        "Xar'gok leaving gives every other player a spell tile face down, turned up tomorrow "
        "morning."),
    "glow-rem-cromaug": (
        "Cromaug leaving lets its owner take any other companion from the graveyard as their "
        "newest."),
    "glow-rem-sketal-home": (
        "A Sketal that leaves takes its large die back to the supply; that die is gone for the "
        "afternoon."),
    "glow-rem-realm-dice": (
        "Each die moves your group onto a neighbouring space showing its symbol: each die once, "
        "no space twice today."),
    "glow-rem-realm-trails": "Each trail spent moves your group one space, whatever the dice.",
    "glow-rem-realm-village": "Only the village holding your camp scores at the end.",
    "glow-rem-sea-route": (
        "The route's number of different elements must be met exactly; trails stand in for "
        "missing elements, never for too many."),
    "glow-rem-sea-one-boat": "Never two of your own boats on one island.",
    "glow-rem-board-symbols": (
        "Passing a symbol: take its token, lose its shards or pay its trails; a skull costs a "
        "companion or a spell."),
    "glow-rem-evening-return": (
        "Return the small dice into the areas of the faces they show; a −2 or trail face is "
        "rolled again."),
    "glow-rem-evening-layout": (
        "Lay out the next 5 companions; then every area without a die gets a trail token."),
    "glow-rem-evening-dice": (
        "Enter the dice in each area, so that the trail tokens on the track stay right."),
    "glow-rem-evening-marker": "The start marker passes left, to {player}.",
    "glow-rem-forgotten": "Anything forgotten today cannot be made up later.",
    "glow-rem-glowworms": (
        "Glowworms: +10 when your glowworms (tokens and companions' icons) are at least as "
        "many as your companions."),
    "glow-rem-tie-break": (
        "A tie goes to the most reroll tokens left; still tied, the players share the rank."),
}

SETUP_ITEMS: tuple[tuple[str, str], ...] = (
    ("glow-setup-board", "Put the board out with the {board} side up, the encounter track "
                         "beside it."),
    ("glow-setup-adventurers", "Each player takes an adventurer with the large dice it shows "
                               "and puts their score marker on space {score}."),
    ("glow-setup-realm", "Camp and group markers of each player on the start space."),
    ("glow-setup-sea", "Each player puts {boats} boats of one colour on the central island and "
                       "keeps one more as a reminder."),
    ("glow-setup-supply", "Supply: one large die each of red, light blue, dark blue, orange "
                          "and green, and the small black die."),
    ("glow-setup-tokens", "Glowworm, reroll and trail tokens in three piles; the {spells} spell "
                          "tiles shuffled face down in a stack."),
    ("glow-setup-deck", "Shuffle the A and B companions apart, return 3 of each to the box "
                        "unseen and put A on top of B. Lay the top 5 under the areas ({deck} "
                        "stay in the deck)."),
    ("glow-setup-start", "{player} starts and takes the start marker; {last}, to their right, "
                         "takes 2 reroll tokens."),
    ("glow-setup-roll", "{player} rolls the 9 small dice into the areas of their elements; a "
                        "purple trail face is rolled again."),
    ("glow-setup-trails", "Every area without a die gets a trail token."),
    ("glow-setup-two", "Two players: each morning the start player sends one more companion "
                       "to the graveyard after picking."),
)

WORDS: dict[str, str] = {
    "realm": "Realm of Shadows",
    "sea": "Sea of Darkness",
    "player": "Player {number}",
    "nobody": "nobody",
    "morning": "morning",
    "late_morning": "late morning",
    "noon": "noon",
    "afternoon": "afternoon",
    "evening": "evening",
    "over": "game over",
    "threshold": "glowworms {glowworms} / companions {companions}",
}
"""Words put into the sentences above, and short labels for a screen."""

TAG_WORDS: dict[str, str] = {
    "companion": "Companion",
    "companion-card": "companion card",
    "companion-cards": "companion cards",
}
"""The card reader's words: the kind of card a tag stands for."""

READ_MESSAGES: dict[str, str] = {
    "companion-which-area": "{player} recruits {name}: from which area?",
}
"""What the app says when a companion laid on the reader is recruited; {name} is the card's."""


def word(key: str, **values: Any) -> Phrase:
    return Phrase(WORDS[key], **values)


def catalogue_texts() -> dict[str, list[str]]:
    """Every text above by gettext template, for `python -m companion.i18n_messages`."""
    texts = [*PROMPTS.values(), *GATES.values(), *REMINDERS.values(),
             *(text for _item, text in SETUP_ITEMS), *WORDS.values(), *TAG_WORDS.values(),
             *READ_MESSAGES.values()]
    return {CATALOGUE_DOMAIN: sorted(set(texts))}
