"""Every game's refusals can be said in German and French: each `Refused(…)` of a game's model
is given a `Phrase` (never a bare or formatted English string), and every sentence its model
writes that way has a German and a French entry. Parametrised over the registry, so a game
added tomorrow is held to it without a line of its own."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from companion.games.registry import GAMES
from companion.i18n import catalogue_path, read_po, templates
from companion.i18n_messages import written_phrases

WORDLESS = re.compile(r"\{\w*\}")
"""A placeholder: a text of placeholders alone ("{special} {prompt}") has no words to say."""


def plain_english_refusals(folder: Path) -> list[str]:
    """`Refused("…")`, `Refused(f"…")`, `Refused("…" + x)` and `Refused(str(e))` in `folder`:
    a text handed over already in English, which no catalogue can translate."""
    found = []
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Refused"
                    and node.args and _is_plain_text(node.args[0])):
                found.append(f"{path.name}:{node.lineno}")
    return found


def _is_plain_text(node: ast.expr) -> bool:
    if isinstance(node, ast.IfExp):
        return _is_plain_text(node.body) or _is_plain_text(node.orelse)
    if isinstance(node, ast.BinOp):
        return _is_plain_text(node.left) or _is_plain_text(node.right)
    if isinstance(node, ast.Call):
        return getattr(node.func, "id", None) == "str" or getattr(node.func, "attr", None) in (
            "format", "join")
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str))


def model_folder(game_id: str) -> Path:
    return Path(inspect.getfile(GAMES[game_id].decide)).parent


def test_the_check_finds_a_refusal_written_in_plain_english(tmp_path: Path) -> None:
    (tmp_path / "rules.py").write_text(
        'raise Refused("no")\nraise Refused(f"no {x}")\nraise Refused("a" + b)\n'
        'raise Refused(str(error))\nraise Refused(Phrase("no {x}", x=x))\n'
        'raise Refused(why)\nraise Refused(Phrase("a") if x else "b")\n', encoding="utf-8")
    assert plain_english_refusals(tmp_path) == [f"rules.py:{n}" for n in (1, 2, 3, 4, 7)]


@pytest.mark.parametrize("game_id", list(GAMES))
def test_no_refusal_of_a_games_model_is_plain_english(game_id: str) -> None:
    assert not plain_english_refusals(model_folder(game_id))


@pytest.mark.parametrize("lang", ["de", "fr"])
@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_sentence_a_games_model_writes_is_translated(game_id: str, lang: str) -> None:
    written = written_phrases(GAMES[game_id])
    assert written, "a game's model says why it refuses"
    catalogue: dict[str, str] = {}
    for template in templates():
        catalogue.update(read_po(catalogue_path(lang, template)))
    missing = sorted(written - set(catalogue))
    assert not missing, f"{lang} lacks {missing}"
    untranslated = sorted(text for text in written if catalogue[text] == text
                          and re.search(r"[a-z]", WORDLESS.sub("", text)))
    assert not untranslated, f"{lang} leaves {untranslated} in English"
