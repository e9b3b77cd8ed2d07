"""Home: one big button back into the unfinished game (its words from the game's table), then
the ways to a new game, the history and the rest. Layout in layouts/home.kv.

Whether a game is still unfinished (`unfinished`) is decided here: Home offers to resume it, the
new-game screen asks before abandoning it, and the app names the game in play by it.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from ..i18n import _


def app() -> Any:
    return App.get_running_app()


class HomeScreen(Screen):
    resume_text = StringProperty("")
    """What the resume button says; empty when there is no unfinished game."""
    notice = StringProperty("")
    """A line for the players: a damaged database moved aside, …"""

    def on_kv_post(self, *_args: Any) -> None:
        app().bind(game_state=self._game_changed)

    def _game_changed(self, *_args: Any) -> None:
        # Off the window (a table is shown) every tap would draw the resume button's words
        # anew for nothing: entering refreshes it.
        if self.parent is not None:
            self.refresh()

    def on_pre_enter(self, *_args: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        state = app().game_state
        table = app().table_class(state) if state else None
        if not state and app().start_up.held_game is not None:  # a safe start left it waiting
            self.resume_text = _("Resume {game}").format(game=app().start_up.held_game_name())
        elif table is None:  # no game, or one this app has no table for (a script plays it)
            self.resume_text = ""
        elif hasattr(table, "resume_text"):
            self.resume_text = table.resume_text(state)
        else:
            self.resume_text = _("Resume {game}: round {round}").format(
                game=_(app().game_names.get(state["title"], state["title"])),
                round=state.get("round", "")) if unfinished(state) else ""

    def resume(self) -> None:
        if not app().game_state and app().start_up.held_game is not None:
            app().start_up.resume_held_game()
        state = app().game_state
        table = app().table_class(state) if state else None
        if table is None:
            return
        app().show(table.resume_screen(state) if hasattr(table, "resume_screen")
                   else app().table_name(state))


def unfinished(state: dict[str, Any]) -> bool:
    """A game is in play and not over (a game whose state has a phase is over in phase "over";
    one without is over once it has an outcome)."""
    if not state:
        return False
    if "phase" in state:
        return bool(state["phase"] != "over")
    return state.get("outcome") is None
