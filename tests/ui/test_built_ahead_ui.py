"""Every game's first taps build nothing: the app builds ahead, while Home is looked at, the
table of the game likely played (the one resumed, else the one started last) and the panels and
popups its taps open (`KitTable.build_ahead`); a game started later builds them in the players'
first pause (`IdleCollection`). Run for every registered game and the tests' fourth one."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from companion.ui.widgets import ConfirmPopup, InstantPopup
from tests.benchmarks.bench_every_table import table_buttons

from .every_game import start_as_players_do
from .harness import Harness
from .soak import put_popups_away

pytestmark = pytest.mark.ui


@contextmanager
def popups_built(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The kinds of popup built while the block runs, by class name."""
    built: list[str] = []
    original = InstantPopup.__init__

    def counted(self: Any, **kwargs: Any) -> None:
        built.append(type(self).__name__)
        original(self, **kwargs)

    monkeypatch.setattr(InstantPopup, "__init__", counted)
    try:
        yield built
    finally:  # only this patch: the test's others stay
        monkeypatch.setattr(InstantPopup, "__init__", original)


def tap_every_button(ui: Harness) -> list[str]:
    """Tap each of the table's buttons once, Done last (as a round of
    tests/benchmarks/bench_every_table.py), putting away what a tap opened and undoing what
    it sent; the buttons tapped, by name."""
    app = ui.app
    tapped = []
    for name, _button in table_buttons(ui):
        button = dict(table_buttons(ui)).get(name)
        if button is None or button.disabled:
            continue
        ui.scroll_into_view(button)
        ui.player_pause()
        undos_before = app.game_state.get("undo_count")
        ui.tap(button)
        tapped.append(name)
        put_popups_away(ui)
        if app.game_state.get("undo_count") != undos_before:
            ui.send({"cmd": "undo"})
        if app.screens.current != app.table_name():
            app.show(app.table_name())
            ui.frames(2)
    return tapped


def assert_taps_build_no_popup(ui: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    with popups_built(monkeypatch) as built:
        tapped = tap_every_button(ui)
    assert tapped, "no button on the table was tapped"
    assert built == [], f"taps on {tapped} built {built}"


def test_a_game_resumed_at_the_start_opens_its_panels_without_building_them(
        game_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Harness(tmp_path / "games.db") as first:  # the evening before
        start_as_players_do(first, game_id)
    with Harness(tmp_path / "games.db", build_ahead=True) as ui:
        ui.until_built_ahead()
        assert ui.app.game_in_play() == game_id
        assert ui.popup() is None, "a popup opened unseen was left open"
        ui.app.show(ui.app.table_name())
        ui.frames(2)
        assert_taps_build_no_popup(ui, monkeypatch)


def test_a_game_started_after_the_start_builds_its_panels_in_the_first_pause(
        game_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Harness(tmp_path / "games.db") as ui:
        start_as_players_do(ui, game_id)
        ui.app.idle_collection.collect_now()  # the players' first pause, after the start
        assert_taps_build_no_popup(ui, monkeypatch)


def test_a_popup_opened_unseen_lets_a_tap_through_to_the_table(
        game_id: str, ui: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tap in the frame a warm-up's popup is open unseen reaches the table below it."""
    from .every_game import start_on_table

    table = start_on_table(ui, game_id)
    acted: list[bool] = []
    monkeypatch.setattr(table, "act", lambda tapped=True: acted.append(tapped))
    put_away = ConfirmPopup.kept(message="Unseen").open_unseen()
    ui.frames(1)
    assert ui.popup() is not None and ui.popup().opacity == 0
    ui.player_pause()
    ui.tap(ui.widget("done", table))
    put_away()
    ui.frames(2)
    assert acted == [True], "the tap stayed in the unseen popup"
    assert ui.popup() is None


def test_a_table_that_fails_to_warm_up_leaves_home_as_it_was(
        game_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Building ahead only saves time: a game's panel that cannot be built or filled ahead is
    logged, whatever it opened is closed, and Home, the start and the game go on; the panel's
    real opening is where a failure shows (the screen boundary)."""
    from companion.ui.table_kit import KitTable

    with Harness(tmp_path / "games.db") as first:  # the evening before
        start_as_players_do(first, game_id)

    def fails(self: KitTable, state: object) -> list[InstantPopup]:
        opened = ConfirmPopup.kept(message="Half warmed")
        opened.open_unseen()  # one opened, then the next one fails
        raise RuntimeError("a panel that cannot be filled")

    def fails_to_build(self: KitTable) -> None:
        raise RuntimeError("a panel that cannot be built")

    monkeypatch.setattr(KitTable, "popups_to_warm", fails)
    with Harness(tmp_path / "games.db", build_ahead=True) as ui:
        ui.until_built_ahead()
        assert ui.popup() is None, "the warm-up's failure left a popup open"
        assert list(ui.app.boundary.caught) == []
        assert ui.app.game_in_play() == game_id and ui.screen.name == "home"
        monkeypatch.setattr(KitTable, "build_ahead", fails_to_build)
        ui.app.show(ui.app.table_name())
        ui.app.idle_collection.collect_now()  # the pause's build fails too, unseen
        ui.frames(2)
        assert ui.popup() is None and list(ui.app.boundary.caught) == []
        assert ui.screen.name == ui.app.table_name() and ui.app.game_in_play() == game_id
