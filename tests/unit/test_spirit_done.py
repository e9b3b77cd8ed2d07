"""Spirit Island's "I'm done" for the Spirit phase (issue 31): each spirit's player says it from
their phone, the table's prompt and banner say who is still growing, the step button stays the
table's, and what was said lasts only for that round's Spirit phase."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.core.errors import Refused
from companion.core.seats import seat_lines
from companion.games.spirit_island import commands as c
from companion.games.spirit_island.codec import state_from_record, state_to_record
from companion.games.spirit_island.game import decide, start
from companion.games.spirit_island.state import GameState
from companion.games.spirit_island.table_words import banner_lines, describe_command
from companion.games.spirit_island.view import state_view
from companion.i18n import translations
from tests.unit.test_seats import started, view


def in_the_spirit_phase(players: int = 3) -> GameState:
    state, _ = start(c.NewGame(players=players, seed=4))
    while state.phase != "spirit":
        state, _ = decide(state, c.Next())
    return state


def said(state: GameState, spirit: int, done: bool = True) -> tuple[GameState, dict[str, Any]]:
    state, events = decide(state, c.SpiritDone(spirit, done))
    assert len(events) == 1
    return state, events[0].to_dict()


def test_the_prompt_says_who_is_still_growing_once_a_spirit_is_done() -> None:
    state = in_the_spirit_phase()
    plain = state_view(state)["prompt"]
    assert "growing" not in plain  # a table without phones hears nothing of it
    state, event = said(state, 1)
    assert event == {"type": "spirit_done", "spirit": 1, "done": True, "still": [0, 2]}
    assert state_view(state)["prompt"] == f"{plain} Still growing: Spirit 1 and Spirit 3."
    assert state_view(state)["spirits_done"] == [1]
    state, _ = said(state, 0)
    state, event = said(state, 2)
    assert event["still"] == []
    assert state_view(state)["prompt"] == f"{plain} Every spirit is done."
    state, event = said(state, 0, done=False)
    assert state.spirits_done == (1, 2)
    assert state_view(state)["prompt"].endswith("Still growing: Spirit 1.")


def test_the_step_stays_the_tables_and_the_next_round_starts_with_nobody_done() -> None:
    state = in_the_spirit_phase()
    step = state.step
    for spirit in range(3):
        state, _ = said(state, spirit)
    assert state.step == step  # every spirit done moves nothing: the table's Done does
    while state.phase == "spirit":
        state, _ = decide(state, c.Next())
    assert state.spirits_done == ()
    with pytest.raises(Refused, match="Spirit phase of this round is over"):
        decide(state, c.SpiritDone(0))
    while state.phase != "spirit":
        state, _ = decide(state, c.Next())
    assert state.spirits_done == () and "growing" not in state_view(state)["prompt"]


def test_what_cannot_be_said_is_refused_in_players_words() -> None:
    state = in_the_spirit_phase(players=2)
    with pytest.raises(Refused, match="no spirit 3 in a game of 2"):
        decide(state, c.SpiritDone(2))
    with pytest.raises(Refused, match="spirit 1 has said so already"):
        decide(state, c.SpiritDone(0, done=False))
    state, _ = said(state, 0)
    with pytest.raises(Refused, match="spirit 1 has said so already"):
        decide(state, c.SpiritDone(0))
    german = translations("de").gettext
    with pytest.raises(Refused) as refusal:
        decide(state, c.SpiritDone(0))
    assert refusal.value.in_language(german) == "Geist 1 hat das schon gesagt"


def test_a_saved_state_keeps_who_is_done_and_an_older_record_reads_as_nobody() -> None:
    state, _ = said(in_the_spirit_phase(), 2)
    record = state_to_record(state)
    assert state_from_record(record) == state
    del record["spirits_done"]
    assert state_from_record(record).spirits_done == ()


def test_the_banner_and_undo_say_it_in_each_language() -> None:
    _, event = said(in_the_spirit_phase(), 0)
    german = translations("de").gettext
    assert banner_lines([event], None, german) == [
        {"kind": "spirit_done", "text": "Noch im Wachstum: Geist 2 und Geist 3."}]
    french = translations("fr").gettext
    assert describe_command({"cmd": "spirit_done", "spirit": 1, "done": False}, french) \
        == "Esprit 2 n'a pas encore fini"


def test_a_seat_says_it_from_its_phone_and_the_table_undoes_it(tmp_path: Path) -> None:
    service = started(tmp_path / "games.db", "spirit-island")
    while view(service)["phase"] != "spirit":
        service.handle(service.parse({"cmd": "next"}))
    buttons = service.game.seat_rules.actions(view(service), 1)  # type: ignore[union-attr]
    assert buttons[0].request == {"cmd": "spirit_done"}
    seat, reply = service.handle_seat(1, {"cmd": "spirit_done"}, service.seat_version() or "")
    assert seat.label == "Spirit 2" and seat.template == "Spirit {number}"
    events = [event.to_dict() for event in reply.events]
    assert seat_lines(events, translations("fr")) == [
        {"kind": "seat_acted", "text": "Esprit 2 : J'ai fini (phase des Esprits)"}]
    assert view(service)["spirits_done"] == [1]
    assert [b.request for b in service.game.seat_rules.actions(  # type: ignore[union-attr]
        view(service), 1)][0] == {"cmd": "spirit_done", "done": False}
    with pytest.raises(Refused):  # another spirit's word is not this seat's to say
        service.handle_seat(1, {"cmd": "spirit_done", "spirit": 0}, service.seat_version() or "")
    service.handle(service.parse({"cmd": "undo"}))
    assert view(service)["spirits_done"] == []
