"""Spirit Island's refusals in German and French: a script's refused lines, answered by
`companion script --lang de|fr` as a real process, say why in the driver's language, with the
values sent and the command names kept as they are; nothing is changed by them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

NEW_GAME = {"cmd": "new_game", "players": 2, "seed": 7, "deck": "physical"}
REFUSED = [  # each refused at the initial explore of a fresh game with the players' own deck
    {"cmd": "next", "step": "build"},
    {"cmd": "resolve_fear"},
    {"cmd": "heal", "amount": 5},
    {"cmd": "reveal", "card": "nope"},
    {"cmd": "score", "dahan": 3},
    {"cmd": "next_blight_card", "card": "x"},
    {"cmd": "next"},
]
ERRORS = {
    "en": [
        "this was meant to finish the 'build' step, but the game is at 'initial_explore' "
        "already; nothing was changed",
        "earned fear cards are resolved in the Fear step of the Invader phase; now it is "
        "Initial explore",
        "only 2 blight is on the island; 5 cannot be removed",
        "unknown invader card 'nope'; cards are named like I-jungle, II-coastal or "
        "III-mountain-sands",
        "the score is counted when the game is over",
        "a blight card is named only when the card drawn face down flips, or when a "
        "Still-Healthy Island card has no blight left",
        "turn over the top invader card (Stage I) and name it (reveal) before finishing this "
        "step",
    ],
    "de": [
        "das sollte den Schritt 'build' beenden, aber die Partie ist schon bei "
        "'initial_explore'; nichts wurde geändert",
        "verdiente Furchtkarten werden im Furcht-Schritt der Invasoren-Phase abgehandelt; jetzt "
        "ist Startaktion der Invasoren dran",
        "auf der Insel liegt nur 2 Ödnis; 5 lassen sich nicht entfernen",
        "unbekannte Invasorenkarte 'nope'; Karten heißen etwa I-jungle, II-coastal oder "
        "III-mountain-sands",
        "gezählt wird erst, wenn die Partie vorbei ist",
        "eine Ödnis-Karte wird erst genannt, wenn die verdeckt gezogene Karte umgedreht wird "
        "oder wenn auf einer Karte „Noch gesunde Insel“ keine Ödnis mehr liegt",
        "deckt die oberste Invasorenkarte (Stufe I) auf und nennt sie (reveal), bevor ihr "
        "diesen Schritt beendet",
    ],
    "fr": [
        "ceci devait terminer l'étape 'build', mais la partie en est déjà à 'initial_explore' "
        "; rien n'a été changé",
        "les cartes Peur gagnées se résolvent à l'étape Peur de la phase des Envahisseurs ; "
        "c'est maintenant Action initiale des Envahisseurs",
        "il n'y a que 2 Désolation sur l'île ; impossible d'en retirer 5",
        "carte Envahisseur inconnue 'nope' ; les cartes se nomment par exemple I-jungle, "
        "II-coastal ou III-mountain-sands",
        "le score se compte une fois la partie terminée",
        "une carte Désolation ne se nomme que lorsque la carte tirée face cachée se retourne, "
        "ou lorsqu'une carte Île en sursis n'a plus de Désolation",
        "retournez la carte Envahisseur du dessus (Niveau I) et nommez-la (reveal) avant de "
        "terminer cette étape",
    ],
}


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_refused_lines_say_why_in_the_drivers_language_and_change_nothing(lang: str) -> None:
    lines = "".join(json.dumps(command) + "\n" for command in [NEW_GAME, *REFUSED])
    done = subprocess.run([sys.executable, "-m", "companion", "script", "--lang", lang],
                          input=lines.encode(), capture_output=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    started, *answers = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert started["ok"], started
    assert [answer["error"] for answer in answers] == ERRORS[lang]
    assert all(not answer["ok"] and answer["state"] == started["state"] for answer in answers)
