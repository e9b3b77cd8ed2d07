"""The shared new-game screen: it offers the games that have screens, hosts each game's own form,
and Leviathan Wilds' form lets the players correct the numbers its rules digest could not verify.

Played as players do, in the real window; the pictures go to screenshots/new-game/.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from .harness import Harness
from .test_layout import layout_problems

pytestmark = pytest.mark.ui

SHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "new-game"
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


def stepper(ui: Harness, key: str, index: int = -1) -> Any:
    steppers = [s for s in ui.screen.ids.numbers.children if s.key == key and s.index == index]
    assert len(steppers) == 1, (key, index)
    return steppers[0]


def tap_step(ui: Harness, key: str, sign: str, index: int = -1) -> None:
    """Tap the − or + of one number."""
    button = next(child for child in stepper(ui, key, index).children
                  if getattr(child, "text", "") == sign)
    ui.tap(button)


def open_leviathan_form(ui: Harness) -> Any:
    ui.tap_id("new_game")
    ui.tap_id("game_leviathan_wilds")
    return ui.screen


def test_the_new_game_screen_offers_each_game_with_its_own_form(ui: Harness) -> None:
    ui.tap_id("new_game")
    screen = ui.screen
    assert screen.games == ["spirit-island", "leviathan-wilds", "glow"]
    assert screen.game == "spirit-island" and screen.note.startswith("Difficulty")
    look(ui, "spirit-island")
    ui.tap_id("game_leviathan_wilds")
    assert screen.ids.leviathan_form.opacity == 1 and screen.ids.spirit_island_form.opacity == 0
    assert screen.note == ""  # no number corrected: nothing to say beside Start
    look(ui, "leviathan-wilds")


def test_leviathans_unverified_numbers_show_the_values_in_use_and_only_changes_are_sent(
        ui: Harness) -> None:
    form = open_leviathan_form(ui)
    ui.tap_id("lw_hard")
    ui.tap_id("lw_players_1")
    assert "none corrected" in ui.widget("lw_numbers").text
    ui.tap_id("lw_numbers")
    catalogue = ui.app.catalogue_of("leviathan-wilds")["numbers"]
    # The values the game would use for a hard solo game, the wrath's space counted from 1.
    assert stepper(ui, "wrath_start").value == catalogue["wrath_start"]["hard"] + 1
    assert stepper(ui, "deck_size").value == catalogue["deck_size"]["solo"]
    assert stepper(ui, "health_start").value == catalogue["health_start"]
    assert [stepper(ui, "wrath_wild_counts", i).value
            for i in range(len(catalogue["wrath_wild_counts"]))] == \
        catalogue["wrath_wild_counts"]
    assert stepper(ui, "crystals", 0).value == catalogue["crystals"][0]["dice"][0]
    look(ui, "leviathan-numbers")
    assert form.command() == {"cmd": "new_game", "game": "leviathan-wilds", "players": 1,
                              "difficulty": "hard", "leviathan": 1}

    tap_step(ui, "deck_size", "-")
    tap_step(ui, "health_start", "-")
    tap_step(ui, "wrath_wild_counts", "+", index=1)
    tap_step(ui, "crystals", "+", index=0)
    tap_step(ui, "wrath_start", "+")
    tap_step(ui, "wrath_start", "-")  # back to the game's own: not a correction any more
    assert "(corrected)" in stepper(ui, "deck_size").label
    assert "(corrected)" not in stepper(ui, "wrath_start").label
    assert "4 corrected" in ui.widget("lw_numbers").text and "4" in form.note
    look(ui, "leviathan-numbers-corrected")
    ui.tap_id("start")
    assert ui.app.notice == ""
    state = ui.state
    wild_counts = list(catalogue["wrath_wild_counts"])
    wild_counts[1] += 1
    assert state["wrath_track"]["wild_counts"] == wild_counts
    assert state["guardians"][0]["health"] == catalogue["health_start"] - 1
    assert state["guardians"][0]["deck"] == catalogue["deck_size"]["solo"] - 1 - 2 * 3
    assert state["crystals"][0]["dice"] == [catalogue["crystals"][0]["dice"][0] + 1]
    stored = ui.app.last_new_game()
    assert "wrath_start" not in stored and stored["deck_size"] == \
        catalogue["deck_size"]["solo"] - 1

    again = type(form)(name="new_game_again")  # the form as it opens next time
    ui.frames(2)
    assert again.game == "leviathan-wilds"
    assert again.form().corrections == {key: stored[key] for key in (
        "deck_size", "health_start", "wrath_wild_counts", "crystals")}
    assert again.command() == {**stored, "cmd": "new_game"}


def test_the_numbers_cannot_be_stepped_past_their_limits(ui: Harness) -> None:
    open_leviathan_form(ui)
    ui.tap_id("lw_numbers")
    top = stepper(ui, "wrath_start").maximum
    for _ in range(int(top) + 2):
        tap_step(ui, "wrath_start", "+")
    assert stepper(ui, "wrath_start").value == top
    health = stepper(ui, "health_start")
    for _ in range(3):
        tap_step(ui, "health_start", "+")
    assert health.value == stepper(ui, "health_max").value  # no more health than the track
    ui.tap_id("lw_numbers_reset")
    assert ui.screen.form().corrections == {}


def test_a_registered_game_without_screens_is_not_offered_and_breaks_nothing(
        ui: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.games import registry

    # A third game whose model is registered before its screens exist (Leviathan's model
    # under another name stands in for it).
    borrowed = registry.GAMES["leviathan-wilds"]
    model_only = dataclasses.replace(
        borrowed, id="model-only", name="Model Only", table_screen="", setup_form="",
        layouts="", view=lambda state, translate: {**borrowed.view(state, translate),
                                                   "title": "model-only"})
    monkeypatch.setitem(registry.GAMES, "model-only", model_only)
    ui.tap_id("new_game")
    screen = ui.screen
    assert screen.games == ["spirit-island", "leviathan-wilds", "glow"]
    assert "game_model_only" not in screen.ids
    # Started by a script, its game is in play: the app carries its commands, Home offers no
    # table for it, and a new game can still be started here.
    assert ui.app.send({"cmd": "new_game", "game": "model-only", "players": 2,
                        "difficulty": "easy", "leviathan": 1})
    assert ui.state["title"] == "model-only" and ui.app.table_name() == ""
    assert ui.app.send({"cmd": "next", "step": "reveal"})
    ui.app.show("home")
    ui.frames(2)
    assert ui.screen.resume_text == "" and ui.widget("resume").opacity == 0
    ui.tap_id("new_game")
    ui.tap_id("start")
    ui.tap(next(child for child in ui.popup().walk()
                if getattr(child, "text", "") == "Abandon and start"))
    assert ui.state["title"] == "spirit-island" and ui.screen.name == "checklist"


def games_with_a_form() -> list[str]:
    from companion.games.registry import GAMES

    return [game.id for game in GAMES.values() if game.setup_form and game.table_screen]


def fresh_choices(ui: Harness, game_id: str) -> dict[str, Any]:
    """What the new-game form of `game_id` would start as it stands."""
    screen = ui.screen
    screen.game = game_id
    ui.frames(2)
    return {**screen.command(), "game": game_id}


@pytest.mark.parametrize("game_id", games_with_a_form())
def test_each_game_s_last_choices_survive_playing_another_game(ui: Harness,
                                                               game_id: str) -> None:
    # Starting Glow used to overwrite Spirit Island's remembered choices: each game keeps its
    # own, whatever was played after it.
    ui.tap_id("new_game")
    screen = ui.screen
    chosen = fresh_choices(ui, game_id)
    assert "players" in chosen, "the check changes the player count"
    chosen["players"] = 3 if chosen["players"] == 2 else 2
    screen.form(game_id).restore(chosen)
    ui.frames(2)
    ui.tap_id("start")
    assert ui.app.screens.current == "checklist", ui.app.notice
    kept = ui.app.last_new_game(game_id)
    assert kept["players"] == chosen["players"]
    ui.app.show("new_game")
    ui.frames(2)
    for other in games_with_a_form():
        if other != game_id:  # played next: its start remembers its own choices
            ui.app.remember_new_game({"cmd": "new_game", **fresh_choices(ui, other)})
    assert ui.app.last_new_game(game_id) == kept
    again = type(screen)(name="new_game_again")  # the form as it opens next time
    ui.frames(2)
    assert again.form(game_id).command()["players"] == chosen["players"]


def test_choices_saved_before_they_were_kept_per_game_still_load(ui: Harness) -> None:
    from companion.games.registry import DEFAULT_GAME

    ui.app.config.set("newgame", "last", '{"players": 3, "deck": "physical"}')
    ui.app.config.set("newgame", "last_by_game", "")
    assert ui.app.last_new_game(DEFAULT_GAME) == {"players": 3, "deck": "physical"}
    assert ui.app.last_new_game("glow") == {}
    ui.tap_id("new_game")
    again = type(ui.screen)(name="new_game_again")
    ui.frames(2)
    assert again.form(DEFAULT_GAME).players == 3 and again.game == DEFAULT_GAME
