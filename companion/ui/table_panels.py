"""The panels and popups a game's table opens on taps, kept and built ahead: mixed into
`KitTable` (table_kit.py). A table builds each panel once (`panel_of`) and refills it; while
nobody waits it builds them all, and the popups it opens, before the first tap asks for one
(`build_ahead`), and at the start opens them once unseen (`warm_up`, called by
building_ahead.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar, cast

from kivy.app import App

from .pickers import CardPicker
from .widgets import ConfirmPopup, InstantPopup


class Panel(Protocol):
    """A popup over a table that shows the game's state while it is open (a guardian's, a
    player's numbers): the table refills it after every command."""

    def show(self, state: dict[str, Any]) -> None: ...
    def open(self, *args: Any, **kwargs: Any) -> None: ...
    def bind(self, **kwargs: Any) -> Any: ...


PanelT = TypeVar("PanelT", bound=Panel)


class TablePanels:
    """The panels a table keeps, and what it builds ahead. A game's table names its own in
    `panels_ahead` and `popups_ahead`."""

    panels_ahead: tuple[type, ...] = ()
    """The panels a tap on this table opens (`panel_of`), built ahead (`build_ahead`)."""
    popups_ahead: tuple[type[InstantPopup], ...] = (CardPicker, ConfirmPopup)
    """The kinds of popup a tap on this table opens (`InstantPopup.kept`), one of each built
    ahead: every game picks cards and asks before going on; a game adds its own."""

    _panels: dict[type, Panel]
    """The panels built once for this table (`panel_of`; the table makes the dict)."""
    shows: Callable[[dict[str, Any]], bool]
    """Whether a state is one this table shows (the table's)."""

    def panel_of(self, kind: type[PanelT]) -> PanelT:
        """This table's panel of `kind`: built the first time it opens and refilled every
        later time (a tap that opens a panel builds nothing, which on a Pi is most of it)."""
        panel = self._panels.get(kind)
        if panel is None:
            panel = self._panels[kind] = kind()
        return cast(PanelT, panel)

    def build_ahead(self) -> None:
        """Build the panels and popups this table's taps open (`panels_ahead`, `popups_ahead`)
        while nobody waits: the first tap that opens one then builds nothing, as on Spirit
        Island's board (a Leviathan Wilds guardian's panel took 50 ms here to build on its first
        tap, the better part of a second on a Pi). Those built already are left as they are."""
        for kind in self.panels_ahead:
            self.panel_of(kind)
        for popup in self.popups_ahead:
            popup.build_ahead()

    def warm_up(self) -> Callable[[], None] | None:
        """What the app does for this table while Home is looked at (`BuildingAhead`): build
        ahead, then open `popups_to_warm` unseen (`InstantPopup.open_unseen`): building was
        only half of a first opening, the texts fitted and drawn the other half. Returns what
        puts them away, which the app calls a frame later."""
        self.build_ahead()
        app = App.get_running_app()
        state = app.game_state if app is not None else None
        put_aways = [popup.open_unseen()
                     for popup in self.popups_to_warm(state if state and self.shows(state)
                                                      else None)]
        if not put_aways:
            return None

        def put_away() -> None:
            for each in put_aways:
                each()

        return put_away

    def popups_to_warm(self, state: dict[str, Any] | None) -> list[InstantPopup]:
        """The popups `warm_up` opens unseen, filled: this table's panels, filled from `state`
        (None: no game of this table is in play, and a panel has nothing to show). A game
        adds a popup whose first opening still costs much (a long list)."""
        if state is None:
            return []
        panels: list[Panel] = [self.panel_of(kind) for kind in self.panels_ahead]
        for panel in panels:
            panel.show(state)
        return cast(list[InstantPopup], panels)
