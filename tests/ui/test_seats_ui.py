"""Menu → Seats on the table (issue 31), for every game: while the mirror is on, a game with seats
offers a code per player (each scans as that seat's address), shows which seats a phone holds,
carries out a phone's action between the table's taps with the seat's name on the banner, and
takes a seat back in one tap; a game without seats, or the mirror off, offers none."""

from __future__ import annotations

import http.client
import json
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from companion.games import registry
from companion.mirror.server import SEAT_HEADER
from companion.ui.seats_popup import SeatCard, SeatsPopup

from .every_game import banner_lines, start_on_table
from .harness import Harness
from .test_mirror_ui import switch

pytestmark = pytest.mark.ui
SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"


def seats_button(ui: Harness) -> Any:
    """The menu's "Seats…" button, or None."""
    ui.tap_id("menu")
    menu = ui.popup()
    assert menu is not None
    found = [widget for widget in menu.content.walk()
             if getattr(widget, "text", "").startswith("Seats")]
    return found[0] if found else None


def ask(ui: Harness, method: str, url: str, token: str, body: Any = None) -> tuple[int, Any]:
    """A phone's request, answered while the table goes on drawing frames (a seat's action waits
    for the table's turn, which comes between two frames)."""
    parts = urlsplit(url)
    answer: dict[str, Any] = {}

    def phone() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", parts.port, timeout=30)
        headers = {SEAT_HEADER: token, "Origin": f"http://127.0.0.1:{parts.port}",
                   "Content-Type": "application/json"}
        try:
            conn.request(method, parts.path, None if body is None else json.dumps(body),
                         headers)
            response = conn.getresponse()
            data = response.read()
            answer["status"] = response.status
            answer["data"] = json.loads(data) if data.startswith(b"{") else data
        finally:
            conn.close()

    thread = threading.Thread(target=phone)
    thread.start()
    while thread.is_alive():
        ui.frames(1)
    return answer["status"], answer.get("data")


def test_every_game_with_seats_offers_a_code_per_player_and_one_taken_back_ends(
        game_id: str, ui: Harness) -> None:
    ui.app.mirror_port = 0
    switch(ui, on=True)
    start_on_table(ui, game_id)
    button = seats_button(ui)
    if registry.GAMES[game_id].seat_rules is None:
        assert button is None, f"{game_id} has no seats, but its menu offers them"
        return
    assert button is not None
    ui.screenshot(SCREENSHOTS / f"seats-menu-{game_id}-800x480.png")
    ui.tap(button)
    popup = ui.popup()
    assert isinstance(popup, SeatsPopup)
    cards: list[SeatCard] = list(reversed(popup.ids.cards.children))
    seats = ui.app.service.seats()
    assert [card.label for card in cards] == [seat.label for seat in seats]
    assert all(card.url.startswith(ui.app.mirror_url + "#seat=") for card in cards)
    assert not any(card.held for card in cards)
    # A phone opens the second seat: the table sees it held.
    second = cards[1]
    token = second.url.split("#seat=")[1]
    status, page = ask(ui, "GET", ui.app.mirror_url + "/seat/me", token)
    assert status == 200 and page["seat"]["label"] == second.label
    popup.refill()
    assert second.held and not cards[0].held
    # Its first button is carried out at the table, which says who did it.
    action = page["actions"][0]
    undo_count = ui.state["undo_count"]
    ui.app.show(ui.app.table_name())  # the popup stays open over the table
    status, answer = ask(ui, "POST", ui.app.mirror_url + "/seat/act", token,
                         {"request": action["request"], "version": page["version"]})
    assert status == 200 and answer == {"ok": True, "seat": second.label}, answer
    assert ui.state["undo_count"] == undo_count + 1
    assert f"{second.label}: {action['label']}" in banner_lines(ui)
    # Taken back in one tap: that phone can no longer act, and its seat has a new code.
    ui.tap(second.children[0])  # Take back
    assert ask(ui, "GET", ui.app.mirror_url + "/seat/me", token)[0] == 404
    assert not second.held and token not in second.url
    popup.dismiss()
    ui.frames(2)
    # The table's undo takes the phone's action back.
    assert ui.app.send({"cmd": "undo"})
    assert ui.state["undo_count"] == undo_count


@pytest.mark.skipif(shutil.which("zbarimg") is None,
                    reason="zbarimg is missing: apt-get install zbar-tools (tasks.py does)")
@pytest.mark.parametrize(("game", "size"), [("spirit-island", (800, 480)),
                                             ("glow", (720, 1280)),
                                             ("leviathan-wilds", (800, 480))])
def test_each_seat_s_code_scans_as_its_own_address(ui: Harness, game: str,
                                                   size: tuple[int, int]) -> None:
    ui.app.mirror_port = 0
    ui.resize(*size)
    switch(ui, on=True)
    start_on_table(ui, game)
    ui.tap(seats_button(ui))
    popup = ui.popup()
    shot = ui.rendered(SCREENSHOTS / f"seats-{game}-{size[0]}x{size[1]}.png")
    done = subprocess.run(["zbarimg", "--quiet", "--raw", str(shot)], capture_output=True,
                          text=True, timeout=30)
    cards = list(reversed(popup.ids.cards.children))
    # Every card's code, and nothing else (zbarimg may read one code twice on a tall picture).
    assert set(done.stdout.split()) == {card.url for card in cards}, done.stdout
    popup.dismiss()


def test_with_the_mirror_off_no_menu_offers_seats(ui: Harness) -> None:
    start_on_table(ui, "glow")
    assert seats_button(ui) is None


@pytest.mark.parametrize("one_step", [False, True], ids=["step-by-step", "one-step"])
def test_spirit_island_s_table_says_who_is_still_growing_as_phones_say_they_are_done(
        ui: Harness, one_step: bool) -> None:
    ui.app.config.set("companion", "spirit_one_step", "1" if one_step else "0")
    ui.app.apply_settings()
    ui.app.mirror_port = 0
    switch(ui, on=True)
    start_on_table(ui, "spirit-island")
    while ui.state["phase"] != "spirit":
        assert ui.app.send({"cmd": "next"}), ui.app.notice
    ui.frames(2)
    assert "growing" not in ui.widget("prompt").text  # nobody has said a word yet
    seats = ui.app.mirror_link.seats()
    assert len(seats) == ui.state["players"] >= 2
    for _seat, url, _held in seats[:-1]:  # all but the last spirit are done
        token = url.split("#seat=")[1]
        status, page = ask(ui, "GET", ui.app.mirror_url + "/seat/me", token)
        done = page["actions"][0]
        assert status == 200 and done["label"] == "I'm done (Spirit phase)", page
        status, answer = ask(ui, "POST", ui.app.mirror_url + "/seat/act", token,
                             {"request": done["request"], "version": page["version"]})
        assert status == 200 and answer["ok"], answer
    ui.frames(2)
    growing = f"Still growing: {seats[-1][0].label}."
    prompt = ui.widget("prompt").text  # in one step, the phase's long prompt comes after it
    assert (prompt.startswith if one_step else prompt.endswith)(growing), prompt
    assert f"{seats[-2][0].label}: I'm done (Spirit phase)" in banner_lines(ui)
    assert growing in banner_lines(ui)
    name = "one-step" if one_step else "step-by-step"
    ui.screenshot(SCREENSHOTS / f"seats-still-growing-{name}-800x480.png")
    # The step stays the table's: its Done ends the phase, and the next round starts afresh.
    while ui.state["phase"] == "spirit":
        ui.tap_id("done")
    assert ui.state["spirits_done"] == [] and "growing" not in ui.widget("prompt").text
