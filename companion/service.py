"""The game service: the session and the store together, plus the commands about saved games.

A command the model accepts is made durable before `handle` returns; if saving fails the
session is put back as it was and the command is refused. The driver and (later) the
touchscreen both talk to this one object.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from .core import commands as c
from .core.commands import cut
from .core.errors import Refused
from .core.events import Event
from .core.game import Game, State
from .core.phrases import Translate, as_written
from .core.session import GameSession
from .files import read_limited, write_atomically
from .games.registry import DEFAULT_GAME, GAMES, game_named
from .reader import tags
from .rules.corpus import LANGUAGES, CorpusError
from .store import SNAPSHOT_EVERY, UNREADABLE, GameStore
from .store_errors import GameNotReplayable, StoreError, TagsInUse
from .store_rows import title_of

if TYPE_CHECKING:
    from .rules.search import RulesIndex

log = logging.getLogger(__name__)

EXPORT_FORMAT = "spirit-island-companion/game"
EXPORT_VERSION = 1


@dataclass(frozen=True)
class NewGameOf(c.Command):
    """new_game for one of the registry's games (its "game" field): the game's own new_game
    command inside. Only `GameService.parse` makes one; the log keeps the game's command."""

    name: ClassVar[str] = "new_game"
    game: Game
    setup: c.Command


@dataclass(frozen=True)
class ListGames(c.Command):
    name: ClassVar[str] = "games"


@dataclass(frozen=True)
class Resume(c.Command):
    name: ClassVar[str] = "resume"
    game: int


@dataclass(frozen=True)
class Abandon(c.Command):
    name: ClassVar[str] = "abandon"
    game: int | None = None


@dataclass(frozen=True)
class Delete(c.Command):
    name: ClassVar[str] = "delete"
    game: int
    confirm: bool = False


@dataclass(frozen=True)
class History(c.Command):
    name: ClassVar[str] = "history"


@dataclass(frozen=True)
class Stats(c.Command):
    name: ClassVar[str] = "stats"


@dataclass(frozen=True)
class GameDetail(c.Command):
    """One saved game in full: its row, its ending in words and its course round by round."""

    name: ClassVar[str] = "game_detail"
    game: int


@dataclass(frozen=True)
class Export(c.Command):
    name: ClassVar[str] = "export"
    path: str
    game: int | None = None
    overwrite: bool = False
    """Replace a file that is already there (never the games database itself)."""


@dataclass(frozen=True)
class Import(c.Command):
    name: ClassVar[str] = "import"
    path: str


@dataclass(frozen=True)
class Catalogue(c.Command):
    """What the pickers list: adversaries, scenarios, blight, fear and invader cards."""

    name: ClassVar[str] = "catalogue"


# --- the tag registry: what the RFID tags under the cards mean; no game needed -----------------


@dataclass(frozen=True)
class ListTags(c.Command):
    """Every enrolled tag, and how many cards of each kind have one."""

    name: ClassVar[str] = "tags"


@dataclass(frozen=True)
class LookUpTag(c.Command):
    name: ClassVar[str] = "tag_lookup"
    uid: str


@dataclass(frozen=True)
class EnrolTag(c.Command):
    name: ClassVar[str] = "tag_enrol"
    uid: str
    kind: str
    card: str
    replace: bool = False
    """Re-enrol a tag that already means something else."""


@dataclass(frozen=True)
class ForgetTag(c.Command):
    name: ClassVar[str] = "tag_forget"
    uid: str


@dataclass(frozen=True)
class ExportTags(c.Command):
    name: ClassVar[str] = "tag_export"
    path: str


@dataclass(frozen=True)
class ImportTags(c.Command):
    name: ClassVar[str] = "tag_import"
    path: str
    replace: bool = False
    """Re-enrol tags the file gives another meaning than they have now."""


@dataclass(frozen=True)
class RulesSearch(c.Command):
    """The rules lookup: entries whose words match `query`, best first."""

    name: ClassVar[str] = "rules_search"
    query: str
    lang: str | None = None
    """en, de or fr; the driver's language when not given."""
    limit: int = 10
    game: str | None = None
    """A game's id: only its entries (and those every game shares); every game's when not
    given."""


RULES_SEARCH_LIMIT = 50
RULES_QUERY_CHARACTERS = 200
"""A longer query is refused: nobody types more, and each word costs a search."""


def _rules_search_field(cmd: str, key: str, value: Any) -> Any:
    """rules_search's "game" names a game by its id (in the other commands, a saved game)."""
    if key == "game":
        return c.text(cmd, key, value, tuple(GAMES))
    if key == "lang":
        return c.text(cmd, key, value, LANGUAGES)
    if key == "limit":
        return c.whole_number(cmd, key, value, 1, RULES_SEARCH_LIMIT)
    query = c.text(cmd, key, value)
    if len(query) > RULES_QUERY_CHARACTERS:
        raise Refused(f"'{cmd}': {key} is too long (at most {RULES_QUERY_CHARACTERS} characters)")
    return query


TAG_REGISTRY_COMMANDS = (ListTags, LookUpTag, EnrolTag, ForgetTag, ExportTags, ImportTags)

SERVICE_COMMANDS: dict[str, type[c.Command]] = {
    **c.SESSION_COMMANDS,
    **{cls.name: cls for cls in (ListGames, Resume, Abandon, Delete, History, Stats,
                                 GameDetail, Export, Import, Catalogue, *TAG_REGISTRY_COMMANDS,
                                 RulesSearch)},
}
"""The commands every game shares: undo, redo and state, saved games, the tag registry, the
rules lookup."""


@dataclass
class Reply:
    events: list[Event] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    """Answers to questions about saved games and tags: `games`, `history`, `tags`, …"""


class GameService:
    def __init__(self, store: GameStore, seed_source: Callable[[], int]) -> None:
        self.store = store
        self._seed_source = seed_source
        self.session = GameSession(GAMES[DEFAULT_GAME], seed_source)
        self.game_id: int | None = None
        self.log_length = 0
        """The number of the loaded game's last logged command, as this session knows it: the
        store refuses an append to a log that another writer has made longer."""
        self.notices: list[str] = []
        """What a person should be told about opening the games (a game set aside, …)."""
        self.unreadable_games: list[int] = []
        """Games set aside on opening because their logs do not replay (kept, not resumed)."""
        self._rules_index: RulesIndex | None = None

    @property
    def state(self) -> State | None:
        return self.session.state

    @property
    def game(self) -> Game:
        """The game loaded (or last started); Spirit Island before any."""
        return self.session.game

    def parse(self, data: Any) -> c.Command:
        """One JSON object as a command: the shared ones here, the rest by the game's table
        (for new_game, the game its "game" field names; otherwise the game loaded)."""
        game = self.game
        if isinstance(data, dict) and data.get("cmd") == "new_game":
            requested = data.get("game")  # null means not given, as for every field
            game = game_named(DEFAULT_GAME if requested is None else requested)
            setup = {key: value for key, value in data.items() if key != "game"}
            return NewGameOf(game, game.parse_command(setup))
        registry = {**game.commands, **SERVICE_COMMANDS}
        name = data.get("cmd") if isinstance(data, dict) else None
        if isinstance(name, str) and name in game.commands:
            return game.parse_command(data)
        if name == RulesSearch.name:
            return c.parse_command(data, registry, _rules_search_field)
        return c.parse_command(data, registry)

    # --- resuming ---------------------------------------------------------------------------

    def resume_latest(self) -> bool:
        """Come back to the game the table was last playing, exactly where it was.

        A game whose log does not replay never stops the start: it is set aside (status
        "unreadable", its log kept for whoever wants to look) and the table starts without it.
        """
        game_id = self.store.current_game()
        if game_id is None:
            return False
        try:
            self._load(game_id)
        except GameNotReplayable as error:
            self._set_aside(game_id, error)
            return False
        return True

    def _set_aside(self, game_id: int, error: StoreError) -> None:
        log.error("%s", error)
        kept = "it was set aside (status \"unreadable\"); its log is kept"
        try:
            self.store.set_status(game_id, UNREADABLE)
            self.store.set_current(None)
        except StoreError as why:  # a read-only file: the game is simply not resumed
            kept = f"it was not resumed ({why})"
        self.unreadable_games.append(game_id)
        self.notices.append(f"{error}; {kept}. The other games can be played as before.")

    def _load(self, game_id: int) -> None:
        logged = self.store.load(game_id)
        try:
            game = game_named(logged.title)
            if logged.snapshot is not None:
                session = GameSession.from_snapshot(game, logged.snapshot, self._seed_source)
            else:
                session = GameSession(game, self._seed_source)
            for data in logged.commands:
                session.execute(parse_logged(game, data))
        except (Refused, ValueError, KeyError, TypeError) as error:
            raise GameNotReplayable(game_id, f"game {game_id} in {self.store.location} cannot "
                                    f"be replayed: {error}") from None
        self.session, self.game_id, self.log_length = session, game_id, logged.log_length

    # --- commands ---------------------------------------------------------------------------

    def handle(self, command: c.Command, translate: Translate = as_written) -> Reply:
        """Carry out one command; raises Refused (nothing changed) when it cannot be done.

        `translate` words the few texts an answer carries (a game's ending in `game_detail`).
        """
        try:
            if isinstance(command, Catalogue):
                return Reply(extra={"catalogue": self.game.catalogue()})
            if isinstance(command, RulesSearch):
                return Reply(extra={"rules": self._rules_search(command)})
            if isinstance(command, TAG_REGISTRY_COMMANDS):
                return Reply(extra=self._tag_registry(command))
            if isinstance(command, ListGames):
                return Reply(extra={"games": self.store.games()})
            if isinstance(command, History):
                return Reply(extra={"history": self.history()})
            if isinstance(command, Stats):
                return Reply(extra={"stats": self.stats()})
            if isinstance(command, GameDetail):
                return Reply(extra={"game_detail": self.game_detail(command.game, translate)})
            if isinstance(command, Resume):
                self.store.game(command.game)
                self._load(command.game)
                if self.store.read_only is None:  # a read-only file still lets games be seen
                    self.store.set_current(command.game)
                return Reply(extra={"game": command.game})
            if isinstance(command, Abandon):
                return self._abandon(command)
            if isinstance(command, Delete):
                return self._delete(command)
            if isinstance(command, Export):
                return Reply(extra={"exported": self._export(command)})
            if isinstance(command, Import):
                return Reply(extra={"imported": self._import(Path(command.path))})
            return self._play(command)
        except StoreError as error:
            raise Refused(str(error)) from None

    def _play(self, command: c.Command) -> Reply:
        before = self.session
        if isinstance(command, NewGameOf):
            if command.game is not self.game:
                self.session = GameSession(command.game, self._seed_source)
            command = command.setup
        checkpoint = self.session.checkpoint()
        try:
            events, logged = self.session.execute(command)
        except Refused:
            self.session = before  # a refused new game of another game leaves this one
            raise
        if logged is None:
            return Reply(events)
        try:
            self._save(logged)
        except StoreError:
            self.session.rollback(checkpoint)
            self.session = before
            raise
        except Exception as error:
            # Whatever went wrong while saving, the session must not keep a change the log
            # lacks: a later command would be logged on top of it and the log would no longer
            # replay.
            self.session.rollback(checkpoint)
            self.session = before
            log.exception("saving %r failed", logged)
            raise Refused(f"could not save this action to {self.store.location} "
                          f"({type(error).__name__}: {_short(error)}). Nothing was "
                          "changed") from None
        return Reply(events)

    def _save(self, logged: c.Command) -> None:
        state = self.session.state
        assert state is not None
        summary = self.game.summary(state)
        if isinstance(logged, self.game.new_game):
            self.game_id = self.store.create_game(logged_new_game(self.game, logged), summary)
            self.log_length = 1
            return
        assert self.game_id is not None
        self.store.append(self.game_id, self.game.command_to_dict(logged), summary,
                          self.session.snapshot, after=self.log_length)
        self.log_length += 1

    def _current_or(self, game: int | None) -> int:
        game_id = game if game is not None else self.game_id
        if game_id is None:
            raise Refused("no game is loaded: name one with \"game\"")
        return game_id

    def _abandon(self, command: Abandon) -> Reply:
        game_id = self._current_or(command.game)
        if self.store.game(game_id)["status"] == "finished":
            raise Refused(f"game {game_id} is finished; it stays in the history")
        self.store.set_status(game_id, "abandoned")
        if game_id == self.game_id:
            self.store.set_current(None)
            self.session, self.game_id = GameSession(self.game, self._seed_source), None
        return Reply(extra={"abandoned": game_id})

    def _delete(self, command: Delete) -> Reply:
        self.store.game(command.game)
        if not command.confirm:
            raise Refused(f"deleting game {command.game} cannot be undone: send "
                          "\"confirm\": true to delete it")
        self.store.delete_game(command.game)
        if command.game == self.game_id:
            self.store.set_current(None)
            self.session, self.game_id = GameSession(self.game, self._seed_source), None
        return Reply(extra={"deleted": command.game})

    # --- history and statistics -------------------------------------------------------------

    def history(self) -> list[dict[str, Any]]:
        finished = [g for g in self.store.games() if g["status"] == "finished"]
        return sorted(finished, key=lambda g: (g["finished_at"] or "", g["id"]), reverse=True)

    def stats(self) -> dict[str, Any]:
        """Finished games: played, won, the win rate and the average score, in all and for
        each game ("by_game", in the registry's order; a competitive game's are counted as
        played only); and, as ever, by adversary and level ("by_adversary")."""
        played = self.history()
        groups: dict[tuple[str | None, int | None], list[dict[str, Any]]] = {}
        for game in played:
            groups.setdefault((game["adversary"], game["adversary_level"]), []).append(game)
        by_title: dict[str, list[dict[str, Any]]] = {}
        for game in played:
            by_title.setdefault(game["title"], []).append(game)
        return {
            **_tally(played),
            "by_game": [{"game": title, "name": GAMES[title].name, **_tally(by_title[title])}
                        for title in GAMES if title in by_title],
            "by_adversary": [
                {"adversary": adversary, "level": level, **_tally(games)}
                for (adversary, level), games in sorted(
                    groups.items(), key=lambda item: (item[0][0] or "", item[0][1] or 0))
            ],
        }

    def game_detail(self, game_id: int, translate: Translate = as_written) -> dict[str, Any]:
        """The game's row, its outcome as the state shows it (null until it ends) and, replayed
        from its log, what each round brought: `per_round`."""
        row = self.store.game(game_id)
        try:
            game = game_named(row["title"])
            session = _replay(game, self.store.full_log(game_id), self._seed_source)
        except (Refused, ValueError, KeyError, TypeError) as error:
            raise Refused(f"game {game_id} in {self.store.location} cannot be replayed: "
                          f"{error}") from None
        assert session.state is not None
        return {**row, "outcome": game.view(session.state, translate)["outcome"],
                "per_round": game.rounds(session.course())}

    # --- the rules lookup -------------------------------------------------------------------

    def _rules_search(self, command: RulesSearch) -> list[dict[str, str]]:
        if self._rules_index is None:
            from .rules.search import RulesIndex  # the index is opened when first asked for

            try:
                self._rules_index = RulesIndex.open()  # cached on disk; rebuilt when it changed
            except CorpusError as error:
                raise Refused(f"the rules corpus is broken: {error}") from None
        hits = self._rules_index.search(command.query, command.lang or "en", command.limit,
                                        command.game)
        return [hit.to_dict() for hit in hits]

    # --- export and import ------------------------------------------------------------------

    def _export(self, command: Export) -> dict[str, Any]:
        game_id = self._current_or(command.game)
        row = self.store.game(game_id)
        game = game_named(row["title"])
        log = self.store.full_log(game_id)
        session = _replay(game, log, self._seed_source)
        assert session.state is not None
        document = {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "exported_at": datetime.now(UTC).isoformat(),
            "game": {k: v for k, v in row.items() if k != "id"},
            "setup": log[0],
            "log": log,
            "final_state": game.state_to_record(session.state),
        }
        path = Path(command.path).expanduser()
        self._write(path, json.dumps(document, indent=1) + "\n", command.overwrite)
        return {"game": game_id, "path": str(path), "commands": len(log)}

    def _write(self, path: Path, text: str, overwrite: bool) -> None:
        """Write a file the players asked for: whole or not at all, never over the games."""
        if self.store.is_own_file(path):
            raise Refused(f"{path} is the games database; an export must go to another file")
        try:
            write_atomically(path, text, overwrite)
        except FileExistsError:
            raise Refused(f"{path} already exists; send \"overwrite\": true to replace "
                          "it") from None
        except OSError as error:
            raise Refused(f"could not write {path}: {error.strerror}") from None

    def _import(self, path: Path) -> dict[str, Any]:
        try:
            document = json.loads(read_limited(path.expanduser()).decode("utf-8"))
        except (ValueError, RecursionError) as error:  # RecursionError: nested too deep
            reason = cut(str(error).partition("\n")[0])
            raise Refused(f"{cut(str(path))} is not a JSON file ({reason})") from None
        if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
            raise Refused(f"{path} is not an exported companion game")
        if document.get("version") != EXPORT_VERSION:
            raise Refused(f"{path} is an export of version {document.get('version')!r}; this "
                          f"companion reads version {EXPORT_VERSION}")
        log = document.get("log")
        if not isinstance(log, list) or not log:
            raise Refused(f"{path} holds no command log")
        if not isinstance(document.get("final_state"), dict):
            raise Refused(f"{path} holds no final state to check the replay against")
        dates = _exported_dates(path, document.get("game"))
        # The newest snapshot a game played here would have, the one resuming starts from. Only
        # that one: the older ones are never read, and each holds the commands before it, so all
        # of them would grow with the square of the log's length.
        newest = len(log) // SNAPSHOT_EVERY * SNAPSHOT_EVERY
        snapshots: dict[int, dict[str, Any]] = {}

        def keep_snapshot(seq: int, session: GameSession) -> None:
            if seq == newest:
                snapshots[seq] = session.snapshot()

        try:
            game = game_named(title_of(log[0]))
            session = _replay(game, log, self._seed_source, keep_snapshot)
            expected = game.state_from_record(document["final_state"])
        except (Refused, ValueError, KeyError, TypeError, AttributeError, IndexError) as error:
            raise Refused(f"{path} does not replay: {error}") from None
        if session.state != expected:
            raise Refused(f"{path} does not replay to the result it records; it was not "
                          "imported")
        assert session.state is not None
        summary = game.summary(session.state)
        game_id = self.store.import_game(log, summary, snapshots, dates)
        return {"game": game_id, "commands": len(log), "status": summary["status"]}


    # --- the tag registry -------------------------------------------------------------------

    def _tag_registry(self, command: c.Command) -> dict[str, Any]:
        if isinstance(command, ListTags):
            enrolled = {uid: _meaning(row) for uid, row in self.store.tags().items()}
            return {"tags": [_tag_view(uid, m) for uid, m in tags.sorted_tags(enrolled)],
                    "progress": tags.progress(enrolled.values(), tags.known_cards())}
        if isinstance(command, LookUpTag):
            uid = _uid(command.uid)
            row = self.store.tag(uid)
            return {"tag": _tag_view(uid, _meaning(row)) if row else None}
        if isinstance(command, EnrolTag):
            return self._enrol_tag(command)
        if isinstance(command, ForgetTag):
            uid = _uid(command.uid)
            row = self.store.tag(uid)
            if row is None:
                raise Refused(f"the tag {uid} is not enrolled, so there is nothing to forget")
            self.store.forget_tag(uid)
            return {"forgotten": _tag_view(uid, _meaning(row))}
        if isinstance(command, ExportTags):
            return {"exported": self._export_tags(Path(command.path).expanduser())}
        assert isinstance(command, ImportTags)
        return {"imported": self._import_tags(Path(command.path).expanduser(), command.replace)}

    def _enrol_tag(self, command: EnrolTag) -> dict[str, Any]:
        uid = _uid(command.uid)
        try:
            meaning = tags.check_meaning(command.kind, command.card, tags.known_cards())
        except ValueError as error:
            raise Refused(f"'tag_enrol': {error}") from None
        row = self.store.tag(uid)
        before = _meaning(row) if row else None
        if before == meaning:
            return {"tag": _tag_view(uid, meaning), "replaced": None}
        if before is not None and not command.replace:
            raise Refused(f"the tag {uid} already means {_describe(before)}; send "
                          f"\"replace\": true to make it mean {_describe(meaning)} instead")
        self.store.enrol_tag(uid, meaning.kind, meaning.card)
        return {"tag": _tag_view(uid, meaning),
                "replaced": _tag_view(uid, before) if before else None}

    def _export_tags(self, path: Path) -> dict[str, Any]:
        enrolled = {uid: _meaning(row) for uid, row in self.store.tags().items()}
        self._write(path, tags.tags_to_csv(enrolled), overwrite=True)
        return {"path": str(path), "count": len(enrolled)}

    def _import_tags(self, path: Path, replace: bool) -> dict[str, Any]:
        try:
            text = read_limited(path).decode("utf-8")
        except UnicodeDecodeError:
            raise Refused(f"{path} is not a UTF-8 text file; save it as CSV (UTF-8) and try "
                          "again") from None
        try:
            incoming = tags.tags_from_csv(text, tags.known_cards())
        except tags.TagFileError as error:
            raise Refused(f"{path}, {error}. Nothing was imported") from None
        try:
            replaced = self.store.replace_tags(
                {uid: {"kind": m.kind, "card": m.card} for uid, m in incoming.items()},
                replace_existing=replace)
        except TagsInUse as error:
            enrolled = self.store.tags()
            named = [f"{uid} (now {_describe(_meaning(enrolled[uid]))})"
                     for uid in error.uids[:3]]
            more = f" and {len(error.uids) - 3} more" if len(error.uids) > 3 else ""
            raise Refused(f"{path} gives a new meaning to tags already enrolled: "
                          f"{', '.join(named)}{more}. Nothing was imported; send "
                          "\"replace\": true to re-enrol them as the file says") from None
        return {"path": str(path), "count": len(incoming), "replaced": replaced}


def _short(error: Exception) -> str:
    return str(error).split("\n")[0][:160].encode("utf-8", "backslashreplace").decode()


def _uid(text: str) -> str:
    try:
        return tags.normalise_uid(text)
    except ValueError as error:
        raise Refused(str(error)) from None


def _meaning(row: dict[str, str]) -> tags.TagMeaning:
    return tags.TagMeaning(row["kind"], row["card"])


def _describe(meaning: tags.TagMeaning) -> str:
    if meaning.kind == "command":
        return f"the command '{tags.card_name(meaning)}'"
    return f"the {meaning.kind} card {tags.card_name(meaning)}"


def _tag_view(uid: str, meaning: tags.TagMeaning) -> dict[str, str]:
    return {"uid": uid, "kind": meaning.kind, "card": meaning.card,
            "name": tags.card_name(meaning)}


def _replay(game: Game, log: list[Any], seed_source: Callable[[], int],
            after_each: Callable[[int, GameSession], None] | None = None) -> GameSession:
    """The session a whole log gives; `after_each(n, session)` is called after the n-th."""
    session = GameSession(game, seed_source)
    first = parse_logged(game, log[0])
    seeded = "seed" in {f.name for f in fields(first)}
    if not isinstance(first, game.new_game) or seeded and getattr(first, "seed", None) is None:
        raise Refused("a game log must begin with new_game and its seed")
    if after_each is None:
        session.replay(parse_logged(game, data) for data in log)
        return session
    for seq, data in enumerate(log, start=1):
        session.execute(parse_logged(game, data))
        after_each(seq, session)
    return session


def _exported_dates(path: Path, row: Any) -> dict[str, Any]:
    """The exported game's dates and played time (the store's names), checked: a date that is
    there must be an ISO date and time with its zone, the duration a number of minutes."""
    row = row if isinstance(row, dict) else {}
    dates: dict[str, Any] = {}
    for key in ("started_at", "updated_at", "finished_at"):
        value = row.get(key)
        if value is None:
            continue
        try:
            when = datetime.fromisoformat(value) if isinstance(value, str) else None
        except ValueError:
            when = None
        if when is None or when.tzinfo is None:
            raise Refused(f"{cut(str(path))}: the game's {key} is not a date and time with its "
                          f"time zone ({cut(repr(value))}); it was not imported")
        dates[key] = when.isoformat()
    minutes = row.get("duration_minutes")
    if minutes is not None:
        if isinstance(minutes, bool) or not isinstance(minutes, int | float) \
                or not 0 <= minutes < 1e8:
            raise Refused(f"{cut(str(path))}: the game's duration_minutes is not a number of "
                          f"minutes ({cut(repr(minutes))}); it was not imported")
        dates["played_seconds"] = minutes * 60.0
    return dates


def logged_new_game(game: Game, command: c.Command) -> dict[str, Any]:
    """A new_game as the log keeps it: naming its game, unless it is the first game, whose
    logs stay exactly as they were before there were others (`title_of` reads it back)."""
    data = game.command_to_dict(command)
    return data if game.id == DEFAULT_GAME else {"cmd": data.pop("cmd"), "game": game.id, **data}


def parse_logged(game: Game, data: Any) -> c.Command:
    """A logged command of `game` (a new_game's "game" field, which chose the game, left out)."""
    if isinstance(data, dict) and data.get("cmd") == "new_game":
        data = {key: value for key, value in data.items() if key != "game"}
    return game.parse_command(data)


def won(game: dict[str, Any]) -> bool | None:
    """Whether a finished game was won, as its game counts it (None: nobody wins together)."""
    found = GAMES.get(game["title"])
    return found.history.won(game) if found else None


def _tally(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Played, won and the win rate (of the games that can be won together), average score."""
    results = [won(g) for g in games]
    winnable = [result for result in results if result is not None]
    wins = sum(1 for result in winnable if result)
    scores = [g["score"] for g in games if g["score"] is not None]
    return {
        "games_played": len(games),
        "wins": wins,
        "win_rate": round(wins / len(winnable), 3) if winnable else None,
        "average_score": round(sum(scores) / len(scores), 1) if scores else None,
    }
