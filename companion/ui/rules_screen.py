"""The rules lookup: search the rules as you type, read an entry, follow its links, go back.
Layout in layouts/rules.kv.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.screenmanager import Screen

from .. import i18n


def app() -> Any:
    return App.get_running_app()


class RulesScreen(Screen):
    """Search the rules as you type; read an entry, follow its links, go back."""

    query = StringProperty("")
    """What is typed in the search box."""
    lang = StringProperty("en")
    """The language of the entries shown."""
    entry_id = StringProperty("")
    """The entry being read, or empty while the results are shown."""
    entry_title = StringProperty("")
    """The open entry's title."""
    entry_body = StringProperty("")
    """The open entry's text."""
    nothing_found = BooleanProperty(False)
    """Something is typed and no entry matches it."""
    game = StringProperty("")
    """The id of the game being played (rules.kv binds it to the state's title); empty when none."""
    all_games = BooleanProperty(False)
    """The search shows every game's entries, not only those of the game being played."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._history: list[str] = []
        self.return_to = "home"
        self.lang = i18n.language()  # the app's language, until EN / DE / FR say otherwise

    def on_query(self, *_args: Any) -> None:
        if self.ids.query.text != self.query:
            self.ids.query.text = self.query
        self.entry_id = ""
        self._history.clear()
        self.search()

    def on_lang(self, *_args: Any) -> None:
        if self.entry_id:
            self._show(self.entry_id)
        self.search()

    def on_entry_id(self, *_args: Any) -> None:
        if self.entry_id:  # reading: the keys make room for the text
            self.ids.query.focus = False

    def on_enter(self, *_args: Any) -> None:
        """Nothing to read yet: the keys come up at once, ready for a search."""
        if not self.entry_id and not self.ids.results.data:
            self.ids.query.focus = True

    def on_all_games(self, *_args: Any) -> None:
        if self.query.strip():  # an empty query may be showing a step's help: leave it
            self.search()

    on_game = on_all_games

    def search(self) -> None:
        game = None if self.all_games else self.game or None
        hits = app().rules_index().search(self.query, self.lang, game=game) \
            if self.query.strip() else []
        self.ids.results.data = [{"text": f"{hit.title}\n{hit.snippet}", "entry_id": hit.id}
                                 for hit in hits]
        self.nothing_found = bool(self.query.strip()) and not hits

    def list_entries(self, entries: list[Any]) -> None:
        """Show these entries as the results (the help for a step)."""
        self.query = ""
        self.nothing_found = False
        self.ids.results.data = [{"text": f"{entry.title}\n{entry.body[:90]}…",
                                  "entry_id": entry.id} for entry in entries]

    def open_for_step(self) -> None:
        """The table's "?": the entries for the moment the game in play is in."""
        from ..games.registry import GAMES

        state = app().game_state
        game = GAMES.get(state.get("title", "")) if state else None
        self.return_to = app().screens.current
        self.help_for_moment(game.help_step(dict(state)) if game else None)
        app().show("rules")

    def help_for_moment(self, moment: str | None) -> None:
        """The entries for the moment a game is in (its `help_step`), the one entry open when
        there is only one; nothing changes for a moment without help (None)."""
        if not moment:
            return
        entries = app().rules_index().for_moment(moment, self.lang)
        self.list_entries(entries)
        if len(entries) == 1:
            self.open_entry(entries[0].id)

    def open_entry(self, entry_id: str) -> None:
        if self.entry_id:
            self._history.append(self.entry_id)
        self._show(entry_id)

    def _show(self, entry_id: str) -> None:
        entry = app().rules_index().entry(entry_id, self.lang)
        if entry is None:
            return
        self.entry_id, self.entry_title, self.entry_body = entry.id, entry.title, entry.body
        related = self.ids.related
        related.clear_widgets()
        for link in entry.related:
            target = app().rules_index().entry(link, self.lang)
            if target is not None:
                related.add_widget(RelatedLink(text=target.title, entry_id=link))

    def go_back(self) -> None:
        """Back to the previous entry, then to the results, then to where the players were."""
        if self._history:
            self._show(self._history.pop())
        elif self.entry_id:
            self.entry_id = ""
        else:
            app().show(self.return_to)


class RelatedLink(Button):
    """A link from an entry to a related one."""

    entry_id = StringProperty("")
    """The entry it opens."""
