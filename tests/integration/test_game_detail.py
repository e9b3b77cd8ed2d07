"""`game_detail` through the real driver process: a saved game's row, ending and rounds."""

from __future__ import annotations

from pathlib import Path

from tests.integration.test_script_driver import cmd, run_script


def play_two_rounds() -> list[str]:
    """A 2-player game (8 fear a card, 2 blight on the island) through two rounds."""
    lines = [cmd("new_game", players=2, seed=7), cmd("next")]  # initial explore → round 1
    lines += [cmd("fear", amount=3), cmd("blight"), cmd("fear", amount=5), cmd("undo")]
    lines += [cmd("next")] * 12  # every step of round 1 (no fear card earned yet)
    lines += [cmd("destroy", piece="city", count=2), cmd("heal")]
    return lines


def test_a_finished_game_has_its_row_its_ending_in_words_and_each_rounds_tally(
        tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    lines = [*play_two_rounds(), cmd("declare", result="defeat"),
             cmd("score", dahan=6), cmd("game_detail", game=1)]
    answers, stderr, code = run_script(lines, "--db", db, "--lang", "fr")
    assert code == 0 and stderr == ""
    assert all(answer["ok"] for answer in answers), [a.get("error") for a in answers]
    assert answers[-3]["state"]["round"] == 2
    detail = answers[-1]["game_detail"]
    row = run_script([cmd("games")], "--db", db)[0][0]["games"][0]
    assert {key: detail[key] for key in row} == row  # every field of the games list, unchanged
    assert detail["outcome"]["result"] == "defeat" and detail["outcome"]["score"] is not None
    assert detail["outcome"]["detail"] == answers[-2]["state"]["outcome"]["detail"]  # French
    assert detail["per_round"] == [
        {"round": 1, "fear_generated": 3, "blight_on_island": 3, "terror_level": 1},
        {"round": 2, "fear_generated": 4, "blight_on_island": 2, "terror_level": 1},
    ]


def test_an_abandoned_and_an_active_game_can_be_looked_at_too(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    lines = [*play_two_rounds(), cmd("abandon"), cmd("new_game", players=1, seed=3),
             cmd("game_detail", game=1), cmd("game_detail", game=2)]
    answers, _, _ = run_script(lines, "--db", db)
    abandoned, active = answers[-2]["game_detail"], answers[-1]["game_detail"]
    assert (abandoned["status"], abandoned["outcome"]) == ("abandoned", None)
    assert [tally["fear_generated"] for tally in abandoned["per_round"]] == [3, 4]
    assert (active["status"], active["rounds"], active["per_round"]) == ("active", 0, [])


def test_a_game_that_is_not_there_is_refused_in_words(tmp_path: Path) -> None:
    answers, _, _ = run_script([cmd("game_detail", game=5), cmd("game_detail")],
                               "--db", str(tmp_path / "games.db"))
    assert not answers[0]["ok"] and "there is no game 5" in answers[0]["error"]
    assert not answers[1]["ok"] and "game" in answers[1]["error"]
