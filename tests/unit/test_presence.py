"""The presence rules: when a tag counts as laid on the reader and when as lifted."""

from __future__ import annotations

from companion.reader.presence import Change, PresenceTracker


def test_the_first_sighting_is_present_and_repeats_are_not():
    tracker = PresenceTracker(removal_after=0.5)
    assert tracker.sighted("A", 0.0) == [Change("present", "A")]
    assert tracker.sighted("A", 0.2) == []
    assert tracker.sighted("A", 0.6) == []  # seen again before the silence ran out
    assert tracker.present == ["A"]


def test_a_tag_not_seen_for_the_removal_time_is_lifted_once():
    tracker = PresenceTracker(removal_after=0.5)
    tracker.sighted("A", 0.0)
    assert tracker.expire(0.49) == []
    assert tracker.expire(0.5) == [Change("removed", "A")]
    assert tracker.expire(5.0) == []
    assert tracker.present == []


def test_a_tag_seen_again_within_the_cooldown_is_the_same_read():
    tracker = PresenceTracker(removal_after=0.5, cooldown=1.0)
    tracker.sighted("A", 0.0)
    tracker.expire(0.5)
    assert tracker.sighted("A", 1.0) == []  # 0.5 s after it was lifted
    assert tracker.present == []
    assert tracker.sighted("A", 1.6) == [Change("present", "A")]  # 1.1 s after


def test_two_cards_swapped_give_a_removal_and_a_new_presence():
    tracker = PresenceTracker(removal_after=0.3)
    tracker.sighted("A", 0.0)
    changes = tracker.sighted("B", 0.4)
    assert changes == [Change("removed", "A"), Change("present", "B")]


def test_the_next_deadline_is_the_oldest_sighting_plus_the_removal_time():
    tracker = PresenceTracker(removal_after=0.5)
    assert tracker.next_deadline() is None
    tracker.sighted("A", 1.0)
    tracker.sighted("B", 1.2)
    assert tracker.next_deadline() == 1.5


def test_a_bridge_saying_removed_lifts_the_tag_at_once():
    tracker = PresenceTracker(removal_after=5.0)
    tracker.sighted("A", 0.0)
    assert tracker.lifted("A", 0.1) == [Change("removed", "A")]
    assert tracker.lifted("A", 0.2) == []  # not present any more: nothing to say


def test_a_card_left_on_the_reader_while_the_line_was_down_is_not_laid_again():
    tracker = PresenceTracker(removal_after=0.5)
    tracker.sighted("A", 0.0)
    tracker.pause(0.1)
    assert tracker.expire(30.0) == []  # nothing can be seen while the cable is out
    assert tracker.next_deadline() is None
    tracker.resume(30.0)
    assert tracker.sighted("A", 30.2) == []  # the same card, still lying there
    assert tracker.expire(30.6) == []
    assert tracker.expire(30.7) == [Change("removed", "A")]


def test_a_card_lifted_while_the_line_was_down_is_removed_after_it_comes_back():
    tracker = PresenceTracker(removal_after=0.5)
    tracker.sighted("A", 0.0)
    tracker.pause(0.1)
    tracker.resume(10.0)
    assert tracker.expire(10.4) == []
    assert tracker.expire(10.5) == [Change("removed", "A")]


def test_a_card_laid_before_the_one_lifted_counts_as_gone_is_still_read_steadily_once():
    """Enrolling a deck, the next card goes on the reader at once: it waits (read all the
    while) until the card before counts as lifted, and is steady once, never not at all."""
    tracker = PresenceTracker(removal_after=0.4)
    changes = []
    now = 0.0
    for uid, polls in (("A", 5), ("B", 14)):
        for _ in range(polls):
            changes += tracker.see([uid], now).changes
            now += 0.05
    assert [(change.event, change.uid) for change in changes] == [
        ("present", "A"), ("steady", "A"), ("removed", "A"), ("present", "B"),
        ("steady", "B")]
