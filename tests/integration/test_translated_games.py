"""Whole games in German and French: every text the game shows is translated, and nothing but
the texts changes with the language.

The same games are played by an English, a German and a French driver. Their answers must agree
on everything except the texts; every sentence must differ from the English one; and every
text the view looked up must be one the catalogues' templates list (so no text of the game can
slip past the translators).
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion import i18n
from companion.games.spirit_island.adversaries import ADVERSARIES
from companion.games.spirit_island.scenarios import SCENARIOS
from companion.i18n_messages import all_messages
from tests.table_player import PlayedGame, new_driver, play_whole_game

ROOT = Path(__file__).resolve().parents[2]
GAMES = [
    *({"players": 2, "seed": 3, "adversary": adversary, "level": 6, "events": True,
       "deck": "physical"} for adversary in sorted(ADVERSARIES)),
    *({"players": 2, "seed": 5, "scenario": scenario, "adversary": "scotland", "level": 4}
      for scenario in sorted(SCENARIOS)),
    {"players": 1, "seed": 9, "mode": "beginner"},
]
# Sentences: each must read differently in another language. Names may not (England, Blitz).
SENTENCES = ("prompt", "victory_condition")
SENTENCE_LISTS = ("reminders", "setup_checklist", "loss_conditions")
NAMES = (("adversary", "name"), ("scenario_detail", "name"), ("fear", "card"),
         ("blight", "name"), ("blight", "effect"), ("adversary", "escalation"),
         ("adversary", "loss_condition"), ("scenario_detail", "loss_condition"),
         ("outcome", "detail"))


def _game_id(game: dict[str, Any]) -> str:
    return "-".join(str(game.get(key)) for key in ("adversary", "scenario", "mode") if key in game)


def _without_texts(state: dict[str, Any]) -> dict[str, Any]:
    bare = copy.deepcopy(state)
    for key in SENTENCES:
        bare.pop(key)
    for key in SENTENCE_LISTS:
        bare[key] = [{k: v for k, v in item.items() if k != "text"} for item in bare[key]]
    for outer, inner in NAMES:
        if bare.get(outer):
            bare[outer].pop(inner, None)
    return bare


def _sentences(state: dict[str, Any]) -> list[str]:
    texts = [state[key] for key in SENTENCES]
    texts += [item["text"] for key in SENTENCE_LISTS for item in state[key]]
    card = state["fear"]["card"]
    if card and card["effect"]:
        texts.append(card["effect"])
    for outer, inner in (("blight", "effect"), ("adversary", "escalation"),
                         ("adversary", "loss_condition"), ("outcome", "detail")):
        if state.get(outer) and state[outer].get(inner):
            texts.append(state[outer][inner])
    return texts


def _replayed(game: PlayedGame, language: str) -> list[dict[str, Any]]:
    driver = new_driver(language)
    return [driver.handle(command)["state"] for command in game.sent]


@pytest.fixture(scope="module", params=GAMES, ids=_game_id)
def english_game(request: pytest.FixtureRequest) -> PlayedGame:
    return play_whole_game(request.param, fear_per_round=4, blight_every=1)


@pytest.mark.parametrize("language", ["de", "fr"])
def test_a_whole_game_reads_in_the_language_and_only_its_texts_change(english_game: PlayedGame,
                                                                      language: str) -> None:
    english = [answer["state"] for answer in english_game.answers]
    translated = _replayed(english_game, language)
    assert english[-1]["outcome"] is not None
    untranslated = set()
    for before, after in zip(english, translated, strict=True):
        assert _without_texts(after) == _without_texts(before)
        for source, text in zip(_sentences(before), _sentences(after), strict=True):
            if text == source:
                untranslated.add(text)
    assert not untranslated, f"shown in English in {language}: {sorted(untranslated)[:5]}"


def test_every_text_the_game_looks_up_is_in_a_template(english_game: PlayedGame) -> None:
    asked: set[str] = set()
    german = i18n.translations("de").gettext

    def recording(text: str) -> str:
        asked.add(text)
        return german(text)

    driver = new_driver("de")
    driver.translate = recording
    for command in english_game.sent:
        driver.handle(command)
    unknown = asked - set(all_messages())
    assert not unknown, f"texts the catalogues' templates do not list: {sorted(unknown)[:5]}"


def test_companion_script_answers_in_the_language_asked_for() -> None:
    lines = "".join(json.dumps(command) + "\n" for command in (
        {"cmd": "new_game", "players": 2, "seed": 4, "adversary": "england", "level": 1},
        {"cmd": "next"}))
    answers = {}
    for language in ("en", "fr"):
        done = subprocess.run([sys.executable, "-m", "companion", "script", "--lang", language],
                              input=lines.encode(), capture_output=True, cwd=ROOT, timeout=60)
        assert done.returncode == 0, done.stderr.decode()
        answers[language] = [json.loads(line) for line in done.stdout.decode().splitlines()]
    english, french = answers["en"][-1]["state"], answers["fr"][-1]["state"]
    assert french["prompt"] != english["prompt"]
    assert french["adversary"]["id"] == english["adversary"]["id"] == "england"
    assert french["adversary"]["loss_condition"] == i18n.translations("fr").gettext(
        english["adversary"]["loss_condition"])
    refused = subprocess.run([sys.executable, "-m", "companion", "script", "--lang", "xx"],
                             input=b"", capture_output=True, cwd=ROOT, timeout=60)
    assert refused.returncode == 2 and b"--lang" in refused.stderr


def test_a_refusal_the_table_may_overrule_is_worded_in_the_language_with_the_script_hint():
    from companion.ui.reads import forceable

    reasons = {}
    for language in ("en", "de"):
        driver = new_driver(language)
        driver.handle({"cmd": "new_game", "players": 2, "seed": 4, "deck": "physical"})
        answer = driver.handle({"cmd": "reveal", "card": "III-jungle-mountain"})
        assert not answer["ok"]
        reasons[language] = answer["error"]
    assert reasons["en"] == ("III-jungle-mountain is a Stage III card, but the next card in the "
                             "deck is Stage I (send force: true if your table plays it that way)")
    german = forceable(reasons["de"])
    assert german is not None and german != forceable(reasons["en"])
    assert "Stufe III" in german and "III-jungle-mountain" in german
