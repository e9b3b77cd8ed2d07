"""A history of several games, played through the driver as a script would: a Spirit Island
defeat against England 2, a Leviathan Wilds win and a loss, a whole Glow game and a Glow game
scored only. The history, detail and statistics tests read it."""

from __future__ import annotations

from typing import Any

from companion.driver import ScriptDriver
from tests.games.glow.test_whole_games import end_scores, game_lines

CRYSTALS = [{"dice": [3]}, {"dice": [4], "corrupted": True}, {"dice": [2, 5]},
            {"dice": [6], "corrupted": True}]


def ok(driver: ScriptDriver, command: dict[str, Any]) -> dict[str, Any]:
    answer = driver.handle(command)
    assert answer["ok"], (command, answer)
    return answer


def spirit_island_defeat(driver: ScriptDriver) -> None:
    """Two rounds against England 2, declared lost and scored."""
    ok(driver, {"cmd": "new_game", "players": 2, "seed": 7, "adversary": "england",
                "level": 2})
    ok(driver, {"cmd": "next"})
    ok(driver, {"cmd": "fear", "amount": 3})
    ok(driver, {"cmd": "blight"})
    while driver.state()["round"] == 1:
        ok(driver, {"cmd": "next"})
    ok(driver, {"cmd": "declare", "result": "defeat"})
    ok(driver, {"cmd": "score", "dahan": 4})


def leviathan_win(driver: ScriptDriver) -> None:
    """Two guardians strike every crystal of leviathan 2 (easy) in seven turns."""
    ok(driver, {"cmd": "new_game", "game": "leviathan-wilds", "players": 2,
                "difficulty": "easy", "leviathan": 2, "crystals": CRYSTALS, "deck_size": 30})
    while driver.state()["outcome"] is None:
        ok(driver, {"cmd": "next", "step": "reveal"})
        ok(driver, {"cmd": "ap_card", "ap": 3})
        crystal = next(i for i, c in enumerate(driver.state()["crystals"]) if not c["shattered"])
        ok(driver, {"cmd": "strike", "crystal": crystal, "amount": 3})
        if driver.state()["outcome"] is None:
            for step in ("activate", "resolve", "draw"):
                ok(driver, {"cmd": "next", "step": step})


def leviathan_loss(driver: ScriptDriver) -> None:
    """A solo game (two guardians) against leviathan 17 (hard), both defeated at once."""
    ok(driver, {"cmd": "new_game", "game": "leviathan-wilds", "players": 1,
                "difficulty": "hard", "leviathan": 17})
    for guardian in range(len(driver.state()["guardians"])):
        ok(driver, {"cmd": "health", "guardian": guardian, "amount": -8})


def glow_whole_game(driver: ScriptDriver) -> None:
    """Eight days for Ada and Bo on the Realm of Shadows, then the end scoring."""
    for line in game_lines(2, "realm"):
        ok(driver, line)
    for line in end_scores(driver.state()):
        ok(driver, line)


def glow_scored(driver: ScriptDriver) -> None:
    """Only the end scoring, on the Sea of Darkness: Bo wins 78 to 72."""
    ok(driver, {"cmd": "new_game", "game": "glow", "players": 2, "board": "sea",
                "mode": "scoring", "names": ["Ada", "Bo"]})
    ok(driver, {"cmd": "end_score", "player": 0, "score": 60, "cards": 4, "board": 5,
                "glowworms": 3, "companions": 7, "trails": 3})
    ok(driver, {"cmd": "end_score", "player": 1, "score": 50, "cards": 2, "board": 15,
                "glowworms": 6, "companions": 6, "trails": 1})


def play_mixed_history(driver: ScriptDriver) -> None:
    """Games 1 to 5: Spirit Island, Leviathan Wilds won, lost, Glow whole, Glow scored."""
    for play in (spirit_island_defeat, leviathan_win, leviathan_loss, glow_whole_game,
                 glow_scored):
        play(driver)
