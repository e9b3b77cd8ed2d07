"""Tests that must hold for every game: the parametrisation over the registry and the fourth game
registered only in the tests, whose table is built from the table kit and nothing else.

Any UI test may take the `game_id` fixture (tests/ui/conftest.py imports it), before `ui`, and
`start_on_table` puts that game's first step on the table:

    from .every_game import start_on_table

    def test_something_every_table_does(game_id: str, ui: Harness) -> None:
        table = start_on_table(ui, game_id)

Every game of `companion.games.registry.GAMES` is a case, and so is "tally", the fourth game
(tests/fourth_game/), which the tests alone know: it is registered for its test and taken out
again afterwards, so a rule that holds for it holds for a game added tomorrow without a line of
its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from companion.games import registry
from companion.ui.table_kit import KitTable, step_key
from tests.fourth_game.definition import TALLY

from .any_game import STEP_BUTTON, start_from_home
from .harness import Harness

TALLY_ID = TALLY.id
"""The fourth game's id (tests/fourth_game/): registered for its test only."""


GAME_IDS = [*registry.GAMES, TALLY_ID]
"""Every registered game, then the test's own."""


@pytest.fixture(params=GAME_IDS)
def game_id(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each game in turn; the test's own is in the registry for its test only."""
    if request.param == TALLY_ID:
        monkeypatch.setitem(registry.GAMES, TALLY_ID, TALLY)
    return str(request.param)


def start_command(ui: Harness, game_id: str) -> dict[str, Any]:
    """A new game of `game_id` as its own new-game form starts it by default (a game without a
    form: its start command with no choices)."""
    if registry.GAMES[game_id].setup_form:
        ui.app.show("new_game")
        ui.frames(2)
        command = dict(ui.screen.form(game_id).command())
    else:
        command = {"cmd": "new_game"}
    command.setdefault("game", game_id)
    command["seed"] = 11
    return command


def start_on_table(ui: Harness, game_id: str) -> KitTable:
    """Start a game of `game_id` and show its table at its first step; returns the table."""
    assert ui.app.send(start_command(ui, game_id)), ui.app.notice
    assert ui.state["title"] == game_id
    name = ui.app.table_name()
    ui.app.show(name)
    ui.frames(3)
    table = ui.app.screen(name)
    assert isinstance(table, KitTable), f"{game_id}'s table is not built from the kit"
    return table


def start_as_players_do(ui: Harness, game_id: str) -> None:
    """From Home through the game's form and checklist to its table (any_game.start_from_home);
    a game without a form, which Home does not offer, is started by its command."""
    if registry.GAMES[game_id].setup_form:
        start_from_home(ui, game_id)
    else:
        start_on_table(ui, game_id)


def where(state: dict[str, Any]) -> tuple[Any, ...]:
    """Where a game stands (the kit's step key)."""
    return step_key(state)


def banner_lines(ui: Harness) -> list[str]:
    """The lines on the open table's banner, top first, as drawn."""
    return [line.text for line in reversed(ui.screen.ids.banner_rows.children)]


def answer(ui: Harness) -> None:
    """Answer the popup a step opened: a picker's last choice, a question's yes."""
    popup = ui.popup()
    if hasattr(popup, "shown"):
        ui.pick(ui.choices()[-1])
    elif hasattr(popup, "confirm"):
        popup.confirm()
    else:
        popup.dismiss()
    ui.frames(2)


def panels_of(table: Any) -> list[Any]:
    """What opens a panel on the table: its tappable tiles (not its buttons)."""
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.label import Label

    return [widget for widget in table.walk(restrict=True)
            if isinstance(widget, ButtonBehavior) and not isinstance(widget, Label)
            and widget.opacity > 0 and not widget.disabled and widget.width > 0]


def walk_the_table(ui: Harness, game_id: str, look: Callable[[str], None],
                   steps: int = 4) -> None:
    """Start `game_id` and show `look` each sight of its table, named: the first step, then
    `steps` taps of the step button (the popups they open, answered), every panel its tiles
    open, and the game's menu."""
    table = start_on_table(ui, game_id)
    look(f"{game_id} table")
    for step in range(steps):
        if ui.popup() is not None:  # a step that asks which card, or asks to be sure
            look(f"{game_id} popup {step}")
            answer(ui)
        ui.tap(table.ids[STEP_BUTTON])
        look(f"{game_id} step {step + 1}")
    if ui.popup() is not None:
        ui.popup().dismiss()
        ui.frames(2)
    for number, tile in enumerate(panels_of(table)):
        ui.tap(tile)
        if ui.popup() is not None:
            look(f"{game_id} panel {number}")
            ui.popup().dismiss()
            ui.frames(2)
    table.open_menu()
    ui.frames(2)
    look(f"{game_id} menu")
