"""A tap's command is on disk before the screen or a phone shows it, though its commit runs
while the table is drawn.

`CompanionApp.send` (every tap) has the driver answer as soon as the command's commit has
started on the store's commit thread (`companion/store_commit.py`); the table updates and draws
its widgets meanwhile. Just before the buffer swap, `ShownWhenSaved` waits for the commit, and
only then may the frame be shown and the phones hear of the new state. A commit that failed
stops that swap: the command is taken back, and the next frame shows the table as before it,
with the reason on the notice line. Every command answered this way asks for a frame, so even
one that changes nothing on screen is settled (and told to the phones) in the next frame.
"""

from __future__ import annotations

import logging
from typing import Any

from kivy.core.window import Window

from ..i18n import _

log = logging.getLogger(__name__)


class ShownWhenSaved:
    def __init__(self, app: Any) -> None:
        self._app = app
        self.under_way = False
        """A command was answered whose commit may not have ended."""
        self.news_held = False
        """The phones' news of that command waits for its commit (`hold_news`)."""

    def install(self) -> None:
        Window.bind(on_flip=self._before_the_swap)

    def remove(self) -> None:
        self.settle()
        Window.unbind(on_flip=self._before_the_swap)

    def started(self) -> None:
        """A command was answered with its commit under way."""
        self.under_way = True
        Window.canvas.ask_update()  # a frame, and with it the swap that settles the commit

    def hold_news(self) -> bool:
        """Whether the phones must wait for the commit under way (`settle` tells them)."""
        if self.under_way:
            self.news_held = True
        return self.under_way

    def _before_the_swap(self, *_args: Any) -> bool:
        # Handlers bound to on_flip run before the window's own, which swaps; True stops it.
        return self.settle()

    def settle(self) -> bool:
        """Wait for the commit under way. True when it failed: the command has been taken back
        and the table is being shown as before it."""
        if not self.under_way:
            return False
        self.under_way = False
        app = self._app
        reason = app.driver.settle() if app.driver is not None else None
        news, self.news_held = self.news_held, False
        if reason is None:
            if news:
                app.publish_to_mirror()
            return False
        log.error("a command's commit failed after it was answered; taken back: %s", reason)
        app.notice = _("Not done: {reason}").format(reason=reason)
        app.show_on_table(app.driver.state(), None, "taking back an action that was not saved")
        return True
