"""Tests that must hold for every game: the parametrisation over the registry, and a fourth game
registered only in the test, whose table is built from the table kit and nothing else.

Any UI test may take the `game_id` fixture (tests/ui/conftest.py imports it), before `ui`, and
`start_on_table` puts that game's first step on the table:

    from .every_game import start_on_table

    def test_something_every_table_does(game_id: str, ui: Harness) -> None:
        table = start_on_table(ui, game_id)

Every game of `companion.games.registry.GAMES` is a case, and so is "tally", the test's own
game: it is registered for its test and taken out again afterwards, so a rule that holds for it
holds for a game added tomorrow without a line of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

import pytest
from kivy.properties import StringProperty

from companion.core import commands as core
from companion.core.errors import Refused
from companion.core.events import Event
from companion.core.game import Game
from companion.games import registry
from companion.i18n import _
from companion.ui.table_kit import KitTable, step_key

from .any_game import start_from_home
from .harness import Harness

TALLY_ID = "tally"
TALLY_STEPS = ("first", "second", "third")


@dataclass(frozen=True)
class StartTally(core.Command):
    name: ClassVar[str] = "new_game"
    seed: int | None = None


@dataclass(frozen=True)
class NextStep(core.Command):
    name: ClassVar[str] = "next"
    step: str | None = None
    """The step meant: a tap meant for a step already passed changes nothing."""


@dataclass(frozen=True)
class Add(core.Command):
    name: ClassVar[str] = "add"


@dataclass(frozen=True)
class StepFinished(Event):
    type: ClassVar[str] = "step_finished"
    step: str


@dataclass(frozen=True)
class Tally:
    round: int = 1
    step: str = TALLY_STEPS[0]
    count: int = 0


TALLY_COMMANDS: dict[str, type[core.Command]] = {
    cls.name: cls for cls in (StartTally, NextStep, Add, core.Undo, core.Redo, core.ShowState)}


def _tally_field(cmd: str, key: str, value: Any) -> Any:
    if key == "seed":
        return core.whole_number(cmd, key, value, 0, 2**63 - 1)
    if key == "step":
        return core.text(cmd, key, value, TALLY_STEPS)
    return core.shared_field(cmd, key, value)


def _tally_decide(state: Tally, command: Any) -> tuple[Tally, list[Event]]:
    if isinstance(command, core.ShowState):
        return state, []
    if isinstance(command, Add):
        return replace(state, count=state.count + 1), []
    if not isinstance(command, NextStep):
        raise Refused("a tally only counts and steps on")
    if command.step is not None and command.step != state.step:
        raise Refused(f"this was meant to finish the step {command.step!r}, but it is "
                      f"{state.step!r} already; nothing was changed")
    index = TALLY_STEPS.index(state.step) + 1
    if index == len(TALLY_STEPS):
        return replace(state, round=state.round + 1, step=TALLY_STEPS[0]), \
            [StepFinished(state.step)]
    return replace(state, step=TALLY_STEPS[index]), [StepFinished(state.step)]


def _tally_view(state: Tally, translate: Any) -> dict[str, Any]:
    return {"round": state.round, "step": state.step, "count": state.count}


TALLY = Game(
    id=TALLY_ID,
    name="Tally",
    commands=TALLY_COMMANDS,
    new_game=StartTally,
    parse_command=lambda data: core.parse_command(data, TALLY_COMMANDS, _tally_field),
    start=lambda command: (Tally(), []),
    decide=_tally_decide,
    view=_tally_view,
    state_to_record=lambda state: {"round": state.round, "step": state.step,
                                   "count": state.count},
    state_from_record=lambda record: Tally(record["round"], record["step"], record["count"]),
    summary=lambda state: {"status": "active", "players": 1, "rounds": state.round},
    rounds=lambda course: [],
    catalogue=lambda: {},
    public_view=lambda view: {key: view[key] for key in ("round", "step", "count")},
    # Its table: the kit's parts and nothing of its own (tests/ui/tally/table.kv).
    layouts=str(Path(__file__).resolve().parent / "tally"),
    table_screen="tests.ui.every_game:TallyTable",
)
"""A game registered only in tests: three steps a round, one count; no form, no banner."""


class TallyTable(KitTable):
    """The test game's table: the kit's title, prompt, figure tile and step button, filled from
    its state."""

    count = StringProperty("")
    """The count, as the figure tile shows it."""

    def shows(self, state: dict[str, Any]) -> bool:
        return state.get("title") == TALLY_ID

    def show_state(self, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
        step = TALLY_STEPS.index(state["step"]) + 1
        self.title = _("Round {round} · {phase}").format(round=state["round"], phase=step)
        self.prompt = str(state["count"])
        self.count = str(state["count"])
        self.show_step(_("Done"), {"cmd": "next", "step": state["step"]})


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
