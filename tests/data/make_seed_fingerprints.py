"""Write seed_fingerprints.txt: hashes of every run of eight words in the Spirit Island source
documents, so the corpus test can prove no entry repeats their sentences without the repo
holding a word of them.

    python tests/data/make_seed_fingerprints.py ../shared/seeds
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

# The rulebooks of this game (the seeds' README lists them); the other two are other games.
SPIRIT_ISLAND_SEEDS = ("000_9d70b6964224c417.txt", "001_9ecb835eae2a0f7b.txt",
                       "003_cd47fe14d8f25ab0.txt")
RUN = 8
HERE = Path(__file__).resolve().parent
FINGERPRINTS = HERE / "seed_fingerprints.txt"


def words(text: str) -> list[str]:
    from companion.rules.search import words as folded_words

    return folded_words(text)


def fingerprint(run: list[str]) -> str:
    return hashlib.blake2b(" ".join(run).encode(), digest_size=5).hexdigest()


def runs(text: str) -> set[str]:
    found = words(text)
    return {fingerprint(found[i:i + RUN]) for i in range(len(found) - RUN + 1)}


def main(seeds: Path) -> int:
    prints: set[str] = set()
    for name in SPIRIT_ISLAND_SEEDS:
        prints |= runs((seeds / name).read_text(encoding="utf-8", errors="replace"))
    FINGERPRINTS.write_text("\n".join(sorted(prints)) + "\n")
    print(f"{len(prints)} fingerprints written to {FINGERPRINTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
