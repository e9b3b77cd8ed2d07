"""A seat's page in a real browser (headless Chromium at a phone's size, 390×844): opened from its
seat's address, it shows that player's own buttons, sends one, says "Done" only once the table
has answered (and the state it shows follows), and once the table takes the seat back it drops
to following the game, read-only. Screenshots of each game's seat page in screenshots/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.mirror.server import MirrorServer

from .test_page_browser import SCREENSHOTS, START_WITHIN_S, browser, pytestmark, text, wait
from .test_seat_server import TOKEN, Table, secret

__all__ = ["browser", "pytestmark"]  # the browser fixture and the skip without Chromium

NEW_GAMES = {
    "glow": {"cmd": "new_game", "game": "glow", "players": 3, "board": "sea",
             "names": ["Ana", "Ben", "Cy"]},
    "spirit-island": {"cmd": "new_game", "players": 3, "seed": 4},
    "leviathan-wilds": {"cmd": "new_game", "game": "leviathan-wilds", "players": 2,
                        "difficulty": "medium", "leviathan": 3},
}
ANSWERED_WITHIN_S = 5.0
"""A tap's answer on a loaded test machine (the benchmark measures it)."""


@pytest.fixture(params=list(NEW_GAMES))
def seated(request: pytest.FixtureRequest,
           tmp_path: Path) -> Iterator[tuple[str, Table, MirrorServer]]:
    table = Table(tmp_path / "games.db")
    assert table.send(NEW_GAMES[request.param])["ok"]
    server = MirrorServer(table.feed, TOKEN, port=0, host="127.0.0.1", seats=table.desk)
    server.start()
    try:
        yield request.param, table, server
    finally:
        server.stop()
        table.close()


def seat_buttons(browser: Any) -> list[str]:
    return list(browser.execute_script(
        "return [...document.querySelectorAll('#seat-actions button')].map(b => b.textContent)"))


def seat_figures(browser: Any) -> list[tuple[str, str]]:
    return [tuple(pair) for pair in browser.execute_script(
        "return [...document.querySelectorAll('#seat-figures div')]"
        ".map(d => [d.dataset.figure, d.querySelector('b').textContent])")]


def visible(browser: Any, element_id: str) -> bool:
    return bool(browser.execute_script(
        f"return !document.getElementById('{element_id}').hidden"))


def test_a_seat_s_page_sends_its_players_own_action_and_drops_to_following_when_taken_back(
        seated: tuple[str, Table, MirrorServer], browser: Any) -> None:
    game, table, server = seated
    label = table.service.seats()[1].label
    browser.get(f"{server.urls()[0]}#seat={secret(table, 1)}")
    wait(browser, lambda: text(browser, "status") == "live", START_WITHIN_S, "that it is live")
    wait(browser, lambda: text(browser, "seat-title") == f"Your seat: {label}", START_WITHIN_S,
         "the seat's name")
    rules = table.service.game.seat_rules
    state = table.driver.state()
    assert rules is not None and state is not None
    assert seat_buttons(browser) == [action.label for action in rules.actions(state, 1)]
    undo_count = state["undo_count"]
    first = rules.actions(state, 1)[0]
    browser.execute_script("document.querySelector('#seat-actions button').click()")
    wait(browser, lambda: text(browser, "seat-status") == f"Done: {first.label}",
         ANSWERED_WITHIN_S, "the table's answer")
    after = table.driver.state()
    assert after is not None and after["undo_count"] == undo_count + 1
    wait(browser, lambda: text(browser, "footer").startswith(f"{undo_count + 1} "),
         ANSWERED_WITHIN_S, "the state after the seat's action")
    wait(browser, lambda: seat_figures(browser) == [
        (figure.label, str(figure.value)) for figure in rules.figures(after, 1)],
         ANSWERED_WITHIN_S, "the seat's own figures as the table has them")
    browser.save_screenshot(str(SCREENSHOTS / f"seat-page-{game}-390x844.png"))
    # The table takes the seat back: at the next state the page only follows.
    table.desk.revoke(1)
    table.send({"cmd": "undo"})
    wait(browser, lambda: visible(browser, "seat-gone") and not visible(browser, "seat"),
         ANSWERED_WITHIN_S, "that the seat was taken back")
    assert text(browser, "footer").endswith("it changes nothing.")
