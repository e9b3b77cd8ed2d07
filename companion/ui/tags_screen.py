"""Card tags (enrolment): lay a card on the reader, then tap which card it is; every game's
kinds of card, and the shared commands. Layout in layouts/tags.kv.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from ..files import write_atomically
from ..games.registry import DEFAULT_GAME, GAMES
from ..i18n import _
from ..reader.tags import TAG_KINDS, kinds
from ..tag_sheet import enrolled_tags, sheet_file_name, tag_sheet
from ..usb_sticks import MOUNTS, REMOVABLE_ROOTS, mounted_sticks
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
    usb_stick = StringProperty("")
    """The folder of the USB stick the tag sheet would go to; empty while none is mounted."""

    mounts = MOUNTS
    """The table of mounts looked at for a stick (a test hands in its own)."""
    usb_roots = REMOVABLE_ROOTS
    """The folders under which a mounted stick counts."""
    STICK_LOOK_EVERY = 2.0
    """Seconds between looks for a stick while the screen is shown: one plugged in appears."""

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
        self.look_for_stick()
        self._stick_watch = Clock.schedule_interval(self.look_for_stick, self.STICK_LOOK_EVERY)

    def on_leave(self, *_args: Any) -> None:
        watch = getattr(self, "_stick_watch", None)
        if watch is not None:
            watch.cancel()

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

    def look_for_stick(self, *_args: Any) -> None:
        sticks = mounted_sticks(Path(self.mounts), tuple(self.usb_roots))
        self.usb_stick = str(sticks[0]) if sticks else ""

    def sheet_game(self) -> str:
        """The game whose sheet is written: the one the listed kind belongs to; for the
        command tags every game shares, the game in play."""
        for listing in GAMES.listed():
            if self.kind in listing.tag_kinds:
                return listing.id
        playing = (app().game_state or {}).get("title")
        return playing if isinstance(playing, str) and playing in GAMES else DEFAULT_GAME

    def print_sheet(self) -> None:
        """Write the tag sheet of `sheet_game` to the USB stick, and say where it went."""
        self.look_for_stick()
        if not self.usb_stick:
            app().notice = _("No USB stick is plugged in: plug one in, then try again.")
            return
        answer = app().service_call({"cmd": "tags"})
        if not answer["ok"]:
            return
        # The PDF library is imported here, when a sheet is made: it took 0.4 s, and this
        # screen is imported at the app's start.
        from ..tag_sheet_pdf import sheet_pdf

        today = date.today()
        game = self.sheet_game()
        sheet = tag_sheet(game, enrolled_tags(answer["tags"]), _, today)
        path = Path(self.usb_stick) / sheet_file_name(game, today)
        try:
            write_atomically(path, sheet_pdf(sheet, today), overwrite=True)
        except OSError as error:
            app().notice = _("Could not write the tag sheet to the USB stick ({stick}): "
                             "{reason}").format(stick=self.usb_stick,
                                                reason=error.strerror or error)
            return
        app().notice = _("The tag sheet is on the USB stick ({stick}) as {file}: print it "
                         "from any computer.").format(stick=self.usb_stick, file=path.name)

    def enrol_deck(self) -> None:
        """The deck of `sheet_game`, one card after the other (see deck_screen)."""
        deck = app().screen("deck_enrolment")
        deck.open_game(self.sheet_game())
        app().show("deck_enrolment")

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
