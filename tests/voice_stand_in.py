"""The voice's stand-in for espeak-ng (companion/voice.py's `Runner`): processes that "speak"
until they are cut off or finished, so that a test sees what was said, when, and what was cut."""

from __future__ import annotations

import io
import threading


class StandInProcess:
    """A running espeak-ng that speaks until it is cut off or `finish`ed."""

    def __init__(self, command: list[str], code: int = 0, complaint: str = "",
                 blocks: bool = True) -> None:
        self.command = command
        self.returncode: int | None = None
        self.stderr: io.StringIO | None = io.StringIO(complaint)
        self.terminated = False
        self._code = code
        self._done = threading.Event()
        if not blocks:
            self._done.set()

    def wait(self, timeout: float | None = None) -> int:
        self._done.wait(timeout)
        self.returncode = -15 if self.terminated else self._code
        return self.returncode

    def terminate(self) -> None:
        self.terminated = True
        self._done.set()

    def finish(self) -> None:
        self._done.set()


class StandInRunner:
    """Starts stand-in processes, each blocking until cut off (or not, `blocks` False)."""

    def __init__(self, code: int = 0, complaint: str = "", blocks: bool = True) -> None:
        self.started: list[StandInProcess] = []
        self.code, self.complaint, self.blocks = code, complaint, blocks
        self._started = threading.Condition()
        self._waited = 0

    def __call__(self, command: list[str]) -> StandInProcess:
        process = StandInProcess(command, self.code, self.complaint, self.blocks)
        with self._started:
            self.started.append(process)
            self._started.notify_all()
        return process

    def wait_for_start(self, count: int | None = None) -> StandInProcess:
        """The `count`-th process started (by default the next after those already waited
        for), once it is."""
        wanted = self._waited + 1 if count is None else count
        with self._started:
            assert self._started.wait_for(lambda: len(self.started) >= wanted, timeout=5), \
                f"espeak-ng was started {len(self.started)} times, not {wanted}"
        self._waited = max(self._waited, wanted)
        return self.started[wanted - 1]


def said(process: StandInProcess) -> str:
    """The text a stand-in process was given to say (espeak-ng's last argument)."""
    return process.command[-1]
