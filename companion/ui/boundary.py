"""Where a mistake in a screen's code ends: the table says "Something went wrong — your game is
saved" with Home and Undo, the traceback goes to the log, and the app lives.

Two doors lead here: `CompanionApp.carry_out` (a table's refresh after a command, which is on
disk already) and Kivy's event loop (`kivy.base.ExceptionManager`: a button's handler, a key, a
scheduled callback). A failure that comes back on every frame is logged once a minute, not
every time, so that it cannot fill the SD card.
"""

from __future__ import annotations

import logging
import time
import traceback
from collections import deque
from typing import Any

from kivy.base import ExceptionHandler, ExceptionManager
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from ..i18n import N_
from .widgets import InstantPopup

log = logging.getLogger(__name__)

SOMETHING_WENT_WRONG = N_("Something went wrong — your game is saved.")
WHAT_NOW = N_("Undo takes back the last action; Home leaves the table. What happened is "
              "written to the log.")

QUIET_SECONDS = 60.0
"""The same failure again within this long is counted, not logged again."""
KEPT = 100
"""The failures `ScreenBoundary.caught` keeps (the newest)."""


class SomethingWentWrong(InstantPopup):
    """The panel over the table after a screen's code failed (layout in layouts/boundary.kv)."""

    can_undo = BooleanProperty(False)
    """The game in play has an action to take back."""

    def undo(self) -> None:
        from kivy.app import App

        self.dismiss()
        App.get_running_app().carry_out({"cmd": "undo"})

    def home(self) -> None:
        from kivy.app import App
        from kivy.core.window import Window
        from kivy.uix.modalview import ModalView

        for child in list(Window.children):  # a game's panel left open under this one
            if isinstance(child, ModalView):
                child.dismiss(animation=False)
        app = App.get_running_app()
        app.show("home")


class ScreenBoundary(ExceptionHandler):
    """Catches what a screen's code raised, for one app."""

    def __init__(self, app: Any) -> None:
        super().__init__()
        self.app = app
        self.caught: deque[BaseException] = deque(maxlen=KEPT)
        """The failures caught, oldest first (the tests check none went unnoticed)."""
        self._logged: dict[tuple[str, ...], list[float]] = {}
        """Each failure's last full log entry's time and how often it came back since."""
        self._panel: SomethingWentWrong | None = None

    def install(self) -> None:
        ExceptionManager.add_handler(self)

    def remove(self) -> None:
        if self in ExceptionManager.handlers:
            ExceptionManager.remove_handler(self)

    def handle_exception(self, inst: BaseException) -> int:
        """Kivy's event loop: PASS (go on) for a failure taken care of, RAISE (stop) for
        anything else."""
        if not isinstance(inst, Exception):  # Ctrl+C, SystemExit: the app means to stop
            return int(ExceptionManager.RAISE)
        return int(ExceptionManager.PASS if self.failed(inst, "the event loop")
                   else ExceptionManager.RAISE)

    def failed(self, error: Exception, where: str) -> bool:
        """Log `error` and show the panel; True: the app goes on."""
        self.caught.append(error)
        self._log(error, where, time.monotonic())
        try:
            self._show_panel()
        except Exception:  # the panel itself cannot be drawn: the notice line still can
            log.exception("the panel on a failure could not be shown")
            from ..i18n import _

            self.app.notice = _(SOMETHING_WENT_WRONG)
        return True

    def _log(self, error: Exception, where: str, now: float) -> None:
        frames = traceback.extract_tb(error.__traceback__)
        last = frames[-1] if frames else None
        signature = (type(error).__name__, str(error),
                     f"{last.filename}:{last.lineno}" if last else "")
        last_logged = self._logged.get(signature)
        if last_logged is not None and now - last_logged[0] < QUIET_SECONDS:
            last_logged[1] += 1
            return
        again = f" (and {last_logged[1]} times more since it was last logged)" \
            if last_logged and last_logged[1] else ""
        self._logged[signature] = [now, 0]
        log.error("a screen failed (%s)%s; the game is saved and the app goes on", where,
                  again, exc_info=error)

    def _show_panel(self) -> None:
        state = self.app.game_state or {}
        if self._panel is None:
            self._panel = SomethingWentWrong()
        self._panel.can_undo = bool(state.get("can_undo"))
        if self._panel.parent is None:
            self._panel.open(animation=False)


SAFE_START = N_("The companion stopped {count} times just after it started, so this time it "
                "did not go back into the last game. Nothing is lost: the game is saved.")
SETTINGS_ON = N_("Switched on now (one of these may be what stopped it):")
RESUME_HELD = N_("Resume {game}")


class SafeStartPanel(InstantPopup):
    """Over Home after a safe start: what happened, the games' settings switched on (each with
    Off), and Resume, Settings and Close (layout in layouts/boundary.kv)."""

    stops = NumericProperty(0)
    """How many starts in a row died just after starting."""
    message = StringProperty("")
    """What happened, in the players' words."""
    resume_text = StringProperty("")
    """The Resume button's words; "" when no game waits."""

    def on_kv_post(self, *_args: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        from kivy.app import App
        from kivy.factory import Factory

        from ..i18n import _

        app = App.get_running_app()
        self.message = _(SAFE_START).format(count=int(self.stops))
        name = app.start_up.held_game_name()
        self.resume_text = _(RESUME_HELD).format(game=name) if name else ""
        rows = self.ids.settings_on
        rows.clear_widgets()
        switched_on = app.game_settings_on()
        if switched_on:
            rows.add_widget(Factory.SafeStartHeading(text=_(SETTINGS_ON)))
        for game_id, setting in switched_on:
            row = Factory.SafeStartSetting(
                text=f"{_(app.game_names[game_id])}: {_(setting.label)}", key=setting.key)
            row.bind(on_switch_off=lambda row, *_args: self.switch_off(row.key))
            rows.add_widget(row)

    def switch_off(self, key: str) -> None:
        from kivy.app import App

        section, option = key.split("/")
        App.get_running_app().change_setting(section, option, "0")  # off, for either kind
        self.refresh()

    def resume(self) -> None:
        from kivy.app import App

        self.dismiss()
        App.get_running_app().screen("home").resume()

    def settings(self) -> None:
        from kivy.app import App

        self.dismiss()
        App.get_running_app().open_settings()


class SafeStartSetting(BoxLayout):
    """One setting switched on, with its Off button (`on_switch_off`)."""

    text = StringProperty("")
    """The game's name and the setting's."""
    key = StringProperty("")
    """The setting's "section/option"."""

    __events__ = ("on_switch_off",)

    def on_switch_off(self) -> None:
        """Off was tapped."""
