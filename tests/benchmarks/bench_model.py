"""Benchmark of the game model: one command plus its undo, and replaying a 2,000-command log.

Not a test (nothing here is timed against a limit in CI): run it by hand and read the figures.

    python -m tests.benchmarks.bench_model            # figures for people
    python -m tests.benchmarks.bench_model --json     # the same figures as one JSON object

Goals from the issue: at most 0.2 ms per command (measured here as command + undo, the worst
case of a player's tap followed by a change of mind) and at most 100 ms to replay a
2,000-command game from its log (what a restart after a crash costs).

How the figures are made:
- command + undo: a realistic virtual game (4 players, advanced) is played from setup to its end.
  At every position it reaches, each command a table could send there (next, fear, blight,
  destroy, resolve_fear — whichever the rules accept at that moment) is carried out through
  `GameSession.execute` and undone at once; each pair is timed on its own. The game is played
  through again for every repeat, so one figure is one command+undo at one real position.
- replay: a log of 2,000 accepted commands is built from the same kind of table play, with
  undos and redos mixed in; whenever the game ends, the table undoes a stretch of play and plays
  it differently, so the log spans many rounds. Refused commands are not in the log. Each
  repeat replays the whole log into a fresh session and is timed as one figure.
Both use `time.perf_counter_ns`, run a warm-up first, and keep the garbage collector off while
timing.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
from collections import Counter
from typing import Any

from companion.core.errors import Refused
from companion.games.spirit_island.commands import (
    AddBlight,
    Command,
    Destroy,
    GenerateFear,
    Heal,
    NewGame,
    Next,
    Redo,
    ResolveFear,
    Undo,
)
from companion.games.spirit_island.session import GameSession
from companion.games.spirit_island.state import GameState

GOAL_COMMAND_US = 200.0  # ≤ 0.2 ms per command (+ its undo)
GOAL_REPLAY_MS = 100.0  # ≤ 100 ms per 2,000-command replay
LOG_LENGTH = 2000
GAME = NewGame(players=4, mode="advanced", deck="virtual", seed=20240611)
UNDO = Undo()
REDO = Redo()


# --- realistic table play ----------------------------------------------------------------------


def table_command(state: GameState, rng: random.Random) -> Command:
    """What a busy table might send now: a tap for each fear, destroyed piece or healed land
    during the power steps, blight while ravaging and building, each earned fear card in the
    Fear step, and Done when the step is finished."""
    if state.step == "fear" and state.fear.earned:
        return ResolveFear()
    roll = rng.random()
    if state.step in ("fast_powers", "slow_powers"):
        if roll < 0.35:
            return GenerateFear(rng.choice((1, 1, 1, 2)))
        if roll < 0.60:
            return Destroy(rng.choice(("town", "town", "city")), 1)
        if roll < 0.72 and state.blight.on_island:
            return Heal(1)
    if state.step in ("ravage", "build") and roll < 0.45:
        return AddBlight(1)
    return Next()


def probe_commands(state: GameState, rng: random.Random) -> list[Command]:
    """The commands timed at one position (the session keeps only those the rules accept)."""
    commands: list[Command] = [
        Next(),
        GenerateFear(rng.randint(1, 4)),
        AddBlight(1),
        Destroy(rng.choice(("town", "city")), rng.randint(1, 2)),
    ]
    if state.step == "fear":
        commands.append(ResolveFear())
    return commands


def accepted(session: GameSession, command: Command) -> bool:
    try:
        session.execute(command)
    except Refused:
        return False
    return True


def build_positions(seed: int) -> tuple[list[Command], list[list[Command]], GameState]:
    """A game from setup to its end: the commands that move it on, and at each position the
    commands to time there (each checked to be accepted and undone exactly)."""
    rng = random.Random(seed)
    session = GameSession(seed_source=lambda: 0)
    session.execute(GAME)
    forward: list[Command] = []
    probes: list[list[Command]] = []
    while True:
        state = session.state
        assert state is not None
        here: list[Command] = []
        for command in probe_commands(state, rng):
            if accepted(session, command):
                session.execute(UNDO)
                assert session.state == state, f"undo of {command} did not restore the state"
                here.append(command)
        probes.append(here)
        if state.is_over:
            break
        command = table_command(state, rng)
        if not accepted(session, command):
            command = Next()
            session.execute(command)
        forward.append(command)
    assert session.state is not None
    return forward, probes, session.state


def build_log(seed: int, length: int = LOG_LENGTH) -> tuple[list[Command], dict[str, Any]]:
    """A log of `length` accepted commands from one long evening of table play."""
    rng = random.Random(seed)
    session = GameSession(seed_source=lambda: 0)
    log: list[Command] = []
    endings: Counter[str] = Counter()
    rounds_played = 0

    def run(command: Command) -> bool:
        if len(log) >= length or not accepted(session, command):
            return False
        log.append(command)
        return True

    run(GAME)
    while len(log) < length:
        state = session.state
        assert state is not None
        rounds_played = max(rounds_played, state.round)
        if state.is_over:
            assert state.outcome is not None
            endings[f"{state.outcome.result}/{state.outcome.reason}"] += 1
            # The table takes back a stretch of play, sometimes steps forward again through
            # part of it, and plays on differently.
            undone = 0
            for _ in range(rng.randint(10, 80)):
                if not session.can_undo or not run(UNDO):
                    break
                undone += 1
            if undone > 1 and rng.random() < 0.3:
                for _ in range(rng.randint(1, undone // 2)):
                    run(REDO)
            continue
        roll = rng.random()
        if roll < 0.04 and session.can_undo:
            undos = rng.randint(1, 3)
            for _ in range(undos):
                run(UNDO)
            if rng.random() < 0.5:
                for _ in range(rng.randint(1, undos)):
                    run(REDO)
            continue
        run(table_command(state, rng))
    kinds = Counter(command.name for command in log)
    info = {"commands": dict(kinds.most_common()), "highest_round": rounds_played,
            "game_ends_taken_back": dict(endings),
            "undo_redo_share": (kinds["undo"] + kinds["redo"]) / len(log)}
    return log, info


# --- timing ------------------------------------------------------------------------------------


def spread(samples: list[float]) -> dict[str, float]:
    """Median, quartiles, extremes and the 95th percentile (the benchmarks share these)."""
    q1, median, q3 = statistics.quantiles(samples, n=4, method="inclusive")
    return {"median": median, "min": min(samples), "max": max(samples), "q1": q1, "q3": q3,
            "iqr": q3 - q1, "p95": percentile(samples, 0.95), "samples": len(samples)}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def time_command_undo(repeats: int, seed: int) -> tuple[dict[str, Any], dict[str, float]]:
    forward, probes, final = build_positions(seed)
    samples: list[float] = []
    by_kind: dict[str, list[float]] = {}

    def one_pass(record: bool) -> None:
        session = GameSession(seed_source=lambda: 0)
        session.execute(GAME)
        execute = session.execute
        clock = time.perf_counter_ns
        for position, here in enumerate(probes):
            for command in here:
                start = clock()
                execute(command)
                execute(UNDO)
                elapsed = clock() - start
                if record:
                    micros = elapsed / 1000
                    samples.append(micros)
                    by_kind.setdefault(command.name, []).append(micros)
            if position < len(forward):
                execute(forward[position])
        assert session.state == final

    one_pass(record=False)  # warm-up
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeats):
            one_pass(record=True)
    finally:
        gc.enable()
    result = spread(samples)
    result.update(positions=len(probes), repeats=repeats)
    return result, {kind: statistics.median(values) for kind, values in by_kind.items()}


def time_replay(repeats: int, seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    log, info = build_log(seed)
    assert len(log) == LOG_LENGTH
    reference = GameSession(seed_source=lambda: 0)
    reference.replay(log)  # warm-up, and the state every replay must reach
    samples: list[float] = []
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeats):
            session = GameSession(seed_source=lambda: 0)
            start = time.perf_counter_ns()
            session.replay(log)
            elapsed = time.perf_counter_ns() - start
            samples.append(elapsed / 1e6)
            assert session.state == reference.state
            del session
            gc.collect()  # between repeats, outside the timed part
    finally:
        gc.enable()
    result = spread(samples)
    # Undo only steps back to a kept state; every other command runs the rules (redo too).
    rules_commands = len(log) - info["commands"].get("undo", 0)
    per_rules_command_us = result["median"] * 1000 / rules_commands
    result.update(repeats=repeats, log_length=len(log), per_rules_command_us=per_rules_command_us,
                  all_rules_2000_ms=per_rules_command_us * LOG_LENGTH / 1000)
    return result, info


# --- report ------------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    return {
        "processor": platform.processor() or "unknown",
        "machine": platform.machine(),
        "platform": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "cpu_count": os.cpu_count(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.bench_model",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--command-repeats", type=int, default=40,
                        help="times the whole game is played through for command+undo timing")
    parser.add_argument("--replay-repeats", type=int, default=30,
                        help="times the 2,000-command log is replayed")
    parser.add_argument("--seed", type=int, default=7, help="seed of the simulated table")
    args = parser.parse_args(argv)

    command, by_kind = time_command_undo(args.command_repeats, args.seed)
    replay, log_info = time_replay(args.replay_repeats, args.seed)
    figures = {
        "machine": machine(),
        "command_plus_undo_us": {**command, "goal_max": GOAL_COMMAND_US,
                                 "meets_goal": command["median"] <= GOAL_COMMAND_US,
                                 "median_by_command": by_kind},
        "replay_2000_ms": {**replay, "goal_max": GOAL_REPLAY_MS,
                           "meets_goal": replay["median"] <= GOAL_REPLAY_MS,
                           "per_command_us": replay["median"] * 1000 / replay["log_length"],
                           "log": log_info},
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0

    m = figures["machine"]
    print("Spirit Island companion: game model benchmark")
    print(f"machine: {m['machine']} (processor: {m['processor']}), {m['cpu_count']} CPUs, "
          f"{m['platform']}, {m['python']}")
    print()
    print(f"One command + its undo through GameSession, in µs "
          f"({command['samples']} timings: {command['positions']} positions of one game × "
          f"{command['repeats']} repeats)")
    _print_spread(command, "µs", GOAL_COMMAND_US)
    print("  median by command: " + ", ".join(
        f"{kind} {value:.1f}" for kind, value in sorted(by_kind.items())))
    print()
    print(f"Replaying a {replay['log_length']:,}-command game from its log, in ms "
          f"({replay['repeats']} repeats)")
    _print_spread(replay, "ms", GOAL_REPLAY_MS)
    per = figures["replay_2000_ms"]["per_command_us"]
    print(f"  that is {per:.1f} µs per logged command")
    print("  the log: " + ", ".join(f"{kind} {n}" for kind, n in log_info["commands"].items())
          + f"; up to round {log_info['highest_round']}; game ends taken back: "
          + (", ".join(f"{k} ×{n}" for k, n in log_info["game_ends_taken_back"].items())
             or "none"))
    print(f"  ({log_info['undo_redo_share']:.0%} of the log is undo or redo: one game cannot "
          "last 2,000 commands without taking play back)")
    print(f"  per command that runs the rules (all but undo): {replay['per_rules_command_us']:.1f}"
          f" µs, so 2,000 such commands would take about {replay['all_rules_2000_ms']:.1f} ms")
    return 0


def _print_spread(figures: dict[str, Any], unit: str, goal: float) -> None:
    verdict = "meets the goal" if figures["median"] <= goal else "MISSES the goal"
    print(f"  median {figures['median']:9.2f} {unit}   goal ≤ {goal:g} {unit}: {verdict}")
    print(f"  min    {figures['min']:9.2f} {unit}   max {figures['max']:.2f} {unit}")
    print(f"  IQR    {figures['q1']:9.2f} – {figures['q3']:.2f} {unit} "
          f"(width {figures['iqr']:.2f} {unit})")


if __name__ == "__main__":
    sys.exit(main())
