"""Which screens the app has, the layout file of each, and how one is built the first time it
is needed: the shared screens by name, each game's from the names its `Game` record gives."""

from __future__ import annotations

import importlib
from typing import Any

from kivy.core.window import Window
from kivy.lang import Builder
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen, ScreenManager

from ..resources import layouts_dir

LAYOUTS_DIR = layouts_dir()
STYLE_FILE = "style.kv"  # the shared classes and the app's root; loaded first
KEYS_FILE = "keys.kv"  # the on-screen keys of every text field
MIRROR_FILE = "mirror.kv"  # the phones' code, on Home and beside the table's menus
BOUNDARY_FILE = "boundary.kv"  # the panel after a screen's code failed
POWER_FILE = "power.kv"  # Turn off and Restart, on Home and in every table menu
KIT_FILE = "table_kit.kv"  # the table kit's parts; loaded before any game's screen
APP_LAYOUTS = (STYLE_FILE, KEYS_FILE, MIRROR_FILE, BOUNDARY_FILE, POWER_FILE)
"""What the app loads as it builds, before any screen."""
# Each shared screen: its class (as "module:Class") and its layout file. A screen, its module
# and its file are loaded the first time it is needed, so the app shows Home without paying for
# the table, the setup form and the rest (the System screen's module alone brought in the
# database library, and the deck screen's the tag sheet's PDF library); the table is then built
# while the players look at Home. A game's own screens (its table, its new-game form, its
# others) come from its folder through the registry (see game_screen).
SCREENS: dict[str, tuple[str, str]] = {
    "home": ("companion.ui.home_screen:HomeScreen", "home.kv"),
    "new_game": ("companion.ui.new_game_screen:NewGameScreen", "new_game.kv"),
    "checklist": ("companion.ui.checklist_screen:ChecklistScreen", "checklist.kv"),
    "history": ("companion.ui.history_screens:HistoryScreen", "history.kv"),
    "history_detail": ("companion.ui.history_screens:HistoryDetailScreen",
                       "history_detail.kv"),
    "statistics": ("companion.ui.history_screens:StatisticsScreen", "statistics.kv"),
    "tags": ("companion.ui.tags_screen:TagsScreen", "tags.kv"),
    "deck_enrolment": ("companion.ui.deck_screen:DeckEnrolmentScreen", "deck_enrolment.kv"),
    "reader_check": ("companion.ui.reader_check_screen:ReaderCheckScreen", "reader_check.kv"),
    "rules": ("companion.ui.rules_screen:RulesScreen", "rules.kv"),
    "settings": ("companion.ui.settings_screen:SettingsScreen", "settings.kv"),
    "system": ("companion.ui.system_screen:SystemScreen", "system.kv"),
}
DEFAULT_TABLE = "table"
"""The default game's table screen, named as before there were two games; it is built right
after the first frame: the screen the evening is spent on."""


def built_screen(screens: ScreenManager, name: str) -> Any:
    """The screen called `name` in `screens`, built (with its layout file) the first time it is
    asked for."""
    if not screens.has_screen(name):
        if name in SCREENS:
            spec, layout = SCREENS[name]
            screen_class = imported(spec)
        else:
            screen_class, layout = game_screen(name)
            load_layout(KIT_FILE)  # every game's table is built from the kit
        load_layout(layout)
        screens.add_widget(screen_class(name=name))
    return screens.get_screen(name)


def screen_known(name: str) -> bool:
    """A shared screen, or one a game's record names."""
    return name in SCREENS or name in game_screens()


def table_screen_name(game_id: object) -> str:
    """A game's table screen: "table" for the default game (and before any game), "table-<id>"
    for another; "" for a game without a table screen (a script plays it)."""
    from ..games.registry import DEFAULT_GAME, GAMES

    game = GAMES.get(game_id if isinstance(game_id, str) else DEFAULT_GAME)
    if game is None or not game.table_screen:
        return ""
    return DEFAULT_TABLE if game.id == DEFAULT_GAME else f"table-{game.id}"


def game_screens() -> dict[str, tuple[str, str]]:
    """Every game's screens by name: (class as "module:Class", layout file)."""
    from ..games.registry import GAMES

    found: dict[str, tuple[str, str]] = {}
    for game in GAMES.values():
        if game.table_screen:
            found[table_screen_name(game.id)] = (game.table_screen,
                                                 game_layout(game, "table.kv"))
        for name, spec in game.screens.items():
            found.setdefault(name, (spec, game_layout(game, f"{name}.kv")))
    return found


def game_own_screens(game_id: str) -> list[str]:
    """A game's screens other than its table (built ahead, as the shared ones)."""
    from ..games.registry import GAMES

    return list(GAMES[game_id].screens)


def game_screen(name: str) -> tuple[type[Screen], str]:
    """The class and the layout file of a game's screen called `name`, imported the first
    time it is built."""
    spec, layout = game_screens()[name]
    screen_class: type[Screen] = imported(spec)
    return screen_class, layout


def setup_forms() -> dict[str, type]:
    """The new-game forms, by game id, of the games the app can play (a form and a table), in
    the registry's order; their layouts loaded."""
    from ..games.registry import GAMES

    forms: dict[str, type] = {}
    for game in GAMES.values():
        if game.setup_form and game.table_screen:
            forms[game.id] = imported(game.setup_form)
            load_layout(game_layout(game, "new_game.kv"))
    return forms


def game_layout(game: Any, file: str) -> str:
    """A game's layout file, relative to the layouts folder."""
    return f"{game.layouts}/{file}" if game.layouts else file


def imported(spec: str) -> Any:
    """The class a record names as "module:Class"."""
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


def load_layout(name: str) -> None:
    """Load one layout file unless it is loaded (a second load would apply its rules twice)."""
    path = str(LAYOUTS_DIR / name)
    if path not in Builder.files:
        Builder.load_file(path)


def popup_open() -> bool:
    """A panel is open over the screens (a picker, a question, a game's panel)."""
    return any(isinstance(child, ModalView) for child in Window.children)


def key_on_the_table(app: Any, key: int, codepoint: str | None, modifiers: list[str]) -> bool:
    """A key pressed while the table is shown, with no panel over it: the table's to act on
    (True when it did)."""
    table = app.table_name()
    if not table or app.screens.current != table or popup_open():
        return False
    key_pressed = getattr(app.screen(table), "key_pressed", None)
    ctrl = "ctrl" in modifiers or "meta" in modifiers
    return bool(key_pressed(key, codepoint, ctrl)) if key_pressed is not None else False


def retranslate(screens: ScreenManager, table: str, state: dict[str, Any], lang: str) -> None:
    """The texts worked out in Python, in `lang`, on every screen built: the table's from the
    state, Home's, the rules' entries and every other screen's own."""
    if screens.has_screen("rules"):
        screens.get_screen("rules").lang = lang
    if table and screens.has_screen(table) and state:
        screens.get_screen(table).refresh(state, [])
    if screens.has_screen("home"):
        screens.get_screen("home").refresh()
    for screen in list(screens.screens):
        if screen.name not in (table, "home") and hasattr(screen, "retranslate"):
            screen.retranslate()
