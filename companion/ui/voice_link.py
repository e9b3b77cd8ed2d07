"""The voice in the app: configured from companion.ini's [voice] (at the start and on every
change), handed what a table announces, and its problem kept in a property the Settings screen
shows. The voice itself is companion/voice.py."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.properties import StringProperty

from .. import i18n
from ..i18n import _
from ..speech import short_prompt
from ..voice import SAMPLE, Voice, VoiceSettings


class VoiceLink(EventDispatcher):
    problem = StringProperty("")
    """Why the voice cannot be heard, untranslated ("" while all is well or it is off)."""

    def __init__(self, voice: Voice | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.voice = voice or Voice()
        """The voice (tests give it a stand-in runner)."""
        self.voice.on_problem = self._problem_found

    def configure(self, config: Any) -> None:
        """The [voice] section's settings, at once."""
        settings = VoiceSettings.of(dict(config.items("voice")) if config.has_section("voice")
                                    else {})
        self.voice.configure(settings)
        if not settings.enabled:
            self.problem = ""

    def table_said(self, prompt: str, news: list[str]) -> None:
        """A table showed a new step's `prompt` ("" when the step did not change) and `news`
        (the banner lines new with this command)."""
        if self.voice.enabled and (prompt or news):
            self.voice.say(news, i18n.language(), short_prompt(prompt))

    def try_voice(self) -> None:
        """Settings' "Try the voice": a sample line, at the volume chosen."""
        self.voice.speak([_(SAMPLE)], i18n.language())

    def known_problem(self) -> str | None:
        """The voice's problem for the System screen; None before it has tried to speak."""
        return self.voice.problem if self.voice.tried else None

    def stop(self) -> None:
        self.voice.stop()

    def _problem_found(self, problem: str) -> None:
        # Told on the voice's thread: the property changes on Kivy's.
        Clock.schedule_once(lambda _dt: setattr(self, "problem", problem
                                                if self.voice.enabled else ""))
