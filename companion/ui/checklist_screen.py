"""The setup checklist: the game's setup instructions, ticked off by the players, then on to the
table (the summary line and the button's words from the game's table). Layout in
layouts/checklist.kv.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from ..i18n import _
from .widgets import ConfirmPopup


def app() -> Any:
    return App.get_running_app()


class ChecklistRow(ButtonBehavior, Label):
    """One setup instruction; a tap ticks it (the ticks help the table, the game does not
    depend on them)."""

    done = BooleanProperty(False)
    """Ticked by the players."""


class ChecklistScreen(Screen):
    items = ListProperty([])
    """The setup instructions' texts."""
    summary = StringProperty("")
    """The game's choices in one line (the table screen's `setup_summary`)."""
    ticked = NumericProperty(0)
    """How many items are ticked."""
    ready_text = StringProperty("")
    """What the button on to the table says."""

    def on_pre_enter(self, *_args: Any) -> None:
        self.refresh()

    def on_ticked(self, *_args: Any) -> None:
        self._show_ready()

    def on_items(self, *_args: Any) -> None:
        self._show_ready()

    def retranslate(self) -> None:
        """The texts again in the language in use; the ticks stay."""
        self.refresh(keep_ticks=True)

    def refresh(self, keep_ticks: bool = False) -> None:
        state = app().game_state
        if not state:
            return
        rows = self.ids.checklist
        done = [row.done for row in reversed(rows.children)] if keep_ticks else []
        self.items = [item["text"] for item in app().setup_checklist()]
        table = app().screen(app().table_name(state)) if app().table_name(state) else None
        self.summary = table.setup_summary(state) \
            if table is not None and hasattr(table, "setup_summary") else ""
        rows.clear_widgets()
        for index, text in enumerate(self.items):
            ticked = index < len(done) and done[index]
            rows.add_widget(ChecklistRow(text=text, done=ticked, on_release=self._toggled))
        self.ticked = sum(1 for row in rows.children if row.done)
        self._show_ready()

    def _show_ready(self) -> None:
        all_ticked = self.ticked >= len(self.items)
        table = app().table_class(app().game_state) if app() and app().game_state else None
        if table is not None and hasattr(table, "ready_text"):
            self.ready_text = table.ready_text(all_ticked)
        else:
            self.ready_text = _("All set: on to the table") if all_ticked \
                else _("Set up: on to the table")

    def _toggled(self, row: ChecklistRow) -> None:
        row.done = not row.done
        self.ticked = sum(1 for r in self.ids.checklist.children if r.done)

    def ready(self) -> None:
        """On to the table; with items unticked the players are asked first."""
        left = len(self.items) - self.ticked
        table = app().table_name()
        if left <= 0:
            app().show(table)
            return
        ConfirmPopup(message=_("{left} of {total} setup items are not ticked. Start anyway?")
                     .format(left=left, total=len(self.items)),
                     confirm_text=_("Start anyway"),
                     when_confirmed=lambda: app().show(table)).open()
