"""Leviathan Wilds as the registry lists it, before anyone plays it: its name and the kinds of
its cards a reader's tag may name. Imports none of its rules (see `GameListing`)."""

from __future__ import annotations

from companion.core.listing import GameListing, TagKind

from .texts import CATALOGUE_DOMAIN, TAG_WORDS

TAG_KINDS = {
    "threat": TagKind(TAG_WORDS["threat"], TAG_WORDS["threat-card"], TAG_WORDS["threat-cards"]),
    "weakness": TagKind(TAG_WORDS["weakness"], TAG_WORDS["weakness-card"],
                        TAG_WORDS["weakness-cards"]),
}
"""What players call the kinds of `tag_cards`."""

LEVIATHAN_WILDS = GameListing(
    id="leviathan-wilds",
    name="Leviathan Wilds",
    definition="companion.games.leviathan_wilds.definition:LEVIATHAN_WILDS",
    tag_kinds=TAG_KINDS,
    catalogue_domains=(CATALOGUE_DOMAIN,),
    rules_corpus="rules/data",
)
