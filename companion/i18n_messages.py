"""Every text of the app that a catalogue translates, in the templates `i18n.templates()` lists:

- `companion`: the screens' texts, found in the layouts (`tr._("…")`) and the Python code
  (`_("…")`, `i18n._("…")`, `words._("…")`, `N_("…")`, and `ngettext("…", "…", n)` for a
  text with a singular and a plural), plus the invader card and terrain names and every
  game's name;
- then each game's templates (its `Game.catalogue_domains`), filled from its
  `Game.catalogue_texts()` and, in its first template, the sentences its model writes in place
  as `Phrase("…")` (its refusals); Spirit Island's two are gathered here from its data:
  `game`, what the model says at the table (step prompts, victory conditions, endings, setup
  checklist items and step reminders), and `cards` (fear and blight cards, special invader
  cards, adversaries and scenarios).

`python -m companion.i18n_messages` writes `companion/locale/<template>.pot`; the catalogues'
test checks each language's .po files against the same lists.
"""

from __future__ import annotations

import ast
import inspect
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

# The registry hands every game's templates to i18n as it lists the games: imported first.
from .games.registry import GAMES
from .i18n import LOCALE_DIR, PLURAL_SEPARATOR, SCREENS_TEMPLATE, templates
from .resources import layouts_dir

if TYPE_CHECKING:
    from .core.game import Game

PACKAGE = Path(__file__).resolve().parent
LAYOUTS = layouts_dir()
KV_TEXT = re.compile(r'tr\._\(("(?:[^"\\]|\\.)*")\)')
PLURAL_MARKER = "ngettext"
"""`ngettext("{count} game", "{count} games", n)`: a text with a singular and a plural."""
MARKERS = ("_", "N_", PLURAL_MARKER)


def layout_messages() -> set[str]:
    found = set()
    for path in LAYOUTS.rglob("*.kv"):
        found |= {ast.literal_eval(literal) for literal in KV_TEXT.findall(path.read_text())}
    return found


def code_messages(paths: list[Path] | None = None,
                  markers: tuple[str, ...] = MARKERS) -> set[str]:
    """The constant texts handed to a call named in `markers`."""
    found = set()
    for path in paths if paths is not None else PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = getattr(node.func, "id", getattr(node.func, "attr", None)) \
                if isinstance(node, ast.Call) else None
            if not isinstance(node, ast.Call) or name not in markers:
                continue
            texts = [arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                     else None for arg in node.args[:2]]
            if name == PLURAL_MARKER and len(texts) == 2 and None not in texts:
                found.add(PLURAL_SEPARATOR.join(str(text) for text in texts))
            elif name != PLURAL_MARKER and texts and texts[0] is not None:
                found.add(texts[0])
    return found


def data_messages() -> set[str]:
    from .games.spirit_island.cards import ALL_CARDS, TERRAIN_NAMES

    return {card.name for card in ALL_CARDS.values()} | set(TERRAIN_NAMES.values())


def game_messages() -> set[str]:
    from .games.spirit_island import (
        adversary_table_rules,
        base_table_rules,
        endings,
        reminders,
        scenario_table_rules,
        texts,
    )
    from .games.spirit_island.notes import Note, Reminder

    found = {*texts.STEP_PROMPTS.values(), *texts.EVENT_PROMPTS.values(),
             *texts.VICTORY_CONDITIONS.values(), texts.AWAITING_BLIGHT_CARD_PROMPT,
             texts.AWAITING_FLIPPED_BLIGHT_CARD_PROMPT,
             texts.AWAITING_REVEAL_PROMPT, texts.AWAITING_UNCOVERED_PROMPT,
             texts.SPECIAL_CARD_PROMPT, texts.AND, "no land", "no card",
             *endings.ENDINGS.values(), endings.FEAR_DECK_EMPTIED, endings.SACRIFICE_DECLARED,
             endings.SACRIFICE_BY_ONE_EFFECT, endings.TERROR_CONDITION_MET,
             endings.DEFEAT_DECLARED, endings.LOSS_CONDITION_MET, reminders.BEGINNER_BLIGHT.text,
             reminders.VIRTUAL_DECK.text, reminders.CHOSEN_BLIGHT_CARD.text,
             reminders.EVENT_DECK.text}
    found |= {reminders.RITUALS_FEAR_DECK.text, reminders.BLITZ_BEGINNER_BLIGHT.text,
              texts.SPIRIT_NAME, texts.STILL_GROWING, texts.EVERY_SPIRIT_DONE}
    notes: list[Note | Reminder] = [
        *base_table_rules.BASE_SETUP,
        *(note for levels in adversary_table_rules.ADVERSARY_SETUP.values()
          for notes in levels.values() for note in notes),
        *(rule for levels in adversary_table_rules.ADVERSARY_REMINDERS.values()
          for rules in levels.values() for rule in rules),
        *(note for notes in scenario_table_rules.SCENARIO_SETUP.values() for note in notes),
        *(rule for rules in scenario_table_rules.SCENARIO_REMINDERS.values() for rule in rules)]
    # The model's own sentences written in place: `Phrase("…")` (a refusal, "no land" …).
    written = code_messages(sorted((PACKAGE / "games" / "spirit_island").glob("*.py")), ("Phrase",))
    return found | written | {note.text for note in notes}


def card_messages() -> set[str]:
    from .games.spirit_island.adversaries import ADVERSARIES
    from .games.spirit_island.blight_cards import BLIGHT_CARDS
    from .games.spirit_island.cards import ALL_CARDS
    from .games.spirit_island.fear_cards import EXPANSION_NAMES, FEAR_CARDS
    from .games.spirit_island.scenarios import SCENARIOS

    found: set[str | None] = set(EXPANSION_NAMES.values())
    for fear in FEAR_CARDS.values():
        found |= {fear.name, *fear.effects}
    for blight in BLIGHT_CARDS.values():
        found |= {blight.name, blight.effect}
    found |= {card.effect for card in ALL_CARDS.values() if card.effect}
    for adversary in ADVERSARIES.values():
        found |= {adversary.name, adversary.loss_condition, adversary.escalation}
    for scenario in SCENARIOS.values():
        found |= {scenario.name, scenario.loss_condition,
                  *(scenario.victory_conditions or {}).values()}
    return {text for text in found if text}


SHARED_RULES = (PACKAGE / "core" / "commands.py", PACKAGE / "core" / "seats.py")
"""Where core refuses, for every game's rules, the commands they do not decide and a seat's
requests that are not its own."""


def written_phrases(game: Game) -> set[str]:
    """The sentences a game's model writes in place as `Phrase("…")` (a refusal, …): every
    Python file in the folder of the module its `decide` comes from, and the refusals core
    writes for its rules (`SHARED_RULES`)."""
    folder = Path(inspect.getfile(game.decide)).parent
    return code_messages([*sorted(folder.glob("*.py")), *SHARED_RULES], ("Phrase",))


GATHERED_HERE = {"game": game_messages, "cards": card_messages}
"""The templates whose game gives no `catalogue_texts` (Spirit Island's, read from its data)."""


def template_messages() -> dict[str, list[str]]:
    """Each template's texts; a text two would share belongs to the first."""
    # Every game's name is said on the shared screens (the history, the settings' headings).
    screens = layout_messages() | code_messages() | data_messages() | {
        game.name for game in GAMES.values()}
    found = {SCREENS_TEMPLATE: screens}
    taken = set(screens)
    for game in GAMES.values():
        given = game.catalogue_texts()
        for name in game.catalogue_domains:
            if name in found:
                continue
            if name in given:
                texts = set(given[name])
                if name == game.catalogue_domains[0]:
                    texts |= written_phrases(game)
            else:
                texts = GATHERED_HERE[name]()
            found[name] = texts - taken
            taken |= found[name]
    assert tuple(found) == templates()
    return {name: sorted(texts) for name, texts in found.items()}


def all_messages() -> list[str]:
    return sorted(text for texts in template_messages().values() for text in texts)


def po_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def write_templates() -> int:
    written = 0
    for name, messages in template_messages().items():
        written += write_template(messages, LOCALE_DIR / f"{name}.pot")
    return written


def write_template(messages: list[str], path: Path) -> int:
    lines = ['msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"', ""]
    for message in messages:
        if PLURAL_SEPARATOR in message:
            singular, plural = message.split(PLURAL_SEPARATOR)
            lines += [f"msgid {po_quote(singular)}", f"msgid_plural {po_quote(plural)}",
                      'msgstr[0] ""', 'msgstr[1] ""', ""]
        else:
            lines += [f"msgid {po_quote(message)}", 'msgstr ""', ""]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")
    return len(messages)


if __name__ == "__main__":
    print(f"{write_templates()} texts written to {LOCALE_DIR}/*.pot")
    sys.exit(0)
