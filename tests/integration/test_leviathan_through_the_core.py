"""Leviathan Wilds through the same core as Spirit Island: `companion script`'s driver, the
store on disk, undo and redo, a pulled plug and a resume, the saved games' list."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from companion.bootstrap import wired_service
from companion.driver import ScriptDriver
from companion.store import GameStore

ROOT = Path(__file__).resolve().parents[2]
CONTRACT_FIELDS = {"title", "round", "step", "active", "threat_row", "wrath", "guardians",
                   "crystals_left", "outcome"}
CRYSTALS = [{"dice": [3]}, {"dice": [4], "corrupted": True}]


def driver_on(store: GameStore) -> ScriptDriver:
    return ScriptDriver(wired_service(store, seed_source=lambda: 11))


SESSION_FIELDS = {"can_undo", "can_redo", "undo_count", "redo_count"}


def game_part(state: dict[str, Any]) -> dict[str, Any]:
    """The game's own state, without what the session says about undo and redo."""
    return {key: value for key, value in state.items() if key not in SESSION_FIELDS}


def ok(driver: ScriptDriver, **command: Any) -> dict[str, Any]:
    answer = driver.handle(command)
    assert answer["ok"], answer
    return answer


def test_a_game_starts_with_the_contracts_state() -> None:
    driver = driver_on(GameStore.in_memory())
    state = ok(driver, cmd="new_game", game="leviathan-wilds", players=2,
               difficulty="medium", leviathan=3)["state"]
    assert set(state) >= CONTRACT_FIELDS
    assert state["title"] == "leviathan-wilds" and state["round"] == 1
    assert len(state["threat_row"]) == 5 and state["outcome"] is None
    assert all({"face_up", "wild"} <= set(slot) for slot in state["threat_row"])
    assert len(state["guardians"]) == 2
    assert {"health", "corruption", "deck", "hand", "discard", "defeated"} <= set(
        state["guardians"][0])
    # Spirit Island's commands are not this game's, and say so without changing anything.
    refused = driver.handle({"cmd": "reveal", "card": "I-jungle"})
    assert not refused["ok"] and refused["state"] == state


def test_steps_wild_health_and_corruption_are_undone_exactly() -> None:
    driver = driver_on(GameStore.in_memory())
    start = ok(driver, cmd="new_game", game="leviathan-wilds", players=1, difficulty="easy",
               leviathan=1)["state"]
    revealed = ok(driver, cmd="next", step=start["step"])["state"]
    assert revealed["step"] != start["step"]
    wild = ok(driver, cmd="wild", count=2)["state"]
    assert sum(slot["wild"] for slot in wild["threat_row"]) >= 1
    hurt = ok(driver, cmd="health", guardian=0, amount=-2)["state"]
    assert hurt["guardians"][0]["health"] == wild["guardians"][0]["health"] - 2
    corrupted = ok(driver, cmd="corruption", guardian=1, amount=1)["state"]
    assert corrupted["guardians"][1]["corruption"] == hurt["guardians"][1]["corruption"] + 1
    for earlier in (hurt, wild, revealed, start):
        assert game_part(ok(driver, cmd="undo")["state"]) == game_part(earlier)
    assert game_part(ok(driver, cmd="redo")["state"]) == game_part(revealed)
    stale = driver.handle({"cmd": "next", "step": start["step"]})  # a second tap on Done
    assert not stale["ok"] and game_part(stale["state"]) == game_part(revealed)


def test_a_won_game_is_saved_listed_and_resumed_after_the_plug_is_pulled(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store, _ = GameStore.open(path)
    driver = driver_on(store)
    ok(driver, cmd="new_game", game="leviathan-wilds", players=2, difficulty="hard",
       leviathan=5, crystals=CRYSTALS)
    ok(driver, cmd="next", step="reveal")
    ok(driver, cmd="ap_card", ap=3)
    ok(driver, cmd="strike", crystal=0, amount=3)
    before_cut = driver.state()
    store.close()  # the process ends here; everything acknowledged is on disk

    store, _ = GameStore.open(path)
    again = driver_on(store)
    assert again.service.resume_latest()
    assert again.state() == before_cut
    assert again.state()["crystals_left"] == 1  # type: ignore[index]
    # The second crystal by an ability's strike (no AP left), corrupted: the win comes first.
    won = ok(again, cmd="strike", crystal=1, amount=4, ap=False)["state"]
    assert won["outcome"]["result"] == "win"
    listed = ok(again, cmd="games")
    assert [game["title"] for game in listed["games"]] == ["leviathan-wilds"]
    assert listed["games"][0]["status"] == "finished"
    store.close()


def test_companion_script_plays_it_from_json_lines(tmp_path: Path) -> None:
    lines = [{"cmd": "new_game", "game": "leviathan-wilds", "players": 4,
              "difficulty": "expert", "leviathan": 17},
             {"cmd": "next", "step": "reveal"}, {"cmd": "wild", "count": 1}, {"cmd": "state"}]
    done = subprocess.run([sys.executable, "-m", "companion", "script", "--db",
                           str(tmp_path / "games.sqlite3")], cwd=ROOT, capture_output=True,
                          text=True, timeout=120,
                          input="".join(json.dumps(line) + "\n" for line in lines))
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0 and len(answers) == 4, done.stderr
    assert all(answer["ok"] for answer in answers), answers
    assert answers[-1]["state"]["title"] == "leviathan-wilds"
    assert len(answers[-1]["state"]["guardians"]) == 4
