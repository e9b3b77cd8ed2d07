"""`companion rules search|show` as a process, on the real corpus."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def rules(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    return subprocess.run([sys.executable, "-m", "companion", "rules", *args],
                          capture_output=True, text=True, env=env, timeout=60)


def test_search_prints_ranked_results_as_json_with_id_title_and_snippet(tmp_path: Path):
    done = rules(tmp_path, "search", "odnis", "--lang", "de", "--json")
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert results[0]["id"] == "blight" and results[0]["title"] == "Ödnis"
    assert set(results[0]) == {"id", "title", "snippet"} and results[0]["snippet"]
    assert (tmp_path / "cache" / "spirit-island-companion" / "rules-index.sqlite3").exists()


def test_search_without_json_prints_one_line_per_result_and_says_when_nothing_is_found(
        tmp_path: Path):
    done = rules(tmp_path, "search", "ravage")
    assert done.stdout.splitlines()[0].startswith("ravage\tRavage\t")
    nothing = rules(tmp_path, "search", "qqqqzzzz")
    assert nothing.returncode == 1 and "no entry found" in nothing.stderr


def test_show_prints_an_entry_with_its_links_and_refuses_an_unknown_id(tmp_path: Path):
    done = rules(tmp_path, "show", "cascade", "--lang", "fr")
    assert done.returncode == 0
    assert done.stdout.startswith("Cascade")
    unknown = rules(tmp_path, "show", "no-such-entry")
    assert unknown.returncode == 1 and "no entry 'no-such-entry'" in unknown.stderr


def test_the_command_line_offers_the_corpus_languages():
    from companion.rules.cli import LANGUAGE_CHOICES
    from companion.rules.corpus import LANGUAGES

    assert LANGUAGE_CHOICES == LANGUAGES


def test_search_with_a_game_finds_only_that_games_entries_and_an_unknown_game_is_refused(
        tmp_path: Path):
    everything = json.loads(rules(tmp_path, "search", "round", "--json").stdout)
    assert everything[0]["id"] == "round"
    assert any(hit["id"].startswith("lw-") for hit in everything)
    done = rules(tmp_path, "search", "round", "--game", "leviathan-wilds", "--json")
    assert done.returncode == 0, done.stderr
    leviathan = json.loads(done.stdout)
    assert leviathan[0]["id"] == "lw-round-end"
    assert all(hit["id"].startswith("lw-") for hit in leviathan)
    island = rules(tmp_path, "search", "round", "--game", "spirit-island")
    assert island.stdout.splitlines()[0].startswith("round\t")
    assert "lw-" not in island.stdout
    unknown = rules(tmp_path, "search", "round", "--game", "chess")
    assert unknown.returncode == 2
    assert "no game 'chess'; choose one of spirit-island, leviathan-wilds" in unknown.stderr
