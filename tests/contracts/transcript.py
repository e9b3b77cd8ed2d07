"""Recorded conversations with `companion script`: reading and writing a transcript, and
playing its requests through the driver as a real process.

A transcript is a JSON-lines file in `transcripts/`. Its first line says what it holds to:
`{"contract": "…", "args": [...]}` (`args`: more of the driver's options, e.g. `--lang`).
Every further line is one of
- a step: `{"send": …, "note": "…", "loose": {…}, "answer": {…}}`. `send` is the request: an
  object (sent as one JSON line) or a string (sent as it is, for lines that are not valid
  JSON). `answer` is the driver's recorded answer. `note` (optional words) says what the line
  shows; a recorded refusal always has one. `loose` (optional) marks volatile parts of this
  answer: full paths from the answer's root (`state.players.*.name`; `*` for any one key or
  index) mapped to `"type"` (compared by type only), `"open"` (a list that may gain items) or
  `"items"` (a list whose items keep only their shape);
- a restart: `{"restart": true, "note": "…"}`: the driver is ended (its input closed) and
  started again on the same database, as a player does by switching off.

`{tmp}` in a request stands for the transcript's own folder (a fresh one per run, holding the
database `games.sqlite3`); recorded answers show that folder as `{tmp}` too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .checker import TMP, UNKNOWN, answer_breaches, with_folder

ROOT = Path(__file__).resolve().parents[2]
TRANSCRIPTS = Path(__file__).resolve().parent / "transcripts"
DATABASE = "games.sqlite3"
TIMEOUT = 120
"""Seconds one driver process may take for its lines: generous for a loaded machine."""


@dataclass
class Step:
    line: int
    """The step's line number in its file (the header is line 1)."""
    send: dict[str, Any] | str | None = None
    answer: dict[str, Any] | None = None
    note: str | None = None
    loose: dict[str, str] = field(default_factory=dict)
    restart: bool = False

    def label(self) -> str:
        sent = self.send if isinstance(self.send, str) else json.dumps(self.send,
                                                                       ensure_ascii=False)
        what = "restart" if self.restart else (sent if len(sent) <= 70 else sent[:69] + "…")
        return f"line {self.line} ({what})" + (f" [{self.note}]" if self.note else "")

    def to_json(self) -> dict[str, Any]:
        if self.restart:
            return {"restart": True, **({"note": self.note} if self.note else {})}
        out: dict[str, Any] = {"send": self.send}
        if self.note:
            out["note"] = self.note
        if self.loose:
            out["loose"] = self.loose
        if self.answer is not None:
            out["answer"] = self.answer
        return out


@dataclass
class Transcript:
    path: Path
    header: dict[str, Any]
    steps: list[Step]

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def args(self) -> list[str]:
        return list(self.header.get("args", []))


class TranscriptError(Exception):
    """A transcript file that cannot be read as one, with the file and line."""


def load(path: Path) -> Transcript:
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines:
        raise TranscriptError(f"{path}: empty; its first line says what it holds to")
    rows: list[dict[str, Any]] = []
    for number, text in enumerate(lines, 1):
        try:
            row = json.loads(text)
        except ValueError as error:
            raise TranscriptError(f"{path}, line {number}: not JSON ({error})") from None
        if not isinstance(row, dict):
            raise TranscriptError(f"{path}, line {number}: not a JSON object")
        rows.append(row)
    header = rows[0]
    if not isinstance(header.get("contract"), str):
        raise TranscriptError(f"{path}, line 1: the header needs \"contract\": what it holds to")
    steps = []
    for number, row in enumerate(rows[1:], 2):
        unknown = set(row) - {"send", "answer", "note", "loose", "restart"}
        if unknown:
            raise TranscriptError(f"{path}, line {number}: unknown keys {sorted(unknown)}")
        if row.get("restart") is True:
            steps.append(Step(number, note=row.get("note"), restart=True))
        elif isinstance(row.get("send"), (dict, str)):
            steps.append(Step(number, row["send"], row.get("answer"), row.get("note"),
                              dict(row.get("loose", {}))))
        else:
            raise TranscriptError(f"{path}, line {number}: a step needs \"send\" (an object or "
                                  "a raw line), or is {\"restart\": true}")
    return Transcript(path, header, steps)


def dump(transcript: Transcript) -> str:
    rows = [transcript.header, *(step.to_json() for step in transcript.steps)]
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def all_transcripts() -> list[Path]:
    return sorted(TRANSCRIPTS.glob("*.jsonl"))


def request_line(send: dict[str, Any] | str, folder: Path) -> str:
    if isinstance(send, str):
        return send.replace(TMP, json.dumps(str(folder))[1:-1])
    return json.dumps(with_folder(send, TMP, str(folder)), ensure_ascii=False)


def play(transcript: Transcript, folder: Path) -> list[dict[str, Any] | None]:
    """Each step's answer from a real `companion script --db <folder>/games.sqlite3` process
    (None for a restart), with the folder written as {tmp}."""
    answers: list[dict[str, Any] | None] = []
    run: list[Step] = []
    for step in [*transcript.steps, Step(0, restart=True)]:
        if not step.restart:
            run.append(step)
            continue
        answers += _play_run(transcript, run, folder)
        answers.append(None)
        run = []
    return answers[:-1]


def _play_run(transcript: Transcript, steps: list[Step],
              folder: Path) -> list[dict[str, Any] | None]:
    lines = [request_line(step.send, folder) for step in steps if step.send is not None]
    # Its own cache (the rules index) and data folders: nothing of the user's is read or written.
    env = {**os.environ, "XDG_CACHE_HOME": str(folder / "cache"),
           "XDG_DATA_HOME": str(folder / "data")}
    done = subprocess.run(
        [sys.executable, "-m", "companion", "script", "--db", str(folder / DATABASE),
         *transcript.args],
        input="".join(line + "\n" for line in lines).encode("utf-8"), capture_output=True,
        cwd=ROOT, env=env, timeout=TIMEOUT)
    stderr = done.stderr.decode("utf-8", "replace")
    if done.returncode != 0:
        raise AssertionError(f"{transcript.name}: the driver exited {done.returncode}:\n{stderr}")
    outputs = done.stdout.decode("utf-8").splitlines()
    if len(outputs) != len(lines):
        raise AssertionError(f"{transcript.name}: {len(lines)} lines sent, {len(outputs)} "
                             f"answered (one answer per line is the contract):\n{stderr}")
    return [with_folder(json.loads(text), str(folder), TMP) for text in outputs]


def check(transcript: Transcript, answers: list[dict[str, Any] | None]) -> list[str]:
    """Every breach of the recorded answers by `answers`, each naming its line."""
    found: list[str] = []
    state_before: Any = None  # before the first line there is no game: the state is null
    for step, answer in zip(transcript.steps, answers, strict=True):
        if step.restart or answer is None:
            state_before = UNKNOWN  # what a restarted driver resumes is its answers' to say
            continue
        if step.answer is None:
            found.append(f"{step.label()}: no answer recorded (run the recorder to add it)")
        else:
            found += [f"{step.label()}: {breach}" for breach in
                      answer_breaches(step.answer, answer, state_before, step.loose)]
        state_before = answer.get("state")
    return found
