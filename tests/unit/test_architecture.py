"""The shape of the program, checked on the import statements:

- each game's model stays pure: no screen, serial port or database under companion/games/<game>
  (its screens, when it has some, live in its `ui` folder and are left out);
- the core knows no game: it reaches one only through companion.games.registry;
- no game imports another game;
- no module imports itself round a circle of imports, and every import runs one way through
  the layers: the core and i18n import no game and no screen, a game's model no screen, and the
  store, the card reader, the rules lookup and the phones' mirror no screen;
- no module is longer than 500 lines (split by concern).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "companion"
GAMES = PACKAGE / "games"
FORBIDDEN = {"kivy", "serial", "sqlite3", "sqlite_utils"}
REGISTRY = "companion.games.registry"

CORE = [
    "core/*.py", "service.py", "saved_games.py", "game_archive.py", "tag_commands.py",
    "rules_commands.py", "game_log.py", "driver.py", "store*.py", "bootstrap.py", "cli.py",
    "files.py", "i18n.py", "reader/*.py", "rules/search.py", "rules/corpus.py", "rules/cli.py",
    "ui/*.py", "mirror/*.py", "tag_sheet*.py", "tags_cli.py", "usb_sticks.py", "backup*.py",
    "updates.py",
]
"""Modules shared by every game, the touchscreen's shared screens included (a game's own
screens are in its folder's `ui`)."""


def imported_modules(source: str) -> set[str]:
    """The top-level packages a module imports (absolute imports only)."""
    return {name.split(".")[0] for name in full_imports(source, "")}


def full_imports(source: str, package: str) -> set[str]:
    """Every module a module imports, relative imports resolved against `package`."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                if not package:
                    continue
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            names.add(module)
            # `from companion.games import spirit_island` imports a game too.
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_of(path: Path) -> str:
    name = module_name(path)
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def game_folders() -> list[Path]:
    return sorted(p for p in GAMES.iterdir() if (p / "__init__.py").exists())


def games_reached(source: str, package: str) -> set[str]:
    """The games (companion.games.<game>) a module imports, the registry aside."""
    reached = set()
    for name in full_imports(source, package):
        parts = name.split(".")
        if parts[:2] == ["companion", "games"] and len(parts) > 2 and name != REGISTRY \
                and not name.startswith(REGISTRY + "."):
            reached.add(parts[2])
    return reached - {"registry"}


def pure_files(game: Path) -> list[Path]:
    return sorted(p for p in game.rglob("*.py") if "ui" not in p.relative_to(game).parts)


def test_there_is_at_least_one_game_and_it_has_a_model() -> None:
    names = [game.name for game in game_folders()]
    assert "spirit_island" in names
    assert len(pure_files(GAMES / "spirit_island")) >= 8


@pytest.mark.parametrize("game", game_folders(), ids=lambda p: p.name)
def test_a_games_model_imports_no_kivy_serial_or_sqlite(game: Path) -> None:
    for path in pure_files(game):
        assert not imported_modules(path.read_text()) & FORBIDDEN, path


@pytest.mark.parametrize("game", game_folders(), ids=lambda p: p.name)
def test_no_game_imports_another_game(game: Path) -> None:
    for path in sorted(game.rglob("*.py")):
        assert games_reached(path.read_text(), package_of(path)) <= {game.name}, path


def core_files() -> list[Path]:
    return sorted({path for pattern in CORE for path in PACKAGE.glob(pattern)})


def test_the_core_reaches_games_only_through_the_registry() -> None:
    files = core_files()
    assert len(files) >= 30
    for path in files:
        assert not games_reached(path.read_text(), package_of(path)), path


SHARED_SCREENS = ["ui/home_screen.py", "ui/new_game_screen.py", "ui/checklist_screen.py",
                  "ui/history_screens.py", "ui/tags_screen.py", "ui/deck_screen.py",
                  "ui/rules_screen.py"]
"""The shared screens, one module per screen (the history's three together)."""


def test_the_touchscreens_shared_screens_are_part_of_the_core() -> None:
    names = {str(path.relative_to(PACKAGE)) for path in core_files()}
    assert {"ui/app.py", *SHARED_SCREENS, "ui/widgets.py", "ui/settings_screen.py"} <= names


def test_the_import_check_would_notice_a_forbidden_import() -> None:
    assert imported_modules("import sqlite3\nfrom kivy.app import App\n") == {"sqlite3", "kivy"}


@pytest.mark.parametrize("source, package", [
    ("from companion.games.spirit_island.view import state_view", "companion"),
    ("from .games.spirit_island import commands", "companion"),
    ("from ..games import spirit_island", "companion.reader"),
    ("import companion.games.spirit_island.game", "companion"),
])
def test_the_game_check_would_notice_a_game_reached_around_the_registry(
        source: str, package: str) -> None:
    assert games_reached(source, package) == {"spirit_island"}


def test_the_game_check_lets_the_registry_through() -> None:
    assert games_reached("from .games.registry import GAMES\n", "companion") == set()
    assert games_reached("from ..games.registry import GAMES\n", "companion.reader") == set()


SHARED_READER_MODULES = ["ui/reads.py", "ui/reader_link.py", "reader/tags.py"]
"""The card reader's shared rules: what a read does is each game's `plan_read`."""


@pytest.mark.parametrize("module", SHARED_READER_MODULES)
def test_the_card_readers_shared_rules_name_no_games_kind_of_card(module: str) -> None:
    from companion.games.registry import GAMES

    path = PACKAGE / module
    game_kinds = {kind for game in GAMES.values() for kind in game.tag_kinds}
    assert {"invader", "threat"} <= game_kinds
    texts = {node.value for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    assert not texts & game_kinds, path
    assert not games_reached(path.read_text(), package_of(path)), path


APP_MODULES = ["ui/app.py", "ui/app_settings.py", "ui/new_game_memory.py", "ui/screens.py",
               "ui/building_ahead.py", "ui/start_up.py", "ui/mirror_link.py"]
"""The app and the helpers it was split into by concern."""
SHARED_HISTORY_AND_SETTINGS = [*SHARED_SCREENS, "ui/settings_screen.py", *APP_MODULES]
SHARED_LAYOUTS = ["history.kv", "history_detail.kv", "statistics.kv", "settings.kv", "mirror.kv"]
SPIRIT_ISLAND_WORDS = ("adversary", "scenario", "fear", "blight", "terror", "spirit", "invader")
"""What only Spirit Island's saved games, charts and settings speak of: the history, its
details, the statistics and the settings get them from its `Game` record (`history`,
`settings`)."""


def code_texts(source: str) -> set[str]:
    """The string constants of a module, its docstrings left out."""
    tree = ast.parse(source)
    docstrings = {id(node.value) for node in ast.walk(tree)
                  if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
    return {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
            and isinstance(node.value, str) and id(node) not in docstrings}


@pytest.mark.parametrize("module", SHARED_HISTORY_AND_SETTINGS)
def test_the_shared_history_and_settings_name_nothing_of_spirit_islands_in_their_code(
        module: str) -> None:
    texts = code_texts((PACKAGE / module).read_text())
    said = {text for text in texts for word in SPIRIT_ISLAND_WORDS if word in text.lower()}
    assert not said, (module, said)


@pytest.mark.parametrize("layout", SHARED_LAYOUTS)
def test_the_shared_history_and_settings_layouts_name_nothing_of_spirit_islands(
        layout: str) -> None:
    code = [line.split("#")[0] for line in
            (PACKAGE.parent / "layouts" / layout).read_text().splitlines()]
    said = [line for line in code for word in SPIRIT_ISLAND_WORDS if word in line.lower()]
    assert not said, (layout, said)


def test_the_check_would_notice_an_adversary_named_in_the_shared_code() -> None:
    assert code_texts('"""About the adversary."""\nkey = "adversary"\n') == {"adversary"}


def test_every_game_gives_its_own_history_words() -> None:
    from companion.games.registry import GAMES

    for game in GAMES.values():
        folder = f"companion.games.{game.id.replace('-', '_')}."
        assert game.history.group is not None, game.id
        assert game.history.line.__module__.startswith(folder), game.id


# --- circles and layers ------------------------------------------------------------------------

def runtime_imports(source: str, package: str) -> set[str]:
    """Every module a module imports when it runs, at its top or inside a function (relative
    imports resolved), but not under `if TYPE_CHECKING:`, which only the type checker reads."""
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for branch in child.orelse:
                    visit(branch)
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                names.update(full_imports(ast.unparse(child), package))
            visit(child)

    visit(ast.parse(source))
    return names


def import_graph() -> dict[str, set[str]]:
    """Each module of the package and the package's modules it imports when it runs (a name
    imported from a module counts as that module)."""
    paths = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        reached = set()
        for imported in runtime_imports(path.read_text(), package_of(path)):
            while imported and imported not in paths:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                reached.add(imported)
        graph[name] = reached
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other round a circle (Tarjan's strongly
    connected components of more than one module), each sorted."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def connect(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for other in sorted(graph.get(module, ())):
            if other not in order:
                connect(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], order[other])
        if low[module] == order[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in order:
            connect(module)
    return found


def test_no_module_imports_itself_round_a_circle() -> None:
    graph = import_graph()
    assert len(graph) >= 100
    assert circles(graph) == []


def test_the_circle_check_would_notice_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "e"}, "e": set()}
    assert circles(graph) == [["a", "b", "c"]]


def test_the_circle_check_reads_imports_inside_functions_but_not_type_checking_ones() -> None:
    source = ("from typing import TYPE_CHECKING\n"
              "if TYPE_CHECKING:\n    from .app import App\n"
              "def late():\n    from .launch import run\n")
    assert runtime_imports(source, "companion.ui") >= {"companion.ui.launch"}
    assert not {name for name in runtime_imports(source, "companion.ui")
                if name.startswith("companion.ui.app")}


def layer(module: str) -> str:
    """The layer a module of the package belongs to."""
    parts = module.split(".")
    if parts[1:2] == ["games"] and "ui" in parts[3:]:
        return "game screens"
    if parts[1:2] == ["games"] and len(parts) > 3:
        return "game model"
    if parts[1:2] and parts[1].startswith("store_"):  # the store's modules beside store.py
        return "outer"
    return {"core": "core", "i18n": "core", "ui": "screens", "store": "outer",
            "reader": "outer", "rules": "outer", "mirror": "outer"}.get(
                parts[1] if len(parts) > 1 else "", "other")


NEVER_IMPORTS = {
    "core": {"game model", "game screens", "screens", "outer", "other"},
    "game model": {"game screens", "screens", "outer"},
    "outer": {"screens", "game screens"},
}
"""What each layer may not import. The core (companion.core and i18n) imports nothing outside
itself; a game's model imports the core and itself (no screen, no store, no reader); the
store, the card reader, the rules lookup and the phones' mirror import no screen."""


def layer_breaks(graph: dict[str, set[str]]) -> list[str]:
    return [f"{module} ({layer(module)}) imports {other} ({layer(other)})"
            for module, reached in sorted(graph.items()) for other in sorted(reached)
            if layer(other) in NEVER_IMPORTS.get(layer(module), set())]


def test_every_import_runs_one_way_through_the_layers() -> None:
    assert layer_breaks(import_graph()) == []


def test_the_layer_check_would_notice_an_import_against_the_layers() -> None:
    graph = {"companion.games.glow.rules": {"companion.ui.theme", "companion.core.game"},
             "companion.i18n": {"companion.games.registry"},
             "companion.mirror.feed": {"companion.games.glow.ui.table", "companion.driver"},
             "companion.ui.app": {"companion.store"}}
    assert layer_breaks(graph) == [
        "companion.games.glow.rules (game model) imports companion.ui.theme (screens)",
        "companion.i18n (core) imports companion.games.registry (other)",
        "companion.mirror.feed (outer) imports companion.games.glow.ui.table (game screens)"]


# --- module size -------------------------------------------------------------------------------

LONGEST_MODULE = 500
"""Lines a module of the package may have: more is more than one concern (issue 27)."""


def module_lengths() -> dict[str, int]:
    return {str(path.relative_to(PACKAGE)): len(path.read_text().splitlines())
            for path in PACKAGE.rglob("*.py")}


def too_long(lengths: dict[str, int]) -> list[str]:
    return [f"{path} has {length} lines (at most {LONGEST_MODULE})"
            for path, length in sorted(lengths.items()) if length > LONGEST_MODULE]


def test_no_module_is_longer_than_500_lines() -> None:
    assert too_long(module_lengths()) == []


def test_the_length_check_would_notice_a_long_module() -> None:
    assert too_long({"store.py": 501, "ui/app.py": 500, "ui/keys.py": 120}) == [
        "store.py has 501 lines (at most 500)"]
