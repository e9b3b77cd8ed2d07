"""Leviathan Wilds' refusals in German and French: a script's refused lines, answered by
`companion script --lang de|fr` as a real process, say why in the driver's language (an unnamed
guardian as "Hüter 2" / "Gardien 2"), with the values sent kept as they are; in English they
read exactly as written."""

from __future__ import annotations

import ast
import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games.registry import GAMES
from companion.i18n import catalogue_path, read_po, templates
from companion.i18n_messages import template_messages, written_phrases

ROOT = Path(__file__).resolve().parents[2]

NEW_GAME = {"cmd": "new_game", "game": "leviathan-wilds", "players": 2, "difficulty": "easy",
            "leviathan": 1, "seed": 4}
REFUSED = [  # each refused at the first reveal of a fresh game
    {"cmd": "draw", "guardian": 3},
    {"cmd": "act", "action": "climb"},
    {"cmd": "next", "step": "draw"},
    {"cmd": "discard", "guardian": 1, "count": 5},
    {"cmd": "reveal", "card": "nope"},
    {"cmd": "weakness", "guardian": 0, "remove": True},
    {"cmd": "ap_card", "ap": 3, "protections": ["harmful", "harmful"]},
    {"cmd": "next", "decline_last": True},
]
ERRORS = {
    "en": [
        "there is no guardian 3; this game has guardians 0 to 1",
        "AP are spent only in step 2, the active guardian's activation",
        "this was meant to finish the 'draw' step, but the game is at 'reveal' already; nothing "
        "was changed",
        "Guardian 2 holds 3 cards, not 5",
        "'reveal': card must be one of the ids LW-threat-1-1 … LW-threat-17-5, not 'nope'",
        "Guardian 1 holds no weakness",
        "'ap_card': protections names each protection once",
        "the last card may be declined only in step 4, when drawing up",
    ],
    "de": [
        "es gibt keinen Hüter 3; in dieser Partie sind es die Hüter 0 bis 1",
        "AP werden nur in Schritt 2 ausgegeben, während der Aktivierung des aktiven Hüters",
        "das sollte den Schritt 'draw' beenden, aber die Partie ist schon bei 'reveal'; nichts "
        "wurde geändert",
        "Hüter 2 hat 3 Karten auf der Hand, nicht 5",
        "'reveal': card muss eine der Kennungen LW-threat-1-1 … LW-threat-17-5 sein, nicht "
        "'nope'",
        "Hüter 1 hat keine Schwäche",
        "'ap_card': in protections darf jeder Schutz nur einmal stehen",
        "auf die letzte Karte verzichten darf man nur in Schritt 4, beim Nachziehen",
    ],
    "fr": [
        "il n'y a pas de gardien 3 ; cette partie a les gardiens 0 à 1",
        "les PA ne se dépensent qu'à l'étape 2, pendant l'activation du gardien actif",
        "ceci devait terminer l'étape 'draw', mais la partie en est déjà à 'reveal' ; rien n'a "
        "été changé",
        "Gardien 2 a 3 cartes en main, et non 5",
        "'reveal' : card doit être l'un des identifiants LW-threat-1-1 … LW-threat-17-5, et non "
        "'nope'",
        "Gardien 1 n'a aucune faiblesse",
        "'ap_card' : protections ne cite chaque protection qu'une seule fois",
        "on ne peut renoncer à la dernière carte qu'à l'étape 4, en complétant sa main",
    ],
}


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_refused_lines_say_why_in_the_drivers_language_and_change_nothing(lang: str) -> None:
    lines = "".join(json.dumps(command) + "\n" for command in [NEW_GAME, *REFUSED])
    done = subprocess.run([sys.executable, "-m", "companion", "script", "--lang", lang],
                          input=lines.encode(), capture_output=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    started, *answers = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert started["ok"], started
    assert [answer["error"] for answer in answers] == ERRORS[lang]
    assert all(not answer["ok"] and answer["state"] == started["state"] for answer in answers)


def test_every_refusal_of_the_model_is_in_its_template_and_translated() -> None:
    written = written_phrases(GAMES["leviathan-wilds"])
    assert len(written) >= 53  # every Refused(...) of its model, and the words put into them
    # A parse refusal two games word alike belongs to the first game's template.
    assert written <= {text for texts in template_messages().values() for text in texts}
    for lang in ("de", "fr"):
        translated: dict[str, str] = {}
        for domain in templates():
            translated |= read_po(catalogue_path(lang, domain))
        assert not written - set(translated), lang
        assert all(translated[text] != text for text in written), lang


def test_no_refusal_of_the_model_is_left_as_plain_english() -> None:
    """A refusal given a bare string (an f-string) could not be translated."""
    folder = Path(inspect.getfile(GAMES["leviathan-wilds"].decide)).parent
    plain = [f"{path.name}:{node.lineno}" for path in sorted(folder.glob("*.py"))
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Refused"
             and not (node.args and _is_phrase(node.args[0]))]
    assert not plain, plain


def _is_phrase(node: ast.expr) -> bool:
    if isinstance(node, ast.IfExp):
        return _is_phrase(node.body) and _is_phrase(node.orelse)
    return isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Phrase"
