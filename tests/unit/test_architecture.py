"""The game model stays pure: no screen, serial port or database under companion/model."""

from __future__ import annotations

import ast
from pathlib import Path

MODEL = Path(__file__).resolve().parents[2] / "companion" / "model"
FORBIDDEN = {"kivy", "serial", "sqlite3", "sqlite_utils"}


def imported_modules(source: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def test_the_game_model_imports_no_kivy_serial_or_sqlite() -> None:
    files = sorted(MODEL.glob("*.py"))
    assert len(files) >= 8
    for path in files:
        assert not imported_modules(path.read_text()) & FORBIDDEN, path.name


def test_the_import_check_would_notice_a_forbidden_import() -> None:
    assert imported_modules("import sqlite3\nfrom kivy.app import App\n") == {"sqlite3", "kivy"}
