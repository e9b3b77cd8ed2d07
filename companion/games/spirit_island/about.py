"""Spirit Island as the registry lists it, before anyone plays it: its name, its settings and
the kinds of its cards a reader's tag may name. Imports none of its rules (see `GameListing`)."""

from __future__ import annotations

from companion.core.listing import GameListing, Setting, TagKind
from companion.i18n import N_

TAG_KINDS = {
    "invader": TagKind(N_("Invader"), N_("invader card"), N_("invader cards")),
    "fear": TagKind(N_("Fear"), N_("fear card"), N_("fear cards")),
    "blight": TagKind(N_("Blight"), N_("blight card"), N_("blight cards")),
}
"""What players call the kinds of `tag_cards` (their ids are the tag file's, fixed)."""

SETTINGS = (
    Setting("companion/spirit_timer", "switch", N_("Spirit-phase timer"),
            N_("Show how long the Spirit phase has taken")),
    Setting("companion/spirit_timer_limit", "number", N_("Spirit-phase limit (minutes)"),
            N_("0 for no limit; the timer turns red past it")),
    Setting("companion/spirit_one_step", "switch", N_("Spirit phase as one step"),
            N_("Growth, energy and playing cards in one tap instead of three")),
)
"""Spirit Island's own settings (their companion.ini keys as ever), under its name."""

SPIRIT_ISLAND = GameListing(
    id="spirit-island",
    name="Spirit Island",
    definition="companion.games.spirit_island.definition:SPIRIT_ISLAND",
    settings=SETTINGS,
    tag_kinds=TAG_KINDS,
    catalogue_domains=("game", "cards"),
    rules_corpus="rules/data",
)
