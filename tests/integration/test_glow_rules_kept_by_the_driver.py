"""Glow's promises through `companion script` as a real process: the setup roll and the
evening's return count every small die, board moves wait for the afternoon unless sent as a
correction, one boat moves a day; refusals in the driver's language change nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

NEXT = {"cmd": "next", "confirm": True}
LINES: list[dict[str, Any]] = [
    {"cmd": "new_game", "game": "glow", "players": 2, "board": "sea", "start_player": 0,
     "seed": 3},
    {"cmd": "dice", "dice": [2, 2, 2, 2, 2]},                          # 1 refused: 10 dice
    {"cmd": "dice", "dice": [2, 2, 2, 2, 1]},                          # 2
    {"cmd": "boat", "player": 0, "boat": 0, "island": 2},              # 3 refused: morning
    {"cmd": "boat", "player": 0, "boat": 0, "island": 2, "correction": True},  # 4
    NEXT, NEXT, NEXT,                                                  # to the afternoon
    {"cmd": "boat", "player": 1, "boat": 3, "island": 4},              # 8
    {"cmd": "boat", "player": 1, "boat": 2, "island": 5},              # 9 refused: 2nd boat
    NEXT,                                                              # the evening
    {"cmd": "dice", "dice": [1, 1, 1, 1, 1]},                          # 11 refused: 5 dice
]
REFUSED = {1: {"en": "the start player rolls all 9 small dice at setup; these areas hold 10",
               "de": "beim Aufbau wirft der Startspieler alle 9 kleinen Würfel; in diesen "
                     "Bereichen liegen 10"},
           3: {"en": "boats move only in the afternoon; it is the morning now. To put a marker "
                     "right, send correction: true",
               "de": "Boote fahren: nur am Nachmittag; jetzt ist „Morgen“. Um einen Marker "
                     "richtigzustellen, correction: true senden"},
           9: {"en": "player 1 has moved boat 3 today already: one boat moves a day. Undo to "
                     "change that move, or send correction: true to put a boat right"},
           11: {"en": "in the evening all 9 small dice go back to the track; these areas hold 5",
                "fr": "le soir, les 9 petits dés reviennent tous sur la piste ; ces zones en "
                      "contiennent 5"}}


def play(lang: str) -> list[dict[str, Any]]:
    lines = "".join(json.dumps(line) + "\n" for line in LINES)
    done = subprocess.run([sys.executable, "-m", "companion", "script", "--lang", lang],
                          input=lines.encode(), capture_output=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.decode().splitlines()]


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_the_driver_keeps_glows_dice_count_and_board_moves(lang: str) -> None:
    answers = play(lang)
    assert len(answers) == len(LINES)
    for k, answer in enumerate(answers):
        if k in REFUSED:
            assert not answer["ok"], (k, answer)
            assert answer["state"] == answers[k - 1]["state"]  # nothing changed
            if lang in REFUSED[k]:
                assert answer["error"] == REFUSED[k][lang]
        else:
            assert answer["ok"], (k, answer)
    assert [p["boats"] for p in answers[-1]["state"]["players"]] == [[2, 0, 0, 0], [0, 0, 0, 4]]
