"""The table's voice: espeak-ng reads the new step and the news aloud, in the app's language,
through the default sound output.

It never holds up a tap: espeak-ng is started and waited for on a worker thread of its own,
begun the first time there is something to say (never while the voice is off). The newest news
wins: a new line cuts off the one still being said; lines handed over together are said in one
run, one after another. A missing espeak-ng or a sound output that fails is kept in `problem`,
in the players' words, and logged once; it is never raised. The program it runs is a
`Runner`, so the tests (and the benchmark) give it a stand-in. No Kivy.
"""

from __future__ import annotations

import logging
import subprocess
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import IO, Protocol

from .i18n import N_
from .speech import spoken

log = logging.getLogger(__name__)

VOICES = {"en": "en-gb", "de": "de", "fr": "fr-fr"}
"""espeak-ng's voice for each of the app's languages (`espeak-ng --voices`)."""
PROGRAM = "espeak-ng"
WORDS_PER_MINUTE = 175
"""espeak-ng's own pace; the lines are kept short instead (speech.headline)."""
NOT_INSTALLED = N_("The voice cannot speak: its speech program (espeak-ng) is not installed.")
NO_SOUND = N_("The voice cannot speak: no sound output was found. Check the speaker or the "
              "screen's sound.")
SAMPLE = N_("This is the table's voice: it reads the new step and the news aloud.")
"""Settings' "Try the voice"."""


class Speaking(Protocol):
    """A running espeak-ng, as `subprocess.Popen` is one."""

    returncode: int | None
    stderr: IO[str] | None

    def wait(self, timeout: float | None = None) -> int: ...
    def terminate(self) -> None: ...


Runner = Callable[[list[str]], Speaking]
"""Starts a command without waiting for it; OSError when it cannot."""


def start_program(command: list[str]) -> Speaking:
    """espeak-ng, its complaints kept to tell a sound output that fails."""
    return subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, errors="replace")


def switched_on(stored: object) -> bool:
    return str(stored).strip() in ("1", "True", "true")


@dataclass(frozen=True)
class VoiceSettings:
    """What companion.ini's [voice] asks for."""

    enabled: bool = False
    volume: int = 70
    """0 to 100."""
    news_only: bool = False
    """Only the banner's news, not the steps' prompts."""

    @classmethod
    def of(cls, section: Mapping[str, str]) -> VoiceSettings:
        """The settings a section holds; a hand-edited value it cannot read is the default."""
        try:
            volume = max(0, min(100, int(float(section.get("volume", cls.volume)))))
        except ValueError:
            volume = cls.volume
        return cls(switched_on(section.get("enabled", "0")), volume,
                   switched_on(section.get("news_only", "0")))

    @property
    def amplitude(self) -> int:
        """espeak-ng's -a, 0 to 200 (its own default, 100, is half way)."""
        return self.volume * 2


def command_for(text: str, language: str, settings: VoiceSettings,
                wav_file: str | None = None) -> list[str]:
    """The espeak-ng command that says `text` (already speech text) in `language`; with
    `wav_file`, into that file rather than to the sound output."""
    command = [PROGRAM, "-v", VOICES.get(language, VOICES["en"]), "-a", str(settings.amplitude),
               "-s", str(WORDS_PER_MINUTE)]
    if wav_file is not None:
        command += ["-w", wav_file]
    return [*command, "--", text]


def sound_failed(code: int | None, complaint: str) -> bool:
    """espeak-ng ran but could not be heard: an exit code, or (it exits 0 without a sound
    device) ALSA's or its own error on stderr. A negative code is the cut-off."""
    if code is not None and code > 0:
        return True
    return code == 0 and ("error" in complaint.lower() or "cannot" in complaint.lower())


class Voice:
    """One per app. `say` hands over lines; `configure` applies the settings; `problem` is
    what keeps it silent ("" while all is well)."""

    def __init__(self, runner: Runner = start_program, settings: VoiceSettings | None = None,
                 wav_file: str | None = None,
                 on_problem: Callable[[str], object] | None = None) -> None:
        """`wav_file`: speak into that file rather than the sound output (the benchmark).
        `on_problem`: told `problem` when it changes (from the worker thread)."""
        self.runner = runner
        self.settings = settings or VoiceSettings()
        self.wav_file = wav_file
        self.on_problem = on_problem
        self.problem = ""
        """Why the voice cannot be heard, in the players' words (untranslated: `N_`)."""
        self.tried = False
        """espeak-ng was started (or could not be): `problem` says what came of it."""
        self._logged: set[str] = set()
        self._lock = threading.Condition()
        self._next: list[str] | None = None
        """The command to run next (the newest only)."""
        self._speaking: Speaking | None = None
        self._busy = False
        """The worker has a command in hand (starting, speaking or judging it)."""
        self._said = 0
        """How many commands were handed over: a process started for an older one is stale."""
        self._thread: threading.Thread | None = None
        self._stopped = False

    @property
    def enabled(self) -> bool:
        return self.settings.enabled

    def configure(self, settings: VoiceSettings) -> None:
        """New settings, at once; switched off, what it is saying stops."""
        self.settings = settings
        if not settings.enabled:
            self.hush()

    def say(self, lines: list[str], language: str, prompt: str = "") -> bool:
        """Say the news `lines` and then the new step's `prompt` (unless only the news is
        wanted), cutting off whatever is being said. False when nothing is to be said (off,
        nothing new)."""
        if not self.settings.enabled:
            return False
        wanted = [*lines, *([prompt] if prompt and not self.settings.news_only else [])]
        return self.speak(wanted, language)

    def speak(self, lines: list[str], language: str) -> bool:
        """Say `lines` now, whatever the settings ask of the game's lines (Try the voice)."""
        text = spoken(lines, language)
        if not text:
            return False
        command = command_for(text, language, self.settings, self.wav_file)
        with self._lock:
            self._next = command
            self._said += 1
            if self._speaking is not None:
                self._speaking.terminate()  # the newest news wins
            self._lock.notify()
            if self._thread is None:
                self._stopped = False
                self._thread = threading.Thread(target=self._work, name="voice", daemon=True)
                self._thread.start()
        return True

    def hush(self) -> None:
        """Stop what is being said and what was to be said next."""
        with self._lock:
            self._next = None
            self._said += 1
            if self._speaking is not None:
                self._speaking.terminate()

    def stop(self) -> None:
        """Hush, and end the worker thread (the app stops)."""
        self.hush()
        with self._lock:
            self._stopped = True
            self._lock.notify()
            thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2)

    def idle(self, timeout: float = 5.0) -> bool:
        """Wait until nothing is being said or waiting to be (tests, benchmark)."""
        with self._lock:
            return self._lock.wait_for(
                lambda: self._next is None and not self._busy, timeout)

    # --- the worker thread ---

    def _work(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._next is not None or self._stopped)
                if self._stopped:
                    return
                command, self._next = self._next, None
                handed_over, self._busy = self._said, True
            assert command is not None
            try:
                self._run(command, handed_over)
            except Exception as error:  # never the end of the voice, nor of the app
                self._tell(NO_SOUND, f"{type(error).__name__}: {error}")
            finally:
                with self._lock:
                    self._busy = False
                    self._lock.notify_all()

    def _run(self, command: list[str], handed_over: int) -> None:
        try:
            process = self.runner(command)
        except OSError as error:  # FileNotFoundError: no espeak-ng on this machine
            log_detail = f"{command[0]}: {error}"
            self._tell(NOT_INSTALLED if isinstance(error, FileNotFoundError) else NO_SOUND,
                       log_detail)
            return
        with self._lock:
            self._speaking = process
            if self._said != handed_over:  # newer news came while it started
                process.terminate()
        complaint = ""
        try:
            code = process.wait()
            if process.stderr is not None:
                complaint = process.stderr.read() or ""
                process.stderr.close()
        finally:
            with self._lock:
                self._speaking = None
        if sound_failed(code, complaint):
            self._tell(NO_SOUND, complaint.strip().splitlines()[-1] if complaint.strip()
                       else f"exit code {code}")
        elif code == 0:
            self._tell("", "")

    def _tell(self, problem: str, detail: str) -> None:
        """Keep `problem` ("" when the voice was heard), log it the first time."""
        self.tried = True
        if problem and problem not in self._logged:
            self._logged.add(problem)
            log.warning("the voice cannot be heard: %s", detail)
        if problem != self.problem:
            self.problem = problem
            if self.on_problem is not None:
                self.on_problem(problem)
