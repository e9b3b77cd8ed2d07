"""The registry lists games without importing them, and each listing tells the truth about its
game: the app's first frame reads the listings, every later step the games themselves."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from companion.core.game import GameListing
from companion.games import registry
from companion.games.registry import GAMES, GameRegistry

ROOT = Path(__file__).resolve().parents[2]
LISTED = [listing.id for listing in GAMES.listed()]


@pytest.mark.parametrize("game_id", LISTED)
def test_a_listing_says_of_its_game_what_the_game_says(game_id: str) -> None:
    listing, game = GAMES.listing(game_id), GAMES[game_id]
    assert (listing.id, listing.name, listing.settings, listing.catalogue_domains,
            listing.rules_corpus) == \
        (game.id, game.name, game.settings, game.catalogue_domains, game.rules_corpus)
    assert dict(listing.tag_kinds) == dict(game.tag_kinds)
    # The reader's kinds come from the listing, the cards from the game: the same kinds, in
    # the same order.
    assert list(listing.tag_kinds) == list(game.tag_cards())


def test_listing_the_games_imports_none_of_their_rules() -> None:
    """In a fresh interpreter: the registry, its ids and its listings, and the rules folders
    the rules index reads, import no definition; the first lookup of one game imports that
    game's only."""
    script = (
        "import sys\n"
        "from companion.games.registry import GAMES\n"
        "from companion.rules.corpus import registered_folders\n"
        "names = [(g.id, g.name, len(g.settings)) for g in GAMES.listed()]\n"
        "folders = registered_folders()  # what the rules index reads when it opens\n"
        "loaded = lambda: sorted(m for m in sys.modules if m.endswith('.definition'))\n"
        "print(list(GAMES), names, loaded())\n"
        "GAMES['glow']\n"
        "print(loaded())\n")
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert out[0].endswith("[]"), out
    assert out[1] == "['companion.games.glow.definition']", out


def test_a_game_registered_as_it_is_is_listed_and_given_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    tally = replace(GAMES["glow"], id="tally", name="Tally")
    monkeypatch.setitem(registry.GAMES, "tally", tally)
    assert list(GAMES)[-1] == "tally" and GAMES["tally"] is tally
    assert GAMES.listing("tally") == GameListing.of(tally)
    assert GAMES.listed()[-1].name == "Tally"


def test_a_listing_naming_the_wrong_game_is_refused_at_its_lookup() -> None:
    wrong = GameRegistry([GameListing(id="glow", name="Glow",
                                      definition="companion.games.leviathan_wilds.definition:"
                                                 "LEVIATHAN_WILDS")])
    assert list(wrong) == ["glow"]
    with pytest.raises(TypeError, match="not the Game of 'glow'"):
        wrong["glow"]
    with pytest.raises(KeyError):
        wrong["nothing"]
