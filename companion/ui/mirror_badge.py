"""The mirror's QR code and address, on Home and beside the table's menu while the mirror is
on (the players switch it in Settings). Layout in layouts/mirror.kv."""

from __future__ import annotations

from typing import Any

from kivy.graphics.texture import Texture
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

QUIET_ZONE = 4
"""Light modules around the code, as the standard asks (scanners need them)."""


def qr_pixels(url: str) -> tuple[int, bytes]:
    """The QR code of `url` with its quiet zone, as RGB rows bottom-up (a texture's order):
    (modules a side, pixels)."""
    from ..mirror.qr import encode

    modules = encode(url)
    side = len(modules) + 2 * QUIET_ZONE
    rows = []
    for y in reversed(range(side)):
        my = y - QUIET_ZONE
        row = bytearray()
        for x in range(side):
            mx = x - QUIET_ZONE
            dark = 0 <= my < len(modules) and 0 <= mx < len(modules) and modules[my][mx]
            row += b"\x00\x00\x00" if dark else b"\xff\xff\xff"
        rows.append(bytes(row))
    return side, b"".join(rows)


class QrCode(Widget):
    """`url` as a QR code, one texel a module, scaled up without smoothing."""

    url = StringProperty("")
    texture = ObjectProperty(None, allownone=True)

    def on_url(self, _widget: Any, url: str) -> None:
        if not url:
            self.texture = None
            return
        side, pixels = qr_pixels(url)
        texture = Texture.create(size=(side, side), colorfmt="rgb")
        texture.mag_filter = "nearest"
        texture.min_filter = "nearest"
        texture.blit_buffer(pixels, colorfmt="rgb", bufferfmt="ubyte")
        self.texture = texture


class MirrorBadge(BoxLayout):
    """The code and the address under it; nothing (and no room) while the mirror is off."""

    url = StringProperty("")


def badge_beside(popup: Any, url: str) -> None:
    """Show the badge beside a menu's buttons (below them on a tall screen) while the mirror
    is on: the players reach for the code where they reach for the game's other things."""
    content = popup.content
    if not url or content is None or isinstance(content, MenuWithBadge):
        return
    popup._container.remove_widget(content)
    wrapper = MenuWithBadge()
    wrapper.add_widget(content)
    wrapper.add_widget(MirrorBadge(url=url))
    popup.content = wrapper


class MenuWithBadge(BoxLayout):
    """A menu's buttons and the mirror's badge side by side (stacked on a tall screen)."""

    def on_size(self, *_args: Any) -> None:
        for child in self.children:
            if isinstance(child, MirrorBadge):
                child.size_hint = (0.42, 1) if self.width > self.height else (1, 0.42)
