"""The lines the table's voice says in real games: every registered game played through the
script driver (the history's games, a whole Spirit Island game to terror level III, an undo and
a redo in each), with the new steps' prompts and each kind of banner line the tables show,
as speech text in one language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion import i18n
from companion.driver import ScriptDriver
from companion.games.registry import GAMES
from companion.speech import short_prompt, spoken
from companion.ui.table_kit import UNDO_KIND, fallback_undo_line
from tests import history_games
from tests.table_player import new_driver, play_whole_game

Said = dict[tuple[str, str, str], str]
"""(game, "banner" or "prompt", the banner's kind or the step) -> the speech text."""


def prompt_text(state: dict[str, Any]) -> str:
    prompt = state.get("prompt") or ""
    return str(prompt.get("text", "") if isinstance(prompt, dict) else prompt)


def listening(driver: ScriptDriver, said: Said, language: str) -> None:
    """Keep what the table would say after each command `driver` carries out."""
    words = i18n.translations(language)
    handle = driver.handle

    def handled(command: dict[str, Any]) -> dict[str, Any]:
        answer = handle(command)
        state = answer.get("state")
        if answer["ok"] and state:
            game = GAMES[state["title"]]
            lines = [*game.banner(answer["events"], state, words),
                     *game.banner([], state, words)]
            undo = next((event for event in answer["events"]
                         if event.get("type") in ("undone", "redone")), None)
            if undo is not None and all(line["kind"] != UNDO_KIND for line in lines):
                # the table kit's own line for a game whose banner does not say it (told in
                # the language in use, English here: translated as the kit's would be)
                told = fallback_undo_line(undo) or ""
                lines.append({"kind": UNDO_KIND, "text": words.gettext(told)})
            for line in lines:
                said.setdefault((state["title"], "banner", line["kind"]),
                                spoken([line["text"]], language))
            step = str(state.get("step") or state.get("phase"))
            said.setdefault((state["title"], "prompt", step),
                            spoken([short_prompt(prompt_text(state))], language))
        return answer

    driver.handle = handled  # type: ignore[method-assign]


def undo_and_redo(driver: ScriptDriver, new_game: dict[str, Any]) -> None:
    history_games.ok(driver, new_game)
    history_games.ok(driver, {"cmd": "next"})
    history_games.ok(driver, {"cmd": "undo"})
    history_games.ok(driver, {"cmd": "redo"})


PLAYS: list[Callable[[ScriptDriver], None]] = [
    history_games.play_mixed_history,
    lambda driver: undo_and_redo(driver, {"cmd": "new_game", "players": 2, "seed": 3}),
    lambda driver: undo_and_redo(driver, {"cmd": "new_game", "game": "leviathan-wilds",
                                          "players": 2, "difficulty": "easy", "leviathan": 2}),
    lambda driver: undo_and_redo(driver, {"cmd": "new_game", "game": "glow", "players": 2,
                                          "board": "sea", "names": ["Ada", "Bo"]}),
]


def lines_said(language: str) -> Said:
    """Each kind of line the voice says, in `language`, from real games of every game."""
    said: Said = {}
    for play in PLAYS:
        driver = new_driver(language)
        listening(driver, said, language)
        play(driver)
    whole = new_driver(language)
    listening(whole, said, language)
    play_whole_game({"players": 2, "seed": 3}, driver=whole)
    return said
