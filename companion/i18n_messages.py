"""Every text of the app that a catalogue translates: found in the layouts (`tr._("…")`) and
the Python code (`_("…")`, `i18n._("…")`, `N_("…")`), plus the card and terrain names the
table shows.

`python -m companion.i18n_messages` writes the template `companion/locale/companion.pot`;
the catalogues' test checks each language's .po against the same list.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

from .i18n import LOCALE_DIR

PACKAGE = Path(__file__).resolve().parent
LAYOUTS = PACKAGE.parent / "layouts"
KV_TEXT = re.compile(r'tr\._\(("(?:[^"\\]|\\.)*")\)')
MARKERS = ("_", "N_")


def layout_messages() -> set[str]:
    found = set()
    for path in LAYOUTS.glob("*.kv"):
        found |= {ast.literal_eval(literal) for literal in KV_TEXT.findall(path.read_text())}
    return found


def code_messages() -> set[str]:
    found = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = getattr(node.func, "id", getattr(node.func, "attr", None)) \
                if isinstance(node, ast.Call) else None
            if (isinstance(node, ast.Call) and name in MARKERS and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                found.add(node.args[0].value)
    return found


def data_messages() -> set[str]:
    from .model.cards import ALL_CARDS, TERRAIN_NAMES

    return {card.name for card in ALL_CARDS.values()} | set(TERRAIN_NAMES.values())


def all_messages() -> list[str]:
    return sorted(layout_messages() | code_messages() | data_messages())


def po_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def write_template(path: Path = LOCALE_DIR / "companion.pot") -> int:
    messages = all_messages()
    lines = ['msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"', ""]
    for message in messages:
        lines += [f"msgid {po_quote(message)}", 'msgstr ""', ""]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")
    return len(messages)


if __name__ == "__main__":
    print(f"{write_template()} texts written to {LOCALE_DIR / 'companion.pot'}")
    sys.exit(0)
