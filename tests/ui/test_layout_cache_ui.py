"""The compiled layouts kept between starts (companion/ui/layout_cache.py): every layout file
parsed through the cache is what Kivy makes of it, a second start compiles nothing, an edited
file compiles what changed, and a damaged or unwritable cache costs time, never a start."""

from __future__ import annotations

import marshal
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from types import CodeType
from typing import Any

import kivy
import pytest
from kivy.lang import parser

from companion.ui import layout_cache
from companion.ui.layout_cache import LayoutCache
from companion.ui.screens import LAYOUTS_DIR

from .test_start_ui import start_and_stop

pytestmark = pytest.mark.ui

KIVY_STYLE = Path(kivy.kivy_data_dir) / "style.kv"
"""Kivy's own rules, loaded by every Kivy app as Kivy is imported; the app's start puts them
through the cache too (companion.ui.launch.compile_layouts_once)."""
LAYOUT_FILES = [*sorted(LAYOUTS_DIR.rglob("*.kv")), KIVY_STYLE]


def parsed(path: Path, precompile: Callable[[Any], None], text: str | None = None) -> Any:
    """Kivy's parser over `path` (or `text` under its name), compiling with `precompile`."""
    kivy_precompile = parser.ParserRuleProperty.precompile
    parser.ParserRuleProperty.precompile = lambda rule: precompile(rule)
    try:
        return parser.Parser(content=path.read_text() if text is None else text,
                             filename=str(path))
    finally:
        parser.ParserRuleProperty.precompile = kivy_precompile


def properties(rules: Any) -> Iterator[Any]:
    """Every property and handler of a parsed file's rules, in the parser's order."""
    stack = [rule for _, rule in rules.rules] + ([rules.root] if rules.root else [])
    while stack:
        rule = stack.pop(0)
        yield from rule.properties.values()
        yield from rule.handlers
        stack.extend(child for child in (*rule.children, rule.canvas_before, rule.canvas_root,
                                         rule.canvas_after) if child is not None)


def made_of(rule: Any) -> tuple[Any, ...]:
    """What Kivy made of one property: all that the builder reads of it later."""
    value = rule.co_value
    code = value if isinstance(value, CodeType) else None
    watched = sorted(map(tuple, rule.watched_keys)) if rule.watched_keys else None
    return (rule.name, rule.line, rule.mode, watched, code,
            None if code is not None else repr(value))


def compiled_through(cache: LayoutCache, path: Path, text: str | None = None) -> list[Any]:
    return [made_of(rule) for rule in properties(parsed(path, cache.precompile, text))]


def test_every_layout_file_through_the_cache_is_what_kivy_makes_of_it(tmp_path: Path) -> None:
    assert len(LAYOUT_FILES) > 20
    cold = LayoutCache(tmp_path)
    for path in LAYOUT_FILES:
        kivy_made = [made_of(rule) for rule in properties(
            parsed(path, layout_cache._kivy_precompile))]
        assert compiled_through(cold, path) == kivy_made, path
    assert cold.reused == 0 and cold.compiled > 1000
    cold.save()

    warm = LayoutCache(tmp_path)
    assert len(warm.kept) == cold.compiled
    for path in LAYOUT_FILES:
        kivy_made = [made_of(rule) for rule in properties(
            parsed(path, layout_cache._kivy_precompile))]
        assert compiled_through(warm, path) == kivy_made, path
    assert warm.compiled == 0 and warm.reused == cold.compiled
    written = warm.path.stat().st_mtime_ns
    warm.save()  # nothing new: the file is left alone
    assert warm.path.stat().st_mtime_ns == written


def test_a_constant_is_evaluated_anew_at_each_start(tmp_path: Path) -> None:
    layout = tmp_path / "lists.kv"
    text = "<Widget>:\n    size_hint: [0.5, 0.5]\n"
    first = LayoutCache(tmp_path)
    compiled_through(first, layout, text)
    first.save()
    again = LayoutCache(tmp_path)
    one = parsed(layout, again.precompile, text).rules[0][1].properties["size_hint"].co_value
    two = parsed(layout, again.precompile, text).rules[0][1].properties["size_hint"].co_value
    assert one == two == [0.5, 0.5] and one is not two  # no list shared between two rules
    assert again.compiled == 0


def test_an_edited_layout_compiles_what_changed_and_forgets_what_is_gone(
        tmp_path: Path) -> None:
    layout, other = tmp_path / "edited.kv", tmp_path / "other.kv"
    before = "<Label>:\n    text: 'one'\n    color: 1, 0, 0, 1\n    opacity: self.width / 100\n"
    after = before.replace("'one'", "'two'")
    cache = LayoutCache(tmp_path / "cache")
    compiled_through(cache, layout, before)
    compiled_through(cache, other, "<Button>:\n    bold: True\n")
    cache.save()

    edited = LayoutCache(tmp_path / "cache")
    assert compiled_through(edited, layout, after) == [
        made_of(rule) for rule in properties(parsed(layout, layout_cache._kivy_precompile,
                                                    after))]
    assert edited.compiled == 1 and edited.reused == 2
    assert set(edited._opened) == {str(layout)}  # the other file's part was not even read
    edited.save()
    kept = LayoutCache(tmp_path / "cache").kept
    texts = sorted(value for file, _line, _name, value, _mode in kept if file == str(layout))
    assert texts == ["'two'", "1, 0, 0, 1", "self.width / 100"]  # 'one' is gone
    assert [key[3] for key in kept if key[0] == str(other)] == ["True"]  # not loaded: kept


def damaged(data: bytes) -> dict[str, bytes]:
    """A good cache file's bytes, and what a pulled plug, a bad sector or another program may
    leave of it."""
    head = len(layout_cache.MAGIC) + layout_cache._CHECKSUM_BYTES
    flipped = bytearray(data)
    flipped[head + 10] ^= 0x40
    not_a_dict = marshal.dumps([1, 2, 3])
    return {"empty": b"", "truncated": data[:len(data) // 2], "a byte flipped": bytes(flipped),
            "another format": b"companion layouts 0\n" + data[len(layout_cache.MAGIC):],
            "garbage": bytes(range(256)) * 8,
            "not a table": layout_cache.MAGIC + layout_cache._checksum(not_a_dict) + not_a_dict}


def test_a_damaged_cache_file_is_compiled_afresh_and_written_again(tmp_path: Path) -> None:
    layout = LAYOUTS_DIR / "style.kv"
    good = LayoutCache(tmp_path)
    kivy_made = compiled_through(good, layout)
    good.save()
    for name, data in damaged(good.path.read_bytes()).items():
        good.path.write_bytes(data)
        cache = LayoutCache(tmp_path)
        assert cache.kept == {}, name
        assert compiled_through(cache, layout) == kivy_made, name
        assert cache.reused == 0, name
        cache.save()
        assert len(LayoutCache(tmp_path).kept) == len(kivy_made), name


def test_a_cache_that_cannot_be_written_is_logged_and_the_layout_still_loads(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    in_the_way = tmp_path / "a file, not a folder"
    in_the_way.write_text("")
    cache = LayoutCache(in_the_way / "kivy")
    layout = LAYOUTS_DIR / "keys.kv"
    assert compiled_through(cache, layout)
    cache.save()
    assert "could not keep the compiled layouts" in caplog.text
    assert list(tmp_path.iterdir()) == [in_the_way]  # nothing half-written left behind


def test_the_app_keeps_its_compiled_layouts_and_starts_over_a_damaged_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KIVY_HOME")  # the app's own Kivy home, beside its games file
    start_and_stop(tmp_path)
    [kept] = list(tmp_path.rglob("layouts-*.cache"))
    assert len(LayoutCache(kept.parent).kept) > 600
    # Kivy's style.kv, loaded as Kivy's window is imported, went through it as well.
    from_kivy = [key for key in LayoutCache(kept.parent).kept if key[0] == str(KIVY_STYLE)]
    assert len(from_kivy) > 500
    written = kept.stat().st_mtime_ns
    log = start_and_stop(tmp_path, "--verbose", until_line="Start application main loop")
    # The layouts of the first start were found; the file is written again only if this start
    # got further (building ahead) and compiled more.
    found = re.findall(r"kept the compiled layouts of .* \((\d+) expressions found there", log)
    assert int(found[-1]) > 600 if found else kept.stat().st_mtime_ns == written, log

    kept.write_bytes(kept.read_bytes()[:1000])
    log = start_and_stop(tmp_path, "--verbose", until_line="Start application main loop")
    assert "Traceback" not in log and "CRITICAL" not in log, log
    assert len(LayoutCache(kept.parent).kept) > 600  # written again when the app stopped
