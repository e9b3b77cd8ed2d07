"""Benchmark of the rules lookup: search latency while typing, and the index build.

Not a test (nothing is timed against a limit in CI): run it by hand and read the figures.

    python -m tests.benchmarks.bench_rules            # figures for people
    python -m tests.benchmarks.bench_rules --json     # the same figures as one JSON object

Goal from the issue: p95 ≤ 5 ms per search, for 1- to 4-letter prefixes and for whole words, in
each language.

How the figures are made: the index is built from the real corpus in memory (timed, several
times) and, separately, opened from its cache file as the app and the command line do. The
queries are every entry title's first word in that language, cut to 1, 2, 3 and 4 letters
(what a player has typed so far) and whole; each query is searched once to warm up and then
timed with time.perf_counter around `RulesIndex.search` (the top 10, with snippets).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.rules.corpus import LANGUAGES, load_corpus
from companion.rules.search import RulesIndex, words
from tests.benchmarks.bench_model import machine, percentile

GOAL_P95_MS = 5.0
KINDS = ("1 letter", "2 letters", "3 letters", "4 letters", "whole word")


def queries(index: RulesIndex, lang: str) -> dict[str, list[str]]:
    firsts = [found[0] for entry in index.corpus[lang].values()
              if (found := words(entry.title))]
    cut = {kind: sorted({word[:size] for word in firsts if len(word) >= size})
           for kind, size in zip(KINDS[:4], (1, 2, 3, 4), strict=True)}
    cut["whole word"] = sorted(set(firsts))
    return cut


def time_searches(index: RulesIndex, lang: str, typed: list[str], repeats: int) -> list[float]:
    for query in typed:
        index.search(query, lang)
    times = []
    for _ in range(repeats):
        for query in typed:
            start = time.perf_counter()
            index.search(query, lang)
            times.append((time.perf_counter() - start) * 1000)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.bench_rules",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--repeats", type=int, default=5, help="rounds over every query")
    parser.add_argument("--builds", type=int, default=5, help="index builds timed")
    args = parser.parse_args(argv)

    corpus = load_corpus()
    builds = []
    for _ in range(args.builds):
        start = time.perf_counter()
        index = RulesIndex.build(corpus)
        builds.append((time.perf_counter() - start) * 1000)
    with tempfile.TemporaryDirectory() as folder:
        cache = Path(folder) / "rules.sqlite3"
        start = time.perf_counter()
        RulesIndex.open(path=cache)
        first_open = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        index = RulesIndex.open(path=cache)
        cached_open = (time.perf_counter() - start) * 1000

    figures: dict[str, Any] = {
        "machine": machine(), "entries_per_language": len(corpus["en"]),
        "build_ms": {"median": statistics.median(builds), "min": min(builds),
                     "max": max(builds)},
        "open_ms": {"first_start_builds_the_file": first_open, "from_the_cache": cached_open},
        "search_ms": {}, "goal_p95_ms": GOAL_P95_MS,
    }
    for lang in LANGUAGES:
        figures["search_ms"][lang] = {}
        for kind, typed in queries(index, lang).items():
            times = time_searches(index, lang, typed, args.repeats)
            figures["search_ms"][lang][kind] = {
                "median": statistics.median(times), "p95": percentile(times, 0.95),
                "max": max(times), "queries": len(typed), "samples": len(times)}
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    m = figures["machine"]
    print("Spirit Island companion: rules lookup benchmark")
    print(f"machine: {m['machine']} (processor: {m['processor']}), {m['cpu_count']} CPUs, "
          f"{m['platform']}, {m['python']}")
    b, o = figures["build_ms"], figures["open_ms"]
    print(f"\nIndex of {figures['entries_per_language']} entries × 3 languages: built in memory "
          f"in {b['median']:.1f} ms (median of {args.builds}; {b['min']:.1f}–{b['max']:.1f}); "
          f"first start (load, build, write the cache file) {o['first_start_builds_the_file']:.1f}"
          f" ms; later starts from the cache {o['from_the_cache']:.1f} ms")
    print(f"\nSearch, ms per query (goal: p95 ≤ {GOAL_P95_MS} ms)")
    for lang, kinds in figures["search_ms"].items():
        for kind, stats in kinds.items():
            verdict = "meets" if stats["p95"] <= GOAL_P95_MS else "MISSES"
            print(f"  {lang} {kind:10}  median {stats['median']:5.2f}  p95 {stats['p95']:5.2f}  "
                  f"max {stats['max']:5.2f}  ({stats['queries']} queries): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
