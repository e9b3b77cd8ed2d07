"""A button a shared concern adds to every game's table menu as it is built or opened (Turn off
or restart, Seats), the game's own layout knowing nothing of it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.factory import Factory
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView


def add_to_menu(menu: ModalView, text: str, opens: Callable[[], Any]) -> bool:
    """Add a button saying `text` to `menu`'s grid of buttons: a tap closes the menu and calls
    `opens` (which opens what the button is for). False when the menu was laid out without a
    grid: it has nowhere for the button and is left as it is."""
    content = getattr(menu, "content", None)
    grids = [] if content is None else [widget for widget in content.walk(restrict=True)
                                        if isinstance(widget, GridLayout)]
    if not grids:
        return False

    def tapped(_button: Any) -> None:
        menu.dismiss()
        opens()

    button = Factory.TapButton(text=text)
    button.bind(on_release=tapped)
    grids[0].add_widget(button)
    return True
