"""A walk through every screen and popup of the app, in the states that fill them most (Spirit
Island's screens, then Leviathan Wilds' table and panels, then Glow's form, day and scoring).

The layout test checks each stop at every supported size; `python3 tasks.py screenshots`
photographs each stop at 800x480 and 720x1280, and `python3 tasks.py screenshots --docs` only
each game's table for the README (docs/images/).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .harness import Harness

SIZES = {
    "800x480": (800, 480),
    "1024x600": (1024, 600),
    "1280x720": (1280, 720),
    "720x1280": (720, 1280),
}
# Each screen size with the normal text, and the smallest with the largest text as well.
SCREENSHOT_CASES = (("800x480", "normal"), ("720x1280", "normal"), ("800x480", "largest"))

# England 6 fills the board (High Immigration) and the reminders; a scenario adds its own.
BUSY_GAME = {"cmd": "new_game", "players": 4, "deck": "physical", "adversary": "england",
             "level": 6, "scenario": "blitz", "events": True, "seed": 7}


SHORT_GAMES = [{"cmd": "new_game", "players": 2, "adversary": adversary, "level": level,
                "seed": seed} for seed, (adversary, level) in enumerate(
                    [("habsburg-livestock", 6), ("france", 2), ("habsburg-livestock", 6)])]


def history_row_button(ui: Harness, game_id: int) -> Any:
    """The tappable text of the history row of `game_id`."""
    ui.frames(3)
    for row in ui.widget("games").children[0].children:
        if row.game_id == game_id:
            return row.children[-1]
    raise AssertionError(f"no history row for game {game_id}")


def stops(ui: Harness) -> Iterator[str]:
    """Bring the app to each stop in turn and yield its name."""
    app = ui.app
    yield "home"
    ui.tap_id("new_game")
    screen = ui.screen
    screen.adversary, screen.level = "Kingdom of England", "6"
    screen.scenario = "Second Wave"
    ui.frames(3)
    yield "new-game"
    ui.tap_id("game_leviathan_wilds")
    yield "new-game-leviathan"
    ui.tap_id("lw_numbers")
    ui.frames(3)
    yield "new-game-leviathan-numbers"
    ui.tap_id("lw_numbers")
    ui.tap_id("game_spirit_island")
    assert app.send(BUSY_GAME)
    app.show("checklist")
    ui.frames(3)
    yield "checklist"
    app.show("table")
    ui.frames(3)
    assert ui.popup() is not None  # the physical deck's picker opens by itself
    yield "picker-invader"
    ui.popup().dismiss()
    ui.frames(2)
    for step in ("growth", "event", "slow_powers"):  # the kinds of step a round has
        _play_to(ui, step, round_number=1)
        ui.frames(3)
        yield f"table-{step.replace('_', '-')}"
    _play_to(ui, "ravage", round_number=3)
    app.send({"cmd": "destroy", "piece": "city"})
    for _ in range(2):
        app.send({"cmd": "blight"})
    ui.frames(3)
    yield "table"
    app.send({"cmd": "fear", "amount": 3 * 20})  # three fear cards at once: terror rises
    app.send({"cmd": "destroy", "piece": "town"})
    app.send({"cmd": "undo"})
    ui.frames(3)
    yield "table-banners"
    app.send({"cmd": "blight", "amount": app.game_state["blight"]["on_card"]})
    ui.frames(4)
    assert ui.popup() is not None  # the card drawn face down flipped: which is it?
    yield "picker-blight-flip"
    ui.pick("downward-spiral")
    ui.frames(3)
    yield "table-blight-flipped"
    _play_to(ui, "fear", round_number=4, fear_per_round=16)
    app.send({"cmd": "fear_card", "card": "dahan-enheartened"})
    ui.frames(3)
    yield "table-fear"
    ui.screen.pick_fear_card()
    ui.frames(3)
    yield "picker-fear"
    ui.popup().dismiss()
    ui.screen.open_menu()
    ui.frames(3)
    yield "menu"
    ui.popup().declare("defeat", "spirit_destroyed")
    ui.frames(3)
    yield "confirm"
    ui.popup().confirm()
    ui.frames(4)
    yield "end"
    ui.tap_id("save")
    ui.tap_id("home")
    yield "home-after-game"
    ui.tap_id("history")
    yield "history"
    ui.tap(history_row_button(ui, app.game_state["game"]))
    yield "history-detail"
    ui.tap_id("back")
    for command in SHORT_GAMES:  # more rows for the statistics, the longest names among them
        assert app.send(command), app.notice
        assert app.send({"cmd": "next"}) and app.send({"cmd": "declare", "result": "victory"})
    app.show("history")
    ui.frames(3)
    ui.tap_id("statistics")
    yield "statistics-chart"
    ui.tap_id("back")
    ui.tap_id("home")
    ui.tap_id("tags")
    ui.screen.tag_read("04497622D93881")
    ui.frames(3)
    yield "tags"
    ui.screen.choose("I-jungle")
    app.read_message = "Card read: Jungle (stage I)"
    ui.frames(3)
    yield "tags-enrolled"
    app.read_message = ""
    ui.tap_id("enrol_deck")
    yield "deck-enrolment"
    ui.screen.tag_read("04497622D93881")  # a repeat of the tag enrolled above: refused
    ui.frames(3)
    yield "deck-enrolment-refused"
    app.show("rules")
    ui.screen.query = "blight"
    ui.frames(3)
    yield "rules-results"
    ui.screen.open_entry("blight")
    ui.frames(3)
    yield "rules-entry"
    app.show("home")
    ui.frames(2)
    ui.tap_id("settings")
    ui.frames(2)
    yield "settings"
    ui.screen.ids.scroll.scroll_y = 0
    ui.frames(3)
    yield "settings-reader"
    ui.tap_id("line_pattern")
    ui.frames(2)
    yield "settings-keys"
    ui.popup().dismiss()
    ui.frames(2)
    yield from reader_check_stops(ui)
    ui.tap_id("close")
    ui.frames(2)
    yield from system_stops(ui)


def system_stops(ui: Harness) -> Iterator[str]:
    """Home → System on this machine: the checks, then the actions below them."""
    ui.tap_id("system")
    screen = ui.screen
    for _ in range(3000):  # the checks run on a thread of their own
        if screen.summary and not screen._looking:
            break
        ui.frames(1)
    ui.frames(3)
    yield "system"
    screen.ids.scroll.scroll_y = 0
    ui.frames(3)
    yield "system-actions"
    ui.tap_id("back")
    ui.frames(2)


class StillReader:
    """A reader that is not there, with a watch on a clock the walk sets: the reader check's
    screen filled without a serial line."""

    family = "pn532"

    def __init__(self) -> None:
        from companion.reader.watch import ReaderWatch

        self.time = 1000.0
        self.watch = ReaderWatch(self.now)
        self.watch.connection(True, "pn532", "/dev/serial/by-id/usb-1a86_USB_Serial-if00-port0")

    def now(self) -> float:
        return self.time

    def polled_nothing(self, after: float, until: float) -> None:
        """A PN532's polls, every 0.05 s, that found no card in a silence."""
        at = after + 0.05
        while at < until:
            self.watch.polled_nothing(at)
            at += 0.05

    def stop(self) -> None:
        """Nothing runs."""


def reader_check_stops(ui: Harness) -> Iterator[str]:
    """Settings → Check with no reader; then with a reader that saw an unknown tag, phantoms
    and two tags, and a range test that found the range weak."""
    from companion.reader.watch import PHANTOM, READ, STACKED

    app = ui.app
    ui.tap_id("reader_check")
    ui.frames(2)
    yield "reader-check-off"
    reader = StillReader()
    app.reader_link.reader = reader
    screen = ui.screen
    try:
        screen.toggle_range_test()
        for step in range(31):  # the card lies still: measured, then the lift is asked for
            reader.watch.saw("04497622D93881", READ, 1000.0 + step * 0.05)
        reader.time = 1001.6
        screen.refresh()
        for start in (1001.8, 1002.4, 1003.0, 1003.6, 1004.2):  # a lift stuttering on
            reader.polled_nothing(start - 0.55, start)
            reader.watch.saw("04497622D93881", READ, start)
        reader.polled_nothing(1004.2, 1005.3)  # then gone
        reader.time = 1005.3
        screen.refresh()
        reader.watch.saw("0000000000", PHANTOM, 1005.4)
        for uid in ("04497622D93881", "E63AE5D5"):
            reader.watch.saw(uid, STACKED, 1005.5)
        reader.watch.saw("E63AE5D5", READ, 1006.0)
        reader.time = 1006.5
        screen.refresh()
        assert screen.range_band == "weak" and screen.enrol_uid == "E63AE5D5", screen.range_text
        ui.frames(3)
        yield "reader-check"
    finally:
        app.reader_link.reader = None
        screen.stop_range_test()
    ui.tap_id("back")
    ui.frames(2)


# Leviathan Wilds with four guardians, a long name and corrections that fill every panel: a
# giant crystal, two win conditions and a counter.
LEVIATHAN_GAME = {"cmd": "new_game", "game": "leviathan-wilds", "players": 4,
                  "difficulty": "expert", "leviathan": 11,
                  "win_conditions": ["Free the caged guardian", "Cool the three vents"]}


def leviathan_stops(ui: Harness) -> Iterator[str]:
    """Bring Leviathan Wilds' table to each of its steps and panels, and yield their names."""
    app = ui.app

    def send(command: dict[str, Any]) -> None:
        assert app.send(command), app.notice

    send(LEVIATHAN_GAME)
    send({"cmd": "add_crystal", "dice": [6, 4], "corrupted": True})
    send({"cmd": "counter", "counter": "frost", "amount": 2})
    app.show(app.table_name())
    ui.frames(3)
    table = ui.screen
    yield "lw-table-reveal"
    table.pick_threat()
    ui.frames(3)
    yield "lw-picker-threat"
    ui.popup().dismiss()
    send({"cmd": "reveal", "card": "LW-threat-11-3"})
    send({"cmd": "next"})
    ui.frames(3)
    yield "lw-table-activate"
    table.open_ap_card()
    ui.frames(3)
    yield "lw-panel-ap-card"
    ui.popup().dismiss()
    send({"cmd": "ap_card", "ap": 4, "protections": ["harmful", "slippery", "corrupt"]})
    ui.frames(3)
    yield "lw-table-actions"
    send({"cmd": "weakness", "guardian": 0})
    send({"cmd": "terrain", "guardian": 0, "kind": "open"})
    send({"cmd": "focus", "guardian": 0, "ready": True})
    table.open_guardian()
    ui.frames(3)
    yield "lw-panel-guardian"
    ui.popup().dismiss()
    table.open_crystals()
    ui.frames(3)
    yield "lw-panel-crystals"
    ui.popup().dismiss()
    send({"cmd": "next"})
    ui.frames(3)
    yield "lw-table-resolve"
    send({"cmd": "grip", "guardian": 0, "amount": -(app.game_state["guardians"][0]["deck"] - 1)})
    send({"cmd": "next"})
    ui.frames(3)
    yield "lw-table-draw-last-card"
    while app.game_state["revealed_slot"] != 4 or app.game_state["step"] != "draw":
        send({"cmd": "next"})
    ui.frames(3)
    yield "lw-table-round-end"
    while not app.game_state["guardians"][2]["defeated"]:
        send({"cmd": "corruption", "guardian": 2, "amount": 1})
    ui.frames(3)
    yield "lw-table-last-chance"
    table.open_menu()
    ui.frames(3)
    yield "lw-menu"
    ui.popup().dismiss()
    while app.game_state["outcome"] is None:
        send({"cmd": "next"})
    ui.frames(3)
    yield "lw-table-lost"


# Glow with four players, the longest names a tile shows, on the Realm side (its camp value).
GLOW_NAMES = ("Maximiliane", "Bartholomäus", "Friederike", "Konstantin")


def glow_stops(ui: Harness) -> Iterator[str]:
    """Bring Glow's setup form, checklist, day, panels and end scoring to each of their states
    that fill them most, and yield their names."""
    app = ui.app

    def send(command: dict[str, Any]) -> None:
        assert app.send(command), app.notice

    ui.tap_id("new_game")
    ui.tap_id("game_glow")
    for button in ("glow_realm", "glow_full", "glow_players_4", "glow_start_2"):
        ui.tap_id(button)
    for row, name in zip(ui.screen.form("glow")._rows, GLOW_NAMES, strict=False):
        row.ids.name.text = name
    ui.frames(3)
    yield "glow-new-game"
    ui.tap_id("glow_numbers")
    ui.frames(3)
    yield "glow-new-game-numbers"
    ui.tap_id("glow_numbers")
    ui.tap_id("start")
    ui.frames(3)
    assert app.screens.current == "checklist", app.notice
    yield "glow-checklist"
    for row in list(ui.widget("checklist").children):
        ui.tap(row)
    ui.tap_id("ready")
    ui.frames(3)
    assert app.screens.current == "table-glow", app.notice
    send({"cmd": "score", "player": 0, "amount": 38})  # past the track's end: a lap shown
    send({"cmd": "rerolls", "player": 1, "amount": 2})  # gained today, usable tomorrow
    send({"cmd": "companion", "player": 2, "card": "glow-A11"})
    send({"cmd": "glowworms", "player": 3, "amount": 4})
    ui.frames(3)
    yield "glow-table-morning"
    app.read_message = "Bartholomäus recruits Briki: from which area?"
    ui.screen.choose_companion("glow-A11")  # a companion laid on the reader
    ui.frames(3)
    yield "glow-picker-area"
    ui.popup().dismiss()
    app.read_message = ""
    ui.frames(2)
    send({"cmd": "dice", "dice": [2, 2, 2, 2, 1]})  # the dice row gives way to the picks'
    ui.frames(3)
    yield "glow-table-pick"
    while app.game_state["phase"] != "noon":
        send({"cmd": "next"})
    ui.frames(3)
    yield "glow-table-noon"
    ui.tap_id("done")
    ui.frames(3)
    assert ui.popup() is not None  # "nothing forgotten?"
    yield "glow-noon-question"
    ui.popup().dismiss()
    ui.frames(2)
    while app.game_state["phase"] != "evening":
        send({"cmd": "next", "confirm": True})
    ui.frames(3)
    yield "glow-table-evening"
    send({"cmd": "next"})
    ui.frames(3)
    yield "glow-table-marker-passed"
    ui.screen.open_player(2)
    ui.frames(3)
    yield "glow-panel-player"
    ui.popup().dismiss()
    ui.frames(2)
    while app.game_state["phase"] != "over":
        send({"cmd": "next", "confirm": True})
    ui.frames(3)
    yield "glow-scoring"
    ui.screen.open_scoring(1)
    ui.frames(3)
    yield "glow-panel-scoring"
    ui.popup().dismiss()
    ui.frames(2)
    for player in range(4):
        send({"cmd": "end_score", "player": player, "cards": 12, "board": 8,
              "glowworms": 6, "companions": 5, "trails": 4, "reroll_tokens": 1})
    ui.frames(3)
    yield "glow-result"


def go_to(ui: Harness, tour: Callable[[Harness], Iterator[str]], stop: str) -> None:
    """Walk `tour` (one of the tours above) as far as its stop named `stop`, and stay there."""
    for name in tour(ui):
        if name == stop:
            return
    raise AssertionError(f"the tour never came to {stop}")


def _play_to(ui: Harness, step: str, round_number: int, fear_per_round: int = 0) -> None:
    """Send commands (not taps: the walk is about looks) until the game reaches `step`."""
    app = ui.app
    fear_round = 0
    for _ in range(200):
        state = app.game_state
        if state["round"] >= round_number and state["step"] == step:
            return
        if fear_per_round and state["phase"] == "spirit" and state["round"] != fear_round:
            fear_round = state["round"]
            app.send({"cmd": "fear", "amount": fear_per_round})
        if state["invader"]["awaiting_reveal"]:
            app.send({"cmd": "reveal", "card": state["invader"]["candidates"][0]})
        elif state["fear"]["earned"] and state["step"] == "fear":
            app.send({"cmd": "resolve_fear"})
        else:
            assert app.send({"cmd": "next"}), app.notice
        while ui.popup() is not None:
            ui.popup().dismiss()
            ui.frames(1)
        ui.frames(1)
    raise AssertionError(f"never reached {step} in round {round_number}")


def with_text_size(folder: Path, text_size: str, language: str = "English") -> None:
    """Set the text size (and language) in the settings file the app in `folder` will read."""
    (folder / "companion.ini").write_text(
        f"[companion]\ntext_size = {text_size}\nlanguage = {language}\n")


def take_screenshots(folder: Path) -> list[Path]:
    """Photograph every stop at the screenshot sizes; returns the files written."""
    import tempfile

    written: list[Path] = []
    for size_name, text_size in SCREENSHOT_CASES:
        suffix = size_name if text_size == "normal" else f"{size_name}-{text_size}"
        for walk in (stops, leviathan_stops, glow_stops):  # each game's walk on a fresh database
            with tempfile.TemporaryDirectory() as data:
                with_text_size(Path(data), text_size)
                harness = Harness(Path(data) / "games.db", SIZES[size_name])
                try:
                    for stop in walk(harness):
                        written.append(harness.screenshot(folder / f"{stop}-{suffix}.png"))
                finally:
                    harness.close()
    return written


# The README's pictures: each game's table at a busy moment mid-game, with the file it goes to.
DOCS_PICTURES = ((stops, "table", "spirit-island-table"),
                 (leviathan_stops, "lw-table-actions", "leviathan-wilds-table"),
                 (glow_stops, "glow-table-pick", "glow-table"))


def take_docs_pictures(folder: Path) -> list[Path]:
    """Photograph each game's table at its stop in DOCS_PICTURES, at 800x480 with the normal text
    in English; returns the files written."""
    import tempfile

    written: list[Path] = []
    for walk, stop, name in DOCS_PICTURES:
        with tempfile.TemporaryDirectory() as data:
            with_text_size(Path(data), "normal")
            harness = Harness(Path(data) / "games.db", SIZES["800x480"])
            try:
                go_to(harness, walk, stop)
                written.append(harness.screenshot(folder / f"{name}.png"))
            finally:
                harness.close()
    return written


def main(argv: list[str]) -> int:
    """`python -m tests.ui.tour [FOLDER]` photographs every stop into FOLDER (screenshots/);
    `python -m tests.ui.tour --docs [FOLDER]` only the README's pictures (docs/images/)."""
    import shutil
    import tempfile

    from .harness import ensure_display, prepare

    docs = bool(argv) and argv[0] == "--docs"
    if docs:
        argv = argv[1:]
    folder = Path(argv[0]) if argv else Path("docs/images" if docs else "screenshots")
    xvfb = ensure_display()
    kivy_home = Path(tempfile.mkdtemp(prefix="companion-kivy-"))
    prepare(kivy_home)
    try:
        for path in (take_docs_pictures if docs else take_screenshots)(folder):
            print(path)
    finally:
        if xvfb is not None:
            xvfb.terminate()
        shutil.rmtree(kivy_home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
