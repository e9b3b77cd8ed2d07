"""The rest of the table: weaknesses, focus, prompts and reminders, and the model's purity."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion.core.errors import Refused
from companion.games.leviathan_wilds import api as lw

from .play import do, new, to_step

PACKAGE = Path(lw.__file__).parent


def test_the_leviathan_wilds_model_imports_no_kivy_serial_or_sqlite() -> None:
    forbidden = {"kivy", "serial", "sqlite3", "sqlite_utils"}
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text())
        names = {alias.name.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.Import) for alias in node.names}
        names |= {node.module.split(".")[0] for node in ast.walk(tree)
                  if isinstance(node, ast.ImportFrom) and node.module and not node.level}
        assert not names & forbidden, path.name
        assert len(path.read_text().splitlines()) <= 400, path.name


def test_a_drawn_weakness_leaves_the_deck_and_a_discarded_one_goes_back() -> None:
    state = do(new(), "weakness", guardian=1, card="LW-weakness-3")
    assert state.guardians[1].weaknesses == ("LW-weakness-3",) and state.weakness_deck == 11
    with pytest.raises(Refused, match="already held"):
        do(state, "weakness", guardian=0, card="LW-weakness-3")
    state = do(state, "weakness", guardian=1, remove=True)
    assert state.guardians[1].weaknesses == () and state.weakness_deck == 12


def test_focus_starts_exhausted_and_effects_ready_it() -> None:
    state = new()
    assert not state.guardians[0].focus_ready
    assert do(state, "focus", guardian=0, ready=True).guardians[0].focus_ready


def test_a_falling_guardian_spends_no_ap() -> None:
    state = do(do(to_step(new(), "activate"), "ap_card", ap=3), "fall", guardian=0)
    with pytest.raises(Refused, match="falling"):
        do(state, "act", action="climb")
    assert do(do(state, "land", guardian=0), "act", action="climb").guardians[0].ap_left == 2


def test_a_guardian_beaten_by_a_fast_threat_has_no_activation() -> None:
    state = do(do(new(), "reveal"), "health", guardian=0, amount=-8)
    state = do(state, "next")
    assert state.step == "resolve" and state.guardians[0].ap_card is None


def test_the_prompts_follow_the_turn_with_message_ids() -> None:
    state = new(difficulty="hard")
    ids = []
    for _ in range(4):
        shown = lw.view(state)
        ids.append(shown["prompt"]["id"])
        state = do(state, "next")
    assert ids == ["lw-prompt-reveal", "lw-prompt-activate", "lw-prompt-resolve",
                   "lw-prompt-draw"]
    assert "it is wild" in lw.view(new(difficulty="hard"))["prompt"]["text"]


def test_step_3_reminds_that_protections_are_off() -> None:
    shown = lw.view(to_step(new(), "resolve"))
    assert "lw-rem-resolve-protections-off" in [r["id"] for r in shown["reminders"]]


def test_the_fifth_reveal_warns_of_the_round_end() -> None:
    state = new()
    for _ in range(16):
        state = do(state, "next")
    assert state.next_slot == 4
    assert "lw-rem-round-end" in [r["id"] for r in lw.view(state)["reminders"]]


def test_the_view_names_the_unverified_numbers() -> None:
    tables = {u["numbers"] for u in lw.view(new())["unverified"]}
    assert {"wrath", "wrath.start", "health_track.maximum", "grip.deck"} <= tables
