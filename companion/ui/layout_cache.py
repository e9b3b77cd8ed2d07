"""What Kivy compiles of the layout files, kept on disk from one start to the next, as Python
keeps a module's bytecode in `__pycache__`.

Kivy compiles every expression of a layout file each time the file is loaded: some 630 before
Home's first frame, which took two thirds of parsing the layouts (the rest of the start from the
window to Home's first frame is about 140 ms on the development VM). Here each expression's
compiled code, with the names Kivy found it watching, is kept in the Kivy home folder, under a
name that says which Python and Kivy wrote it. An expression is found again only by its file,
line, property and text, so an edited layout compiles what changed. The file carries a checksum:
one torn by a pulled plug, or damaged, is read as empty and written again, never trusted.

`install` puts a cache in front of Kivy's parser (kivy_fixes does it before the app loads a
layout); `install_before_kivy_parses` does it as Kivy's parser is first imported, ahead of
Kivy's own style.kv (another 790 expressions, compiled by every Kivy app at every start: 30–40
ms on this VM); `save` writes it when there is something new (after the screens are built ahead,
and when the process ends).
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import logging
import marshal
import os
import sys
import zlib
from collections.abc import Callable, Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec, PathFinder
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

import kivy  # (its package only: Kivy's parser is imported when needed, see the docstring)

log = logging.getLogger(__name__)

MAGIC = b"companion layouts 2\n"
_CHECKSUM_BYTES = 4  # a CRC-32 finds a torn or damaged file (hashlib costs 5 ms to import)
PARSER_MODULE = "kivy.lang.parser"

_kivy_own_precompile: Callable[[Any], None] | None = None
"""Kivy's compilation of one rule, as it was before the cache was put in front of it."""


def _parser() -> ModuleType:
    """Kivy's parser module (imported now if it was not: Kivy then loads its style.kv)."""
    global _kivy_own_precompile
    module = sys.modules.get(PARSER_MODULE) or importlib.import_module(PARSER_MODULE)
    if _kivy_own_precompile is None:
        _kivy_own_precompile = module.ParserRuleProperty.precompile
    return module


def _kivy_precompile(rule: Any) -> None:
    """Kivy's own compilation of one rule."""
    if _kivy_own_precompile is None:
        _parser()
    assert _kivy_own_precompile is not None
    _kivy_own_precompile(rule)


if PARSER_MODULE in sys.modules:
    _parser()

Key = tuple[str, int, str, str, Any]
"""A rule's file, line, property name, expression text and the mode it was asked for."""
Entry = tuple[str, CodeType, bool, Any]
"""Its mode, its code, whether Kivy evaluates it once (a constant), the names it watches."""


class LayoutCache:
    """The compiled expressions of the layouts, read from `folder` and written back there."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / (f"layouts-{sys.implementation.cache_tag}"
                              f"-kivy-{kivy.__version__}.cache")
        self._sections: dict[str, bytes] = self._read()
        """Each layout file's expressions as the file holds them, still marshalled: a layout's
        are read when it is loaded (reading every one took 6 ms of the start)."""
        self._opened: dict[str, dict[Key, Entry]] = {}
        self.used: dict[Key, Entry] = {}
        """What the layouts loaded in this process compiled to."""
        self.compiled = 0
        """Expressions compiled in this process (not found in the file)."""
        self.reused = 0
        """Expressions found in the file."""

    @property
    def kept(self) -> dict[Key, Entry]:
        """Every expression the file holds, of every layout (to look at it)."""
        kept: dict[Key, Entry] = {}
        for filename in self._sections:
            kept.update(self._section(filename))
        return kept

    def precompile(self, rule: Any) -> None:
        """Kivy's `ParserRuleProperty.precompile`, from the file when the rule is in it."""
        filename = rule.ctx.filename
        if not filename:  # a layout given as a string: nothing names it again
            _kivy_precompile(rule)
            return
        key: Key = (filename, rule.line, rule.name, rule.value, rule.mode)
        entry = self._section(filename).get(key)
        if entry is None:
            _kivy_precompile(rule)
            entry = _entry_of(rule)
            self.compiled += 1
        else:
            mode, code, constant, watched = entry
            rule.mode = mode
            rule.co_value = eval(code) if constant else code  # noqa: S307 (Kivy does the same)
            rule.watched_keys = [list(names) for names in watched] if watched else None
            self.reused += 1
        self.used[key] = entry

    def save(self) -> None:
        """Write the file if the layouts loaded here differ from it. For each layout file
        loaded, what it compiled to now replaces what the file held of it (what was edited
        away is dropped); the other files' entries stay."""
        loaded: dict[str, dict[Key, Entry]] = {}
        for key, entry in self.used.items():
            loaded.setdefault(key[0], {})[key] = entry
        changed = {filename: entries for filename, entries in loaded.items()
                   if entries != self._section(filename)}
        if not changed:
            return
        sections = {**self._sections, **{filename: marshal.dumps(entries)
                                         for filename, entries in changed.items()}}
        payload = marshal.dumps(sections)
        partial = self.path.with_name(f"{self.path.name}.{os.getpid()}.new")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial.write_bytes(MAGIC + _checksum(payload) + payload)
            os.replace(partial, self.path)
        except OSError as error:  # only time is lost: the next start compiles again
            log.warning("could not keep the compiled layouts in %s: %s", self.path, error)
            with contextlib.suppress(OSError):  # not there, or its folder is not either
                partial.unlink()
            return
        log.info("kept the compiled layouts of %d files in %s (%d expressions found there, "
                 "%d compiled now)", len(sections), self.path, self.reused, self.compiled)
        self._sections = sections
        self._opened.update(changed)

    def _section(self, filename: str) -> dict[Key, Entry]:
        if filename not in self._opened:
            self._opened[filename] = _table(self._sections.get(filename, b""))
        return self._opened[filename]

    def _read(self) -> dict[str, bytes]:
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return {}
        except OSError as error:
            log.warning("could not read the compiled layouts in %s: %s", self.path, error)
            return {}
        checksum = data[len(MAGIC):len(MAGIC) + _CHECKSUM_BYTES]
        payload = data[len(MAGIC) + _CHECKSUM_BYTES:]
        if not data.startswith(MAGIC) or _checksum(payload) != checksum:
            log.info("the compiled layouts in %s are damaged: compiling afresh", self.path)
            return {}
        sections = _table(payload)
        if not all(isinstance(section, bytes) for section in sections.values()):
            sections = {}
        if not sections:
            log.info("the compiled layouts in %s are unreadable: compiling afresh", self.path)
        return sections


def _table(data: object) -> dict[Any, Any]:
    """The dict marshalled in `data`; empty if it holds anything else."""
    try:
        table = marshal.loads(data) if isinstance(data, bytes) and data else None
    except (EOFError, ValueError, TypeError):
        table = None
    return table if isinstance(table, dict) else {}


def _checksum(payload: bytes) -> bytes:
    return zlib.crc32(payload).to_bytes(_CHECKSUM_BYTES, "big")


def _entry_of(rule: Any) -> Entry:
    """What Kivy made of `rule`, to be kept. A constant (an expression without a name) Kivy
    evaluated once: its code is compiled again here so that each start evaluates it anew."""
    code = rule.co_value
    constant = not isinstance(code, CodeType)
    if constant:
        code = compile("\n" * rule.line + rule.value, rule.ctx.filename, "eval")
    watched = [list(names) for names in rule.watched_keys] if rule.watched_keys else None
    return rule.mode, code, constant, watched


_active: LayoutCache | None = None


def install(folder: Path) -> LayoutCache:
    """Put the cache kept in `folder` in front of Kivy's parser (again: the same one)."""
    global _active
    if _active is None:
        atexit.register(save)  # a stop the app saw; building ahead saves at a start too
    if _active is None or _active.path.parent != folder:
        _active = LayoutCache(folder)
    parser = _parser()
    parser.ParserRuleProperty.precompile = _precompile
    # Kivy checks every letter of every name in a layout against these lists, one by one: as
    # sets, parsing the start's layouts took 4 ms less (15 → 11 ms on this VM, warm).
    parser.Parser.PROP_RANGE = frozenset(parser.Parser.PROP_RANGE)
    parser.Parser.CLASS_RANGE = frozenset(parser.Parser.CLASS_RANGE)
    return _active


class _InstallAfterKivyParser(MetaPathFinder):
    """Finds Kivy's parser module as Python would, and installs the cache once its code has
    run: before Kivy's builder, which imports it, goes on to load Kivy's style.kv."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def find_spec(self, name: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if name != PARSER_MODULE:
            return None
        sys.meta_path.remove(self)
        spec = PathFinder.find_spec(name, path, target)
        if spec is None or spec.loader is None:
            return spec
        loader: Any = spec.loader
        run_module = loader.exec_module
        folder = self.folder

        def exec_module(module: ModuleType) -> None:
            run_module(module)
            install(folder)

        loader.exec_module = exec_module
        return spec


def install_before_kivy_parses(folder: Path) -> None:
    """Put the cache kept in `folder` in front of Kivy's parser as soon as it is imported (now,
    if it has been): the app's start calls it before importing Kivy's window."""
    if PARSER_MODULE in sys.modules:
        install(folder)
    elif not any(isinstance(finder, _InstallAfterKivyParser) for finder in sys.meta_path):
        sys.meta_path.insert(0, _InstallAfterKivyParser(folder))


def save() -> None:
    """Write the installed cache if it has something new."""
    if _active is not None:
        _active.save()


def _precompile(rule: Any) -> None:
    if _active is None:
        _kivy_precompile(rule)
    else:
        _active.precompile(rule)
