"""Glow as the registry lists it, before anyone plays it: its name and the kind of its cards a
reader's tag may name. Imports none of its rules (see `GameListing`)."""

from __future__ import annotations

from companion.core.listing import GameListing, TagKind

from .texts import CATALOGUE_DOMAIN, TAG_WORDS

TAG_KINDS = {"companion": TagKind(TAG_WORDS["companion"], TAG_WORDS["companion-card"],
                                  TAG_WORDS["companion-cards"])}
"""What players call the kind of `tag_cards`."""

GLOW = GameListing(
    id="glow",
    name="Glow",
    definition="companion.games.glow.definition:GLOW",
    tag_kinds=TAG_KINDS,
    catalogue_domains=(CATALOGUE_DOMAIN,),
)
