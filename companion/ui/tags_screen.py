"""Card tags (enrolment): lay a card on the reader, then tap which card it is; every game's
kinds of card, and the shared commands. Layout in layouts/tags.kv.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from ..i18n import _
from ..reader.tags import TAG_KINDS, kinds
from .reads import tag_name
from .widgets import ConfirmPopup, ask_then


def app() -> Any:
    return App.get_running_app()


class TagsScreen(Screen):
    """Enrolment: lay a card on the reader, then tap which card it is (every game's kinds)."""

    uid = StringProperty("")
    """The tag read last (upper-case hex), or empty before the first read."""
    status_text = StringProperty("")
    """What the tag read last is, or what to do first."""
    kind = StringProperty(TAG_KINDS[0])
    """The kind of card listed (the first game's first, to begin with)."""
    progress_text = StringProperty("")
    """How many cards of the listed kind have a tag."""
    can_forget = BooleanProperty(False)
    """The tag read last is enrolled, so it can be forgotten."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._tags: dict[str, dict[str, Any]] = {}
        self._progress: dict[str, list[int]] = {}
        # One button per kind, the games' in the registry's order, then "command".
        for kind, words in kinds().items():
            button = Factory.TagKindButton()  # a kv class: its properties exist once built
            button.kind, button.label, button.screen = kind, words.label, self
            self.ids.kinds.add_widget(button)

    def on_pre_enter(self, *_args: Any) -> None:
        self.refresh()

    def on_kind(self, *_args: Any) -> None:
        self.refresh()

    def retranslate(self) -> None:
        self.refresh()

    def refresh(self) -> None:
        answer = app().service_call({"cmd": "tags"})
        if not answer["ok"]:
            return
        self._tags = {tag["uid"]: tag for tag in answer["tags"]}
        self._progress = answer["progress"]
        enrolled_cards = {tag["card"] for tag in answer["tags"] if tag["kind"] == self.kind}
        self.ids.cards.data = [
            {"text": _("{name}  · tagged").format(name=name) if card in enrolled_cards
             else name,
             "card": card, "tagged": card in enrolled_cards}
            for card, name in tag_cards(self.kind)
        ]
        done, total = self._progress.get(self.kind, [len(enrolled_cards), 0])
        cards = _(kinds()[self.kind].many)
        self.progress_text = (
            _("{done} of {total} {cards} have a tag").format(done=done, total=total, cards=cards)
            if total else
            _("{count} {cards} have a tag").format(count=len(enrolled_cards), cards=cards))
        self._describe()

    def tag_read(self, uid: str) -> None:
        """A tag was laid on the reader while this screen is open."""
        self.uid = uid
        self._describe()

    def _describe(self) -> None:
        tag = self._tags.get(self.uid)
        self.can_forget = tag is not None
        if not self.uid:
            self.status_text = _("Lay a card on the reader, then tap which card it is. "
                                 "(Is the reader set up? Settings, Card reader.)")
        elif tag is None:
            self.status_text = _("Tag {uid}: not enrolled yet. Tap which card it is.").format(
                uid=self.uid)
        else:
            self.status_text = _("Tag {uid} is {name}. Tap another card to change it.").format(
                uid=self.uid, name=tag_name(tag["kind"], tag["card"]))

    def choose(self, card: str) -> None:
        if not self.uid:
            app().notice = _("Lay a card on the reader first: then the app knows which tag "
                             "it is.")
            return
        current = self._tags.get(self.uid)
        command = {"cmd": "tag_enrol", "uid": self.uid, "kind": self.kind, "card": card}
        if current is None or (current["kind"], current["card"]) == (self.kind, card):
            self._enrol(command)
            return
        name = dict(tag_cards(self.kind)).get(card, card)
        current_name = tag_name(current["kind"], current["card"])
        ConfirmPopup(message=_("This tag is {current}. Make it {name} instead?").format(
                         current=current_name, name=name),
                     confirm_text=_("Change it"),
                     when_confirmed=lambda: self._enrol({**command, "replace": True})).open()

    def _enrol(self, command: dict[str, Any]) -> None:
        if app().service_call(command)["ok"]:
            self.refresh()

    def forget(self) -> None:
        tag = self._tags.get(self.uid)
        if tag is None:
            return

        def forget_it() -> None:
            if app().service_call({"cmd": "tag_forget", "uid": self.uid})["ok"]:
                self.refresh()

        ask_then(_("Forget tag {uid} ({name})?").format(
                     uid=self.uid, name=tag_name(tag["kind"], tag["card"])),
                 _("Forget"), forget_it, app().confirm_destructive)


def tag_cards(kind: str) -> list[tuple[str, str]]:
    """(id, name) of every card a tag of `kind` can stand for, in the catalogue's order; the
    names in the language in use."""
    from ..reader.tags import COMMAND, TAG_COMMANDS, known_cards

    cards = list(TAG_COMMANDS) if kind == COMMAND else known_cards()[kind]
    return [(card, tag_name(kind, card)) for card in cards]
