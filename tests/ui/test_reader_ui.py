"""The card reader in the app, end to end: the emulator on a pseudo-terminal, the real reader
thread, the app's window. Cards laid on the reader act like taps (and undo like taps), the
enrolment screen maps tags to cards, and a pulled cable is shown and recovered from."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.reader.emulator_pty import ReaderEmulator

from .harness import Harness
from .test_whole_games_ui import assert_table_shows_state

pytestmark = pytest.mark.ui

TAG_A = "04497622D93881"
TAG_B = "E63AE5D5"
TAG_C = "04A1B2C3D4E5F6"
UNKNOWN = "0411223344556677889900"[:14]


@pytest.fixture
def reader_and_app(tmp_path: Path) -> Iterator[tuple[ReaderEmulator, Harness]]:
    """A PN532 emulator behind a stable link, and the app set to read it."""
    device = ReaderEmulator("pn532", link=tmp_path / "rfid-reader")
    device.start()
    (tmp_path / "companion.ini").write_text(
        f"[reader]\nport = {device.port}\nfamily = pn532\nline_pattern = \n")
    harness = Harness(tmp_path / "games.db")
    try:
        wait_until(harness, lambda: "pn532 on" in harness.app.reader_status)
        yield device, harness
    finally:
        harness.close()
        device.close()


def wait_until(ui: Harness, condition: Callable[[], Any], timeout: float = 60.0) -> None:
    """Draw frames (the reader's events reach the app on Kivy's clock) until `condition`;
    the bound is generous, as a loaded machine draws slowly (a pass returns at once)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the app did not get there in time"
        ui.frames(1)
        time.sleep(0.01)


def lay_and_lift(device: ReaderEmulator, ui: Harness, uid: str,
                 condition: Callable[[], Any]) -> None:
    device.lay(uid)
    wait_until(ui, condition)
    device.lift(uid)
    ui.frames(2)  # what followed (a popup closing) is drawn


def enrol(ui: Harness, uid: str, kind: str, card: str) -> None:
    assert ui.app.service_call({"cmd": "tag_enrol", "uid": uid, "kind": kind,
                                "card": card})["ok"]


def physical_game(ui: Harness) -> None:
    assert ui.app.send({"cmd": "new_game", "players": 2, "deck": "physical", "seed": 5})
    ui.app.show("table")
    ui.frames(3)


def test_a_card_is_enrolled_by_laying_it_on_the_reader_and_tapping_its_name(
        reader_and_app: tuple[ReaderEmulator, Harness]) -> None:
    device, ui = reader_and_app
    ui.tap_id("tags")
    screen = ui.screen
    assert "Lay a card on the reader" in screen.status_text
    lay_and_lift(device, ui, TAG_A, lambda: screen.uid == TAG_A)
    assert "not enrolled yet" in screen.status_text
    ui.tap(button_for(ui, "I-jungle"))
    tags = ui.app.service_call({"cmd": "tags"})["tags"]
    assert [(t["uid"], t["card"]) for t in tags] == [(TAG_A, "I-jungle")]
    assert screen.progress_text.startswith("1 of ")
    assert "Jungle" in screen.status_text

    # The same tag tapped onto another card asks first.
    ui.tap(button_for(ui, "I-sands"))
    popup = ui.popup()
    assert popup is not None and "Make it Sands" in popup.message
    popup.confirm()
    ui.frames(2)
    tags = ui.app.service_call({"cmd": "tags"})["tags"]
    assert [(t["uid"], t["card"]) for t in tags] == [(TAG_A, "I-sands")]


def button_for(ui: Harness, card: str) -> Any:
    """The enrolment screen's button for `card` (the list builds buttons as they scroll in)."""
    cards = ui.screen.ids.cards
    index = next(i for i, row in enumerate(cards.data) if row["card"] == card)
    cards.scroll_y = 1 - index / max(len(cards.data) - 1, 1)
    ui.frames(3)
    return next(view for view in cards.children[0].children if view.card == card)


def test_a_card_laid_at_the_explore_step_is_turned_over_like_a_tap_and_undone_like_one(
        reader_and_app: tuple[ReaderEmulator, Harness]) -> None:
    device, ui = reader_and_app
    physical_game(ui)
    assert ui.popup() is not None  # the picker asks for the card turned over
    card = ui.state["invader"]["candidates"][0]
    enrol(ui, TAG_B, "invader", card)
    lay_and_lift(device, ui, TAG_B, lambda: ui.state["invader"]["explore"])
    assert ui.state["invader"]["explore"] == [card]
    assert ui.popup() is None  # the card the picker wanted has been read
    name = ui.app.service_call({"cmd": "tag_lookup", "uid": TAG_B})["tag"]["name"]
    assert name in ui.app.read_message
    assert_table_shows_state(ui)
    ui.tap_id("undo")
    assert not ui.state["invader"]["explore"]


def test_a_card_out_of_the_expected_order_asks_before_it_is_taken(
        reader_and_app: tuple[ReaderEmulator, Harness]) -> None:
    device, ui = reader_and_app
    physical_game(ui)
    ui.popup().dismiss()
    ui.frames(2)
    stage_three = next(c["id"] for c in ui.app.catalogue["invader_cards"] if c["stage"] == 3)
    enrol(ui, TAG_C, "invader", stage_three)
    lay_and_lift(device, ui, TAG_C, lambda: ui.popup() is not None)
    question = ui.popup()
    assert "stage III" in question.message and "anyway" in question.message
    assert not ui.state["invader"]["explore"]  # nothing changed before the answer
    question.confirm()
    ui.frames(2)
    assert ui.state["invader"]["explore"] == [stage_three]


def test_an_unknown_tag_offers_enrolment_and_leads_to_the_enrolment_screen(
        reader_and_app: tuple[ReaderEmulator, Harness]) -> None:
    device, ui = reader_and_app
    lay_and_lift(device, ui, UNKNOWN, lambda: ui.popup() is not None)
    offer = ui.popup()
    assert UNKNOWN in offer.message
    offer.confirm()
    ui.frames(3)
    assert ui.app.screens.current == "tags"
    assert ui.screen.uid == UNKNOWN


def test_a_card_read_elsewhere_only_says_what_it_is(
        reader_and_app: tuple[ReaderEmulator, Harness]) -> None:
    device, ui = reader_and_app
    enrol(ui, TAG_A, "invader", "I-jungle")
    lay_and_lift(device, ui, TAG_A, lambda: ui.app.read_message)
    assert "Jungle" in ui.app.read_message
    assert ui.app.game_state == {}  # nothing was started or changed
    ui.tap(ui.app.root.ids.read_message)
    assert ui.app.read_message == ""


def test_a_pulled_cable_is_shown_and_the_reader_comes_back_by_itself(
        reader_and_app: tuple[ReaderEmulator, Harness]) -> None:
    device, ui = reader_and_app
    device.unplug()
    wait_until(ui, lambda: "disconnected" in ui.app.notice)
    assert "disconnected" in ui.app.reader_status
    device.replug()
    wait_until(ui, lambda: "pn532 on" in ui.app.reader_status)
    assert ui.app.notice == ""
    enrol(ui, TAG_A, "command", "done")
    physical_game(ui)
    ui.popup().dismiss()
    ui.frames(2)
    ui.app.send({"cmd": "reveal", "card": ui.state["invader"]["candidates"][0]})
    step = ui.state["step"]
    ui.player_pause()  # the tag is laid once the players have read the new step
    lay_and_lift(device, ui, TAG_A, lambda: ui.state["step"] != step)  # a "done" tag


# --- Leviathan Wilds ----------------------------------------------------------------------------


SPARE = "04F0E1D2C3B4A5"


def leviathan_game(ui: Harness) -> None:
    """Leviathan Wilds against leviathan 1 (the Sage), at its table in step 1."""
    assert ui.app.send({"cmd": "new_game", "game": "leviathan-wilds", "players": 2,
                        "difficulty": "medium", "leviathan": 1})
    ui.app.show(ui.app.table_name())
    ui.frames(3)
    assert ui.app.screens.current == "table-leviathan-wilds"
    assert (ui.state["step"], ui.state["revealed_slot"]) == ("reveal", None)


def test_a_threat_card_laid_in_step_1_turns_the_next_threat_over_as_that_card(
        reader_and_app: tuple[ReaderEmulator, Harness]) -> None:
    device, ui = reader_and_app
    leviathan_game(ui)
    enrol(ui, TAG_B, "threat", "LW-threat-1-2")
    lay_and_lift(device, ui, TAG_B, lambda: ui.state["revealed_slot"] is not None)
    assert ui.state["revealed_slot"] == 0
    assert ui.state["threat_row"][0] == {"face_up": True, "wild": False,
                                         "card": "LW-threat-1-2"}
    assert ui.app.read_message == "Threat card read: 1 Sage · threat 2"
    tiles = list(reversed(ui.screen.ids.threats.children))
    assert tiles[0].mark == "now" and tiles[0].face == "calm"
    # Read again, another of the Sage's cards renames the threat turned over.
    enrol(ui, TAG_C, "threat", "LW-threat-1-4")
    lay_and_lift(device, ui, TAG_C,
                 lambda: ui.state["threat_row"][0]["card"] == "LW-threat-1-4")
    assert ui.app.read_message == "Threat 1 is 1 Sage · threat 4"
    ui.tap_id("undo")
    ui.tap_id("undo")
    assert ui.state["threat_row"][0] == {"face_up": False, "wild": False, "card": None}


def test_a_weakness_laid_on_the_reader_is_drawn_by_the_guardian_whose_turn_it_is(
        reader_and_app: tuple[ReaderEmulator, Harness]) -> None:
    device, ui = reader_and_app
    leviathan_game(ui)
    enrol(ui, TAG_A, "command", "done")
    enrol(ui, TAG_C, "weakness", "LW-weakness-7")
    ui.player_pause()  # the players have read the step before the tag is laid
    lay_and_lift(device, ui, TAG_A, lambda: ui.state["step"] == "activate")  # a "done" tag
    lay_and_lift(device, ui, TAG_C, lambda: ui.state["guardians"][0]["weaknesses"])
    assert ui.state["guardians"][0]["weaknesses"] == ["LW-weakness-7"]
    assert ui.state["weakness_deck"] == 11
    assert ui.app.read_message == "Guardian 1 draws a weakness: Weakness 7"
    guardian = list(reversed(ui.screen.ids.guardians.children))[0]
    assert "Weaknesses 1" in guardian.status
    # Laid again (a spare tag on the same card: the reader counts the same tag laid again
    # this soon as the same read), it is got rid of.
    enrol(ui, SPARE, "weakness", "LW-weakness-7")
    lay_and_lift(device, ui, SPARE, lambda: not ui.state["guardians"][0]["weaknesses"])
    assert ui.app.read_message == "Guardian 1 gets rid of a weakness: Weakness 7"
    assert ui.state["weakness_deck"] == 12
    # A threat card out of step 1 only says what it is.
    enrol(ui, TAG_B, "threat", "LW-threat-1-2")
    lay_and_lift(device, ui, TAG_B, lambda: "Nothing to do" in ui.app.read_message)
    assert ui.state["step"] == "activate" and ui.state["revealed_slot"] == 0


def test_the_enrolment_screen_lists_every_games_kinds_and_enrols_a_threat_card(
        reader_and_app: tuple[ReaderEmulator, Harness], tmp_path: Path) -> None:
    from .test_layout import layout_problems

    device, ui = reader_and_app
    ui.tap_id("tags")
    screen = ui.screen
    buttons = list(reversed(screen.ids.kinds.children))
    assert [(b.kind, b.text) for b in buttons] == [
        ("invader", "Invader"), ("fear", "Fear"), ("blight", "Blight"), ("threat", "Threat"),
        ("weakness", "Weakness"), ("companion", "Companion"), ("command", "Command")]
    ui.tap(buttons[3])
    assert screen.kind == "threat" and buttons[3].state == "down"
    assert len(screen.ids.cards.data) == 85
    assert screen.ids.cards.data[6]["text"] == "2 Sentinel · threat 2"
    assert screen.progress_text == "0 of 85 threat cards have a tag"
    lay_and_lift(device, ui, TAG_B, lambda: screen.uid == TAG_B)
    ui.tap(button_for(ui, "LW-threat-3-2"))
    assert ui.app.service_call({"cmd": "tag_lookup", "uid": TAG_B})["tag"]["name"] == (
        "3 Storm · threat 2")
    assert screen.progress_text == "1 of 85 threat cards have a tag"
    assert "3 Storm · threat 2" in screen.status_text
    ui.tap(buttons[4])
    assert [row["card"] for row in screen.ids.cards.data] == [
        f"LW-weakness-{n}" for n in range(1, 13)]
    for size in ((800, 480), (720, 1280)):
        ui.resize(*size)
        ui.frames(3)
        assert not layout_problems(ui), size
        ui.screenshot(tmp_path / f"tags-weakness-{size[0]}x{size[1]}.png")
    ui.app.switch_language("de")
    try:
        ui.frames(2)
        assert [b.text for b in buttons][3:] == ["Bedrohung", "Schwäche", "Gefährte",
                                                 "Befehl"]
        assert screen.ids.cards.data[6]["text"] == "Schwäche 7"
        assert screen.progress_text == "0 von 12 Schwächekarten haben einen Tag"
    finally:
        ui.app.switch_language("en")


def glow_game(ui: Harness) -> None:
    """Glow for three, Bo starting, at its table on day 1's morning."""
    assert ui.app.send({"cmd": "new_game", "game": "glow", "players": 3, "board": "realm",
                        "start_player": 1, "names": ["Ada", "Bo", "Cy"]})
    ui.app.show(ui.app.table_name())
    ui.frames(3)
    assert ui.app.screens.current == "table-glow"
    assert (ui.state["phase"], ui.state["picker"]) == ("morning", 1)


def test_a_companion_laid_in_the_morning_is_recruited_from_the_area_tapped_by_whose_pick_it_is(
        reader_and_app: tuple[ReaderEmulator, Harness]) -> None:
    device, ui = reader_and_app
    glow_game(ui)
    enrol(ui, TAG_B, "companion", "glow-A11")
    lay_and_lift(device, ui, TAG_B, lambda: ui.popup() is not None)
    assert ui.app.read_message == "Bo recruits Briki: from which area?"
    assert [b.value for b in reversed(ui.popup().ids.grid.children)] == ["1", "2", "3", "4",
                                                                       "5"]
    ui.pick("3")
    state = ui.state
    assert [c["card"] for c in state["players"][1]["companions"]] == ["glow-A11"]
    assert state["areas"][2]["companion"] is False and state["picker"] == 2
    tile = list(reversed(ui.screen.ids.players.children))[1]
    assert tile.threshold_text == "glowworms 0 / companions 1"
    # Laid again, the companion Bo holds changes nothing; after the morning neither does any.
    enrol(ui, SPARE, "companion", "glow-A11")
    lay_and_lift(device, ui, SPARE, lambda: "Nothing to do" in ui.app.read_message)
    assert ui.popup() is None and ui.state["picker"] == 2
    ui.tap_id("undo")
    assert ui.state["players"][1]["companions"] == [] and ui.state["picker"] == 1
    assert ui.app.send({"cmd": "next"})
    enrol(ui, TAG_C, "companion", "glow-A01")
    lay_and_lift(device, ui, TAG_C, lambda: "Likyar (companion card)" in ui.app.read_message)
    assert ui.popup() is None and ui.state["phase"] == "late_morning"


def test_two_cards_on_the_reader_are_shown_to_the_players_and_do_nothing(
        reader_and_app: tuple[ReaderEmulator, Harness]) -> None:
    device, ui = reader_and_app
    physical_game(ui)
    enrol(ui, TAG_B, "threat", "LW-threat-1-2")
    before = ui.state
    device.lay(TAG_A)
    device.lay(TAG_B)  # laid in the same moment: one poll sees both
    wait_until(ui, lambda: "Two cards on the reader" in ui.app.notice)
    assert ui.state == before  # nothing taken
    assert ui.app.reader_link.reader.watch.report().stacked
