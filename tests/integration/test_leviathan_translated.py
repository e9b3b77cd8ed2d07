"""Leviathan Wilds in German and French: the same game through English, German and French
drivers shows every prompt, reminder, ending and setup step in the language, with the same ids
and values, and nothing but those texts changes."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from companion import i18n
from companion.bootstrap import wired_service
from companion.driver import ScriptDriver
from companion.games.leviathan_wilds.definition import LEVIATHAN_WILDS
from companion.games.leviathan_wilds.texts import CATALOGUE_DOMAIN, catalogue_texts
from companion.i18n_messages import all_messages
from companion.store import GameStore

NEW_GAME = {"cmd": "new_game", "game": "leviathan-wilds", "players": 2, "difficulty": "hard",
            "leviathan": 3}


def driver(language: str) -> ScriptDriver:
    return ScriptDriver(wired_service(GameStore.in_memory(), seed_source=lambda: 5), language)


def play(language: str) -> list[dict[str, Any]]:
    """A short game lost at the table: a round and more of Done, a guardian who falls, one
    defeated, the Last Chance turns, then the leviathan's win. Each answer's state."""
    table = driver(language)
    states = []

    def send(**command: Any) -> dict[str, Any]:
        answer = table.handle(command)
        assert answer["ok"], answer
        states.append(answer["state"])
        state: dict[str, Any] = answer["state"]
        return state

    state = send(**NEW_GAME)
    for _ in range(24):
        state = send(cmd="next", step=state["step"])
    send(cmd="fall", guardian=1)
    state = send(cmd="health", guardian=0, amount=-99)
    for _ in range(40):
        if state["outcome"] is not None:
            break
        state = send(cmd="next", step=state["step"])
    assert state["outcome"] is not None and state["outcome"]["result"] == "loss"
    return states


def texts_of(state: dict[str, Any]) -> list[tuple[str, str]]:
    """(id, text) of every sentence the state shows players."""
    shown = [(state["prompt"]["id"], state["prompt"]["text"])]
    shown += [(item["id"], item["text"]) for item in state["reminders"]]
    if state["outcome"]:
        shown.append((state["outcome"]["reason_id"], state["outcome"]["reason"]))
    return shown


def without_texts(state: dict[str, Any]) -> dict[str, Any]:
    bare = copy.deepcopy(state)
    bare["prompt"].pop("text")
    for item in bare["reminders"]:
        item.pop("text")
    if bare["outcome"]:
        bare["outcome"].pop("reason")
    return bare


@pytest.fixture(scope="module")
def english() -> list[dict[str, Any]]:
    return play("en")


@pytest.mark.parametrize("language", ["de", "fr"])
def test_a_game_reads_in_the_language_with_the_same_ids_and_values(
        english: list[dict[str, Any]], language: str) -> None:
    translated = play(language)
    untranslated: set[str] = set()
    for before, after in zip(english, translated, strict=True):
        assert without_texts(after) == without_texts(before)
        for (source_id, source), (text_id, text) in zip(texts_of(before), texts_of(after),
                                                        strict=True):
            assert text_id == source_id
            if text == source:
                untranslated.add(text)
    assert not untranslated, f"shown in English in {language}: {sorted(untranslated)[:5]}"


def test_the_game_shows_its_prompts_reminders_and_ending_along_the_way(
        english: list[dict[str, Any]]) -> None:
    ids = {text_id for state in english for text_id, _ in texts_of(state)}
    assert {"lw-prompt-reveal", "lw-prompt-activate", "lw-prompt-resolve", "lw-prompt-draw",
            "lw-prompt-loss", "lw-rem-round-end", "lw-rem-falling", "lw-rem-last-chance",
            "last_chance"} <= ids


def test_a_german_prompt_names_the_threats_half_in_german() -> None:
    state = driver("de").handle(NEW_GAME)["state"]
    assert state["prompt"]["id"] == "lw-prompt-reveal"
    assert state["prompt"]["values"]["half"] in ("wild", "calm")  # values stay as written
    assert "(sie ist wild)" in state["prompt"]["text"] or "(sie ist ruhig)" in \
        state["prompt"]["text"]


@pytest.mark.parametrize("language", ["de", "fr"])
@pytest.mark.parametrize("players", [1, 3])
def test_the_setup_checklist_reads_in_the_language_with_the_same_ids(language: str,
                                                                     players: int) -> None:
    game = LEVIATHAN_WILDS
    state, _ = game.start(game.parse_command({**NEW_GAME, "players": players, "seed": 2}))
    english = game.setup_checklist(state, i18n.translations("en").gettext)
    translated = game.setup_checklist(state, i18n.translations(language).gettext)
    assert [item["id"] for item in translated] == [item["id"] for item in english]
    assert all(ours["text"] != theirs["text"] and "{" not in ours["text"]
               for ours, theirs in zip(translated, english, strict=True))


@pytest.mark.parametrize("language", ["de", "fr"])
def test_every_leviathan_text_has_a_translation(language: str) -> None:
    # A text the screens share (a difficulty's name) is kept once, in the companion template.
    catalogue = {text for domain in i18n.templates()
                 for text in i18n.read_po(i18n.catalogue_path(language, domain))}
    texts = catalogue_texts()[CATALOGUE_DOMAIN]
    assert texts and not [text for text in texts if text not in catalogue]
    assert CATALOGUE_DOMAIN in i18n.templates()


def test_every_text_the_game_looks_up_is_in_a_template() -> None:
    asked: set[str] = set()
    german = i18n.translations("de").gettext
    table = driver("de")

    def recording(text: str) -> str:
        asked.add(text)
        return german(text)

    table.translate = recording
    state = table.handle(NEW_GAME)["state"]
    for _ in range(12):
        state = table.handle({"cmd": "next", "step": state["step"]})["state"]
    table.handle({"cmd": "fall", "guardian": 0})
    table.handle({"cmd": "health", "guardian": 1, "amount": -99})
    assert asked and not asked - set(all_messages())
