"""The screen's sleep, on a clock the test moves: dimmed after the settings' minutes without a
touch, dark after more, dark after a minute in the night window (across midnight too), never
with the settings off; a touch or a poke wakes it, and the touch that wakes goes no further."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import pytest

from companion.ui.sleep import (
    AWAKE,
    DIM,
    NIGHT_OFF_AFTER,
    OFF,
    SleepTimes,
    SleepWatch,
    at_night,
    sleep_state,
)

MINUTE = 60.0


class Recorded:
    """A stand-in for the screen's darkness: the states it was asked to show, in order."""

    def __init__(self) -> None:
        self.shown: list[str] = []

    def show(self, state: str) -> None:
        self.shown.append(state)

    def forget(self) -> None:
        pass


@dataclass
class Touch:
    uid: int


class Clock:
    def __init__(self, hour: int = 15) -> None:
        self.seconds = 1000.0
        self.hour = hour

    def now(self) -> float:
        return self.seconds

    def wall(self) -> datetime:
        return datetime(2025, 3, 1, self.hour, 30)


def watch(settings: dict[str, str], hour: int = 15) -> tuple[SleepWatch, Clock, Recorded]:
    clock, darkness = Clock(hour), Recorded()
    return (SleepWatch(darkness, SleepTimes.of(settings), now=clock.now, wall=clock.wall),
            clock, darkness)


def test_the_screen_dims_at_n_minutes_and_goes_dark_at_m() -> None:
    sleep, clock, darkness = watch({"dim_after": "5", "off_after": "15", "night": "off"})
    clock.seconds += 5 * MINUTE - 1
    assert sleep.check() == AWAKE and darkness.shown == []
    clock.seconds += 1
    assert sleep.check() == DIM and darkness.shown == [DIM]
    clock.seconds += 10 * MINUTE - 1
    assert sleep.check() == DIM
    clock.seconds += 1
    assert sleep.check() == OFF and darkness.shown == [DIM, OFF]
    clock.seconds += 60 * MINUTE
    assert sleep.check() == OFF and darkness.shown == [DIM, OFF]  # told once


def test_the_defaults_dim_at_half_an_hour_and_go_dark_at_an_hour() -> None:
    sleep, clock, _darkness = watch({})
    clock.seconds += 29 * MINUTE  # a long Spirit phase without a touch: still bright
    assert sleep.check() == AWAKE
    clock.seconds += 1 * MINUTE
    assert sleep.check() == DIM
    clock.seconds += 30 * MINUTE
    assert sleep.check() == OFF


def test_a_poke_wakes_the_screen_and_the_minutes_count_again_from_it() -> None:
    sleep, clock, darkness = watch({"dim_after": "2", "off_after": "15"})
    clock.seconds += 20 * MINUTE
    assert sleep.check() == OFF
    sleep.poke()
    assert sleep.state == AWAKE and darkness.shown == [OFF, AWAKE]
    clock.seconds += 2 * MINUTE - 1
    assert sleep.check() == AWAKE
    clock.seconds += 1
    assert sleep.check() == DIM


def test_settings_off_keep_the_screen_awake_for_ever() -> None:
    sleep, clock, darkness = watch({"dim_after": "off", "off_after": "off", "night": "off"})
    clock.seconds += 48 * 60 * MINUTE
    assert sleep.check() == AWAKE and darkness.shown == []


def test_dark_sooner_than_dim_goes_straight_to_dark() -> None:
    sleep, clock, darkness = watch({"dim_after": "30", "off_after": "15"})
    clock.seconds += 15 * MINUTE
    assert sleep.check() == OFF and darkness.shown == [OFF]


@pytest.mark.parametrize("hour, night", [(23, True), (0, True), (3, True), (6, True),
                                         (7, False), (12, False), (21, False), (22, True)])
def test_the_night_window_runs_across_midnight(hour: int, night: bool) -> None:
    assert at_night(hour, (22, 7)) is night
    times = SleepTimes.of({"dim_after": "off", "off_after": "off", "night": "22-7"})
    expected = OFF if night else AWAKE
    assert sleep_state(NIGHT_OFF_AFTER, times, hour) == expected
    assert sleep_state(NIGHT_OFF_AFTER - 1, times, hour) == AWAKE


def test_a_night_window_from_midnight_ends_at_seven() -> None:
    assert [at_night(hour, (0, 7)) for hour in (23, 0, 6, 7)] == [False, True, True, False]


def test_at_night_the_screen_goes_dark_a_minute_after_the_last_touch() -> None:
    sleep, clock, darkness = watch({"dim_after": "10", "off_after": "30", "night": "23-7"},
                                   hour=2)
    clock.seconds += MINUTE
    assert sleep.check() == OFF and darkness.shown == [OFF]
    clock.hour = 9  # morning: the day's times again
    sleep.poke()
    clock.seconds += 5 * MINUTE
    assert sleep.check() == AWAKE


def test_a_hand_edited_value_reads_as_the_default() -> None:
    assert SleepTimes.of({"dim_after": "7", "off_after": "soon", "night": "21-6"}) == \
        SleepTimes.of({})
    assert SleepTimes.of({}) == SleepTimes(dim_after=30 * MINUTE, off_after=60 * MINUTE,
                                           night=None)


def test_new_times_take_effect_at_once_counting_from_the_last_touch() -> None:
    sleep, clock, _darkness = watch({"dim_after": "30", "off_after": "60"})
    clock.seconds += 3 * MINUTE
    assert sleep.check() == AWAKE
    sleep.set_times(SleepTimes.of({"dim_after": "2", "off_after": "60"}))
    assert sleep.state == DIM


def test_the_touch_that_wakes_the_screen_is_swallowed_down_move_and_lift() -> None:
    sleep, clock, _darkness = watch({"dim_after": "2", "off_after": "15"})
    clock.seconds += 15 * MINUTE
    sleep.check()
    waking, later = Touch(1), Touch(2)
    assert sleep._touch_down(None, waking) is True
    assert sleep.state == AWAKE
    assert sleep._touch_move(None, waking) is True
    assert sleep._touch_down(None, later) is False  # a second finger on an awake screen
    assert sleep._touch_up(None, waking) is True
    assert sleep._touch_up(None, later) is False
    assert sleep._touch_down(None, Touch(3)) is False


def test_a_dimmed_screen_is_woken_by_a_touch_that_is_swallowed_too() -> None:
    sleep, clock, darkness = watch({"dim_after": "2", "off_after": "15"})
    clock.seconds += 3 * MINUTE
    assert sleep.check() == DIM
    assert sleep._touch_down(None, Touch(7)) is True
    assert darkness.shown == [DIM, AWAKE]


def test_a_touch_on_an_awake_screen_counts_as_activity_and_goes_on() -> None:
    sleep, clock, _darkness = watch({"dim_after": "2", "off_after": "15"})
    clock.seconds += 2 * MINUTE - 1
    assert sleep._touch_down(None, Touch(9)) is False
    assert sleep._touch_up(None, Touch(9)) is False
    clock.seconds += 2 * MINUTE - 1
    assert sleep.check() == AWAKE
