"""The phones see the table, not the box: what the mirror sends holds no seed, no deck order
and no face-down card, in every game, whether the app or the follower publishes it, while
everything the phones' page shows is still there."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from companion import i18n
from companion.bootstrap import wired_service
from companion.core.game import PublicFields
from companion.driver import SESSION_FIELDS, ScriptDriver, StateSnapshot
from companion.games.glow.view import PUBLIC_FIELDS as GLOW_FIELDS
from companion.games.leviathan_wilds.data import threats_of
from companion.games.leviathan_wilds.view import PUBLIC_FIELDS as LEVIATHAN_FIELDS
from companion.games.registry import GAMES
from companion.games.spirit_island.blight_cards import BLIGHT_CARDS
from companion.games.spirit_island.state import GameState
from companion.games.spirit_island.view import PUBLIC_FIELDS as SPIRIT_ISLAND_FIELDS
from companion.mirror.feed import MirrorFeed
from companion.store import GameStore
from tests.games.glow.test_whole_games import game_lines
from tests.table_player import _Table

SEED = 918273645519
"""Twelve digits: they turn up in a message only if the seed itself does."""

LANGUAGES = ("en", "de")

WHITELISTS: dict[str, PublicFields] = {
    "spirit-island": SPIRIT_ISLAND_FIELDS,
    "leviathan-wilds": LEVIATHAN_FIELDS,
    "glow": GLOW_FIELDS,
}

PAGE_READS: dict[str, tuple[str, ...]] = {
    "spirit-island": (
        "terror_level", "victory_condition", "loss_conditions", "adversary", "fear.pool",
        "fear.pool_size", "fear.earned", "fear.deck", "fear.cards_to_next_terror_level",
        "fear.card", "blight.on_card", "blight.on_island", "blight.side", "blight.name",
        "blight.effect", "invader.ravage", "invader.build", "invader.explore",
        "invader.deck_count", "invader.stage", "invader.discard"),
    "leviathan-wilds": (
        "leviathan", "difficulty", "wrath", "wrath_track", "crystals_left", "threat_row",
        "guardians", "active", "crystals"),
    "glow": ("day", "phase_name", "gate", "deck_count", "board_name", "start_player",
             "players", "picker"),
}
"""What companion/mirror/page.html reads of each game's state, beyond the shared fields."""

SHARED_READS = ("title", "round", "phase", "step", "prompt", "reminders", "outcome",
                *SESSION_FIELDS)


class Phones:
    """A driver at the table and a mirror feed, published to after every command as the app
    does (the screen's view) and as `companion mirror`'s follower does (words made per phone)."""

    def __init__(self) -> None:
        self.driver = ScriptDriver(wired_service(GameStore.in_memory(), seed_source=lambda: SEED))
        self.feed = MirrorFeed()

    def play(self, command: dict[str, Any]) -> list[bytes]:
        answer = self.driver.handle(command)
        assert answer["ok"], (command, answer)
        snapshot = StateSnapshot.of(self.driver.service)
        self.feed.publish(snapshot, {"en": self.driver.state()}, answer["events"])
        messages = [self.feed.message(self.feed.current(), "en")]
        self.feed.publish(snapshot, events=answer["events"])
        messages += [self.feed.message(self.feed.current(), lang) for lang in LANGUAGES]
        return messages

    @property
    def state(self) -> Any:
        return self.driver.service.session.state


def strings(value: Any) -> Iterator[str]:
    """Every key and text in a decoded message."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def holds(message: bytes, word: str) -> bool:
    """`word` stands somewhere in the message on its own ("I-jungle" is not in "II-jungle")."""
    pattern = re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])")
    return any(pattern.search(text) for text in strings(json.loads(message)))


def assert_nothing_hidden(messages: list[bytes], hidden: set[str]) -> None:
    for message in messages:
        assert str(SEED).encode() not in message
        found = sorted(word for word in hidden if holds(message, word))
        assert not found, f"face-down cards sent to the phones: {found}"


# --- Spirit Island ---------------------------------------------------------------------------


def face_down_invader_cards(state: GameState) -> set[str]:
    """The invader deck the app shuffled (or a card fixed in a physical one), the cards left in
    the box, those hidden in the fear deck."""
    track = state.invader
    hidden = {entry.card for entry in track.deck if entry.card}
    hidden |= {card for card in track.set_aside if card}
    return hidden | {card for _above, _stage, card in state.fear.hidden_invaders if card}


def spirit_island_hidden(state: GameState) -> set[str]:
    """The ids (and, for a blight card, the names in every language) of what lies face down:
    the invader cards, and a blight card drawn face down."""
    hidden, blight = face_down_invader_cards(state), state.blight
    if state.setup.blight_card_hidden and blight.side == "healthy" and blight.card:
        card = BLIGHT_CARDS[blight.card]
        hidden |= {card.id, *(i18n.translations(lang).gettext(card.name)
                               for lang in LANGUAGES)}
    return hidden


SPIRIT_ISLAND_TABLES = {
    "a random face-down blight card and the app's shuffled deck": {"players": 2},
    "Russia 5 hides invader cards in the fear deck; events": {
        "players": 3, "adversary": "russia", "level": 5, "events": True},
    "Scotland 2's coastal card in a physical deck": {
        "players": 2, "deck": "physical", "adversary": "scotland", "level": 2},
}


@pytest.mark.parametrize("new_game", SPIRIT_ISLAND_TABLES.values(), ids=SPIRIT_ISLAND_TABLES)
def test_spirit_island_phones_never_learn_the_seed_the_deck_or_a_face_down_blight_card(
        new_game: dict[str, Any]) -> None:
    phones = Phones()
    table = _Table(fear_per_round=2, blight_every=2, blight_amount=2)
    messages = phones.play({"cmd": "new_game", **new_game})
    state = phones.driver.state()
    assert state is not None
    dealt = face_down_invader_cards(phones.state)
    assert dealt, "the table was meant to hide invader cards"
    blight_card_seen = turned_over_seen = False
    for _ in range(300):
        assert_nothing_hidden(messages, spirit_island_hidden(phones.state))
        for message in messages[:2]:
            invader = json.loads(message)["state"]["invader"]
            assert sum(invader["deck_per_stage"]) == invader["deck_count"]
            assert not {"deck_stages", "deck_order", "candidates"} & set(invader)
        turned_over = dealt - face_down_invader_cards(phones.state)
        turned_over_seen |= any(holds(messages[0], card) for card in turned_over)
        card = phones.state.blight.card
        if card and phones.state.blight.side != "healthy":
            # Once turned over, the card is the table's: the phones name it (the check above
            # would have found it).
            blight_card_seen |= all(holds(m, BLIGHT_CARDS[card].name) for m in messages[:2])
        if state["outcome"] is not None:
            break
        messages = phones.play(table.next_move(state))
        state = phones.driver.state()
        assert state is not None
    if phones.state.setup.blight_card_hidden and phones.state.setup.deck == "virtual":
        assert blight_card_seen
    # Cards hidden at the start were turned over on the way, and then the phones had them:
    # the check above looks for ids as the messages write them.
    assert turned_over_seen


# --- Leviathan Wilds -------------------------------------------------------------------------

LEVIATHAN = 2
CRYSTALS = [{"dice": [3]}, {"dice": [4], "corrupted": True}, {"dice": [2, 5]},
            {"dice": [6], "corrupted": True}]


def leviathan_turn(card: str) -> list[dict[str, Any]]:
    return [{"cmd": "reveal", "card": card}, {"cmd": "next", "step": "reveal"},
            {"cmd": "ap_card", "ap": 3}, {"cmd": "next", "step": "activate"},
            {"cmd": "next", "step": "resolve"}, {"cmd": "next", "step": "draw"}]


def test_leviathan_phones_see_a_threat_only_once_it_is_face_up() -> None:
    phones = Phones()
    threats = threats_of(LEVIATHAN)
    phones.play({"cmd": "new_game", "game": "leviathan-wilds", "players": 2,
                 "difficulty": "easy", "leviathan": LEVIATHAN, "crystals": CRYSTALS,
                 "deck_size": 30})
    seen_face_up = set()
    for turn in range(7):  # a whole round of five threats, and two of the next
        for command in leviathan_turn(threats[turn % len(threats)]):
            messages = phones.play(command)
            face_up = {slot.card for slot in phones.state.row if slot.face_up and slot.card}
            assert_nothing_hidden(messages, set(threats) - face_up)
            assert all(holds(message, card) for message in messages for card in face_up)
            seen_face_up |= face_up
    assert seen_face_up == set(threats)
    assert phones.state.round == 2  # the row was shuffled face down again on the way


def test_leviathan_phones_never_get_a_face_down_threats_card_even_if_a_view_had_one() -> None:
    phones = Phones()
    phones.play({"cmd": "new_game", "game": "leviathan-wilds", "players": 2,
                 "difficulty": "easy", "leviathan": LEVIATHAN})
    view = phones.driver.state()
    assert view is not None
    view["threat_row"][3] = {"face_up": False, "wild": True, "card": threats_of(LEVIATHAN)[2]}
    public = GAMES["leviathan-wilds"].public_view(view)
    assert public["threat_row"][3] == {"face_up": False, "wild": True, "card": None}
    assert view["threat_row"][3]["card"] == threats_of(LEVIATHAN)[2]  # the table's is kept


# --- Glow ------------------------------------------------------------------------------------


def test_glow_phones_never_learn_the_seed() -> None:
    phones = Phones()
    lines = game_lines(2, "realm")
    for line in lines:
        assert_nothing_hidden(phones.play(line), set())
    assert phones.state.setup.seed == SEED  # the seed was there to be sent


# --- every game ------------------------------------------------------------------------------


def spirit_island_states(phones: Phones) -> Iterator[dict[str, Any]]:
    for new_game in SPIRIT_ISLAND_TABLES.values():
        table = _Table(fear_per_round=2, blight_every=2, blight_amount=2)
        phones.play({"cmd": "new_game", **new_game})
        for _ in range(120):
            state = phones.driver.state()
            assert state is not None
            yield state
            if state["outcome"] is not None:
                break
            phones.play(table.next_move(state))


def leviathan_states(phones: Phones) -> Iterator[dict[str, Any]]:
    phones.play({"cmd": "new_game", "game": "leviathan-wilds", "players": 2,
                 "difficulty": "easy", "leviathan": LEVIATHAN, "crystals": CRYSTALS})
    for turn in range(6):
        for command in leviathan_turn(threats_of(LEVIATHAN)[turn % 5]):
            state = phones.driver.state()
            assert state is not None
            yield state
            phones.play(command)


def glow_states(phones: Phones) -> Iterator[dict[str, Any]]:
    for line in game_lines(2, "sea"):
        phones.play(line)
        state = phones.driver.state()
        assert state is not None
        yield state


PLAYS: dict[str, Callable[[Phones], Iterator[dict[str, Any]]]] = {
    "spirit-island": spirit_island_states,
    "leviathan-wilds": leviathan_states,
    "glow": glow_states,
}


def test_every_game_says_what_its_phones_may_see_and_is_played_here() -> None:
    assert set(WHITELISTS) == set(PLAYS) == set(PAGE_READS) == set(GAMES)


def judged(view: Any, fields: PublicFields, path: str = "") -> Iterator[tuple[str, bool]]:
    """(field path, whether the whitelist names it) for every field of `view` it describes."""
    for key, value in view.items():
        where = f"{path}{key}"
        yield where, key in fields
        inner = fields.get(key)
        if isinstance(inner, Mapping):
            items = value if isinstance(value, list) else [value]
            for item in items:
                if isinstance(item, Mapping):
                    yield from judged(item, inner, where + ".")


def named_fields(fields: PublicFields, path: str = "") -> Iterator[str]:
    for key, inner in fields.items():
        yield f"{path}{key}"
        if isinstance(inner, Mapping):
            yield from named_fields(inner, f"{path}{key}.")


def at(view: Mapping[str, Any], path: str) -> Any:
    for key in path.split("."):
        view = view[key] if view is not None else None
    return view


@pytest.mark.parametrize("game", GAMES)
def test_each_field_of_a_games_view_is_judged_and_the_page_keeps_what_it_reads(
        game: str) -> None:
    """A field the view gains later reaches no phone until its game's whitelist names it;
    this names the field that needs judging."""
    phones = Phones()
    record = GAMES[game]
    unjudged: set[str] = set()
    present: set[str] = set()
    for view in PLAYS[game](phones):
        for path, known in judged(view, WHITELISTS[game]):
            present.add(path)
            if not known and path not in SESSION_FIELDS:
                unjudged.add(path)
        snapshot = StateSnapshot.of(phones.driver.service)
        assert snapshot is not None
        public = snapshot.public_view(view)
        for path in (*SHARED_READS, *PAGE_READS[game]):
            if path.split(".")[0] in view:
                assert at(public, path) == at(view, path), path
        view["a_field_added_tomorrow"] = {"secret": SEED}
        assert "a_field_added_tomorrow" not in record.public_view(view)
    assert not unjudged, f"{game}: fields nobody has judged public or hidden: {unjudged}"
    assert set(named_fields(WHITELISTS[game])) <= present, "a whitelist names no such field"
