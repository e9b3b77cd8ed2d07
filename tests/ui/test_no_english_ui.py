"""No English on a German or French screen, in any registered game: through the real window, the
app is started in the language, a game is started from its own new-game form, and every button
of its table is tapped once (a panel or picker it opens is read, then closed); Home, the forms
of every game and Settings are read too. Every text a player can see is checked: a text the
catalogues have as an English original must be shown translated, and a text put together at run
time must not hold common English words. A game added to the registry is walked the same way,
without a line of its own."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games.registry import GAMES
from companion.i18n import PLURAL_SEPARATOR, catalogue_path, read_po, templates
from companion.i18n_messages import all_messages

from .harness import Harness
from .tour import with_text_size

pytestmark = pytest.mark.ui

LANGUAGES = {"de": "Deutsch", "fr": "Français"}
LANGUAGE_NAMES = {"English", "Deutsch", "Français"}
"""Each language's name in its own language, offered in Settings whatever the language."""
TABLE_GAMES = [game.id for game in GAMES.values() if game.setup_form and game.table_screen]

ENGLISH_WORDS = frozenset({
    "the", "and", "of", "to", "is", "are", "with", "your", "you", "then", "tap", "taps", "left",
    "round", "step", "turn", "players", "player", "card", "cards", "each", "this", "that", "when",
    "will", "from", "into", "not", "no", "yet", "back", "close", "undo", "redo", "done",
    "settings", "history", "game", "games", "new", "resume", "delete", "cancel", "none", "level",
    "deck", "fear", "blight", "healed", "earned", "draw", "discard", "shuffle", "which", "what",
    "how", "many",
})
"""Words common in the app's English and absent from its German and French: a text built at
run time (a name, a number and a word) that holds one was left untranslated."""
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def catalogue(lang: str) -> dict[str, str]:
    """Every English original of the app's texts and its translation in `lang` (missing: "")."""
    translated: dict[str, str] = {}
    for template in templates():
        translated.update(read_po(catalogue_path(lang, template)))
    return {text: translated.get(text, "") for text in all_messages()
            if PLURAL_SEPARATOR not in text}


class EnglishFinder:
    """Says whether a text on screen is English where it should be `lang`."""

    def __init__(self, lang: str) -> None:
        self.catalogue = catalogue(lang)
        self.shown_as_written = {text for text, translation in self.catalogue.items()
                                 if translation == text}
        """Proper names the translators kept (Spirit Island, a guardian's or a card's name)."""
        forms = [form for translation in self.catalogue.values()
                 for form in translation.split(PLURAL_SEPARATOR)]
        self.translations = set(forms)

    def english(self, text: str) -> bool:
        return any(self._english_line(line.strip()) for line in text.split("\n"))

    def _english_line(self, line: str) -> bool:
        if not WORD.search(line) or line in LANGUAGE_NAMES or line in self.shown_as_written:
            return False
        if line in self.catalogue:  # an English original: shown as it is written
            return True
        if line in self.translations:
            return False
        for name in self.shown_as_written:  # a kept name inside a composed text
            if len(name) > 3 and name in line:
                line = line.replace(name, " ")
        return any(word.lower() in ENGLISH_WORDS for word in WORD.findall(line))


def visible_texts(root: Any) -> Iterator[tuple[Any, str]]:
    """(widget, text) of every label and button a player can see under `root`: a widget or an
    ancestor made invisible (opacity 0, no size) hides its whole subtree."""
    from kivy.uix.label import Label

    if root.opacity == 0 or root.width < 2 or root.height < 2:
        return
    if isinstance(root, Label) and root.text.strip() and not type(root).__name__.endswith("Key"):
        yield root, root.text  # an on-screen key shows its own sign
    for child in root.children:
        yield from visible_texts(child)


class Walk:
    """One app in one language, and everything English it showed."""

    def __init__(self, ui: Harness, lang: str) -> None:
        self.ui, self.finder = ui, EnglishFinder(lang)
        self.read = 0
        self.opened = 0
        """Panels, pickers and lists read over a screen."""
        self.found: dict[str, str] = {}

    def read_screen(self, where: str) -> None:
        self.ui.frames(3)
        # The screen, and whatever lies over it: a popup, a drop-down list, the keys.
        roots = [self.ui.screen] + [child for child in self.ui.window.children
                                    if child is not self.ui.app.root]
        self.opened += len(roots) - 1
        for root in roots:
            for widget, text in visible_texts(root):
                self.read += 1
                if self.finder.english(text):
                    self.found.setdefault(text, f"{where}: {type(widget).__name__}")

    def close_popups(self) -> None:
        """Close what lies over the screen, and wait until it has gone (a drop-down list goes
        a moment after it is told to)."""
        deadline = time.monotonic() + 10
        while True:
            over = [child for child in self.ui.window.children if child is not self.ui.app.root]
            if not over:
                return
            assert time.monotonic() < deadline, f"{over} would not close"
            for child in over:
                if _takes_animation(child):
                    child.dismiss(animation=False)
                elif hasattr(child, "dismiss"):
                    child.dismiss()
                else:
                    self.ui.window.remove_widget(child)
            self.ui.frames(3)
            time.sleep(0.05)  # a drop-down list waits a moment of real time before it goes

    def tap_every_button(self, where: str, screen_name: str, skip: tuple[Any, ...] = (),
                         taps: int = 1) -> None:
        """Tap each button on the screen (but those in `skip`) up to `taps` times, until it
        opens something: read what it shows, close it or come back. Taps repeated reach what
        one does not: a count taken below zero is refused, and the refusal is read too."""
        from kivy.uix.button import Button

        # In the order the layout declares them: the last choice of a row stays chosen (on a
        # form, the players' own invader deck: a Done tap it refuses is read too).
        buttons = [widget for widget, _ in visible_texts(self.ui.screen)
                   if isinstance(widget, Button) and not widget.disabled and widget not in skip]
        buttons.reverse()
        for button in buttons:
            if self.ui.screen.name != screen_name or button.get_root_window() is None \
                    or button.disabled or not _shown(button):
                continue
            for _ in range(taps):
                if button.disabled or not _shown(button):
                    break
                self.ui.scroll_into_view(button)
                self.ui.tap(button)
                self.read_screen(f"{where}, after {button.text!r}")
                opened = len(self.ui.window.children) > 1
                self.close_popups()
                if self.ui.screen.name != screen_name:
                    self.read_screen(f"{where}, {self.ui.screen.name} from {button.text!r}")
                    self.ui.app.show(screen_name)
                    self.ui.frames(3)
                    break
                if opened:
                    break


def _takes_animation(widget: Any) -> bool:
    from kivy.uix.modalview import ModalView

    return isinstance(widget, ModalView)


def _shown(widget: Any) -> bool:
    while widget is not None and widget is not widget.parent:
        if widget.opacity == 0:
            return False
        widget = widget.parent
    return True


def game_choice(game_id: str) -> str:
    return f"game_{game_id.replace('-', '_')}"


@pytest.fixture
def ui_in(tmp_path: Path, lang: str) -> Iterator[Harness]:
    """The app started in the test's language `lang`, at the normal text size."""
    with_text_size(tmp_path, "normal", LANGUAGES[lang])
    harness = Harness(tmp_path / "games.db")
    try:
        yield harness
    finally:
        harness.close()


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("game_id", TABLE_GAMES)
def test_no_english_text_on_any_screen_of_a_game_in_german_or_french(
        ui_in: Harness, game_id: str, lang: str) -> None:
    ui = ui_in
    walk = Walk(ui, lang)
    try:
        walk.read_screen("home")
        ui.tap_id("new_game")
        for other in TABLE_GAMES:  # every game's form, in the language
            ui.tap_id(game_choice(other))
            walk.read_screen(f"new-game form of {other}")
        ui.tap_id(game_choice(game_id))
        form = ui.screen
        walk.tap_every_button("new-game form", "new_game",  # Start last, the game kept
                              skip=(form.ids.start, *form.ids.games.children))
        ui.tap_id(game_choice(game_id))
        ui.tap_id("start")
        assert ui.state.get("title") == game_id, (ui.screen.name, ui.app.notice)
        walk.read_screen(f"after starting {game_id}")
        table = ui.app.table_name()
        ui.app.show(table)
        walk.read_screen("table")
        walk.tap_every_button("table", table, taps=3)
        walk.read_screen("table, after every tap")
        ui.app.show("settings")
        walk.read_screen("settings")
    finally:
        walk.close_popups()
    assert walk.read >= 300 and walk.opened >= 3  # it read the screens and panels it says
    assert not walk.found, f"English on a {lang} screen: {walk.found}"


def test_the_finder_catches_english_and_lets_translations_and_names_through() -> None:
    finder = EnglishFinder("de")
    assert finder.english("Undo")  # an English original shown as written
    assert finder.english("3 cards left")  # put together at run time, in English
    assert not finder.english(finder.catalogue["Undo"])
    assert not finder.english("Spirit Island") and not finder.english("Deutsch")
    assert not finder.english("12") and not finder.english("II · 3")


SAVE_FAILED = {"de": ("Nicht ausgeführt: ", "der Speicher ist voll", "Es wurde nichts geändert"),
               "fr": ("Non effectué : ", "le disque est plein", "Rien n’a été modifié")}
"""How a German and a French table begin to say that a full disk kept a tap from being saved,
the reason, and what became of the tap."""


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("game_id", TABLE_GAMES)
def test_a_tap_a_full_disk_kept_from_being_saved_is_told_in_the_screens_language(
        ui_in: Harness, game_id: str, lang: str) -> None:
    from .every_game import start_on_table

    ui = ui_in
    start_on_table(ui, game_id)
    ui.tap(ui.screen.ids.done)
    db = ui.app.service.store.db
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
    for command in ("undo", "redo") * 500:  # the file's last page fills up
        before = ui.state
        ui.app.send({"cmd": command})
        ui.frames(2)
        if ui.app.notice:
            break
    begins, reason, outcome = SAVE_FAILED[lang]
    notice = ui.app.notice
    assert notice.startswith(begins) and reason in notice and outcome in notice, notice
    words = notice.replace(ui.app.service.store.location, "")  # the file's name as it is
    assert "could not" not in words and "the disk" not in words, notice
    assert ui.state["undo_count"] == before["undo_count"], "a tap not saved was shown"
    db.execute("PRAGMA max_page_count = 1073741823")  # space freed: the next tap is saved
    ui.app.send({"cmd": command})
    ui.frames(2)
    assert not ui.app.notice and ui.state["undo_count"] != before["undo_count"]
