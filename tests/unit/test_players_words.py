"""The screens speak players' words: no database number, no key a touchscreen does not have,
no "our data", no command id where a player reads what was undone."""

from __future__ import annotations

import re

import pytest

from companion.games.spirit_island.commands import COMMANDS
from companion.games.spirit_island.table_words import describe_command
from companion.i18n import translations
from companion.i18n_messages import template_messages

DEVELOPER_WORDS = re.compile(
    r"our data|Space or Enter|\{command\}|\bgame \{game\}|^Game \{game\}$", re.IGNORECASE)
"""Texts seen on screen in a review of issue 26: a player cannot act on them."""

ACTIONS_UNDONE = sorted(set(COMMANDS) - {"new_game", "undo", "redo", "state"})


def test_the_check_catches_the_words_a_review_found() -> None:
    assert all(DEVELOPER_WORDS.search(text) for text in (
        "Unverified numbers: as in our data", "Space or Enter · the app only counts it",
        "Game {game}", "Delete game {game} from the history for good?",
        "correction ({command})"))


def test_no_screen_text_has_developer_words() -> None:
    found = [text for text in template_messages()["companion"] if DEVELOPER_WORDS.search(text)]
    assert not found


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
@pytest.mark.parametrize("cmd", ACTIONS_UNDONE)
def test_an_undone_action_of_spirit_island_is_named_in_words_not_by_its_id(
        cmd: str, lang: str) -> None:
    command = {"cmd": cmd, "commands": [{"cmd": "fear", "amount": 2}]} if cmd == "effect" \
        else {"cmd": cmd}
    words = describe_command(command, translations(lang).gettext)
    assert words and "_" not in words
    assert f"({cmd})" not in words  # the old "correction (set_blight)"
    assert lang == "en" or words != describe_command(command, str)


def test_no_text_is_handed_to_the_catalogue_already_formatted() -> None:
    """`_(f"…")` or `_("a" + b)` looks up a text no catalogue can hold: it would stay English.
    (Every constant text handed over has its German and French entry: test_catalogues.)"""
    import ast

    from companion.i18n_messages import PACKAGE

    formatted = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = getattr(node.func, "id", getattr(node.func, "attr", None)) \
                if isinstance(node, ast.Call) else None
            if name in ("_", "N_", "gettext", "ngettext") and node.args and isinstance(
                    node.args[0], (ast.JoinedStr, ast.BinOp)):
                formatted.append(f"{path.name}:{node.lineno}")
    assert not formatted
