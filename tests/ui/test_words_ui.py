"""Smaller things a player sees, through the real window: Settings opens at its top."""

from __future__ import annotations

from typing import Any

from .harness import Harness


def open_settings(ui: Harness) -> Any:
    ui.app.show("home")
    ui.frames(2)
    ui.tap_id("settings")
    assert ui.screen.name == "settings"
    return ui.screen


def test_settings_reopens_at_its_top_with_the_language_in_view(ui: Harness) -> None:
    settings = open_settings(ui)
    scroll = settings.ids.scroll
    ui.scroll_into_view(settings.ids.line_pattern)  # far down: the reader's advanced texts
    assert scroll.scroll_y < 0.5
    ui.tap_id("close")
    assert ui.screen.name == "home"
    open_settings(ui)
    ui.frames(3)
    assert scroll.scroll_y == 1
    language = settings.ids.language
    top = scroll.to_window(scroll.x, scroll.top)[1]
    assert language.to_window(language.x, language.top)[1] <= top + 1  # its heading too
    assert language.to_window(language.x, language.y)[1] >= scroll.to_window(scroll.x,
                                                                              scroll.y)[1]


def test_the_flipped_blight_cards_name_stays_on_spirit_islands_table(ui: Harness) -> None:
    assert ui.app.send({"cmd": "new_game", "players": 2, "seed": 11})
    ui.app.show("table")
    assert ui.app.send({"cmd": "next"})  # into round 1: blight at setup comes from the box
    ui.frames(2)
    name = ui.screen.ids.blight_card_name
    assert name.opacity == 0 and not name.text  # the Healthy Island side: no name to show
    assert ui.app.send({"cmd": "blight", "amount": ui.state["blight"]["on_card"]})
    flipped = ui.state["blight"]
    assert flipped["side"] == "blighted" and flipped["name"]
    ui.screen.dismiss_banner()  # the flip's news read and closed
    ui.frames(3)
    assert not ui.screen.banner
    assert name.text == flipped["name"] and name.opacity == 1 and name.height > 0
    assert name.texture_size[0] <= name.width + 1  # the whole name, not cut off
    blight_tile = ui.screen.ids.blight
    assert blight_tile.collide_point(*name.to_parent(*name.center))
