"""The mirror's page in a real browser (headless Chromium at a phone's size) against a running
`companion mirror`, while `companion script` plays in the same database: every change shows
within a second, a killed and restarted server is reconnected to, each language is drawn
(screenshots in screenshots/), and the rules search answers."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "screenshots"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
try:
    import selenium  # noqa: F401
except ImportError:
    HAVE_SELENIUM = False
else:
    HAVE_SELENIUM = True

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None or not HAVE_SELENIUM,
    reason="the browser tests need Debian's chromium and chromium-driver and selenium "
    "(python3 tasks.py setup installs them)")

CHANGE_SHOWN_WITHIN_S = 1.0
"""What the issue asks of the page (the server itself aims at 250 ms; see bench_mirror)."""
START_WITHIN_S = 30.0
"""Starting a process or a browser on a busy machine: generous, it is not what is measured."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Table:
    """`companion script --db` playing, one JSON line at a time."""

    def __init__(self, db: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "script", "--db", str(db)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT, env=_env())

    def play(self, **command: Any) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(command).encode() + b"\n")
        self.process.stdin.flush()
        answer: dict[str, Any] = json.loads(self.process.stdout.readline())
        assert answer["ok"], answer
        return answer["state"]  # type: ignore[no-any-return]

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=START_WITHIN_S)


class Mirror:
    """`companion mirror` on a fixed port and token, so that it can be killed and restarted."""

    def __init__(self, db: Path) -> None:
        self.db, self.port, self.token = db, free_port(), "browser-test-1"
        self.process: subprocess.Popen[bytes] | None = None
        self.url = ""

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "mirror", "--db", str(self.db), "--host",
             "127.0.0.1", "--port", str(self.port), f"--token={self.token}"],
            stdout=subprocess.PIPE, cwd=ROOT, env=_env())
        assert self.process.stdout is not None
        self.url = self.process.stdout.readline().decode().strip()
        assert self.url == f"http://127.0.0.1:{self.port}/t/{self.token}"

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=START_WITHIN_S)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=START_WITHIN_S)

    def state(self, lang: str) -> dict[str, Any]:
        return self.message(lang)["state"]  # type: ignore[no-any-return]

    def message(self, lang: str) -> dict[str, Any]:
        """The whole message a phone in `lang` is sent: the state, the banner, the names."""
        with urllib.request.urlopen(f"{self.url}/state?lang={lang}", timeout=10) as answer:
            return json.loads(answer.read())  # type: ignore[no-any-return]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Table, Mirror]]:
    db = tmp_path / "games.db"
    player = Table(db)
    player.play(cmd="new_game", players=2, seed=21)
    mirror = Mirror(db)
    mirror.start()
    try:
        yield player, mirror
    finally:
        mirror.stop()
        player.close()


def phone_browser(profile: Path) -> Any:
    """A headless Chromium at a phone's size (390x844), its profile in `profile`."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    assert CHROMIUM is not None
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--window-size=390,844",
                 "--lang=en-GB", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.set_window_size(390, 844)
    return driver


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    driver = phone_browser(tmp_path / "chromium-profile")
    try:
        yield driver
    finally:
        driver.quit()


def wait(browser: Any, condition: Callable[[], Any], timeout: float, what: str) -> None:
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        WebDriverWait(browser, timeout, poll_frequency=0.02).until(lambda _driver: condition())
    except TimeoutException:
        raise AssertionError(f"the page did not show {what} within {timeout} s") from None


def text(browser: Any, element_id: str) -> str:
    return str(browser.execute_script(f"return document.getElementById('{element_id}')"
                                      ".textContent"))


def shows(browser: Any, state: dict[str, Any]) -> bool:
    """The page shows this state: its prompt, its count of actions and its fear pool."""
    prompt = state["prompt"]["text"] if isinstance(state["prompt"], dict) else state["prompt"]
    facts = browser.execute_script(
        "const pool = document.querySelector('[data-fact=fear-pool] b');"
        "return [document.getElementById('footer').textContent,"
        " pool ? pool.textContent : null]")
    pool = f"{state['fear']['pool']} / {state['fear']['pool_size']}" if "fear" in state else None
    return bool(text(browser, "prompt") == prompt
                and facts[0].startswith(f"{state['undo_count']} ") and facts[1] == pool)


def test_each_command_shows_on_the_phone_within_a_second_undo_included(
        table: tuple[Table, Mirror], browser: Any) -> None:
    player, mirror = table
    browser.get(mirror.url)
    wait(browser, lambda: text(browser, "status") == "live", START_WITHIN_S, "that it is live")
    wait(browser, lambda: shows(browser, mirror.state("en")), START_WITHIN_S, "the game")
    moves = [{"cmd": "next"}, {"cmd": "fear", "amount": 2}, {"cmd": "next"}, {"cmd": "undo"},
             {"cmd": "undo"}, {"cmd": "redo"}, {"cmd": "next"}, {"cmd": "next"}]
    for move in moves:
        state = player.play(**move)
        wait(browser, lambda state=state: shows(browser, state), CHANGE_SHOWN_WITHIN_S,
             f"the state after {move}")


def test_a_killed_and_restarted_server_is_reconnected_to(table: tuple[Table, Mirror],
                                                         browser: Any) -> None:
    player, mirror = table
    browser.get(mirror.url)
    wait(browser, lambda: text(browser, "status") == "live", START_WITHIN_S, "that it is live")
    mirror.kill()
    wait(browser, lambda: text(browser, "status") == "reconnecting…", START_WITHIN_S,
         "that it is reconnecting")
    state = player.play(cmd="next")  # played while the phones could not see
    mirror.start()
    wait(browser, lambda: shows(browser, state) and text(browser, "status") == "live",
         START_WITHIN_S, "the state played while the server was down")
    state = player.play(cmd="fear", amount=1)
    wait(browser, lambda: shows(browser, state), CHANGE_SHOWN_WITHIN_S, "the next command")


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_each_language_draws_the_table_in_its_words(table: tuple[Table, Mirror], browser: Any,
                                                    lang: str) -> None:
    from selenium.webdriver.support.ui import Select

    player, mirror = table
    player.play(cmd="next")
    player.play(cmd="fear", amount=3)
    browser.get(mirror.url)
    wait(browser, lambda: text(browser, "status") == "live", START_WITHIN_S, "that it is live")
    Select(browser.find_element("id", "lang")).select_by_value(lang)
    expected = mirror.state(lang)
    wait(browser, lambda: text(browser, "prompt") == expected["prompt"], START_WITHIN_S,
         f"the prompt in {lang}")
    assert browser.execute_script("return document.documentElement.lang") == lang
    if lang != "en":
        assert expected["prompt"] != mirror.state("en")["prompt"]
    live = {"en": "live", "de": "live", "fr": "en direct"}[lang]
    assert text(browser, "status") == live
    SCREENSHOTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / f"mirror-page-{lang}.png"))
    # The language is the phone's own: kept for its next visit, the table's unchanged.
    browser.refresh()
    wait(browser, lambda: text(browser, "prompt") == expected["prompt"], START_WITHIN_S,
         f"the prompt in {lang} after a reload")


def test_leviathan_wilds_and_an_unknown_game_are_drawn(table: tuple[Table, Mirror],
                                                       browser: Any) -> None:
    player, mirror = table
    state = player.play(cmd="new_game", game="leviathan-wilds", players=2,
                        difficulty="medium", leviathan=3)
    browser.get(mirror.url)
    wait(browser, lambda: text(browser, "prompt") == state["prompt"]["text"], START_WITHIN_S,
         "Leviathan Wilds' prompt")
    assert text(browser, "title") == "Leviathan Wilds"
    threats = browser.find_elements("css selector", "#threats .threat")
    guardians = browser.find_elements("css selector", "[data-guardian]")
    assert len(threats) == len(state["threat_row"]) and len(guardians) == 2
    assert state["reminders"][0]["text"] in text(browser, "reminders")
    wrath = browser.execute_script(
        "return document.querySelector('[data-fact=wrath] b').textContent")
    assert wrath == str(state["wrath"] + 1)  # the track's spaces counted from 1, as the table
    browser.save_screenshot(str(SCREENSHOTS / "mirror-page-leviathan-en.png"))
    # A game the page has no drawing for: the prompt, the reminders, the outcome, and
    # everything else as names and values.
    browser.execute_script("render({seq: 999, instance: 'x', lang: 'en', state: {"
                           "title: 'moonrise', round: 2, phase: 'day', step: 'move',"
                           "prompt: {text: 'Move your champion'}, reminders: [{text: 'Dice'}],"
                           "outcome: {result: 'victory', detail: 'The most points'},"
                           "players: 3, score_track: {Ada: 12, Bo: 9}}})")
    assert text(browser, "title") == "Moonrise" and text(browser, "prompt") == "Move your champion"
    assert "Dice" in text(browser, "reminders") and "Victory" in text(browser, "outcome")
    details = text(browser, "generic")
    assert "Score track" in details and "Ada" in details and "12" in details


def test_the_rules_search_finds_and_opens_an_entry(table: tuple[Table, Mirror],
                                                   browser: Any) -> None:
    _, mirror = table
    browser.get(mirror.url)
    wait(browser, lambda: text(browser, "status") == "live", START_WITHIN_S, "that it is live")
    browser.find_element("id", "search").send_keys("fear")
    wait(browser, lambda: browser.find_elements("css selector", "#hits button"),
         START_WITHIN_S, "search hits")
    browser.find_elements("css selector", "#hits button")[0].click()
    wait(browser, lambda: text(browser, "entry").strip() != "", START_WITHIN_S, "the entry")
    assert "fear" in (text(browser, "entry-title") + text(browser, "entry")).lower()


def caught_up(browser: Any, mirror: Mirror, state: dict[str, Any], lang: str) -> dict[str, Any]:
    """The mirror's message once its follower has read the command that led to `state`."""
    found: dict[str, Any] = {}

    def arrived() -> bool:
        found.update(mirror.message(lang))
        return bool(found["state"] and found["state"]["undo_count"] == state["undo_count"]
                    and found["state"]["game"] == state["game"])

    wait(browser, arrived, START_WITHIN_S, "the mirror following the command")
    return found


def whole_page_screenshot(browser: Any, name: str) -> None:
    """The page from top to bottom at the phone's width (a phone scrolls through it)."""
    height = int(browser.execute_script("return document.documentElement.scrollHeight"))
    browser.set_window_size(390, max(844, height))
    SCREENSHOTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / name))
    browser.set_window_size(390, 844)


def banner(browser: Any) -> list[str]:
    """The banner's lines as the page shows them ([] while it is hidden)."""
    return list(browser.execute_script(
        "const box = document.getElementById('banners');"
        "return box.hidden ? [] : [...box.children].map(line => line.textContent)"))


def choose_language(browser: Any, lang: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element("id", "lang")).select_by_value(lang)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_banner_shows_within_a_second_of_its_command_and_changes_on_undo(
        table: tuple[Table, Mirror], browser: Any, lang: str) -> None:
    player, mirror = table
    state = player.play(cmd="next")
    browser.get(mirror.url)
    choose_language(browser, lang)
    wait(browser, lambda: text(browser, "status") == "live" and text(browser, "prompt")
         == mirror.state(lang)["prompt"], START_WITHIN_S, f"the game in {lang}")
    assert banner(browser) == []
    state = player.play(cmd="fear", amount=state["fear"]["pool"])
    earned = [line["text"] for line in caught_up(browser, mirror, state, lang)["banners"]]
    assert len(earned) == 1 and ("Fear card earned" in earned[0]) == (lang == "en")
    wait(browser, lambda: banner(browser) == earned, CHANGE_SHOWN_WITHIN_S, "the fear card's news")
    SCREENSHOTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / f"mirror-banner-{lang}.png"))
    state = player.play(cmd="undo")
    undone = [line["text"] for line in caught_up(browser, mirror, state, lang)["banners"]]
    assert undone != earned and undone[0].startswith({"en": "Undone", "de": "Rückgängig"}[lang])
    wait(browser, lambda: banner(browser) == undone, CHANGE_SHOWN_WITHIN_S, "undo's line")
    player.play(cmd="next")  # a command with no news: the banner goes
    wait(browser, lambda: banner(browser) == [], CHANGE_SHOWN_WITHIN_S, "the banner gone")


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_leviathan_wilds_step_names_are_the_tables_in_the_phones_language(
        table: tuple[Table, Mirror], browser: Any, lang: str) -> None:
    player, mirror = table
    state = player.play(cmd="new_game", game="leviathan-wilds", players=2,
                        difficulty="medium", leviathan=3)
    browser.get(mirror.url)
    choose_language(browser, lang)
    steps = caught_up(browser, mirror, state, lang)["names"]["steps"]
    expected = {"en": "1 Reveal a threat", "de": "1 Bedrohung aufdecken"}.get(lang)
    assert expected is None or steps["reveal"] == expected
    wait(browser, lambda: steps["reveal"] in text(browser, "where"), START_WITHIN_S,
         f"step 1's name in {lang}")
    player.play(cmd="next", step="reveal")
    wait(browser, lambda: steps["activate"] in text(browser, "where"), CHANGE_SHOWN_WITHIN_S,
         f"step 2's name in {lang}")
    if lang != "en":
        assert "Activate" not in text(browser, "where")
    whole_page_screenshot(browser, f"mirror-page-leviathan-{lang}.png")


def glow_players(browser: Any) -> list[dict[str, str]]:
    return list(browser.execute_script(
        "return [...document.querySelectorAll('[data-player]')].map(row => ({"
        " name: row.querySelector('b').textContent,"
        " score: row.querySelector('[data-score]').textContent,"
        " rerolls: row.querySelector('[data-rerolls]').textContent,"
        " threshold: row.querySelector('[data-threshold]').textContent}))"))


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_a_glow_game_played_by_a_script_shows_its_day_players_and_ranking(
        table: tuple[Table, Mirror], browser: Any, lang: str) -> None:
    player, mirror = table
    player.play(cmd="new_game", game="glow", players=3, board="realm", start_player=0)
    browser.get(mirror.url)
    choose_language(browser, lang)
    day = {"en": "Day 1 of 8", "de": "Tag 1 von 8", "fr": "Jour 1 sur 8"}[lang]
    wait(browser, lambda: text(browser, "title") == "Glow" and day in text(browser, "where"),
         START_WITHIN_S, f"Glow's day in {lang}")
    state = player.play(cmd="dice", dice=[3, 0, 2, 2, 2])
    state = player.play(cmd="score", player=1, amount=3)
    expected = caught_up(browser, mirror, state, lang)["state"]
    shard = {"en": "light shards", "de": "Lichtsplitter", "fr": "éclats de lumière"}[lang]
    wait(browser, lambda: f"13 {shard}" in glow_players(browser)[1]["score"],
         CHANGE_SHOWN_WITHIN_S, "the score played")
    rows = glow_players(browser)
    assert [row["name"].split(" ★")[0].split(" · ")[0] for row in rows] == \
        [p["name"] for p in expected["players"]]
    assert rows[0]["name"].startswith(expected["players"][0]["name"] + " ★")  # start player
    for row, shown in zip(rows, expected["players"], strict=True):
        assert shown["glowworm_threshold"]["text"] in row["threshold"]
        assert row["rerolls"].startswith(f"{shown['reroll_tokens']} ")
    assert expected["phase_name"] in text(browser, "where")
    assert text(browser, "prompt") == expected["prompt"]["text"]
    assert state["players"][1]["score"] == 13
    whole_page_screenshot(browser, f"mirror-page-glow-{lang}.png")
    # Straight to the end scoring: a lap past the track's end and a shared second place.
    player.play(cmd="new_game", game="glow", players=3, board="realm", start_player=0,
                mode="scoring")
    ends = [dict(score=70, cards=12, board=8, glowworms=5, companions=4, trails=2,
                 reroll_tokens=1),
            dict(score=40, cards=10, board=5, glowworms=2, companions=6, trails=1,
                 reroll_tokens=0)]
    for index, end in enumerate([ends[0], ends[1], ends[1]]):
        state = player.play(cmd="end_score", player=index, **end)
    assert state["outcome"] == {"ranking": [[0], [1, 2]]}
    wait(browser, lambda: browser.find_elements("css selector", "#ranking li"),
         CHANGE_SHOWN_WITHIN_S, "the ranking")
    places = browser.execute_script(
        "return [...document.querySelectorAll('#ranking li')].map(li => [li.dataset.place,"
        " li.textContent])")
    names = [p["name"] for p in caught_up(browser, mirror, state, lang)["state"]["players"]]
    assert [place for place, _ in places] == ["1", "2"]
    assert names[0] in places[0][1] and "102" in places[0][1]
    assert names[1] in places[1][1] and names[2] in places[1][1] and "56" in places[1][1]
    lap = {"en": "lap 2", "de": "Umlauf 2", "fr": "tour 2"}[lang]
    assert lap in glow_players(browser)[0]["score"]
    whole_page_screenshot(browser, f"mirror-page-glow-end-{lang}.png")
