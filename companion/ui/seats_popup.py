"""Menu → Seats (issue 31): one code per player, each opening that player's own buttons on the
phone that scans it; the table sees which seats a phone holds and takes one back in one tap (that
phone goes on following the game, read-only). Offered in every game's table menu while the mirror
is on and the game has seats. Layout in layouts/mirror.kv."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from ..i18n import _
from .menu_buttons import add_to_menu
from .widgets import InstantPopup

REFRESH_S = 1.0
"""How often the open popup looks again at which seats a phone holds (phones take them on the
mirror's thread)."""


def app() -> Any:
    return App.get_running_app()


class SeatCard(BoxLayout):
    """One seat: its player's name, its code, whether a phone holds it, and Take back."""

    player = NumericProperty(0)
    label = StringProperty("")
    url = StringProperty("")
    held = BooleanProperty(False)
    popup = ObjectProperty(None, allownone=True)


class SeatsPopup(InstantPopup):
    """Every seat of the game being played, as cards (four across in landscape, two in
    portrait), refreshed while it is open."""

    def __init__(self, **kwargs: Any) -> None:
        self._refresh: Any = None
        super().__init__(**kwargs)

    def on_pre_open(self) -> None:
        self.refill()
        self._refresh = Clock.schedule_interval(self.refill, REFRESH_S)

    def on_dismiss(self) -> None:
        if self._refresh is not None:
            self._refresh.cancel()
            self._refresh = None

    def refill(self, *_args: Any) -> None:
        """The cards as the seats are now: the same cards refilled while the seats are the
        same players (a card per player, so a code does not flicker)."""
        seats = app().mirror_link.seats()
        cards = self.ids.cards
        shown = list(reversed(cards.children))
        if [card.player for card in shown] != [seat.player for seat, _url, _held in seats]:
            cards.clear_widgets()
            shown = [SeatCard(player=seat.player, popup=self) for seat, _url, _held in seats]
            for card in shown:
                cards.add_widget(card)
        for card, (seat, url, held) in zip(shown, seats, strict=True):
            card.label, card.url, card.held = seat.shown(_), url, held

    def revoke(self, player: int) -> None:
        app().mirror_link.revoke(player)
        self.refill()


def join_menu(menu: ModalView) -> None:
    """Add "Seats…" to a table menu's grid as it opens, while the mirror is on and the game
    has seats; its own layout knows nothing of it."""
    if getattr(menu, "_seats_joined", False) or not app().mirror_link.seats():
        return
    menu._seats_joined = add_to_menu(
        menu, _("Seats: players' phones…"), lambda: SeatsPopup.kept().open())
