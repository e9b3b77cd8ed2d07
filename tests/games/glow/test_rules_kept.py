"""Rules the model used to let slip: all small dice on the track after the setup roll and the
evening's return, Kaar's owner as whoever holds Kaar now, and board moves kept to the afternoon,
one boat a day (a correction puts a marker right at any time)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.errors import Refused
from companion.games.glow import api as glow

from .play import do, done, new, send, to_phase

KAAR, CROMAUG = "glow-A20", "glow-B18"


def refused(state: glow.State, cmd: str, match: str, **fields: Any) -> None:
    """Refused with words saying why, and nothing changed (the state is a value)."""
    with pytest.raises(Refused, match=match):
        send(state, cmd, **fields)


# --- the setup roll and the evening's return (002:178, 002:422) ---------------------------------


@pytest.mark.parametrize("dice", [[2, 2, 2, 2, 0], [3, 2, 2, 2, 1], [0, 0, 0, 0, 0]])
def test_the_setup_roll_puts_all_nine_small_dice_on_the_track(dice: list[int]) -> None:
    state = new(players=3)
    refused(state, "dice", f"rolls all 9 small dice at setup; these areas hold {sum(dice)}",
            dice=dice)
    assert do(state, "dice", dice=[2, 2, 0, 3, 2]).areas[2].trails == 1


def test_the_evening_returns_all_nine_small_dice() -> None:
    state = to_phase(new(players=3), "evening")
    refused(state, "dice", "all 9 small dice go back to the track; these areas hold 8",
            dice=[2, 2, 2, 2, 0])
    assert do(state, "dice", dice=[1, 2, 2, 2, 2]).dice_entered


def test_once_kaar_has_brought_the_black_die_the_evening_returns_ten() -> None:
    state = do(new(players=3), "dice", dice=[2, 2, 2, 2, 1])
    state = do(state, "pick", player=0, area=1, card=KAAR)
    assert state.black_die
    state = to_phase(state, "evening")
    refused(state, "dice", "all 10 small dice go back to the track, the black die among them; "
            "these areas hold 9", dice=[2, 2, 2, 2, 1])
    state = do(state, "dice", dice=[2, 2, 2, 2, 2])
    # Kaar in the graveyard: the black die stays in play, so it is still ten.
    state = do(to_phase(done(state), "evening"), "companion", player=0, card=KAAR, remove=True)
    refused(state, "dice", "all 10 small dice", dice=[3, 2, 2, 1, 1])
    assert do(state, "dice", dice=[3, 2, 2, 2, 1]).dice_entered


# --- Kaar's owner (002:591, 002:605) -----------------------------------------------------------


def kaar_reminder(state: glow.State) -> str | None:
    return next((r["text"] for r in glow.view(state)["reminders"]
                 if r["id"] == "glow-rem-kaar-owner"), None)


def test_cromaug_fetching_kaar_from_the_graveyard_makes_its_new_holder_kaars_owner() -> None:
    state = new(players=3, names=["Ada", "Bo", "Cy"])
    state = do(state, "companion", player=0, card=KAAR)
    state = do(state, "companion", player=1, card=CROMAUG)
    assert state.kaar_owner == 0
    state = to_phase(state, "noon")
    state = do(state, "companion", player=0, card=KAAR, remove=True)  # Kaar leaves Ada's row
    assert state.kaar_owner is None and state.black_die
    # Bo's dice show air: Cromaug goes to the graveyard and Bo takes Kaar from it.
    state = do(state, "companion", player=1, card=CROMAUG, remove=True)
    state = do(state, "companion", player=1, card=KAAR)
    assert state.kaar_owner == 1
    state = to_phase(state, "morning", day=2)
    reminder = kaar_reminder(state)
    assert reminder is not None and reminder.startswith("Bo owns Kaar")


def test_nobody_owns_kaar_while_it_lies_in_the_graveyard() -> None:
    state = do(new(players=2, names=["Ada", "Bo"]), "companion", player=0, card=KAAR)
    assert kaar_reminder(to_phase(state, "morning", day=2)) is not None
    state = do(state, "companion", player=0, card=KAAR, remove=True)
    state = to_phase(state, "morning", day=2)
    assert state.kaar_owner is None and kaar_reminder(state) is None


# --- board moves in the afternoon, one boat a day (002:249, 002:410, 002:426) -------------------


@pytest.mark.parametrize("phase", ["morning", "late_morning", "noon", "evening"])
def test_a_boat_moves_only_in_the_afternoon_unless_it_is_a_correction(phase: str) -> None:
    state = to_phase(new(players=2, board="sea"), phase)
    refused(state, "boat", "boats move only in the afternoon; it is the .* now. To put a "
            "marker right, send correction: true", player=0, boat=0, island=2)
    state = do(state, "boat", player=0, boat=0, island=2, correction=True)
    assert state.players[0].boats == (2, 0, 0, 0)


def test_a_camp_moves_only_in_the_afternoon_unless_it_is_a_correction() -> None:
    state = to_phase(new(players=2), "noon")
    refused(state, "camp", "the camp moves only in the afternoon; it is the noon now",
            player=1, value=5)
    assert do(state, "camp", player=1, value=5, correction=True).players[1].camp == 5
    assert do(done(state), "camp", player=1, value=5).players[1].camp == 5


def test_only_one_of_a_players_own_boats_moves_a_day() -> None:
    state = to_phase(new(players=2, board="sea"), "afternoon")
    state = do(state, "boat", player=0, boat=0, island=3)
    refused(state, "boat", "player 0 has moved boat 0 today already: one boat moves a day",
            player=0, boat=1, island=4)
    refused(state, "boat", "one boat moves a day", player=0, boat=0, island=5)
    state = do(state, "boat", player=1, boat=2, island=3)  # each player has their own move
    state = do(state, "boat", player=0, boat=1, island=4, correction=True)
    assert state.players[0].boats == (3, 4, 0, 0)
    state = to_phase(state, "afternoon", day=2)
    state = do(state, "boat", player=0, boat=1, island=6)  # a new day, a new move
    assert state.players[0].boats == (3, 6, 0, 0)


def test_a_correction_first_does_not_use_up_the_days_move() -> None:
    state = to_phase(new(players=2, board="sea"), "afternoon")
    state = do(state, "boat", player=0, boat=3, island=1, correction=True)
    state = do(state, "boat", player=0, boat=0, island=2)
    assert state.players[0].boats == (2, 0, 0, 1)


def test_the_days_boat_move_survives_a_snapshot_and_a_correction_round_trips() -> None:
    state = do(to_phase(new(players=2, board="sea"), "afternoon"), "boat", player=0, boat=0,
               island=3)
    assert glow.state_from_record(glow.state_to_record(state)) == state
    command = glow.parse_command({"cmd": "boat", "player": 0, "boat": 1, "island": 2,
                                  "correction": True})
    assert glow.parse_command(glow.command_to_dict(command)) == command
    with pytest.raises(Refused, match="correction must be true or false"):
        glow.parse_command({"cmd": "camp", "player": 0, "value": 3, "correction": "yes"})
