"""Games plug into the core through the registry: new_game's "game" field, the state's title,
and a second game saved, resumed and exported by the same store, service and driver."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

import pytest

from companion.bootstrap import wired_service
from companion.core import commands as core
from companion.core.errors import Refused
from companion.core.events import Event
from companion.core.game import Game
from companion.driver import ScriptDriver
from companion.games import registry
from companion.store import GameStore


@dataclass(frozen=True)
class StartCounting(core.Command):
    name: ClassVar[str] = "new_game"
    players: int
    seed: int | None = None


@dataclass(frozen=True)
class Count(core.Command):
    name: ClassVar[str] = "count"


@dataclass(frozen=True)
class Counted(Event):
    type: ClassVar[str] = "counted"
    total: int


@dataclass(frozen=True)
class Tally:
    players: int
    total: int = 0


COUNTING_COMMANDS: dict[str, type[core.Command]] = {
    cls.name: cls for cls in (StartCounting, Count, core.Undo, core.Redo, core.ShowState)}


def _field(cmd: str, key: str, value: Any) -> Any:
    if key in ("players", "seed"):
        return core.whole_number(cmd, key, value, 0, 2**63 - 1)
    return core.shared_field(cmd, key, value)


def _decide(state: Tally, command: Any) -> tuple[Tally, list[Event]]:
    if not isinstance(command, Count):
        raise Refused("a tally only counts")
    state = replace(state, total=state.total + 1)
    return state, [Counted(state.total)]


COUNTING = Game(
    id="counting",
    name="Counting",
    commands=COUNTING_COMMANDS,
    new_game=StartCounting,
    parse_command=lambda data: core.parse_command(data, COUNTING_COMMANDS, _field),
    start=lambda command: (Tally(command.players), []),
    decide=_decide,
    view=lambda state, translate: {"players": state.players, "total": state.total},
    state_to_record=lambda state: {"players": state.players, "total": state.total},
    state_from_record=lambda record: Tally(record["players"], record["total"]),
    summary=lambda state: {"status": "active", "players": state.players, "rounds": 0},
    rounds=lambda course: [],
    catalogue=lambda: {"counting": True},
    public_view=lambda view: {"players": view["players"], "total": view["total"]},
)


@pytest.fixture
def with_counting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, COUNTING.id, COUNTING)


def driver_on(store: GameStore) -> ScriptDriver:
    return ScriptDriver(wired_service(store, seed_source=lambda: 7))


def test_a_new_game_without_a_game_field_is_spirit_island_and_says_so() -> None:
    driver = driver_on(GameStore.in_memory())
    answer = driver.handle({"cmd": "new_game", "players": 2, "seed": 3})
    assert answer["ok"] and answer["state"]["title"] == "spirit-island"
    named = driver.handle({"cmd": "new_game", "players": 2, "seed": 3, "game": "spirit-island"})
    assert named["ok"] and named["state"]["title"] == "spirit-island"
    assert named["state"]["round"] == answer["state"]["round"]
    # Spirit Island's log is as it always was: its new_game names no game.
    assert driver.service.store.full_log(2)[0] == {"cmd": "new_game", "players": 2, "seed": 3}


@pytest.mark.parametrize("game", ["azul", 5, ""])
def test_an_unknown_game_is_refused_with_the_known_ones(game: object) -> None:
    driver = driver_on(GameStore.in_memory())
    answer = driver.handle({"cmd": "new_game", "players": 2, "game": game})
    assert not answer["ok"] and answer["state"] is None
    assert "unknown game" in answer["error"] and "known games: spirit-island" in answer["error"]


def test_a_second_game_is_played_saved_resumed_and_undone_through_the_core(
        with_counting: None, tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store, _ = GameStore.open(path)
    driver = driver_on(store)
    assert driver.handle({"cmd": "new_game", "players": 2, "seed": 1})["ok"]
    started = driver.handle({"cmd": "new_game", "game": "counting", "players": 3})
    assert started["ok"] and started["state"]["title"] == "counting"
    answer = driver.handle({"cmd": "count"})
    assert answer["events"] == [{"type": "counted", "total": 1}]
    assert driver.handle({"cmd": "count"})["state"]["total"] == 2
    assert driver.handle({"cmd": "undo"})["state"]["total"] == 1
    assert not driver.handle({"cmd": "reveal", "card": "I-jungle"})["ok"]  # not this game's
    assert driver.handle({"cmd": "catalogue"})["catalogue"] == {"counting": True}
    assert store.full_log(2)[0] == {"cmd": "new_game", "game": "counting", "players": 3,
                                    "seed": 7}
    assert [g["title"] for g in store.games()] == ["spirit-island", "counting"]
    store.close()

    store, _ = GameStore.open(path)
    again = driver_on(store)
    again.service.resume_latest()
    assert again.state() is not None and again.state()["title"] == "counting"  # type: ignore[index]
    assert again.handle({"cmd": "redo"})["state"]["total"] == 2
    exported = again.handle({"cmd": "export", "path": str(tmp_path / "counting.json")})
    assert exported["ok"]
    document = json.loads((tmp_path / "counting.json").read_text())
    assert document["setup"]["game"] == "counting"
    imported = again.handle({"cmd": "import", "path": str(tmp_path / "counting.json")})
    assert imported["ok"] and store.game(imported["imported"]["game"])["title"] == "counting"
    assert again.handle({"cmd": "resume", "game": 1})["state"]["title"] == "spirit-island"
    store.close()
