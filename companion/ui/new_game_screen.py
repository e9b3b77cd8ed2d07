"""The new-game screen: which game, then that game's own form (from its folder, through the
registry's `Game` record). Start sends the form's new_game through `App.send`, which the game
service answers only once the command is on disk, then shows the setup checklist. Layout in
layouts/new_game.kv.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import ListProperty, StringProperty
from kivy.uix.screenmanager import Screen

from .. import i18n
from ..i18n import _
from .home_screen import unfinished
from .screens import setup_forms
from .widgets import ask_then


def app() -> Any:
    return App.get_running_app()


class NewGameScreen(Screen):
    """Which game, then that game's own form (from its folder, through the registry). The
    form's properties and methods read and write through the screen as its own (the reader's
    link and the tests name them so), and its ids join the screen's."""

    game = StringProperty("")
    """The game to start: its id in the registry."""
    games = ListProperty([])
    """The games offered: those with a new-game form (and a table), in the registry's order."""
    note = StringProperty("")
    """The chosen form's line beside Start (Spirit Island: the difficulty)."""

    def on_kv_post(self, *_args: Any) -> None:
        self._language = i18n.language()
        self._forms: dict[str, Any] = {}
        chooser, box = self.ids.games, self.ids.forms
        for game_id, form_class in setup_forms().items():
            form = form_class()
            self._forms[game_id] = form
            box.add_widget(form)
            self.ids[getattr(form, "form_id", f"{game_id.replace('-', '_')}_form")] = form
            for name, widget in form.ids.items():
                self.ids.setdefault(name, widget)
            button = _game_choice(game_id, self)
            chooser.add_widget(button)
            self.ids[f"game_{game_id.replace('-', '_')}"] = button
            form.bind(note=self._show_note)
        self.games = list(self._forms)
        self.bind(game=self._show_form)
        self.restore(app().last_new_game())

    def __getattr__(self, name: str) -> Any:
        # Only what the screen itself lacks: a property or method of a hosted form.
        if not name.startswith("_"):
            for form in self.__dict__.get("_forms", {}).values():
                if hasattr(form, name):
                    return getattr(form, name)
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        forms = self.__dict__.get("_forms", {})
        if not name.startswith("_") and not hasattr(type(self), name):
            for form in forms.values():
                if form.property(name, quiet=True) is not None:
                    setattr(form, name, value)
                    return
        super().__setattr__(name, value)

    def form(self, game_id: str | None = None) -> Any:
        """The form of `game_id` (the chosen game when None), or None."""
        return self._forms.get(self.game if game_id is None else game_id)

    def restore(self, last: dict[str, Any]) -> None:
        """The last game started is chosen again, its form filled with its choices."""
        from ..games.registry import DEFAULT_GAME

        last_game = last.get("game", DEFAULT_GAME)
        for game_id, form in self._forms.items():
            form.restore(last if game_id == last_game else app().last_new_game(game_id))
        if last_game in self._forms:
            self.game = last_game
        elif self.game not in self._forms:
            self.game = DEFAULT_GAME if DEFAULT_GAME in self._forms \
                else next(iter(self._forms), "")
        self._show_form()

    def _show_form(self, *_args: Any) -> None:
        for game_id, form in self._forms.items():
            chosen = game_id == self.game
            form.opacity = 1 if chosen else 0
            form.disabled = not chosen
            form.size_hint_y = 1 if chosen else None
            form.height = 100 if chosen else 0
        self._show_note()

    def _show_note(self, *_args: Any) -> None:
        form = self.form()
        self.note = getattr(form, "note", "") if form is not None else ""

    def on_pre_enter(self, *_args: Any) -> None:
        if self._language != i18n.language():
            self.retranslate()

    def retranslate(self) -> None:
        """Every form's names in the language in use; what was chosen stays chosen."""
        for form in self._forms.values():
            form.retranslate()
        self._language = i18n.language()

    def command(self) -> dict[str, Any]:
        """new_game as the chosen form fills it in."""
        from ..games.registry import DEFAULT_GAME

        command = dict(self.form().command())
        if self.game != DEFAULT_GAME:
            command.setdefault("game", self.game)
        return command

    def start(self) -> None:
        if self.form() is None:
            return
        state = app().game_state

        def begin() -> None:
            if unfinished(state):
                app().send({"cmd": "abandon"})
            command = self.command()
            if app().send(command):
                app().remember_new_game(command)
                app().show("checklist")

        if unfinished(state):
            ask_then(_("A game is still unfinished. Abandon it and start a new one?"),
                     _("Abandon and start"), begin, app().confirm_destructive)
        else:
            begin()


def _game_choice(game_id: str, screen: NewGameScreen) -> Any:
    """The button that chooses `game_id` (its look is GameChoice in new_game.kv)."""
    button = Factory.GameChoice()
    button.game = game_id
    button.state = "down" if screen.game == game_id else "normal"
    screen.bind(game=lambda _screen, chosen: setattr(
        button, "state", "down" if chosen == game_id else "normal"))
    button.bind(on_release=lambda _button: setattr(screen, "game", game_id))
    return button
