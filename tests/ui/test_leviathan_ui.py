"""Leviathan Wilds on the touchscreen, played as players do: every step a tap in the real window.

Each test checks what the screen shows against the driver's state, and `layout_problems` (the
layout test's checker) at 800x480 and 720x1280; the pictures go to screenshots/leviathan/.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .harness import Harness
from .test_layout import layout_problems

pytestmark = pytest.mark.ui

SHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "leviathan"
SIZES = {"800x480": (800, 480), "720x1280": (720, 1280)}


def look(ui: Harness, name: str) -> None:
    """Photograph the screen at both sizes, and check neither clips text nor shrinks a target."""
    problems = []
    for size, (width, height) in SIZES.items():
        ui.resize(width, height)
        ui.frames(3)
        problems += [f"{name} at {size}: {problem}" for problem in layout_problems(ui)]
        ui.screenshot(SHOTS / f"{name}-{size}.png")
    ui.resize(*SIZES["800x480"])
    assert not problems, "\n".join(problems)


def start(ui: Harness, players: int, difficulty: str = "medium", leviathan: int = 1,
          shots: bool = False) -> None:
    """From Home: choose Leviathan Wilds, fill in the form, start, tick the checklist."""
    ui.tap_id("new_game")
    ui.tap_id("game_leviathan_wilds")
    form = ui.screen
    assert form.ids.leviathan_form.opacity == 1 and form.ids.spirit_island_form.opacity == 0
    ui.tap(form.ids.leviathan)  # the 17 leviathans, as large buttons
    assert len(ui.choices()) == 17
    ui.pick(str(leviathan))
    assert form.leviathan.startswith(f"{leviathan} · ")
    ui.tap_id(f"lw_{difficulty}")
    ui.tap_id(f"lw_players_{players}")
    if shots:
        look(ui, "setup-form")
    ui.tap_id("start")
    assert ui.app.screens.current == "checklist"
    state = ui.state
    assert state["title"] == "leviathan-wilds"
    assert (state["players"], state["difficulty"], state["leviathan"]["number"]) == (
        players, difficulty, leviathan)
    rows = list(reversed(ui.widget("checklist").children))
    assert [row.text for row in rows] == [item["text"] for item in ui.app.setup_checklist()]
    assert any(f"leviathan {leviathan} " in row.text for row in rows)
    if shots:
        look(ui, "setup-checklist")
    for row in rows:
        ui.tap(row)
    assert ui.screen.ticked == len(rows)
    ui.tap_id("ready")
    assert ui.app.screens.current == "table-leviathan-wilds"


def shown_matches_state(ui: Harness) -> None:
    """The threat row's faces and marks, and each guardian's numbers, are the state's."""
    state, table = ui.state, ui.screen
    tiles = list(reversed(table.ids.threats.children))
    assert len(tiles) == len(state["threat_row"])
    for index, (tile, threat) in enumerate(zip(tiles, state["threat_row"], strict=True)):
        if not threat["face_up"]:
            assert tile.face.startswith("face down")
        else:
            assert tile.face == ("WILD" if threat["wild"] else "calm")
        assert (tile.mark == "now") == (index == state["revealed_slot"])
    guardians = list(reversed(table.ids.guardians.children))
    assert len(guardians) == len(state["guardians"])
    for index, (tile, guardian) in enumerate(zip(guardians, state["guardians"], strict=True)):
        assert (tile.health, tile.corruption) == (guardian["health"], guardian["corruption"])
        assert str(guardian["hand"]) in tile.cards and str(guardian["deck"]) in tile.cards
        assert tile.active == (index == state["active"] and state["outcome"] is None)
        assert tile.defeated == guardian["defeated"]
    assert table.prompt == state["prompt"]["text"]
    assert f"Crystals left {state['crystals_left']}" in table.crystals
    assert f"Wrath {state['wrath'] + 1} " in table.wrath  # spaces counted from 1, as on the form


def done(ui: Harness) -> dict[str, Any]:
    before = ui.state
    ui.tap_id("done")
    after = ui.state
    assert (after["round"], after["step"], after["active"]) != (
        before["round"], before["step"], before["active"]), ui.app.notice
    shown_matches_state(ui)
    return after


def test_a_solo_game_is_set_up_played_step_by_step_and_won_by_striking(ui: Harness) -> None:
    start(ui, players=1, shots=True)
    state = ui.state
    assert state["solo"] and len(state["guardians"]) == 2
    shown_matches_state(ui)
    look(ui, "table-reveal")
    for step in ("activate", "resolve", "draw"):
        assert done(ui)["step"] == step
        look(ui, f"table-{step}")
    state = done(ui)
    assert (state["step"], state["active"]) == ("reveal", 1)  # the second guardian's turn

    wild_before = sum(t["wild"] for t in state["threat_row"])
    ui.tap_id("wild")
    assert sum(t["wild"] for t in ui.state["threat_row"]) == wild_before + 1
    shown_matches_state(ui)

    health = ui.state["guardians"][1]["health"]
    ui.tap_id("health_down")  # the active guardian is the one chosen
    assert ui.state["guardians"][1]["health"] == health - 1
    ui.tap_id("corruption_up")
    assert ui.state["guardians"][1]["corruption"] == 1
    shown_matches_state(ui)
    ui.tap_id("undo")
    assert ui.state["guardians"][1]["corruption"] == 0
    ui.tap_id("redo")
    assert ui.state["guardians"][1]["corruption"] == 1
    ui.tap_id("undo")

    other = list(reversed(ui.screen.ids.guardians.children))[0]
    ui.tap(other)  # the first guardian, not the active one, heals
    ui.tap_id("health_down")
    assert ui.state["guardians"][0]["health"] == state["guardians"][0]["health"] - 1
    ui.tap_id("health_up")
    assert ui.state["guardians"][0]["health"] == state["guardians"][0]["health"]
    shown_matches_state(ui)

    while ui.state["round"] == 1:  # on to the round's end
        if ui.state["step"] == "draw" and ui.state["revealed_slot"] == 4:
            look(ui, "table-round-end")  # the last threat of the round
        done(ui)
    assert ui.state["round"] == 2
    assert all(not t["face_up"] for t in ui.state["threat_row"])
    shown_matches_state(ui)

    for index, crystal in enumerate(ui.state["crystals"]):  # strike every crystal down
        ui.tap_id("strike")
        ui.pick(str(index))
        ui.pick(str(sum(crystal["dice"])))
        assert ui.state["crystals"][index]["shattered"], ui.app.notice
        shown_matches_state(ui)
    state = ui.state
    assert state["outcome"]["result"] == "win"
    assert ui.screen.banner.startswith("We won") and ui.screen.banner_kind == "win"
    assert ui.widget("wild").disabled and ui.widget("done").text == "Home"
    look(ui, "table-won")
    ui.tap_id("done")
    assert ui.app.screens.current == "home"


def test_four_guardians_lose_when_last_chance_runs_out(ui: Harness) -> None:
    start(ui, players=4, difficulty="hard", leviathan=5)
    state = ui.state
    assert len(state["guardians"]) == 4 and not state["solo"]
    shown_matches_state(ui)
    look(ui, "table-four-guardians")
    done(ui)
    done(ui)

    guardians = list(reversed(ui.screen.ids.guardians.children))
    ui.tap(guardians[2])
    assert ui.screen.selected == 2 and guardians[2].selected
    while not ui.state["guardians"][2]["defeated"]:
        ui.tap_id("corruption_up")
    state = ui.state
    assert state["last_chance"] is not None and state["outcome"] is None
    assert ui.screen.banner.startswith("Last Chance") and guardians[2].defeated
    shown_matches_state(ui)
    look(ui, "table-last-chance")

    while ui.state["outcome"] is None:
        done(ui)
    state = ui.state
    assert state["outcome"]["result"] == "loss"
    assert ui.screen.banner_kind == "loss"
    assert state["outcome"]["reason"] in ui.screen.banner
    look(ui, "table-lost")
    ui.tap_id("undo")  # the last Done taken back: the game goes on
    assert ui.state["outcome"] is None and ui.screen.banner_kind == "last_chance"


def test_home_resumes_a_leviathan_game_and_the_menu_abandons_it(ui: Harness) -> None:
    start(ui, players=2)
    done(ui)
    ui.tap_id("menu")
    ui.tap(ui.popup().ids.home)
    assert ui.app.screens.current == "home"
    assert "Leviathan Wilds" in ui.widget("resume").text
    ui.tap_id("resume")
    assert ui.app.screens.current == "table-leviathan-wilds"
    assert ui.state["step"] == "activate"
    ui.tap_id("menu")
    ui.tap(ui.popup().ids.abandon)
    ui.tap(next(child for child in ui.popup().walk() if getattr(child, "text", "") == "Abandon"))
    assert ui.app.screens.current == "home" and not ui.app.game_state
    assert ui.service_status() == "abandoned"


def test_the_new_game_screen_still_starts_spirit_island(ui: Harness) -> None:
    ui.tap_id("new_game")
    ui.tap_id("game_leviathan_wilds")
    ui.tap_id("game_spirit_island")
    assert ui.screen.ids.spirit_island_form.opacity == 1
    ui.tap_id("start")
    assert ui.state["title"] == "spirit-island" and ui.app.screens.current == "checklist"
    assert "explore" in ui.widget("ready").text
