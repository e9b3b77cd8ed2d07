"""Turn off and Restart: one pair of buttons on Home and on the System screen, and a button in
every game's table menu that opens the pair in a popup of its own; a question asked every time
(whatever the confirm setting: a table turned off by a stray tap is a game interrupted), and,
where the table cannot be turned off from its screen, the pair dimmed with the reason a tap
away, never missing without a word. What they do is companion/power.py's; their look is
layouts/power.kv, which also joins the button to every TableMenu as it is built.

A menu is built anew each time it opens, so it gets one plain button (as its others) and not the
pair: the popup with the pair is built once and kept (InstantPopup.kept)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from ..i18n import N_, _
from ..power import PowerFailed
from .menu_buttons import add_to_menu
from .widgets import InstantPopup, ask_then

TURN_OFF_QUESTION = N_("Turn the table off? The games are kept; wait until the screen is dark "
                       "before pulling the plug.")
RESTART_QUESTION = N_("Restart the table? The games are kept; it is back in about a minute.")
TURNING_OFF = N_("The table is turning off: wait until the screen is dark.")
RESTARTING = N_("The table is restarting: it is back in about a minute.")


def app() -> Any:
    return App.get_running_app()


class PowerButtons(BoxLayout):
    """Turn off and Restart side by side (one cell of a menu's grid)."""

    font_size = NumericProperty(16)
    """The size of the buttons' words (Home's are larger than a menu's)."""
    unavailable = StringProperty("")
    """Why the table cannot be turned off from here ("" when it can): the buttons are drawn
    dimmed and a tap says why."""

    def on_kv_post(self, *_args: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        self.unavailable = app().power.unavailable_because() or ""

    def turn_off(self) -> None:
        self._ask(_(TURN_OFF_QUESTION), _("Turn off"), app().power.turn_off, TURNING_OFF)

    def restart(self) -> None:
        self._ask(_(RESTART_QUESTION), _("Restart"), app().power.restart, RESTARTING)

    def _ask(self, question: str, confirm_text: str, act: Callable[[], None],
             going: str) -> None:
        self.refresh()
        if self.unavailable:
            PowerUnavailable.kept(message=self.unavailable).open()
            return

        def go() -> None:
            menu = self._menu()
            if menu is not None:
                menu.dismiss()
            try:
                act()
            except PowerFailed as error:  # the games are still open: the table goes on
                app().notice = str(error)
                return
            app().notice = _(going)

        ask_then(question, confirm_text, go, ask=True)

    def _menu(self) -> ModalView | None:
        """The menu these buttons sit in (None on Home)."""
        parent = self.parent
        while parent is not None and not isinstance(parent, ModalView):
            parent = parent.parent if parent is not parent.parent else None
        return parent


class PowerUnavailable(InstantPopup):
    """Why Turn off and Restart cannot be used on this computer."""

    message = StringProperty("")
    """The reason, translated (power.PowerControl.unavailable_because)."""


class PowerPopup(InstantPopup):
    """Turn off and Restart, reached from a game's table menu."""


def join_menu(menu: ModalView) -> None:
    """Add "Turn off or restart…" to a table menu's grid of buttons: every game's menu (a
    TableMenu) gets it here, its own layout knowing nothing of it."""
    add_to_menu(menu, _("Turn off or restart…"), lambda: PowerPopup.kept().open())
