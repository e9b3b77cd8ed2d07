"""The words Leviathan Wilds shows players: prompts, reminders and the setup checklist.

Each text has a stable message id and an English template with {placeholders}; the English is
the msgid of the game's gettext template ("leviathan"), translated when the view renders it.
Every sentence is the project's own summary of the rules digest.
"""

from __future__ import annotations

from typing import Any

from companion.core.phrases import Phrase

CATALOGUE_DOMAIN = "leviathan"
"""The gettext template of these texts: companion/locale/leviathan.pot and its .po files."""

PROMPTS: dict[str, str] = {
    "lw-prompt-reveal": "{guardian}: reveal threat {slot} (it is {half}), then tap Done.",
    "lw-prompt-revealed": (
        "Threat {slot} is face up ({half}). Place attack markers if it attacks; a fast threat "
        "resolves now. Then tap Done."),
    "lw-prompt-activate": "{guardian}: play an AP card, take your actions, then tap Done.",
    "lw-prompt-activate-ap": "{guardian}: {ap} AP left. Take your actions, then tap Done.",
    "lw-prompt-activate-empty": (
        "{guardian}: no cards in hand, so 2 AP and no protections. Take your actions, then tap "
        "Done."),
    "lw-prompt-resolve": "Resolve threat {slot} ({half}), then tap Done.",
    "lw-prompt-draw": "{guardian}: discard any cards you like, then tap Done to draw up to {hand}.",
    "lw-prompt-reveal-defeated": (
        "Reveal threat {slot} (it is {half}): this turn's guardian is defeated and does not "
        "activate, but the threat still resolves. Then tap Done."),
    "lw-prompt-draw-defeated": (
        "This turn's guardian is defeated and draws no cards. Tap Done to end the turn."),
    "lw-prompt-draw-last": (
        "{guardian}: drawing up to {hand} takes the last card of your deck. Tap Done to draw it "
        "and fall, or decline the last card and stay put."),
    "lw-prompt-win": "The leviathan is healed. Flip the log card and read the ending aloud.",
    "lw-prompt-loss": "The leviathan wins: {reason}.",
}

REMINDERS: dict[str, str] = {
    "lw-rem-reveal-flip": (
        "Flip the leftmost face-down threat over its long edge: the half on top stays on top, "
        "and only the upright half counts."),
    "lw-rem-reveal-attack": (
        "An attack puts one attack marker on each targeted guardian's space; the marker stays "
        "there this turn."),
    "lw-rem-reveal-fast": "Fast threat: it resolves now, in step 1.",
    "lw-rem-reveal-delayed": "Delayed threat: its attack marker goes out at the start of step 3.",
    "lw-rem-activate-protections": (
        "The AP card's protections hold for your whole activation, and only then."),
    "lw-rem-activate-end": (
        "When you are done, the AP card goes to your discard pile; unspent AP are lost."),
    "lw-rem-activate-corrupted": (
        "Every strike on a corrupted crystal gives +1 corruption unless you are protected."),
    "lw-rem-resolve-order": "Carry out the threat top to bottom, left to right.",
    "lw-rem-resolve-protections-off": "Protections are off now: AP card symbols do not count.",
    "lw-rem-resolve-once": "Each guardian suffers one attack at most once.",
    "lw-rem-resolve-nobody-hit": (
        "'Nobody hit?' effects fire only if the attack hit no guardian; a guardian who parried "
        "everything was still hit."),
    "lw-rem-draw-last": (
        "Would you draw the last card of your deck? Now, and only now, you may decline it."),
    "lw-rem-draw-no-reshuffle": "An empty deck is never reshuffled: the guardian falls.",
    "lw-rem-falling": (
        "{guardian} is falling: no AP may be spent; the fall ends on a ledge or by anchoring."),
    "lw-rem-round-end": (
        "Last threat of the round: after this turn the row is reshuffled calm side up, wrath "
        "rises to {wrath} and {wild} threats turn wild."),
    "lw-rem-last-chance": "Last Chance: {guardians} each get one more turn.",
}

OUTCOME_REASONS: dict[str, str] = {
    "healed": "the last crystal is shattered",
    "all_defeated": "every guardian is defeated",
    "last_chance": "Last Chance has run out with {crystals} crystals and {conditions} win "
                   "conditions left",
}

SETUP_ITEMS: tuple[tuple[str, str], ...] = (
    ("lw-setup-leviathan", "Open the book at leviathan {leviathan} ({name}) and lay it flat."),
    ("lw-setup-crystals", "Put a die on every crystal space, purple or turquoise as printed, "
                          "showing the printed number ({crystals} crystals)."),
    ("lw-setup-mushrooms", "Shuffle the 16 mushroom tokens face down, put 6 face down on the "
                           "mushroom spaces, pointing at them; the rest go back in the box."),
    ("lw-setup-threat-board", "Put the threat board below the book."),
    ("lw-setup-card-set", "Take this leviathan's card set; set the log card aside."),
    ("lw-setup-setup-cards", "Carry out the steps of any setup cards in the set."),
    ("lw-setup-threat-row", "Shuffle the 5 threat cards and lay them face down in a row below "
                            "the threat board, calm (purple) halves up."),
    ("lw-setup-weakness-deck", "Shuffle the 12 weakness cards into a face-down deck."),
    ("lw-setup-attack-markers", "Put the 2 attack markers ready."),
    ("lw-setup-wrath", "Put the wrath marker on the {difficulty} start space of the wrath "
                       "track (space {wrath_space})."),
    ("lw-setup-wild", "Turn the leftmost {wild} threats wild (turquoise half up)."),
    ("lw-setup-guardian-decks", "Each guardian: shuffle your character and class cards, "
                                "without the two overview cards, into your guardian deck."),
    ("lw-setup-solo-deck", "Solo: shuffle two character sets and one class set, without their "
                           "overview cards, into one shared deck for both guardians."),
    ("lw-setup-boards", "Take a player board each; do any extra setup printed on your "
                        "overview cards; put the deck at the edge marked for grip."),
    ("lw-setup-track", "Red cube on the red {health}, turquoise cube on the turquoise "
                       "{corruption}."),
    ("lw-setup-focus", "Focus token blank side up (exhausted)."),
    ("lw-setup-hands", "Draw {hand} cards into your hand."),
    ("lw-setup-figures", "Clockwise from the start player, put your figure on any space of the "
                         "start row."),
    ("lw-setup-begin", "Read the introduction on the log card aloud; {guardian} starts."),
)


WORDS: dict[str, str] = {
    "wild": "wild",
    "calm": "calm",
    "easy": "easy",
    "medium": "medium",
    "hard": "hard",
    "expert": "expert",
    "nobody": "nobody",
    "guardian": "Guardian {number}",
    "printed": "the printed",
}
"""Words put into the sentences above: a threat's half, a difficulty, an unnamed guardian."""


TAG_WORDS: dict[str, str] = {
    "threat": "Threat",
    "threat-card": "threat card",
    "threat-cards": "threat cards",
    "threat-name": "{number} {leviathan} · threat {card}",
    "weakness": "Weakness",
    "weakness-card": "weakness card",
    "weakness-cards": "weakness cards",
    "weakness-name": "Weakness {number}",
}
"""The card reader's words: the kinds of card a tag stands for, and each card's name."""

READ_MESSAGES: dict[str, str] = {
    "threat-revealed": "Threat card read: {name}",
    "threat-named": "Threat {slot} is {name}",
    "weakness-drawn": "{guardian} draws a weakness: {name}",
    "weakness-discarded": "{guardian} gets rid of a weakness: {name}",
}
"""What the app says when a card laid on the reader changed the game; {name} is the card's."""


def word(key: str, **values: Any) -> Phrase:
    return Phrase(WORDS[key], **values)


def catalogue_texts() -> dict[str, list[str]]:
    """Every text above by gettext template, for `python -m companion.i18n_messages`."""
    texts = [*PROMPTS.values(), *REMINDERS.values(), *OUTCOME_REASONS.values(),
             *(text for _item, text in SETUP_ITEMS), *WORDS.values(), *TAG_WORDS.values(),
             *READ_MESSAGES.values()]
    return {CATALOGUE_DOMAIN: sorted(set(texts))}
