"""Spirit Island's end of game: the outcome, the score by the published formula from the counts
the players enter, and saving it to the history.

Its layout is layouts/spirit_island/end.kv.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.i18n import _

from . import presenter


def app() -> Any:
    return App.get_running_app()


class EndScreen(Screen):
    outcome = StringProperty("")
    """Victory or defeat, and why."""
    score_text = StringProperty("")
    """The score the inputs give, by the published formula."""
    saved_text = StringProperty("")
    """Whether the score is in the history."""
    has_bonus = BooleanProperty(False)
    """The scenario gives bonus points."""

    def on_pre_enter(self, *_args: Any) -> None:
        state = app().game_state
        if not state or not state["outcome"]:
            return
        outcome = state["outcome"]
        self.ids.dahan.value = outcome.get("dahan") or 0
        recorded = outcome.get("blight_on_island")
        self.ids.blight.value = state["blight"]["on_island"] if recorded is None else recorded
        self.has_bonus = bool(state.get("scenario"))
        self.ids.bonus.value = outcome.get("bonus") or 0
        self.retranslate()

    def retranslate(self) -> None:
        """The outcome, score and saved lines in the language in use (the counts stay)."""
        state = app().game_state
        if not state or not state["outcome"]:
            return
        outcome = state["outcome"]
        result = _(presenter.RESULT_NAMES.get(outcome["result"], outcome["result"]))
        self.outcome = _("{result}: {detail}").format(
            result=result, detail=outcome.get("detail") or outcome["reason"])
        self._show_saved()
        self.update_score()

    def _show_saved(self) -> None:
        outcome = (app().game_state or {}).get("outcome") or {}
        self.saved_text = (_("Saved to history with {score} points").format(
            score=outcome["score"]) if outcome.get("score") is not None
            else _("Not saved yet"))

    def update_score(self, *_args: Any) -> None:
        from ..endings import score

        game = app().service.session.state
        if game is None or game.outcome is None:
            return
        points = score(game, int(self.ids.dahan.value), int(self.ids.blight.value),
                       int(self.ids.bonus.value))
        self.score_text = _("Score: {points}").format(points=points)

    def save(self) -> None:
        command: dict[str, Any] = {"cmd": "score", "dahan": int(self.ids.dahan.value),
                                   "blight_on_island": int(self.ids.blight.value)}
        if self.has_bonus:
            command["bonus"] = int(self.ids.bonus.value)
        if app().send(command):
            self._show_saved()

    def back_to_game(self) -> None:
        """Undo the ending (and the score saved after it), for a game declared over by
        mistake: one tap, however many steps that takes back."""
        while (app().game_state or {}).get("phase") == "over":
            if not app().send({"cmd": "undo"}):
                return
        app().show("table")


