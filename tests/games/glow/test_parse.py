"""Reading Glow's commands: bad input is refused with a sentence that says what to send, and the
setup checklist and the view's texts follow the table that was chosen."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.errors import Refused
from companion.games.glow import api as glow

from .play import new, to_phase

START = {"cmd": "new_game", "game": "glow", "players": 3, "board": "realm"}


@pytest.mark.parametrize(("raw", "says"), [
    ({**START, "players": 5}, "players must be between 2 and 4"),
    ({**START, "players": 1}, "players must be between 2 and 4"),
    ({**START, "board": "moon"}, "board must be realm, sea"),
    ({**START, "mode": "quick"}, "mode must be full, scoring"),
    ({**START, "names": ["", "Bo"]}, "1 to 40 characters"),
    ({**START, "adventurers": ["Eoles"]}, "adventurers must be"),
    ({**START, "reroll_spaces": [5, 3]}, "lowest first"),
    ({"cmd": "new_game", "game": "glow", "players": 3}, "needs the field 'board'"),
    ({"cmd": "score", "player": 0, "amount": 0}, "must not be 0"),
    ({"cmd": "score", "player": 0, "amount": True}, "whole number"),
    ({"cmd": "rerolls", "player": 4, "amount": 1}, "player must be between 0 and 3"),
    ({"cmd": "pick", "player": 0, "area": 6}, "area must be between 1 and 5"),
    ({"cmd": "companion", "player": 0, "card": "Lumipili"}, "one of the ids"),
    ({"cmd": "dice", "dice": [1, 2, 3]}, "5 to 5 entries"),
    ({"cmd": "dice", "dice": [3, 3, 3, 3, 3]}, "only 10 small dice"),
    ({"cmd": "boat", "player": 0, "boat": 0, "island": 1, "route": [4, 2]},
     "low ≤ high"),
    ({"cmd": "next", "confirm": "yes"}, "true or false"),
    ({"cmd": "end_score", "player": 0, "cards": 1}, "needs the field"),
    ({"cmd": "fear"}, "unknown command"),
])
def test_bad_input_is_refused_saying_what_is_wrong(raw: dict[str, Any], says: str) -> None:
    with pytest.raises(Refused, match=says):
        glow.parse_command(raw)


def test_new_game_refuses_a_table_it_cannot_seat() -> None:
    with pytest.raises(Refused, match="no player 3"):
        new(players=3, start_player=3)
    with pytest.raises(Refused, match="4 names were given for 3 players"):
        new(players=3, names=["A", "B", "C", "D"])
    with pytest.raises(Refused, match="one player only"):
        new(players=2, adventurers=["glow-adv-eoles", "glow-adv-eoles"])


def test_the_setup_checklist_follows_the_board_side_and_the_player_count() -> None:
    realm = dict(glow.setup_checklist(new(players=2, board="realm", names=["Ada", "Bo"])))
    sea = dict(glow.setup_checklist(new(players=3, board="sea")))
    assert "glow-setup-realm" in realm and "glow-setup-sea" not in realm
    assert "glow-setup-two" in realm and "glow-setup-two" not in sea
    assert "4 boats" in sea["glow-setup-sea"]
    assert realm["glow-setup-start"].startswith("Ada starts") and "Bo, to their right" in realm[
        "glow-setup-start"]
    assert "Realm of Shadows" in realm["glow-setup-board"]


@pytest.mark.parametrize("board", ["realm", "sea"])
def test_each_phase_has_its_own_prompt_and_reminders(board: str) -> None:
    state = new(board=board)
    seen = set()
    for phase in ("morning", "late_morning", "noon", "afternoon", "evening"):
        state = to_phase(state, phase)
        view = glow.view(state)
        seen.add(view["prompt"]["id"])
        assert view["reminders"] and all(r["text"] for r in view["reminders"])
        assert (view["gate"] is not None) == (phase in ("noon", "afternoon"))
    assert f"glow-prompt-afternoon-{board}" in seen and len(seen) == 5


def test_a_view_in_another_language_changes_the_texts_and_nothing_else() -> None:
    state = to_phase(new(), "noon")
    english = glow.view(state)
    loud = glow.view(state, lambda text: "»" + text)
    assert loud["prompt"]["text"] == "»" + english["prompt"]["text"]
    assert loud["gate"]["text"] == "»" + english["gate"]["text"]
    assert loud["players"][0]["name"] == "»Player 1"
    assert [p["score"] for p in loud["players"]] == [p["score"] for p in english["players"]]
    assert {k: v for k, v in loud.items() if k not in ("prompt", "gate", "reminders",
                                                        "phase_name", "board_name", "players")} \
        == {k: v for k, v in english.items() if k not in ("prompt", "gate", "reminders",
                                                           "phase_name", "board_name",
                                                           "players")}
