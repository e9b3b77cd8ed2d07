"""The phones' view from the touchscreen: off by default (nothing listens), switched on in
Settings, its code on Home and beside the table's menu (and it scans), every acknowledged
command handed to the phones, a new address on demand, and switched off again."""

from __future__ import annotations

import json
import shutil
import subprocess
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from companion.driver import StateSnapshot
from companion.ui.mirror_badge import MenuWithBadge, MirrorBadge
from tests.listening import listening_ports

from .harness import Harness
from .test_settings_ui import button, open_settings, stored

pytestmark = pytest.mark.ui
SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"


def fetch(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, b""


def switch(ui: Harness, on: bool) -> Any:
    settings = open_settings(ui)
    ui.scroll_into_view(settings.ids.mirror)
    ui.tap(button(ui, "On" if on else "Off", settings.ids.mirror))
    return settings


def local(url: str) -> str:
    """The same page through loopback (the test machine may have no LAN address)."""
    parts = urlsplit(url)
    return f"http://127.0.0.1:{parts.port}{parts.path}"


def phones_part(ui: Harness) -> dict[str, Any]:
    """The state the table shows, as the phones are sent it: what the table sees of it."""
    snapshot = StateSnapshot.of(ui.app.service)
    assert snapshot is not None
    return snapshot.public_view(dict(ui.app.game_state))


def test_the_mirror_is_off_by_default_and_nothing_listens(ui: Harness) -> None:
    assert stored(ui, "mirror", "on") == "0" and ui.app.mirror_url == ""
    assert listening_ports() == set()  # the app's own sockets: any port may be taken
    assert ui.screen.ids.mirror_badge.opacity == 0


def test_switched_on_the_phones_follow_every_command_and_switched_off_nothing_listens(
        ui: Harness) -> None:
    ui.app.mirror_port = 0
    assert ui.send({"cmd": "new_game", "players": 2, "seed": 8})
    switch(ui, on=True)
    url = ui.app.mirror_url
    assert stored(ui, "mirror", "on") == "1" and "/t/" + stored(ui, "mirror", "token") in url
    port = urlsplit(url).port
    assert port is not None and port in listening_ports()
    status, body = fetch(local(url) + "/state")
    first = json.loads(body)
    assert status == 200 and first["state"] == phones_part(ui)
    assert ui.send({"cmd": "next"})
    after = json.loads(fetch(local(url) + "/state?lang=en")[1])
    assert after["seq"] == first["seq"] + 1 and after["state"] == phones_part(ui)
    assert ui.send({"cmd": "undo"})
    undone = json.loads(fetch(local(url) + "/state")[1])
    assert undone["state"]["round"] == first["state"]["round"]
    # A new address: the old one is gone.
    settings = ui.screen
    ui.scroll_into_view(settings.ids.mirror_renew)
    ui.tap(settings.ids.mirror_renew)
    assert ui.app.mirror_url != url and fetch(local(url))[0] == 404
    assert fetch(local(ui.app.mirror_url))[0] == 200
    switch(ui, on=False)
    assert ui.app.mirror_url == "" and stored(ui, "mirror", "on") == "0"
    assert port not in listening_ports()


@pytest.mark.skipif(shutil.which("zbarimg") is None,
                    reason="zbarimg is missing: apt-get install zbar-tools (tasks.py does)")
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_code_on_home_and_beside_the_menu_scans_as_the_address(
        ui: Harness, size: tuple[int, int]) -> None:
    ui.app.mirror_port = 0
    ui.resize(*size)
    switch(ui, on=True)
    ui.app.show("home")
    ui.frames(3)
    badge = ui.screen.ids.mirror_badge
    assert badge.opacity == 1 and badge.ids.code.texture is not None
    name = f"mirror-home-{size[0]}x{size[1]}.png"
    shot = ui.rendered(SCREENSHOTS / name)
    assert scanned(shot) == ui.app.mirror_url
    assert ui.send({"cmd": "new_game", "players": 2, "seed": 8})
    ui.app.show("table")
    ui.frames(3)
    ui.tap_id("menu")
    menu = ui.popup()
    assert isinstance(menu.content, MenuWithBadge)
    assert any(isinstance(child, MirrorBadge) for child in menu.content.children)
    shot = ui.rendered(SCREENSHOTS / f"mirror-menu-{size[0]}x{size[1]}.png")
    assert scanned(shot) == ui.app.mirror_url
    menu.dismiss()


def scanned(picture: Path) -> str:
    done = subprocess.run(["zbarimg", "--quiet", "--raw", str(picture)], capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 0, f"no code found in {picture}: {done.stderr}"
    # Every code on the screen must say the same: zbarimg once read the menu's code twice at
    # 720x1280 (the same address on two lines).
    codes = set(done.stdout.split())
    assert len(codes) == 1, f"different codes in {picture}: {codes}; drawn: {codes_drawn()}"
    return codes.pop()


def codes_drawn() -> list[str]:
    """The addresses of the QR codes on the window now, and what holds each (for a picture
    that scans as more than one address: a code of an earlier test's app still drawn?)."""
    import gc

    from kivy.core.window import Window

    from companion.ui.mirror_badge import QrCode

    gc.collect()
    return [f"{code.url} in {type(code.get_root_window()).__name__}"
            f" under {[type(child).__name__ for child in Window.children]}"
            for code in gc.get_objects() if type(code) is QrCode and code.url
            and code.get_root_window() is not None]


@pytest.mark.skipif(shutil.which("zbarimg") is None,
                    reason="zbarimg is missing: apt-get install zbar-tools (tasks.py does)")
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_code_beside_leviathan_wilds_menu_scans_as_the_address_and_leaves_with_the_mirror(
        ui: Harness, size: tuple[int, int]) -> None:
    ui.app.mirror_port = 0
    ui.resize(*size)
    assert ui.send({"cmd": "new_game", "game": "leviathan-wilds", "players": 2,
                        "difficulty": "medium", "leviathan": 3}), ui.app.notice
    switch(ui, on=True)
    ui.app.show(ui.app.table_name())
    ui.frames(3)
    assert ui.app.table_name() == "table-leviathan-wilds"
    ui.tap_id("menu")
    menu = ui.popup()
    assert isinstance(menu.content, MenuWithBadge)
    drawn = codes_drawn()  # the menu's code alone: no other app's is left on the window
    assert len(drawn) == 1 and drawn[0].startswith(ui.app.mirror_url + " "), drawn
    badges = [child for child in menu.content.children if isinstance(child, MirrorBadge)]
    assert len(badges) == 1 and badges[0].url == ui.app.mirror_url
    shot = ui.rendered(SCREENSHOTS / f"mirror-leviathan-menu-{size[0]}x{size[1]}.png")
    assert scanned(shot) == ui.app.mirror_url
    menu.dismiss()
    ui.frames(2)
    # Switched off, the menu comes without the code (and there is nothing to scan).
    switch(ui, on=False)
    ui.app.show(ui.app.table_name())
    ui.frames(3)
    ui.tap_id("menu")
    menu = ui.popup()
    assert not isinstance(menu.content, MenuWithBadge)
    assert not any(isinstance(child, MirrorBadge) for child in menu.content.walk())
    menu.dismiss()


def test_the_phones_get_the_banner_the_table_shows_and_undo_s_line(ui: Harness) -> None:
    ui.app.mirror_port = 0
    assert ui.send({"cmd": "new_game", "players": 2, "seed": 8})
    assert ui.send({"cmd": "next"})
    switch(ui, on=True)
    url = local(ui.app.mirror_url)
    ui.app.show("table")
    ui.frames(2)
    assert json.loads(fetch(url + "/state")[1])["banners"] == []
    assert ui.send({"cmd": "fear", "amount": ui.app.game_state["fear"]["pool"]})
    table = ui.app.screen("table")
    published = json.loads(fetch(url + "/state?lang=en")[1])["banners"]
    assert [line["kind"] for line in published] == ["fear_card_earned"]
    assert [line["text"] for line in published] == table.banner.split("\n")
    german = json.loads(fetch(url + "/state?lang=de")[1])["banners"]
    assert german[0]["text"] != published[0]["text"] and german[0]["text"].startswith("Furcht")
    assert ui.send({"cmd": "undo"})
    undone = json.loads(fetch(url + "/state?lang=en")[1])["banners"]
    assert undone == [{"kind": "undo", "text": "Undone: +8 fear"}]
    assert "Undone: +8 fear" in table.banner
    switch(ui, on=False)
