"""The phones' banner and the names of steps: the table's own words, worded per phone, from
the latest command's events (the app's, or those the follower gets replaying the log)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion import i18n
from companion.bootstrap import build_service
from companion.driver import ScriptDriver, StateSnapshot
from companion.games.glow import table_words as glow_words
from companion.games.leviathan_wilds import table_words as leviathan_words
from companion.games.registry import GAMES
from companion.games.spirit_island import table_words as spirit_words
from companion.mirror.feed import MirrorFeed
from companion.mirror.follow import DatabaseFollower


class Played:
    """A driver playing in a database and a follower publishing what it reads back."""

    def __init__(self, tmp_path: Path) -> None:
        db = tmp_path / "games.db"
        self.service, _ = build_service(db)
        self.driver = ScriptDriver(self.service)
        self.feed = MirrorFeed()
        self.follower = DatabaseFollower(db, self.feed)

    def play(self, **command: Any) -> dict[str, Any]:
        answer = self.driver.handle(command)
        assert answer["ok"], answer
        assert self.follower.poll()
        return answer

    def message(self, lang: str) -> dict[str, Any]:
        return json.loads(self.feed.message(self.feed.current(), lang))  # type: ignore[no-any-return]

    def close(self) -> None:
        self.follower.store.close()
        self.service.store.close()


def test_a_fear_card_earned_is_announced_to_each_phone_in_its_language(tmp_path: Path) -> None:
    table = Played(tmp_path)
    table.play(cmd="new_game", players=2, seed=21)
    table.play(cmd="next")
    pool = table.driver.state()["fear"]["pool"]  # type: ignore[index]
    answer = table.play(cmd="fear", amount=pool)
    for lang in ("en", "de", "fr"):
        message = table.message(lang)
        words = i18n.translations(lang).gettext
        expected = spirit_words.announce(answer["events"], message["state"], words)
        assert message["banners"] == [{"kind": line.kind, "text": line.text}
                                      for line in expected]
        assert [line["kind"] for line in message["banners"]] == ["fear_card_earned"]
    assert table.message("de")["banners"][0]["text"] != table.message("en")["banners"][0]["text"]
    table.close()


def test_an_undo_replaces_the_banner_with_what_it_took_back_and_a_quiet_command_clears_it(
        tmp_path: Path) -> None:
    table = Played(tmp_path)
    table.play(cmd="new_game", players=2, seed=21)
    table.play(cmd="next")
    table.play(cmd="fear", amount=8)
    table.play(cmd="undo")
    assert table.message("en")["banners"] == [{"kind": "undo", "text": "Undone: +8 fear"}]
    assert table.message("fr")["banners"] == [{"kind": "undo", "text": "Annulé : +8 Peur"}]
    table.play(cmd="redo")
    assert table.message("en")["banners"] == [{"kind": "undo", "text": "Redone: +8 fear"}]
    table.play(cmd="next")
    assert table.message("en")["banners"] == []
    table.close()


def test_the_banner_stays_until_the_next_command_and_goes_with_its_game() -> None:
    feed = MirrorFeed()
    service, _ = build_service(None)
    driver = ScriptDriver(service)
    driver.handle({"cmd": "new_game", "players": 2, "seed": 21})
    driver.handle({"cmd": "next"})
    answer = driver.handle({"cmd": "fear", "amount": 8})
    feed.publish(StateSnapshot.of(service), events=answer["events"])
    feed.publish(StateSnapshot.of(service))  # a language switched: no command
    kept = json.loads(feed.message(feed.current(), "en"))["banners"]
    assert [line["kind"] for line in kept] == ["fear_card_earned"]
    driver.handle({"cmd": "new_game", "game": "leviathan-wilds", "players": 2,
                   "difficulty": "easy", "leviathan": 1})
    feed.publish(StateSnapshot.of(service))
    assert json.loads(feed.message(feed.current(), "en"))["banners"] == []


def test_leviathan_wilds_announces_the_round_end_a_defeat_last_chance_and_an_undo(
        tmp_path: Path) -> None:
    table = Played(tmp_path)
    table.play(cmd="new_game", game="leviathan-wilds", players=2, difficulty="medium",
               leviathan=3)
    for _turn in range(5):
        for step in ("reveal", "activate", "resolve", "draw"):
            table.play(cmd="next", step=step)
    assert table.message("de")["banners"] == [
        {"kind": "round_ended", "text": "Runde 1 ist vorbei: Zorn 3, 1 Bedrohung wird wild."}]
    table.play(cmd="health", guardian=0, amount=-20)
    state = table.message("en")["state"]
    name = state["guardians"][0]["name"]
    assert table.message("en")["banners"] == [
        {"kind": "guardian_defeated", "text": f"{name} is defeated."},
        {"kind": "last_chance", "text": "Last Chance: 1 turn left to heal the leviathan"}]
    french = table.message("fr")["banners"]
    assert french[1]["text"] == "Dernière chance : encore 1 tour pour soigner le léviathan"
    table.play(cmd="undo")
    assert table.message("en")["banners"] == [
        {"kind": "undo", "text": "Undone: the last command."}]
    table.close()


def test_the_leviathan_table_and_the_phones_word_the_lasting_banner_alike() -> None:
    state = {"outcome": {"result": "loss", "reason": "The wrath track ran out"},
             "last_chance": None, "threat_row": [], "guardians": []}
    words = i18n.translations("de")
    assert leviathan_words.state_banner(state, words.gettext, words.ngettext) == (
        "loss", "Verloren: The wrath track ran out")
    assert GAMES["leviathan-wilds"].banner([], state, words) == [
        {"kind": "loss", "text": "Verloren: The wrath track ran out"}]


def test_each_phone_gets_the_catalogues_step_names_in_its_language(tmp_path: Path) -> None:
    table = Played(tmp_path)
    table.play(cmd="new_game", game="leviathan-wilds", players=2, difficulty="medium",
               leviathan=3)
    steps = {lang: table.message(lang)["names"]["steps"] for lang in ("en", "de", "fr")}
    assert steps["en"]["reveal"] == "1 Reveal a threat"
    assert steps["de"]["reveal"] == "1 Bedrohung aufdecken"
    assert steps["fr"]["reveal"] not in (steps["en"]["reveal"], steps["de"]["reveal"])
    assert set(steps["de"]) == set(leviathan_words.STEP_NAMES)
    table.play(cmd="new_game", players=2, seed=3)
    names = table.message("fr")["names"]
    assert names["phases"]["spirit"] == i18n.translations("fr").gettext("Spirit phase")
    assert set(names["steps"]) == set(spirit_words.STEP_NAMES)
    table.close()


def test_a_quiet_glow_command_sends_no_banner_but_the_phase_names(tmp_path: Path) -> None:
    table = Played(tmp_path)
    table.play(cmd="new_game", game="glow", players=3, board="realm", start_player=0)
    table.play(cmd="score", player=1, amount=3)
    message = table.message("de")
    assert message["banners"] == []
    assert message["names"]["phases"]["late_morning"] == "Später Vormittag"
    assert message["names"]["boards"] == {"realm": "Reich der Schatten",
                                          "sea": "Meer der Finsternis"}
    assert message["state"]["players"][1]["score"] == 13
    table.close()


def test_glow_announces_the_start_marker_passing_the_last_evening_and_the_winner(
        tmp_path: Path) -> None:
    table = Played(tmp_path)
    table.play(cmd="new_game", game="glow", players=2, board="sea", start_player=0,
               names=["Ada", "Bo"])
    for phase in ("morning", "late_morning", "noon", "afternoon", "evening"):
        answer = table.play(cmd="next", phase=phase, confirm=True)
    assert table.message("en")["banners"] == [
        {"kind": "start_marker_passed", "text": "Day 2: the start marker passes to Bo"}]
    for lang in ("de", "fr"):
        message = table.message(lang)
        words = i18n.translations(lang).gettext
        assert message["banners"] == glow_words.banner_lines(answer["events"],
                                                             message["state"], words)
        assert message["banners"][0]["text"] != "Day 2: the start marker passes to Bo"
    while table.driver.state()["phase"] != "over":  # type: ignore[index]
        table.play(cmd="next", confirm=True)
    assert table.message("en")["banners"] == [
        {"kind": "game_over", "text": "Day 8 is over: the end scoring"}]
    for player, trails in ((0, 2), (1, 0)):
        table.play(cmd="end_score", player=player, cards=3, board=4, glowworms=1,
                   companions=2, trails=trails)
    message = table.message("fr")
    assert message["banners"] == [{"kind": "win", "text": message["state"]["prompt"]["text"]}]
    assert "Ada" in message["banners"][0]["text"]
    table.close()


def test_the_glow_table_and_the_phones_word_the_banner_alike() -> None:
    state = {"title": "glow", "outcome": None, "mode": "full", "day": 3,
             "players": [{"name": "Ada"}, {"name": "Bo"}, {"name": "Cy"}],
             "prompt": {"text": "…"}}
    words = i18n.translations("de")
    events = [{"type": "start_marker_passed", "start_player": 2}]
    assert glow_words.news(events, state, words.gettext) == [
        ("start_marker_passed", "Tag 3: der Startmarker geht an Cy")]
    assert GAMES["glow"].banner(events, state, words) == [
        {"kind": "start_marker_passed", "text": "Tag 3: der Startmarker geht an Cy"}]
    assert GAMES["glow"].banner(events, {**state, "mode": "scoring"}, words) == [
        {"kind": "start_marker_passed", "text": "Tag 3: der Startmarker geht an Cy"}]
    assert glow_words.banner_lines([{"type": "game_over", "day": 8}],
                                   {**state, "mode": "scoring"}, words.gettext) == []
    assert GAMES["glow"].banner(events, {"title": "leviathan-wilds"}, words) == []


def test_a_banner_that_cannot_be_worded_leaves_the_state_to_the_phones() -> None:
    feed = MirrorFeed()
    service, _ = build_service(None)
    driver = ScriptDriver(service)
    driver.handle({"cmd": "new_game", "players": 2, "seed": 21})
    feed.publish(StateSnapshot.of(service), events=[{"type": "fear_card_earned"}])  # no count
    message = json.loads(feed.message(feed.current(), "en"))
    assert message["banners"] == [] and message["state"]["title"] == "spirit-island"
