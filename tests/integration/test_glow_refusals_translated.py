"""Glow's refusals in German and French: a script's refused lines, answered by
`companion script --lang de|fr` as a real process, say why in the driver's language (the phases
by their translated names), with the values sent kept as they are; in English they read exactly
as written."""

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

NEW_GAME = {"cmd": "new_game", "game": "glow", "players": 2, "board": "realm",
            "start_player": 0, "seed": 1}
REFUSED = [  # each refused on day 1's morning of a fresh game
    {"cmd": "score", "player": 3, "amount": 1},
    {"cmd": "rerolls", "player": 0, "amount": -1},
    {"cmd": "next", "phase": "noon"},
    {"cmd": "boat", "player": 0, "boat": 0, "island": 1},
    {"cmd": "pick", "player": 1, "area": 1},
    {"cmd": "end_score", "player": 0, "cards": 1, "board": 0, "glowworms": 0, "companions": 0,
     "trails": 0},
    {"cmd": "glowworms", "player": 0, "amount": -2},
]
ERRORS = {
    "en": [
        "there is no player 3; the players are 0 to 1",
        "reroll tokens are spent only in the late morning; it is the morning now",
        "this was meant to finish the noon, but it is the morning already; nothing was changed",
        "boats sail on the Sea of Darkness side; this game is on the Realm of Shadows",
        "it is player 0's turn to recruit, not player 1's",
        "the end scoring comes after day 8's evening; it is day 1's morning now",
        "player 0 has glowworms worth 0; 2 cannot be given back",
    ],
    "de": [
        "es gibt keinen Spieler 3; die Spieler sind 0 bis 1",
        "Neuwurf-Marker werden ausgegeben: nur in der Phase „Vormittag“; jetzt ist „Morgen“",
        "das sollte die Phase „Mittag“ beenden, aber es ist schon „Morgen“; nichts wurde "
        "geändert",
        "Boote fahren auf der Seite Meer der Finsternis; diese Partie spielt im Reich der "
        "Schatten",
        "Spieler 0 ist mit Anwerben dran, nicht Spieler 1",
        "die Schlusswertung kommt nach dem Abend von Tag 8; jetzt ist Tag 1, Phase „Morgen“",
        "Spieler 0 hat Glühwürmchen im Wert von 0; 2 können nicht zurückgegeben werden",
    ],
    "fr": [
        "il n'y a pas de joueur 3 ; les joueurs vont de 0 à 1",
        "on dépense des jetons de relance : seulement pendant la phase « fin de matinée » ; "
        "c'est maintenant « matin »",
        "ceci devait terminer la phase « midi », mais c'est déjà « matin » ; rien n'a été "
        "changé",
        "les bateaux naviguent sur la face Mer des Ténèbres ; cette partie se joue au Royaume "
        "des Ombres",
        "c'est au joueur 0 de recruter, pas au joueur 1",
        "le décompte final vient après le soir du jour 8 ; c'est maintenant le jour 1, phase "
        "« matin »",
        "le joueur 0 a des lucioles d'une valeur de 0 ; impossible d'en rendre 2",
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
    written = written_phrases(GAMES["glow"])
    assert len(written) >= 50  # every Refused(...) of its model, and the words put into them
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
    folder = Path(inspect.getfile(GAMES["glow"].decide)).parent
    plain = [f"{path.name}:{node.lineno}" for path in sorted(folder.glob("*.py"))
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Refused"
             and not (node.args and _is_phrase(node.args[0]) or _is_helper(node.args))]
    assert not plain, plain


def _is_phrase(node: ast.expr) -> bool:
    if isinstance(node, ast.IfExp):
        return _is_phrase(node.body) and _is_phrase(node.orelse)
    return isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Phrase"


def _is_helper(args: list[ast.expr]) -> bool:
    """`_not_usable(…)` and `_route_refusal(…)`: helpers typed to return a Phrase (mypy)."""
    return bool(args) and isinstance(args[0], ast.Call) and getattr(
        args[0].func, "id", None) in ("_not_usable", "_route_refusal")
