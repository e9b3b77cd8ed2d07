"""What a game gives the core to be played at the table: the `Game` protocol.

A game is one folder under `companion/games/` holding a pure model (commands in, events and a new
immutable state out) and one `Game` value that describes it; `companion.games.registry` lists
those values. The session, the store, the service, the driver and the shared screens use a game
only through this record, so they know no game's rules. A game's state is its own type: the
core treats it as an opaque, immutable value that compares by equality.

Resources are named by strings (package names, paths relative to the game's folder, a screen
class as "module:Class"), so that reading the record imports no Kivy and no file.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, TypeAlias

from .commands import Command, command_to_dict
from .events import Event
from .history import GameHistory
from .listing import GameListing, Setting, TagKind
from .phrases import Translate
from .seats import SeatRules

__all__ = ["Banner", "CardRead", "Course", "Game", "GameListing", "PublicFields", "Setting",
           "State", "TagKind", "model_fields", "public_part"]

State = Any
"""A game's state: immutable, equal when the games are equal (replay checks rely on it)."""

Course = Iterable[tuple[Command, list[Event], State]]
"""A game as it was played: each command in effect with its events and the state after it."""


@dataclass(frozen=True)
class CardRead:
    """What a game makes of a card laid on the reader at this moment (`Game.plan_read`)."""

    message: str
    """What the app says, in English (translated where it is shown): {name} is the card's name,
    other placeholders come from `values`."""
    command: dict[str, Any] | None = None
    """The driver command to send, as a tap would send it."""
    form: bool = False
    """Instead of a command: the card is chosen on the form of the screen shown (its
    `choose_<kind>` method), e.g. a blight card on Spirit Island's new-game screen."""
    values: Mapping[str, Any] = field(default_factory=dict)
    """The message's other placeholders (a `Phrase` among them is translated too)."""


Banner = Callable[[list[dict[str, Any]], "dict[str, Any] | None", gettext.NullTranslations],
                  list[dict[str, str]]]
"""A command's events (as the driver prints them), the state after it (as `view` shows it)
and one language's translations (gettext and ngettext) to the banner lines the table shows
then: [{"kind", "text"}]."""


PublicFields: TypeAlias = Mapping[str, "bool | PublicFields"]
"""A game's judgement of each field of its view (`Game.public_view`'s whitelist): True, the
whole table sees it; False, it is hidden at the table; a whitelist of its own, for a dict (or
each dict of a list) of which only some fields are seen."""


def public_part(view: Mapping[str, Any], fields: PublicFields) -> dict[str, Any]:
    """Only the fields of `view` that `fields` names True (nested whitelists likewise): a field
    nobody has judged yet, such as one added to the view tomorrow, stays out."""
    out: dict[str, Any] = {}
    for key, judged in fields.items():
        if key not in view or judged is False:
            continue
        value = view[key]
        if judged is True or value is None:
            out[key] = value
        elif isinstance(value, Mapping):
            out[key] = public_part(value, judged)
        elif isinstance(value, list):
            out[key] = [public_part(item, judged) if isinstance(item, Mapping) else None
                        for item in value]
        # Anything else where a dict was judged field by field is not what was judged: left out.
    return out


def no_banner(events: list[dict[str, Any]], state: dict[str, Any] | None,
              words: gettext.NullTranslations) -> list[dict[str, str]]:
    """A game whose table announces nothing."""
    return []


def no_names(translate: Translate) -> dict[str, dict[str, str]]:
    """A game whose state's ids need no words beyond the view's own."""
    return {}


def no_card_reads(kind: str, card: str, state: dict[str, Any] | None,
                  screen: str) -> CardRead | None:
    """A game whose cards do nothing when read: the app only says what the card is."""
    return None


@dataclass(frozen=True)
class Game:
    id: str
    """The game's id: the state's "title", new_game's "game", the store's games.title."""
    name: str
    """What players call it, in English (translated through the catalogues)."""

    commands: Mapping[str, type[Command]]
    """Every command the game's table understands by "cmd", its start command included, in the
    order a refusal lists them. Undo, redo and state belong to the core and may be listed too."""
    new_game: type[Command]
    """The command that starts a game; a frozen dataclass with a `seed: int | None` field,
    which the session fills in when it is None so that the logged command replays the same."""
    parse_command: Callable[[Any], Command]
    """One JSON object (already decoded) as one of `commands`, or Refused in players' words."""

    start: Callable[[Any], tuple[State, list[Event]]]
    """Pure: the new_game command (with its seed) to the first state and what happened."""
    decide: Callable[[State, Any], tuple[State, list[Event]]]
    """Pure: a state and a command to the next state and its events, or Refused."""
    view: Callable[[State, Translate], dict[str, Any]]
    """The state as the driver's JSON shows it, texts through `translate`."""

    state_to_record: Callable[[State], dict[str, Any]]
    """The whole state, hidden parts included, as JSON-ready data (snapshots, exports)."""
    state_from_record: Callable[[dict[str, Any]], State]
    """`state_to_record`'s inverse; ValueError, KeyError or TypeError on a record it cannot read."""

    summary: Callable[[State], dict[str, Any]]
    """The columns of the saved games' list: "status" ("active" or "finished"), "players",
    "rounds", "result", "reason", "score", and those of the store's games table the game uses
    (Spirit Island: mode, deck_mode, adversary, adversary_level, scenario, difficulty)."""
    rounds: Callable[[Course], list[dict[str, Any]]]
    """What each round brought, replayed from the log (`game_detail`'s "per_round")."""
    catalogue: Callable[[], dict[str, Any]]
    """What the new-game screen's pickers list (the `catalogue` command's answer)."""
    public_view: Callable[[dict[str, Any]], dict[str, Any]]
    """Pure: of the state as `view` shows it, only what the whole table can see, for the
    phones' mirror: no seed (replaying it would deal the app's shuffled cards), no deck order,
    no face-down card. Built from a whitelist (`public_part`), so a field added to `view`
    later reaches no phone until it is judged."""
    tag_cards: Callable[[], Mapping[str, list[dict[str, Any]]]] = lambda: {}
    """The cards a reader's tag may name, by kind (its keys are the game's kinds): [{"id",
    "name", "stage" (text or None), "values" (optional: the name's placeholders; a text among
    them is translated too)}]. "command" is the shared kind, never a game's."""
    tag_kinds: Mapping[str, TagKind] = field(default_factory=dict)
    """What players call each kind `tag_cards` gives, by kind."""
    plan_read: Callable[[str, str, dict[str, Any] | None, str], CardRead | None] = (
        no_card_reads)
    """Pure: what a card of one of its kinds does when laid on the reader now: (kind, card id,
    the state as `view` shows it while this game is played on its table, else None; the screen
    shown: "table", "new_game", …) → what to do, or None to say what the card is and change
    nothing."""

    catalogue_domains: tuple[str, ...] = ()
    """Its gettext templates under companion/locale (the model's texts, its cards), in the
    order `python -m companion.i18n_messages` fills them (a text two share goes to the first)."""
    catalogue_texts: Callable[[], Mapping[str, Iterable[str]]] = lambda: {}
    """The English texts of each of its templates, by template name, for i18n_messages to write
    the .pot files from. (Spirit Island's are still gathered in i18n_messages itself.)"""
    rules_corpus: str | None = None
    """The folder of its rules-lookup entries ({lang}/<topic>.toml), relative to companion/ (or
    absolute): the rules index reads it beside companion/rules/data/ while the game is
    registered."""
    layouts: str = ""
    """The folder of its screens' .kv files, relative to the layouts folder."""
    table_screen: str = ""
    """Its table screen's class as "module:Class", imported only by the touchscreen app; its
    layout is `layouts`/table.kv. Without one the app does not offer the game (a script still
    plays it). The default game's table is the screen called "table", any other's
    "table-<id>". Beside `refresh(state, events)` it may offer `setup_summary(state)` (the
    checklist's line), `resume_text(state)` and `resume_screen(state)` (Home's resume button),
    `ready_text(all_ticked)` (the checklist's button) and `key_pressed(key, codepoint, ctrl)`
    (a keyboard at the table); the app falls back to plain words where it offers none."""
    setup_form: str = ""
    """Its new-game form's class as "module:Class" (a widget the shared new-game screen hosts,
    its layout `layouts`/new_game.kv): `command()` gives new_game's JSON, `restore(last)` takes
    back the last game's, `retranslate()` follows a change of language, `note` is the line
    beside Start and `form_id` its name among the screen's ids."""
    screens: Mapping[str, str] = field(default_factory=dict)
    """Its other screens by name, each "module:Class" with its layout `layouts`/<name>.kv
    (Spirit Island's scoring: {"end": …}); built by the app when first shown."""
    setup_checklist: Callable[[State, Translate], list[dict[str, str]]] = (
        lambda state, translate: [])
    """What the table sets out before the first round: [{"id", "text"}] in order."""
    history: GameHistory = GameHistory()
    """How its saved games read in the history, its detail screen and the statistics."""
    help_step: Callable[[dict[str, Any]], str | None] = lambda state: None
    """The rules lookup's step for this moment of the game, from the state as `view` shows it
    (e.g. "glow/noon"), or None when no help fits; the table's "?" opens its help."""
    settings: tuple[Setting, ...] = ()
    """Its own settings, shown under its name on the settings screen while it is played (every
    game's while none is). Its screens read them through the app's `game_setting(game id,
    key)`, which gives each its default while another game is played: they act only here."""
    command_to_dict: Callable[[Any], dict[str, Any]] = command_to_dict
    """`parse_command`'s inverse, for the log and snapshots (the core's fits commands whose
    fields are plain JSON values)."""
    banner: Banner = no_banner
    """Pure: what the table's banner says right after a command (the phones' page shows the
    same lines, in each phone's language); built by the same code as the table screen's."""
    names: Callable[[Translate], dict[str, dict[str, str]]] = no_names
    """Pure: the words for ids the state holds as ids, by kind ({"steps": {"reveal": "1 Reveal
    a threat", …}, "phases": …}), through `translate`, for the phones' page."""
    seat_rules: SeatRules | None = None
    """Who sits at the table and what each may send from their own phone (core/seats.py);
    None: the game offers no seats."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Anything a game's own screens want to find through the registry."""


def model_fields(api: ModuleType) -> dict[str, Any]:
    """The `Game` fields a game's pure model gives through its API module (its api.py), the one
    a shell adapts to:

    - `COMMANDS`, `NewGame` — its commands by "cmd", its start command.
    - `parse_command(raw)` — a JSON object to a command, or `Refused` saying what is wrong;
      `command_to_dict(command)` its inverse.
    - `start(new_game, seed)` / `decide(state, command)` — (new state, events); `Refused`
      changes nothing. Undo and redo are the session's: it keeps the states. The `Game`'s
      start hands it the seed the session recorded, so a replay draws what the game drew.
    - `view(state, translate)`, `event_view(event)` — JSON-ready dicts; the texts through
      `translate` (English as written without one).
    - `state_to_record(state)` / `state_from_record(record)` — a JSON-able round trip.
    - `setup_checklist(state, translate)` — [(item id, text)].
    """
    checklist = api.setup_checklist
    return {
        "commands": api.COMMANDS, "new_game": api.NewGame,
        "parse_command": api.parse_command, "command_to_dict": api.command_to_dict,
        "start": lambda command: api.start(command, command.seed or 0),
        "decide": api.decide, "view": api.view,
        "state_to_record": api.state_to_record, "state_from_record": api.state_from_record,
        "setup_checklist": lambda state, translate: [
            {"id": item, "text": text} for item, text in checklist(state, translate)],
    }
