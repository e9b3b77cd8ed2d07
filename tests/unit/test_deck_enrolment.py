"""Enrolling a deck: the cards named in order, a lay taken or refused, skip, back, coverage,
and a pause resumed from the registry."""

from __future__ import annotations

import pytest

from companion.deck_enrolment import (
    ELSEWHERE,
    ENROL,
    FINISHED,
    REPEAT,
    SAME,
    DeckWalk,
    KindCoverage,
    enrolment_games,
    game_deck,
)
from companion.games.registry import GAMES
from companion.reader.tags import TagMeaning, known_cards, progress

DECK = {"stone": ["s1", "s2", "s3"], "leaf": ["l1", "l2"]}


def walk(tags: dict[str, TagMeaning] | None = None, start_kind: str = "") -> DeckWalk:
    return DeckWalk("test-game", DECK, tags or {}, start_kind)


def named(deck: DeckWalk) -> tuple[str, str, int, int] | None:
    card = deck.current
    return None if card is None else (card.kind, card.card, card.number, card.of)


def lay(deck: DeckWalk, uid: str) -> str:
    """Lay `uid` and, as the screen does, take it when the walk would."""
    outcome = deck.read(uid).outcome
    if outcome in (ENROL, SAME):
        deck.taken(uid)
    return outcome


def test_the_walk_names_the_cards_kind_by_kind_in_the_decks_order() -> None:
    deck = walk()
    seen = []
    while deck.current is not None:
        seen.append(named(deck))
        assert lay(deck, f"UID{len(seen)}") == ENROL
    assert seen == [("stone", "s1", 1, 3), ("stone", "s2", 2, 3), ("stone", "s3", 3, 3),
                    ("leaf", "l1", 1, 2), ("leaf", "l2", 2, 2)]
    assert deck.read("UID9").outcome == FINISHED
    assert deck.coverage() == [KindCoverage("stone", 3, 3), KindCoverage("leaf", 2, 2)]
    assert deck.missing() == 0


def test_cards_that_have_a_tag_are_skipped_over() -> None:
    deck = walk({"A": TagMeaning("stone", "s1"), "B": TagMeaning("stone", "s3")})
    assert named(deck) == ("stone", "s2", 2, 3)
    lay(deck, "C")
    assert named(deck) == ("leaf", "l1", 1, 2)
    assert deck.coverage() == [KindCoverage("stone", 3, 3), KindCoverage("leaf", 0, 2)]


def test_the_tag_just_taken_laid_again_is_a_repeat_and_the_walk_stays() -> None:
    deck = walk()
    lay(deck, "A")
    lay_again = deck.read("A")
    assert (lay_again.outcome, lay_again.meaning) == (REPEAT, TagMeaning("stone", "s1"))
    assert named(deck) == ("stone", "s2", 2, 3)


def test_a_tag_of_another_card_is_refused_with_what_it_is() -> None:
    deck = walk({"X": TagMeaning("fear", "elsewhere")})
    answer = deck.read("X")
    assert (answer.outcome, answer.meaning) == (ELSEWHERE, TagMeaning("fear", "elsewhere"))
    assert named(deck) == ("stone", "s1", 1, 3)
    assert deck.coverage()[0] == KindCoverage("stone", 0, 3)


def test_a_tag_already_standing_for_the_card_named_moves_on_without_saving() -> None:
    deck = walk({"A": TagMeaning("stone", "s2")}, start_kind="stone")
    deck.start_at("stone", redo=True)
    assert named(deck) == ("stone", "s1", 1, 3)
    lay(deck, "B")
    assert deck.read("A").outcome == SAME
    deck.taken("A")
    assert named(deck) == ("stone", "s3", 3, 3)


def test_skip_moves_on_and_back_returns_and_forgets_only_what_this_walk_enrolled() -> None:
    deck = walk({"OLD": TagMeaning("leaf", "l1")})
    lay(deck, "A")
    deck.skip()
    assert named(deck) == ("stone", "s3", 3, 3)
    assert deck.back() is None  # s2 was skipped: no tag to forget
    assert named(deck) == ("stone", "s2", 2, 3)
    assert deck.back() == "A"  # s1 was enrolled by this walk: laid anew
    assert named(deck) == ("stone", "s1", 1, 3)
    assert deck.coverage()[0] == KindCoverage("stone", 0, 3)
    assert lay(deck, "A") == ENROL  # no longer a repeat: the tag was forgotten
    assert not walk().can_go_back


def test_a_walk_that_reaches_the_end_after_a_skip_says_so_and_back_reopens_the_last() -> None:
    deck = walk()
    for uid in ("A", "B", "C", "D"):
        lay(deck, uid)
    deck.skip()
    assert deck.current is None and deck.missing() == 1
    deck.back()
    assert named(deck) == ("leaf", "l2", 2, 2)


def test_resuming_comes_back_to_the_first_card_without_a_tag_in_the_registry() -> None:
    deck = walk()
    lay(deck, "A")
    deck.skip()
    lay(deck, "C")
    registry = {"A": TagMeaning("stone", "s1"), "C": TagMeaning("stone", "s3")}
    deck.resume(registry)
    assert named(deck) == ("stone", "s2", 2, 3)
    assert not deck.can_go_back
    # A walk started at a later kind resumes in it, and goes back to earlier gaps only when
    # every card from there on has a tag.
    later = walk(registry, start_kind="leaf")
    assert named(later) == ("leaf", "l1", 1, 2)
    later.resume({**registry, "D": TagMeaning("leaf", "l1"), "E": TagMeaning("leaf", "l2")})
    assert named(later) == ("stone", "s2", 2, 3)


def test_redoing_a_kind_names_each_of_its_cards_and_ends_with_it() -> None:
    tags = {uid: TagMeaning("stone", card) for uid, card in (("A", "s1"), ("B", "s2"),
                                                              ("C", "s3"))}
    deck = walk(tags)
    assert named(deck) == ("leaf", "l1", 1, 2)
    deck.start_at("stone", redo=True)
    assert named(deck) == ("stone", "s1", 1, 3)
    assert lay(deck, "A") == SAME
    assert lay(deck, "NEW") == ENROL  # a second tag for s2
    deck.resume(tags)  # a pause in a redo goes on where it was
    assert named(deck) == ("stone", "s3", 3, 3)
    deck.skip()
    assert deck.current is None
    deck.resume(tags)  # the redo is over: back to the cards without a tag
    assert named(deck) == ("leaf", "l1", 1, 2)
    with pytest.raises(ValueError, match="not a kind"):
        deck.start_at("nonsense")


def test_every_game_with_tag_kinds_gives_its_deck_in_its_kinds_order() -> None:
    assert enrolment_games() == [g.id for g in GAMES.listed() if g.tag_kinds]
    assert {"spirit-island", "leviathan-wilds", "glow"} <= set(enrolment_games())
    for game in enrolment_games():
        deck = game_deck(game)
        assert list(deck) == list(GAMES.listing(game).tag_kinds)
        assert all(deck.values()), game
        assert [c["id"] for c in GAMES[game].tag_cards()[next(iter(deck))]] == \
            deck[next(iter(deck))]
    spirit_island = DeckWalk("spirit-island", game_deck("spirit-island"), {})
    # The same totals as the tag screen's progress (the `tags` command's).
    totals = progress([], known_cards())
    assert [(c.kind, c.done, c.total) for c in spirit_island.coverage()] == [
        (kind, 0, totals[kind][1]) for kind in ("invader", "fear", "blight")]
    assert totals["fear"][1] == 50
