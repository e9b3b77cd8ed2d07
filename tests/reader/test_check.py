"""The reader check's model: the status in players' words from what the reader saw, the last
reads with their time and meaning, and the guided range test fed each family's read rhythm
on a pretend clock."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from companion.reader import check
from companion.reader.range_test import DONE, GOOD, HOLD, LAY, LIFT, UNMEASURABLE, WEAK, RangeTest
from companion.reader.watch import (
    PHANTOM,
    READ,
    STACKED,
    UNSTEADY,
    ReaderWatch,
    Sighting,
    WatchFollower,
)

JUNGLE = "04497622D93881"
STRANGER = "E63AE5D5"
NAMES = {JUNGLE: "Jungle (stage I)"}


def name_of(uid: str) -> str | None:
    return NAMES.get(uid)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def watch() -> tuple[ReaderWatch, Clock]:
    clock = Clock()
    watch = ReaderWatch(clock)
    watch.connection(True, "pn532", "/dev/ttyUSB0")
    return watch, clock


def said(words: check.Words) -> str:
    return words.said(str)


# --- the status ---------------------------------------------------------------------------


def test_no_reader_says_it_is_off_and_where_to_set_it() -> None:
    status = check.status(None, name_of)
    assert status.kind == check.OFF and "settings" in said(status.words)
    assert check.read_lines(None, name_of) == []


def test_a_line_down_says_why() -> None:
    watch = ReaderWatch(Clock())
    watch.connection(False, "pn532", "/dev/ttyUSB0", "the cable is out")
    status = check.status(watch.report(), name_of)
    assert status.kind == check.DOWN and said(status.words) == "Not connected: the cable is out"
    watch.connection(False, "auto", "auto")
    assert "looking for the reader" in said(check.status(watch.report(), name_of).words)


def test_connected_and_nothing_read_asks_for_a_card(watch: tuple[ReaderWatch, Clock]) -> None:
    reader, _clock = watch
    status = check.status(reader.report(), name_of)
    assert status.kind == check.WAITING and "Lay a card" in said(status.words)
    assert said(check.line_words(reader.report())) == "Reader pn532 on /dev/ttyUSB0"


def test_an_enrolled_card_is_named_with_its_reads_in_the_last_ten_seconds(
        watch: tuple[ReaderWatch, Clock]) -> None:
    reader, clock = watch
    for step in range(12):
        reader.saw(JUNGLE, UNSTEADY if step == 0 else READ, clock.now + step * 0.05)
    clock.now += 0.6
    status = check.status(reader.report(), name_of)
    assert status.kind == check.CARD and status.uid == JUNGLE
    assert said(status.words) == "Jungle (stage I): read 11 times in the last 10 s"
    reader.saw(STRANGER, READ, clock.now)
    NAMES[STRANGER] = "Sands (stage I)"
    try:
        assert said(check.status(reader.report(), name_of).words) == \
            "Sands (stage I): read once in the last 10 s"
    finally:
        del NAMES[STRANGER]
    clock.now += 11  # out of the window: the reader waits for a card again
    assert check.status(reader.report(), name_of).kind == check.WAITING


def test_an_unknown_tag_offers_enrolment(watch: tuple[ReaderWatch, Clock]) -> None:
    reader, clock = watch
    reader.saw(STRANGER, READ)
    status = check.status(reader.report(), name_of)
    assert (status.kind, status.uid) == (check.UNKNOWN, STRANGER)
    assert said(status.words) == f"Unknown tag {STRANGER}. Enrol it?"


def test_two_tags_at_once_are_said_and_name_no_card(watch: tuple[ReaderWatch, Clock]) -> None:
    reader, _clock = watch
    reader.saw(JUNGLE, READ)
    reader.saw(JUNGLE, STACKED)
    reader.saw(STRANGER, STACKED)
    status = check.status(reader.report(), name_of)
    assert status.kind == check.TWO_TAGS and status.uid is None
    assert "Two tags at once" in said(status.words)


def test_a_phantom_is_counted_and_never_shown_as_the_card(
        watch: tuple[ReaderWatch, Clock]) -> None:
    reader, clock = watch
    reader.saw("0000000000", PHANTOM)
    report = reader.report()
    assert check.status(report, name_of).kind == check.WAITING
    assert said(check.rate(report)).endswith("phantom reads ignored: 1")
    assert said(check.read_lines(report, name_of)[0].meaning).startswith("phantom read")
    reader.saw(JUNGLE, READ)
    reader.saw("0000000000", PHANTOM)  # after a card: the card stays the status
    assert check.status(reader.report(), name_of).uid == JUNGLE


def test_a_first_glimpse_asks_to_hold_the_card_still(watch: tuple[ReaderWatch, Clock]) -> None:
    reader, _clock = watch
    reader.saw(STRANGER, UNSTEADY)
    status = check.status(reader.report(), name_of)
    assert status.kind == check.GLIMPSE and "hold it still" in said(status.words)


def test_the_last_reads_say_when_and_what_each_meant(watch: tuple[ReaderWatch, Clock]) -> None:
    reader, clock = watch
    reader.saw(JUNGLE, UNSTEADY, 90.0)
    reader.saw(JUNGLE, READ, 95.0)
    reader.saw(STRANGER, READ, 99.5)
    reader.saw(STRANGER, STACKED, 99.8)
    lines = check.read_lines(reader.report(), name_of)
    assert [(said(line.ago), line.uid, said(line.meaning)) for line in lines] == [
        ("0.2 s ago", STRANGER, "two tags at once: ignored"),
        ("0.5 s ago", STRANGER, "unknown tag"),
        ("5.0 s ago", JUNGLE, "read: Jungle (stage I)"),
        ("10 s ago", JUNGLE, "first sight, waiting for a second read")]
    assert said(check.ago(125)) == "2 min ago"


def test_only_the_last_twenty_reads_are_listed_and_the_rate_counts_the_window(
        watch: tuple[ReaderWatch, Clock]) -> None:
    reader, clock = watch
    for step in range(50):
        reader.saw(JUNGLE, READ, clock.now - 9.9 + step * 0.1)
    report = reader.report()
    assert len(check.read_lines(report, name_of)) == 20
    assert said(check.rate(report)).startswith("5.0 reads a second")


def test_the_watch_hands_every_frame_since_a_moment_oldest_first(
        watch: tuple[ReaderWatch, Clock]) -> None:
    reader, clock = watch
    for step in range(40):
        reader.saw(JUNGLE, READ, clock.now - 2 + step * 0.05)
    frames = reader.since(clock.now - 1.0)
    assert len(frames) == 19 and frames[0].at < frames[-1].at


def test_the_watch_hands_empty_polls_and_a_follower_hands_each_frame_and_poll_once(
        watch: tuple[ReaderWatch, Clock]) -> None:
    reader, clock = watch
    reader.polled_nothing()  # before the follower's moment: not handed on
    follower = WatchFollower(reader, clock.now)
    for _ in range(2):
        clock.now += 0.25
        reader.polled_nothing()
        clock.now += 0.25
        reader.saw(JUNGLE, READ)
    assert follower.news() == ((Sighting(100.5, JUNGLE, READ), Sighting(101.0, JUNGLE, READ)),
                               (100.25, 100.75))
    assert follower.news() == ((), ())
    clock.now += 0.25
    reader.polled_nothing()
    assert follower.news() == ((), (clock.now,))
    clock.now += 11.0  # the empty polls, like the frames, are kept for the last 10 s
    reader.report()
    assert reader.empty_polls_since(0.0) == () and reader.since(0.0) == ()


# --- the range test -----------------------------------------------------------------------


def rhythm(uid: str, start: float, end: float, every: float,
           missing: Iterable[int] = ()) -> list[Sighting]:
    """Frames of `uid` every `every` seconds from `start` to before `end`, but the numbered
    ones in `missing`."""
    skipped = set(missing)
    count = round((end - start) / every)
    return [Sighting(start + index * every, uid, READ) for index in range(count)
            if index not in skipped]


def run(test: RangeTest, frames: list[Sighting], until: float, step: float = 0.25) -> None:
    """Feed the frames as a screen polling every `step` seconds would."""
    now = test.started
    while now < until and test.step != DONE:
        now += step
        test.feed([frame for frame in frames if now - step < frame.at <= now], now)


PN532, RDM6300 = 0.05, 0.1


@pytest.mark.parametrize(("family", "every"), [("pn532", PN532), ("em4100", RDM6300)])
def test_a_card_read_steadily_until_it_is_gone_has_a_good_range(family: str,
                                                                  every: float) -> None:
    test = RangeTest(0.0, family)
    assert test.step == LAY and "Lay the card" in said(test.prompt())
    run(test, [], 1.0)
    assert test.step == LAY
    frames = rhythm(JUNGLE, 1.0, 4.0, every, missing=[17])  # a poll missed now and then
    run(test, frames, 1.75)
    assert test.step == HOLD and test.uid == JUNGLE
    run(test, frames, 2.75)
    assert test.step == LIFT and "lift it slowly" in said(test.prompt())
    run(test, frames, 9.0)
    assert test.result is not None and test.result.band == GOOD
    assert "Nothing to do" in said(test.result.advice)
    assert "steady until the card was gone" in said(test.result.details)


def polled(frames: list[Sighting], start: float, end: float, every: float) -> list[float]:
    """When a reader polled every `every` seconds from `start` to before `end` found nothing:
    each poll time without a frame near it."""
    polls = [start + index * every for index in range(round((end - start) / every))]
    return [at for at in polls if all(abs(frame.at - at) > every / 2 for frame in frames)]


def run_polled(test: RangeTest, frames: list[Sighting], empty_polls: list[float],
               until: float, step: float = 0.25) -> None:
    """`run`, with the empty polls a polled reader tells handed on beside the frames."""
    now = test.started
    while now < until and test.step != DONE:
        now += step
        test.feed([frame for frame in frames if now - step < frame.at <= now], now,
                  [at for at in empty_polls if now - step < at <= now])


def test_a_polled_reader_s_host_busy_for_a_while_does_not_make_its_range_weak() -> None:
    # The host polled nothing for 0.4 s, three times while the card lay still and three times
    # as it was lifted (a loaded machine): no poll came back empty, so no read was missed.
    stalls = [(0.5, 0.9), (1.0, 1.4), (1.5, 1.9), (2.6, 3.0), (3.1, 3.5), (3.6, 4.0)]
    frames = [frame for frame in rhythm(JUNGLE, 0.0, 4.5, PN532)
              if not any(a < frame.at < b for a, b in stalls)]
    empty = polled(frames, 4.5, 9.0, PN532)  # lifted at 4.5: every poll from then is empty
    test = RangeTest(0.0, "pn532")
    run_polled(test, frames, empty, 9.0)
    assert test.result is not None and test.result.band == GOOD, said(test.result.details)
    # Without the empty polls to tell them apart, the same silences are gaps.
    test = RangeTest(0.0, "pn532")
    run(test, frames, 9.0)
    assert test.result is not None and test.result.band == WEAK


def test_a_polled_reader_s_empty_polls_over_a_long_stretch_of_the_lift_are_weak() -> None:
    steady = rhythm(JUNGLE, 0.0, 2.5, PN532)
    stutter = [frame for start in (2.8, 3.3, 3.8, 4.3, 4.8)
               for frame in rhythm(JUNGLE, start, start + 2 * PN532, PN532)]
    frames = steady + stutter
    test = RangeTest(0.0, "pn532")
    run_polled(test, frames, polled(frames, 0.0, 9.0, PN532), 9.0)
    assert test.result is not None and test.result.band == WEAK
    assert "5 gaps" in said(test.result.details)


def test_one_empty_poll_is_no_gap_and_a_stall_while_lying_is_no_lift() -> None:
    frames = [frame for frame in rhythm(JUNGLE, 0.0, 5.0, PN532)
              if not 0.3 < frame.at < 1.4 and not 3.0 < frame.at < 3.3]
    empty = [3.15] + polled(frames, 5.0, 9.0, PN532)  # one empty poll in the second silence
    test = RangeTest(0.0, "pn532")
    run_polled(test, frames, empty, 3.5)
    assert test.step == LIFT  # the 1.1 s stall in the hold was not taken for a lift
    run_polled(test, frames, empty, 9.0)
    assert test.result is not None and test.result.band == GOOD
    assert "steady until the card was gone" in said(test.result.details)


def test_a_polled_card_is_gone_only_after_eight_empty_polls() -> None:
    # Lifted at 3.0 for 1.5 s, but the busy host polled only four times: not gone yet; laid
    # again, read on, then lifted for good and every poll finds nothing.
    frames = [frame for frame in rhythm(JUNGLE, 0.0, 6.0, PN532) if not 3.0 < frame.at < 4.5]
    empty = [3.3, 3.6, 3.9, 4.2] + polled(frames, 6.0, 9.0, PN532)
    test = RangeTest(0.0, "pn532")
    run_polled(test, frames, empty, 4.75)
    assert test.step == LIFT
    run_polled(test, frames, empty, 9.0)
    assert test.result is not None and test.result.band == WEAK  # the long stutter, and gone
    assert "1 gaps" in said(test.result.details)


def test_a_card_that_stutters_at_the_very_edge_is_still_good() -> None:
    steady = rhythm(JUNGLE, 0.0, 3.0, PN532)
    edge = rhythm(JUNGLE, 3.2, 3.3, PN532)  # one gap, a last pair of reads, gone
    test = RangeTest(0.0, "pn532")
    run(test, steady + edge, 6.0)
    assert test.result is not None and test.result.band == GOOD


@pytest.mark.parametrize(("family", "every"), [("pn532", PN532), ("em4100", RDM6300)])
def test_reads_stuttering_over_a_long_stretch_of_the_lift_are_weak(family: str,
                                                                   every: float) -> None:
    steady = rhythm(JUNGLE, 0.0, 2.5, every)
    stutter = [frame for start in (2.8, 3.3, 3.8, 4.3, 4.8)
               for frame in rhythm(JUNGLE, start, start + 2 * every, every)]
    test = RangeTest(0.0, family)
    run(test, steady + stutter, 9.0)
    assert test.result is not None and test.result.band == WEAK
    assert "closer to the surface" in said(test.result.advice)
    assert "5 gaps" in said(test.result.details)


def test_reads_that_stutter_while_the_card_lies_flat_are_weak_at_once() -> None:
    frames = rhythm(JUNGLE, 0.0, 3.0, PN532, missing=[5, 6, 7, 14, 15, 16, 24, 25, 26])
    test = RangeTest(0.0, "pn532")
    run(test, frames, 2.0)
    assert test.step == DONE and test.result is not None and test.result.band == WEAK
    assert "even while the card lies flat" in said(test.result.advice)


@pytest.mark.parametrize("family", ["em4100", "line"])
def test_a_reader_that_sends_a_card_once_per_lay_says_it_cannot_measure(family: str) -> None:
    test = RangeTest(0.0, family)
    run(test, [Sighting(0.5, JUNGLE, READ)], 3.0)
    assert test.result is not None and test.result.band == UNMEASURABLE
    assert "only once" in said(test.result.advice)


def test_a_card_lifted_before_it_was_measured_is_asked_for_again() -> None:
    test = RangeTest(0.0, "pn532")
    run(test, rhythm(JUNGLE, 0.5, 0.9, PN532), 2.5)
    assert test.step == LAY and test.note is not None and "too soon" in said(test.note)
    run(test, [Sighting(3.0, JUNGLE, READ)], 4.5)  # one poll: brushed past, not a once-reader
    assert test.step == LAY and test.result is None
    later = rhythm(STRANGER, 5.0, 7.0, PN532)
    run(test, later, 9.0)
    assert test.uid == STRANGER and test.result is not None and test.result.band == GOOD


def test_two_tags_start_the_test_over_and_phantoms_and_other_tags_are_ignored() -> None:
    test = RangeTest(0.0, "pn532")
    test.feed([Sighting(0.1, JUNGLE, READ), Sighting(0.15, JUNGLE, STACKED),
               Sighting(0.15, STRANGER, STACKED)], 0.2)
    assert test.step == LAY and test.note is not None and "Two tags" in said(test.note)
    frames = rhythm(JUNGLE, 1.0, 4.0, PN532)
    noise = [Sighting(2.0, "0000000000", PHANTOM), Sighting(2.01, STRANGER, UNSTEADY)]
    run(test, sorted(frames + noise, key=lambda frame: frame.at), 7.0)
    assert test.uid == JUNGLE and test.result is not None and test.result.band == GOOD
    assert test.note is None


def test_tenths_are_written_with_the_players_decimal_sign() -> None:
    from companion.i18n import decimal_sign, translations

    words = check.ago(2.5)
    assert words.said(str) == "2.5 s ago"
    german = translations("de").gettext
    assert words.said(german, decimal_sign("de")) == german("{seconds} s ago").format(
        seconds="2,5")
    assert "2,5" in words.said(translations("fr").gettext, decimal_sign("fr"))
    assert decimal_sign("en") == "."
