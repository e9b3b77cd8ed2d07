"""What the base game asks of the table at setup, as data: the setup checklist's items.

Items (`Note`) in the project's own words; `reminders.py` puts them first in every game's
checklist, before the adversary's (`adversary_table_rules.py`) and the scenario's
(`scenario_table_rules.py`).
"""

from __future__ import annotations

from .notes import Note

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
