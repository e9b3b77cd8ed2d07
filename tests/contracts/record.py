"""Record a contract transcript's answers: `python -m tests.contracts.record NAME [NAME …]`.

Re-recording is for a deliberate extension only: new request lines appended to a transcript
(written as `{"send": …, "note": …}` without an answer), or new keys the contract should hold
from now on. It plays the transcript's requests through the real driver, in a fresh folder,
and writes the answers back. It is not a way to make a failing contract test pass:

- an answer already recorded must still be kept by the new one (the suite's own check); if
  one is not, nothing is written and the breaches are listed. `--break-contract` writes
  anyway; that is a decision for the issue that changes the contract, never a fix for CI;
- an internal error is never recorded, and a refusal only on a line whose "note" says why
  (a line meant to be accepted that the driver refuses is a mistake in the transcript).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from .checker import kind
from .transcript import TRANSCRIPTS, TranscriptError, check, dump, load, play


def record(path: Path, break_contract: bool = False) -> list[str]:
    """Re-record `path`; the problems that kept it from being written (empty: written)."""
    transcript = load(path)
    with tempfile.TemporaryDirectory(prefix="contract-") as folder:
        answers = play(transcript, Path(folder))
    problems = []
    for step, answer in zip(transcript.steps, answers, strict=True):
        if answer is None:
            continue
        if kind(answer) == "internal error":
            problems.append(f"{step.label()}: an internal error: {answer.get('error')}")
        elif kind(answer) == "refused" and not step.note:
            problems.append(f"{step.label()}: refused ({answer.get('error')}); a refusal is "
                            "recorded only with a note saying why it is one")
    recorded = [step.answer is not None for step in transcript.steps]
    breaches = [b for b in check(transcript, answers) if "no answer recorded" not in b]
    if breaches and not break_contract:
        problems += ["an answer no longer keeps its recorded promise (re-recording is for "
                     "extensions; --break-contract overrides):", *breaches]
    if problems:
        return problems
    for step, answer in zip(transcript.steps, answers, strict=True):
        step.answer = answer
    path.write_text(dump(transcript), encoding="utf-8")
    new = recorded.count(False) - sum(step.restart for step in transcript.steps)
    print(f"{path.name}: {len(transcript.steps)} lines, {new} recorded for the first time")
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.contracts.record",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("names", nargs="+", metavar="NAME",
                        help="a transcript in tests/contracts/transcripts (without .jsonl)")
    parser.add_argument("--break-contract", action="store_true",
                        help="write even where a recorded answer is no longer kept")
    args = parser.parse_args(argv)
    failed = False
    for name in args.names:
        path = TRANSCRIPTS / f"{name.removesuffix('.jsonl')}.jsonl"
        try:
            problems = record(path, args.break_contract)
        except (OSError, TranscriptError) as error:
            problems = [str(error)]
        if problems:
            failed = True
            print(f"{path.name}: not written", *problems, sep="\n  ", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
