"""What the System screen does with the companion's games and software: back up to a stick,
restore a backup, update from a stick (Turn off and Restart are power_menu's buttons, as on
Home). Each asks first, works off Kivy's thread where it may take a while (writing a stick), and
says on the screen what came of it. The work is companion.backup's and companion.updates'.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock

from .. import updates
from ..backup_file import BACKUP_NAME
from ..i18n import _
from ..updates import Update
from .pickers import CardPicker
from .snapshots import files_of
from .widgets import ConfirmPopup

log = logging.getLogger(__name__)

BACKUP, RESTORE, UPDATE = "backup", "restore", "update"
SNAPSHOTS = "snapshots"
"""The data folder's nightly snapshots (companion.backup keeps them there)."""
SHOWN_LINES = 8
"""A backup's description in the question: this many lines at most (a season has many games)."""


def app() -> Any:
    return App.get_running_app()


def updates_on(sticks: list[Path]) -> list[Update]:
    """The updates found on the sticks; called off Kivy's thread, as checking a signature
    takes a moment."""
    try:
        return updates.find_updates(sticks) if sticks else []
    except Exception:  # a stick pulled out while it was read: no update, the screen goes on
        log.exception("looking for updates on %s failed", sticks)
        return []


def backup_words(file: Path) -> str:
    """A backup as the players pick it: when it was made (UTC, as its name says)."""
    found = BACKUP_NAME.fullmatch(file.name)
    if found is None:
        return file.name
    made = datetime.strptime(f"{found.group(1)}{found.group(2)}", "%Y%m%d%H%M%S")
    return _("Backup of {date}").format(date=made.strftime("%Y-%m-%d %H:%M"))


@dataclass(frozen=True)
class Offer:
    """One action as the screen offers it now."""

    key: str
    words: str
    available: bool
    reason: str = ""
    """Why it cannot be used here, said under the buttons ("" when it can)."""


class SystemActions:
    """The actions of one System screen (which holds the sticks and updates it found)."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen

    # --- what is offered ---

    def offered(self) -> list[Offer]:
        offers = []
        if self.screen.sticks:
            offers.append(Offer(BACKUP, _("Back up to the stick"), True))
        offers.append(Offer(RESTORE, _("Restore…"), True))
        update = self.update()
        if update is not None:
            why_not = update.why_not or updates.update_unavailable_because()
            offers.append(Offer(UPDATE, _("Update to {version} from the stick").format(
                version=update.version), why_not is None, why_not or ""))
        return offers

    def update(self) -> Update | None:
        """The update to offer: the first found that can be installed, else the first (its
        button says why not)."""
        updates = self.screen.updates
        return next((found for found in updates if found.why_not is None),
                    updates[0] if updates else None)

    # --- doing it ---

    def start(self, action: str) -> None:
        {BACKUP: self.back_up, RESTORE: self.choose_backup, UPDATE: self.ask_update}[action]()

    def say(self, text: str) -> None:
        self.screen.message = text

    def off_the_clock(self, work: Callable[[], str], busy: str,
                      refusal: type[Exception]) -> None:
        """Run `work` on a thread, saying `busy` meanwhile and its answer when done: a
        `refusal` says why in players' words; any other failure is said in general."""
        self.say(busy)

        def run() -> None:
            try:
                said = work()
            except refusal as refused:
                said = str(refused)
            except Exception:
                log.exception("a System screen action failed")
                said = _("That did not work; nothing was changed. Try again.")
            Clock.schedule_once(lambda _dt: self._done(said))

        threading.Thread(target=run, name="system-action", daemon=True).start()

    def _done(self, said: str) -> None:
        self.say(said)
        self.screen.refresh()  # the last backup, the free room: looked at again

    def files(self) -> tuple[Path, Path | None] | None:
        """The games file and the settings file this app writes (None: games in memory, or
        another companion writes them)."""
        return files_of(app().service, app().get_application_config())

    def back_up(self) -> None:
        files = self.files()
        if files is None or not self.screen.sticks:
            self.say(_("These games cannot be backed up from here."))
            return
        (db_path, settings), stick = files, self.screen.sticks[0]
        from ..backup import BackupRefused, make_backup  # (see `backups`)

        def work() -> str:
            made = make_backup(db_path, stick, settings)
            return _("Backed up to the stick: {file}").format(file=made.name)

        self.off_the_clock(work, _("Backing up to the stick…"), BackupRefused)

    def backups(self) -> list[Path]:
        """The backups on the sticks, then the card's nightly snapshots, newest first each."""
        # Backups are imported when used: they bring in the database library, which the app's
        # start leaves until after its first frame (this screen is imported before it).
        from ..backup import backups_on

        return [file for folder in [*self.screen.sticks, self.snapshots()]
                for file in backups_on(folder)]

    @staticmethod
    def snapshots() -> Path:
        return Path(app().get_application_config()).parent / SNAPSHOTS

    def choose_backup(self) -> None:
        files = self.backups()
        if not files:
            self.say(_("No backup found on a stick or in the nightly snapshots."))
            return
        choices = [{"value": str(file), "text": backup_words(file),
                    "detail": _("nightly snapshot") if file.parent == self.snapshots()
                    else _("on the stick {stick}").format(stick=file.parent.name)}
                   for file in files]
        picker = CardPicker.kept(title=_("Which backup?"), columns=1,
                                 when_picked=lambda value: self.describe(Path(value)))
        picker.fill(choices)
        picker.open()

    def describe(self, file: Path) -> None:
        """What `file` holds, and the question whether to restore it."""
        from ..backup import BackupRefused, describe_backup  # (see `backups`)

        try:
            contents = describe_backup(file)
        except BackupRefused as refused:
            self.say(str(refused))
            return
        lines = contents.said()
        if len(lines) > SHOWN_LINES:  # the first games, then the tags and the settings
            lines = [*lines[:SHOWN_LINES - 3], "  …", *lines[-2:]]
        question = "\n".join([*lines, _(
            "Restore it? The games on the companion now are kept aside.")])
        ConfirmPopup.kept(message=question, confirm_text=_("Restore"),
                          when_confirmed=lambda: self.restore(file)).open()

    def restore(self, file: Path) -> None:
        """Restore `file` into the app's own open games (on Kivy's thread: the games' store is
        used there only), after the words saying so are drawn."""
        files = self.files()
        if files is None:
            self.say(_("These games cannot be restored here."))
            return
        self.say(_("Restoring…"))
        Clock.schedule_once(lambda _dt: self._restore_now(file, *files), 0.05)

    def _restore_now(self, file: Path, db_path: Path, settings: Path | None) -> None:
        from ..backup import BackupRefused, restore_backup  # (see `backups`)

        running = app()
        try:
            restore_backup(file, db_path, settings, store=running.service.store)
        except BackupRefused as refused:
            self.say(str(refused))
            return
        if settings is not None:  # the settings restored act at once
            running.config.read(str(settings))
            running.apply_settings()
            running.apply_reader_settings()
        running.service.unload_game()
        running.service.resume_latest()
        running.reload_state()
        self.say(_("Restored. The games from before are kept aside."))
        self.screen.refresh()

    def ask_update(self) -> None:
        update = self.update()
        if update is None or update.why_not is not None:
            return

        def work() -> str:
            updates.start_update(update)
            return _("Updating: the companion restarts by itself in a few minutes.")

        ConfirmPopup.kept(
            message=_("Install version {version} from the stick? The companion restarts by "
                      "itself; the games are kept.").format(version=update.version),
            confirm_text=_("Update"),
            when_confirmed=lambda: self.off_the_clock(work, _("Starting the update…"),
                                                      updates.UpdateRefused)).open()
