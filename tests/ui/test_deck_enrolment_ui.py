"""Enrolling a deck through the real window, with the emulated reader on a pseudo-terminal:
each card named is enrolled by laying its tag, a repeat and another card's tag are refused,
a card can be skipped, and a pause resumes at the first card still without a tag."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.deck_enrolment import game_deck
from companion.reader.emulator_pty import ReaderEmulator

from . import test_reader_ui
from .harness import Harness
from .test_layout import layout_problems
from .test_reader_ui import enrol, lay_and_lift, wait_until

pytestmark = pytest.mark.ui
reader_and_app = test_reader_ui.reader_and_app
"""The app reading an emulated PN532 (the reader tests' fixture)."""

LAID = ["04A00000000001", "04A00000000002", "04A00000000003", "04A00000000004"]
FEAR_TAG = "04B00000000001"
OTHER_TAG = "04B00000000002"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"


def named(ui: Harness) -> tuple[str, str] | None:
    card = ui.app.screen("deck_enrolment").walk.current
    return None if card is None else (card.kind, card.card)


def enrolled(ui: Harness) -> dict[str, tuple[str, str]]:
    answer = ui.app.service_call({"cmd": "tags"})
    return {tag["uid"]: (tag["kind"], tag["card"]) for tag in answer["tags"]}


def kind_buttons(ui: Harness) -> list[str]:
    return [button.text for button in reversed(ui.screen.ids.kinds.children)]


def removals(ui: Harness) -> list[str]:
    """The UIDs the reader reports lifted from now on (a tag laid again counts as a new lay
    only after its lift was noticed)."""
    link = ui.app.reader_link
    lifted: list[str] = []
    on_event = link.on_event

    def noting(event: Any) -> None:
        if event.event == "removed":
            lifted.append(event.uid)
        on_event(event)

    link.on_event = noting
    return lifted


def open_deck(ui: Harness) -> Any:
    ui.app.show("tags")
    ui.frames(2)
    ui.tap_id("enrol_deck")
    assert ui.app.screens.current == "deck_enrolment"
    return ui.screen


def test_a_deck_is_enrolled_card_after_card_refusing_repeats_and_resuming_after_a_pause(
        reader_and_app: tuple[ReaderEmulator, Harness]) -> None:
    device, ui = reader_and_app
    invaders = game_deck("spirit-island")["invader"]
    enrol(ui, FEAR_TAG, "fear", "dahan-enheartened")
    lifted = removals(ui)
    screen = open_deck(ui)
    ui.tap(screen._game_buttons["leviathan-wilds"])
    assert named(ui) == ("threat", game_deck("leviathan-wilds")["threat"][0])
    ui.tap(screen._game_buttons["spirit-island"])
    assert screen.game == "spirit-island" and screen.reader_on
    assert named(ui) == ("invader", invaders[0])
    assert screen.place_text == f"Invader card 1 of {len(invaders)}"
    assert kind_buttons(ui) == [f"Invader 0/{len(invaders)}", "Fear 1/50",
                                f"Blight 0/{len(game_deck('spirit-island')['blight'])}"]

    # Three cards laid: each enrolled to the card named, and the next one named.
    for number, uid in enumerate(LAID[:3]):
        card = invaders[number]
        name = screen.card_text
        lay_and_lift(device, ui, uid, lambda card=card: named(ui) != ("invader", card))
        assert enrolled(ui)[uid] == ("invader", card)
        assert screen.message == f"Enrolled: {name}" and not screen.refused
        assert named(ui) == ("invader", invaders[number + 1])
    assert screen.place_text == f"Invader card 4 of {len(invaders)}"

    # The last tag laid again: a repeat, refused, the walk stays.
    wait_until(ui, lambda: LAID[2] in lifted)
    lay_and_lift(device, ui, LAID[2], lambda: screen.refused)
    assert "just enrolled as" in screen.message
    assert named(ui) == ("invader", invaders[3])
    # A tag enrolled to another card: refused with what it is.
    lay_and_lift(device, ui, FEAR_TAG, lambda: "Fear card" in screen.message)
    assert screen.message == "Not taken: this tag is already Fear card “Dahan Enheartened”."
    assert named(ui) == ("invader", invaders[3]) and len(enrolled(ui)) == 4

    # Two cards on the reader at once enrol nothing.
    device.lay(OTHER_TAG)
    device.lay(LAID[3])
    wait_until(ui, lambda: "Two cards on the reader" in ui.app.notice)
    ui.frames(5)
    device.lift(OTHER_TAG)
    device.lift(LAID[3])
    assert named(ui) == ("invader", invaders[3]) and len(enrolled(ui)) == 4
    ui.tap(ui.app.root.ids.notice)  # read, and put away: it lies over the buttons
    assert ui.app.notice == ""

    # Skip the fourth card (no sticker yet); the fifth takes the next tag.
    ui.tap_id("skip")
    assert named(ui) == ("invader", invaders[4])
    lay_and_lift(device, ui, LAID[3], lambda: named(ui) == ("invader", invaders[5]))
    assert enrolled(ui)[LAID[3]] == ("invader", invaders[4])
    assert kind_buttons(ui)[:2] == [f"Invader 4/{len(invaders)}", "Fear 1/50"]

    # Pause, and come back: at the first card without a tag, the one skipped.
    ui.tap_id("pause")
    assert ui.app.screens.current == "tags"
    screen = open_deck(ui)
    assert named(ui) == ("invader", invaders[3])
    assert kind_buttons(ui)[0] == f"Invader 4/{len(invaders)}"
    assert not screen.can_go_back
    assert enrolled(ui) == {LAID[0]: ("invader", invaders[0]),
                            LAID[1]: ("invader", invaders[1]),
                            LAID[2]: ("invader", invaders[2]),
                            LAID[3]: ("invader", invaders[4]),
                            FEAR_TAG: ("fear", "dahan-enheartened")}
    progress = ui.app.service_call({"cmd": "tags"})["progress"]
    assert progress["invader"] == [4, len(invaders)] and progress["fear"] == [1, 50]

    # Starting at another kind names its first card without a tag.
    ui.tap(list(reversed(screen.ids.kinds.children))[1])
    assert named(ui) == ("fear", game_deck("spirit-island")["fear"][0])
    assert screen.place_text == "Fear card 1 of 50"

    # Portrait first: on Xvfb a window grown after a screenshot is read back black.
    for size in ((720, 1280), (800, 480)):
        ui.resize(*size)
        ui.frames(10)
        for lang, place in (("en", "Fear card 1 of 50"), ("de", "Furcht-Karte 1 von 50")):
            ui.app.switch_language(lang)
            ui.frames(3)
            assert screen.place_text == place
            assert not layout_problems(ui), (size, lang)
            suffix = "" if lang == "en" else f"-{lang}"
            ui.screenshot(SCREENSHOTS / f"deck-enrolment{suffix}-{size[0]}x{size[1]}.png")
        ui.app.switch_language("en")


def test_without_a_reader_the_screen_says_so_and_opens_the_reader_settings(
        tmp_path: Path) -> None:
    ui = Harness(tmp_path / "games.db")
    try:
        screen = open_deck(ui)
        assert not screen.reader_on
        assert screen.message.startswith("No card reader is set up")
        ui.frames(2)
        assert not layout_problems(ui)
        ui.screenshot(SCREENSHOTS / "deck-enrolment-no-reader-800x480.png")
        ui.tap_id("reader_settings")
        ui.frames(3)
        assert ui.app.screens.current == "settings"
        ui.tap_id("close")
        assert ui.app.screens.current == "deck_enrolment"
    finally:
        ui.close()
