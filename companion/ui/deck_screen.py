"""Enrolling a deck: the screen names one game's cards one after the other, big, and each tag
laid on the reader (read steadily) is enrolled as the card named. The walk itself is
`companion.deck_enrolment` (pure); this screen words it and sends `tag_enrol` / `tag_forget`.
Layout in layouts/deck_enrolment.kv.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from ..deck_enrolment import (
    ELSEWHERE,
    ENROL,
    REPEAT,
    SAME,
    DeckCard,
    DeckWalk,
    enrolment_games,
    game_deck,
)
from ..games.registry import GAMES
from ..i18n import N_, _, ngettext
from ..reader.tags import TagMeaning, card_name, kinds
from ..tag_sheet import enrolled_tags


def app() -> Any:
    return App.get_running_app()


def one_card_of(kind: str) -> str:
    """"Fear card", as a label starts: the kind's one card, translated, first letter upper."""
    words = _(kinds()[kind].one)
    return words[:1].upper() + words[1:]


class DeckEnrolmentScreen(Screen):
    """One game's cards named in turn; a tag laid enrols the card named, then the next."""

    game = StringProperty("")
    """The id of the game whose cards are walked (empty before one is chosen)."""
    card_text = StringProperty("")
    """The card to lay now, big; or what is left once the walk is at its end."""
    place_text = StringProperty("")
    """Where that card is among its kind's: "Fear card 7 of 50"."""
    message = StringProperty("")
    """What the last tag laid did, or what to do first."""
    refused = BooleanProperty(False)
    """The last tag laid was refused (the message is shown as a warning)."""
    reader_on = BooleanProperty(False)
    """A card reader is set up (else the screen says so and offers the reader settings)."""
    can_go_back = BooleanProperty(False)
    """A card was named before this one (Previous card)."""
    can_skip = BooleanProperty(False)
    """A card is named (Skip card)."""
    redo_text = StringProperty("")
    """The redo button's words, naming the kind it would walk again."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.walk: DeckWalk | None = None
        self._last_words: tuple[str, dict[str, str]] = ("", {})
        self._game_buttons: dict[str, Any] = {}
        self._kind_buttons: dict[str, Any] = {}
        for game in enrolment_games():
            button = Factory.DeckChoiceButton(group="deck_game")
            button.bind(on_release=lambda _button, game=game: self.open_game(game))
            self._game_buttons[game] = button
            self.ids.games.add_widget(button)

    # --- coming and going ---

    def open_game(self, game: str) -> None:
        """Walk `game`'s cards; the same game again resumes where the registry says."""
        if game == self.game and self.walk is not None:
            self.resume()
            return
        self.game = game
        self.walk = DeckWalk(game, game_deck(game), self._registry())
        self._kind_buttons.clear()
        self.ids.kinds.clear_widgets()
        for kind in self.walk.kinds:
            button = Factory.DeckChoiceButton(group="deck_kind")
            button.bind(on_release=lambda _button, kind=kind: self.start_at(kind))
            self._kind_buttons[kind] = button
            self.ids.kinds.add_widget(button)
        self._say("")
        self.refresh()

    def on_pre_enter(self, *_args: Any) -> None:
        if self.walk is None:
            self.open_game(enrolment_games()[0])
        else:
            self.resume()
        app().bind(reader_status=self._look_at_reader)
        self._look_at_reader()

    def on_leave(self, *_args: Any) -> None:
        app().unbind(reader_status=self._look_at_reader)

    def resume(self) -> None:
        """Back after a pause: the first card without a tag, as the registry has it now."""
        if self.walk is not None:
            self.walk.resume(self._registry())
        self.refresh()

    def pause(self) -> None:
        """Leave: every tag laid is saved already, and coming back resumes."""
        app().show("tags")

    def open_reader_settings(self) -> None:
        app().open_settings()
        settings = app().screen("settings")
        Clock.schedule_once(lambda _dt: settings.ids.scroll.scroll_to(settings.ids.port), 0)

    def _look_at_reader(self, *_args: Any) -> None:
        self.reader_on = app().reader_link.reader is not None
        self.refresh()

    def _registry(self) -> dict[str, TagMeaning]:
        answer = app().service_call({"cmd": "tags"})
        return enrolled_tags(answer["tags"]) if answer["ok"] else {}

    # --- the players' buttons ---

    def start_at(self, kind: str, redo: bool = False) -> None:
        if self.walk is None:
            return
        self.walk.start_at(kind, redo)
        many = _(kinds()[kind].many)
        self._say(N_("Every one of the {cards} is named again, with a tag or without: a new "
                    "tag laid is added to its card.") if redo else "", cards=many)
        self.refresh()

    def redo_kind(self) -> None:
        if self.walk is not None:
            self.start_at(self._kind_now(), redo=True)

    def skip(self) -> None:
        if self.walk is None or self.walk.current is None:
            return
        skipped = self.walk.current
        self.walk.skip()
        self._say(N_("Skipped: {name}"), name=self._name(skipped))
        self.refresh()

    def back(self) -> None:
        if self.walk is None:
            return
        uid = self.walk.back()
        card = self.walk.current
        if uid is not None and card is not None:
            app().service_call({"cmd": "tag_forget", "uid": uid})
            self._say(N_("Back to {name}: its tag was taken off again. Lay it anew."),
                      name=self._name(card))
        elif card is not None:
            self._say(N_("Back to {name}."), name=self._name(card))
        self.refresh()

    # --- a tag laid on the reader (read steadily) ---

    def tag_read(self, uid: str) -> None:
        if self.walk is None:
            return
        lay = self.walk.read(uid)
        if lay.outcome == ENROL and lay.card is not None:
            command = {"cmd": "tag_enrol", "uid": uid, "kind": lay.card.kind,
                       "card": lay.card.card}
            answer = app().service_call(command)
            if not answer["ok"]:
                self._say(N_("Not enrolled: {reason}"), refused=True, reason=answer["error"])
            else:
                self.walk.taken(uid)
                self._say(N_("Enrolled: {name}"), name=self._name(lay.card))
        elif lay.outcome == SAME and lay.card is not None:
            self.walk.taken(uid)
            self._say(N_("This tag is {name} already: on to the next card."),
                      name=self._name(lay.card))
        elif lay.outcome == REPEAT and lay.meaning is not None:
            self._say(N_("Not taken: that tag was just enrolled as {name}. Lift it and lay the "
                        "next card."), refused=True, name=card_name(lay.meaning, _))
        elif lay.outcome == ELSEWHERE and lay.meaning is not None:
            self._say(N_("Not taken: this tag is already {kind} “{name}”."), refused=True,
                      kind=one_card_of(lay.meaning.kind),
                      name=card_name(lay.meaning, _))
        else:
            self._say(N_("Every card is through: tap a kind to go through it again."),
                      refused=True)
        self.refresh()

    # --- what the screen shows ---

    def retranslate(self) -> None:
        self.refresh()

    def refresh(self) -> None:
        walk = self.walk
        if walk is None:
            return
        for game, button in self._game_buttons.items():
            button.text = _(GAMES.listing(game).name)
            button.chosen = game == self.game
        kind_now = self._kind_now()
        for cover in walk.coverage():
            button = self._kind_buttons[cover.kind]
            button.text = _("{kind} {done}/{total}").format(
                kind=_(kinds()[cover.kind].label), done=cover.done, total=cover.total)
            button.chosen = cover.kind == kind_now
        card = walk.current
        if card is not None:
            self.card_text = self._name(card)
            self.place_text = _("{card} {number} of {total}").format(
                card=one_card_of(card.kind), number=card.number, total=card.of)
        elif walk.missing():
            self.card_text = _("The end of the deck")
            self.place_text = ngettext("{count} card still has no tag.",
                                       "{count} cards still have no tag.",
                                       walk.missing()).format(count=walk.missing())
        else:
            self.card_text = _("Every card has a tag")
            self.place_text = _("{game} is enrolled in full.").format(
                game=_(GAMES.listing(walk.game).name))
        self.can_go_back = walk.can_go_back
        self.can_skip = card is not None
        self.redo_text = _("Redo: {kind}").format(kind=_(kinds()[kind_now].label))
        text, values = self._last_words
        if not self.reader_on and not text:
            self.message = _("No card reader is set up: set one up in the reader settings, "
                             "then lay each card named on it.")
        else:
            self.message = _(text).format(**values) if text else _(
                "Lay the card named on the reader: its tag is enrolled, and the next card "
                "is named.")

    def _say(self, text: str, refused: bool = False, **values: str) -> None:
        """The message line: `text` is English, shown translated (again after a change of
        language); `values` are worded already."""
        self._last_words = (text, values)
        self.refused = refused

    def _kind_now(self) -> str:
        walk = self.walk
        assert walk is not None
        return walk.current.kind if walk.current is not None else walk.start_kind

    @staticmethod
    def _name(card: DeckCard) -> str:
        return card_name(card.meaning, _)
