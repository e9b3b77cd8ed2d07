"""A pulled plug keeps the players' seats (issue 31): the desk tells its keeper every change of
its secrets, a restart takes up the kept ones for the same game (and only that game), and what
the settings file holds is read back, or ignored when it is not the seats' own."""

from __future__ import annotations

import configparser
from pathlib import Path

from companion.core.seats import Seat
from companion.mirror.seats import KeptSecrets, SeatDesk
from companion.ui.mirror_link import keep_seats, kept_seats

SEATS = [Seat(0, "Ana"), Seat(1, "Ben")]


def desk(kept: KeptSecrets | None = None) -> tuple[SeatDesk, list[KeptSecrets | None]]:
    told: list[KeptSecrets | None] = []
    return SeatDesk(lambda *_: {"ok": True}, kept=kept, keep=told.append), told


def secrets_of(seats: SeatDesk) -> dict[int, str]:
    return {seat.player: token for seat, token, _held in seats.seats()}


def test_the_keeper_hears_every_change_and_a_restart_takes_the_same_game_s_seats_up() -> None:
    first, told = desk()
    first.seat_up(7, SEATS)
    handed = secrets_of(first)
    assert told == [("7", handed)]
    first.seat_up(7, SEATS)  # the same seats again: nothing new to keep
    assert len(told) == 1
    first.revoke(1)
    assert told[-1] == ("7", secrets_of(first)) and secrets_of(first)[1] != handed[1]
    # The app restarts with what was kept: the same game's phones keep their seats.
    again, _ = desk(told[-1])
    again.seat_up(7, SEATS)
    assert secrets_of(again) == secrets_of(first)
    assert again.seat_of(secrets_of(first)[0]) == SEATS[0]
    assert again.seat_of(handed[1]) is None  # taken back before the restart: still taken back


def test_kept_seats_are_another_game_s_never_and_a_new_game_or_the_mirror_off_forgets_them(
        ) -> None:
    other, told = desk(("7", {0: "a" * 32, 1: "b" * 32}))
    other.seat_up(8, SEATS)
    assert "a" * 32 not in secrets_of(other).values()
    other.seat_up(7, SEATS)  # taken up once, at the first game shown, or never
    assert "a" * 32 not in secrets_of(other).values()
    other.end_all()
    assert told[-1] is None


def test_the_settings_file_keeps_them_and_anything_else_there_is_no_seat(tmp_path: Path) -> None:
    config = configparser.ConfigParser()
    config.read_dict({"mirror": {"on": "1", "token": "t", "seats": ""}})
    written: list[str] = []
    config.write = lambda *_args: written.append(config.get("mirror", "seats"))  # type: ignore
    keep_seats(config, ("12", {0: "x" * 32, 3: "y" * 32}))
    assert kept_seats(config.get("mirror", "seats")) == ("12", {0: "x" * 32, 3: "y" * 32})
    keep_seats(config, ("12", {0: "x" * 32, 3: "y" * 32}))
    assert len(written) == 1  # unchanged: not written again
    keep_seats(config, None)
    assert config.get("mirror", "seats") == "" and kept_seats("") is None
    for damaged in ("{", "[]", '{"game": 1}', '{"game": 1, "secrets": {"x": "y"}}', "null"):
        assert kept_seats(damaged) is None, damaged
