"""Benchmark of Leviathan Wilds on the shared core: the same figures as Spirit Island's.

Not a test: run it by hand and read the figures.

    python -m tests.benchmarks.bench_leviathan            # figures for people
    python -m tests.benchmarks.bench_leviathan --json     # the same figures as one JSON object

Spirit Island's goals apply to every game on the core: at most 0.2 ms for a command and its
undo, at most 100 ms to replay a 2,000-command log, a durable acknowledgement with p99 ≤ 10 ms
and a resume of a 2,000-command game in ≤ 100 ms.

How the figures are made, as in bench_model and bench_store:
- command + undo: a 4-guardian game is played by a busy simulated table (AP cards, strikes,
  health and corruption, draws, WILD, Done) until it ends; at every position each command such
  a table could send is carried out through the core's session and undone at once, each pair
  timed on its own, the game played through once per repeat.
- replay: 2,000 accepted commands of the same play, with undos and redos mixed in and game ends
  taken back, replayed into a fresh session per repeat.
- store: the service on a real file (WAL, synchronous=FULL) acknowledges 1,000 commands, then a
  2,000-command game is resumed from its database 20 times.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from companion.bootstrap import wired_service
from companion.core.commands import Command, Redo, Undo
from companion.core.errors import Refused
from companion.core.session import GameSession
from companion.games.registry import GAMES
from companion.service import GameService
from companion.store import GameStore
from tests.benchmarks.bench_model import machine, percentile, spread

GAME = GAMES["leviathan-wilds"]
NEW_GAME = {"cmd": "new_game", "game": "leviathan-wilds", "players": 4, "difficulty": "hard",
            "leviathan": 5, "seed": 11, "deck_size": 60}
GOAL_COMMAND_US = 200.0
GOAL_REPLAY_MS = 100.0
GOAL_ACK_P99_MS = 10.0
GOAL_RESUME_MS = 100.0
LOG_LENGTH = 2000
UNDO, REDO = Undo(), Redo()


def parsed(raw: dict[str, Any]) -> Command:
    return GAME.parse_command(raw)


def table_command(state: Any, rng: random.Random) -> dict[str, Any]:
    """What a busy table might send now, as the driver's JSON."""
    shown = GAME.view(state, lambda text: text)
    step, active = shown["step"], shown["active"]
    roll = rng.random()
    if step == "activate":
        if roll < 0.25:
            return {"cmd": "ap_card", "ap": rng.choice((2, 3, 4))}
        if roll < 0.45 and shown["crystals_left"]:
            return {"cmd": "strike", "crystal": rng.randrange(len(shown["crystals"])),
                    "amount": rng.choice((1, 2, 3))}
        if roll < 0.55:
            return {"cmd": "act", "action": rng.choice(("climb", "jump", "rest"))}
    if step == "resolve":
        if roll < 0.2:
            return {"cmd": "health", "guardian": active, "amount": -1}
        if roll < 0.3:
            return {"cmd": "corruption", "guardian": active, "amount": 1}
        if roll < 0.35:
            return {"cmd": "wild", "count": 1}
    if step == "draw" and roll < 0.3:
        return {"cmd": "draw", "guardian": active, "count": 1}
    return {"cmd": "next"}


def probe_commands(state: Any, rng: random.Random) -> list[dict[str, Any]]:
    """The commands timed at one position (only those the rules accept are kept)."""
    shown = GAME.view(state, lambda text: text)
    guardian = rng.randrange(len(shown["guardians"]))
    return [{"cmd": "next"}, {"cmd": "wild", "count": rng.randint(1, 2)},
            {"cmd": "health", "guardian": guardian, "amount": rng.choice((-1, 1))},
            {"cmd": "corruption", "guardian": guardian, "amount": 1},
            {"cmd": "ap_card", "ap": 3},
            {"cmd": "strike", "crystal": 0, "amount": 1},
            {"cmd": "draw", "guardian": guardian, "count": 1}]


def session() -> GameSession:
    fresh = GameSession(GAME, seed_source=lambda: 0)
    fresh.execute(parsed(NEW_GAME))
    return fresh


def accepted(played: GameSession, command: Command) -> bool:
    try:
        played.execute(command)
    except Refused:
        return False
    return True


def build_positions(seed: int) -> tuple[list[Command], list[list[Command]], Any]:
    rng = random.Random(seed)
    played = session()
    forward: list[Command] = []
    probes: list[list[Command]] = []
    while True:
        state = played.state
        here = []
        for raw in probe_commands(state, rng):
            command = parsed(raw)
            if accepted(played, command):
                played.execute(UNDO)
                assert played.state == state, f"undo of {raw} did not restore the state"
                here.append(command)
        probes.append(here)
        if GAME.view(state, lambda text: text)["outcome"] or len(forward) > 3000:
            break
        command = parsed(table_command(state, rng))
        if not accepted(played, command):
            command = parsed({"cmd": "next"})
            played.execute(command)
        forward.append(command)
    return forward, probes, played.state


def build_log(seed: int) -> tuple[list[Command], dict[str, Any]]:
    rng = random.Random(seed)
    played = GameSession(GAME, seed_source=lambda: 0)
    log: list[Command] = []
    endings = 0

    def run(command: Command) -> bool:
        if len(log) >= LOG_LENGTH or not accepted(played, command):
            return False
        log.append(command)
        return True

    run(parsed(NEW_GAME))
    while len(log) < LOG_LENGTH:
        shown = GAME.view(played.state, lambda text: text)
        if shown["outcome"]:
            endings += 1
            for _ in range(rng.randint(10, 80)):
                if not played.can_undo or not run(UNDO):
                    break
            continue
        if rng.random() < 0.04 and played.can_undo:
            undos = rng.randint(1, 3)
            for _ in range(undos):
                run(UNDO)
            for _ in range(rng.randint(0, undos)):
                run(REDO)
            continue
        if not run(parsed(table_command(played.state, rng))):
            run(parsed({"cmd": "next"}))
    kinds = Counter(command.name for command in log)
    return log, {"commands": dict(kinds.most_common()), "game_ends_taken_back": endings}


def time_command_undo(repeats: int, seed: int) -> dict[str, Any]:
    forward, probes, final = build_positions(seed)
    samples: list[float] = []

    def one_pass(record: bool) -> None:
        played = session()
        execute, clock = played.execute, time.perf_counter_ns
        for position, here in enumerate(probes):
            for command in here:
                start = clock()
                execute(command)
                execute(UNDO)
                if record:
                    samples.append((clock() - start) / 1000)
            if position < len(forward):
                execute(forward[position])
        assert played.state == final

    one_pass(record=False)
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeats):
            one_pass(record=True)
    finally:
        gc.enable()
    return {**spread(samples), "positions": len(probes), "repeats": repeats}


def time_replay(repeats: int, seed: int) -> dict[str, Any]:
    log, info = build_log(seed)
    reference = GameSession(GAME, seed_source=lambda: 0)
    reference.replay(log)
    samples = []
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeats):
            played = GameSession(GAME, seed_source=lambda: 0)
            start = time.perf_counter_ns()
            played.replay(log)
            samples.append((time.perf_counter_ns() - start) / 1e6)
            assert played.state == reference.state
    finally:
        gc.enable()
    return {**spread(samples), "repeats": repeats, "log": info}


def open_service(path: Path) -> GameService:
    store, _ = GameStore.open(path)
    service = wired_service(store, seed_source=lambda: 1)
    service.resume_latest()
    return service


def always_legal(i: int) -> dict[str, Any]:
    """Commands legal at any moment of a game that never end it, so any count can be logged."""
    return [{"cmd": "health", "guardian": 1, "amount": -1},
            {"cmd": "health", "guardian": 1, "amount": 1}, {"cmd": "undo"}, {"cmd": "redo"},
            {"cmd": "wild", "count": 1}, {"cmd": "undo"}][i % 6]


def time_store(folder: Path, acks: int, resumes: int) -> dict[str, Any]:
    service = open_service(folder / "ack.sqlite3")
    service.handle(service.parse(NEW_GAME))
    ack_samples = []
    for i in range(acks):
        command = service.parse(always_legal(i))
        start = time.perf_counter_ns()
        service.handle(command)
        ack_samples.append((time.perf_counter_ns() - start) / 1e6)
    service.store.close()

    path = folder / "resume.sqlite3"
    service = open_service(path)
    service.handle(service.parse(NEW_GAME))
    for i in range(LOG_LENGTH - 1):
        service.handle(service.parse(always_legal(i)))
    expected = service.session.snapshot()
    service.store.close()
    resume_samples = []
    for _ in range(resumes):
        start = time.perf_counter_ns()
        resumed = open_service(path)
        resume_samples.append((time.perf_counter_ns() - start) / 1e6)
        assert resumed.session.snapshot() == expected
        resumed.store.close()
    return {"ack_ms": {**spread(ack_samples), "p99": percentile(ack_samples, 0.99)},
            "resume_ms": spread(resume_samples)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.bench_leviathan",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--command-repeats", type=int, default=40)
    parser.add_argument("--replay-repeats", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    command = time_command_undo(args.command_repeats, args.seed)
    replay = time_replay(args.replay_repeats, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        store = time_store(Path(tmp), 1000, 20)
    figures = {"machine": machine(), "command_plus_undo_us": command, "replay_2000_ms": replay,
               **store}
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    m = figures["machine"]
    print("Leviathan Wilds on the shared core: model and store benchmark")
    print(f"machine: {m['machine']}, {m['cpu_count']} CPUs, {m['platform']}, {m['python']}")
    rows = [
        (f"command + undo ({command['samples']} timings, {command['positions']} positions × "
         f"{command['repeats']})", command, "µs", GOAL_COMMAND_US, "median"),
        (f"replay of {LOG_LENGTH:,} commands ({replay['repeats']} repeats; "
         f"{replay['log']['commands']})", replay, "ms", GOAL_REPLAY_MS, "median"),
        ("durable acknowledgement (1,000 commands)", store["ack_ms"], "ms", GOAL_ACK_P99_MS, "p99"),
        ("resume a 2,000-command game (20 times)", store["resume_ms"], "ms", GOAL_RESUME_MS,
         "median"),
    ]
    for title, figures_of, unit, goal, judged in rows:
        verdict = "meets" if figures_of[judged] <= goal else "MISSES"
        print(f"\n{title}")
        print(f"  median {figures_of['median']:.2f} {unit}, IQR {figures_of['q1']:.2f}–"
              f"{figures_of['q3']:.2f}, p95 {figures_of['p95']:.2f}, min {figures_of['min']:.2f},"
              f" max {figures_of['max']:.2f}; {judged} {verdict} the goal ≤ {goal:g} {unit}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
