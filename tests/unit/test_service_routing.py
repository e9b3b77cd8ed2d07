"""The service's dispatcher: the composition root gives it one handler per concern, and each
shared command reaches its handler and nothing else; a service built without a concern's handler
refuses that concern's commands and keeps playing."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from companion.bootstrap import wired_service
from companion.core import commands as c
from companion.core.errors import Refused
from companion.core.phrases import Translate
from companion.game_archive import Export, Import
from companion.rules_commands import RulesSearch
from companion.saved_games import Abandon, Delete, GameDetail, History, ListGames, Resume, Stats
from companion.service import SERVICE_COMMANDS, GameService
from companion.store import GameStore
from companion.tag_commands import TAG_REGISTRY_COMMANDS

CONCERNS: dict[str, tuple[type[c.Command], ...]] = {
    "saved games": (ListGames, Resume, Abandon, Delete, History, Stats, GameDetail),
    "archive": (Export, Import),
    "tags": TAG_REGISTRY_COMMANDS,
    "rules": (RulesSearch,),
}


class Recording:
    """A handler that answers its commands with their name and remembers them."""

    commands: ClassVar[tuple[type[c.Command], ...]] = ()

    def __init__(self, commands: tuple[type[c.Command], ...]) -> None:
        self.commands = commands  # type: ignore[misc]  # per instance, as the test needs
        self.asked: list[str] = []

    def handle(self, command: c.Command, translate: Translate) -> dict[str, Any]:
        self.asked.append(command.name)
        return {"answered": command.name}


def test_the_composition_root_wires_a_handler_for_every_shared_command() -> None:
    service = wired_service(GameStore.in_memory(), seed_source=lambda: 3)
    handled = {cls for handler in service._handlers for cls in handler.commands}
    not_played = {cls for cls in SERVICE_COMMANDS.values()
                  if cls not in c.SESSION_COMMANDS.values() and cls.name != "catalogue"}
    assert not_played <= handled
    assert {cls for classes in CONCERNS.values() for cls in classes} == not_played


def test_each_concern_s_commands_reach_its_handler_only() -> None:
    service = GameService(GameStore.in_memory(), seed_source=lambda: 3)
    handlers = {concern: Recording(classes) for concern, classes in CONCERNS.items()}
    service.answer_with(*handlers.values())
    service.handle(service.parse({"cmd": "new_game", "players": 1, "seed": 2}))
    for concern, classes in CONCERNS.items():
        for cls in classes:
            reply = service.handle(service.parse(_fields_for(cls)))
            assert reply.extra == {"answered": cls.name}
        assert handlers[concern].asked == [cls.name for cls in classes]


def test_a_service_without_a_concern_s_handler_refuses_it_and_plays_on() -> None:
    service = GameService(GameStore.in_memory(), seed_source=lambda: 3)
    service.handle(service.parse({"cmd": "new_game", "players": 1, "seed": 2}))
    with pytest.raises(Refused, match="without its handler"):
        service.handle(service.parse({"cmd": "history"}))
    service.handle(service.parse({"cmd": "fear", "amount": 1}))
    assert service.state is not None and service.game_id == 1


def _fields_for(cls: type[c.Command]) -> dict[str, Any]:
    """The smallest JSON of `cls` that parses."""
    examples: dict[str, dict[str, Any]] = {
        "resume": {"game": 1}, "abandon": {}, "delete": {"game": 1},
        "game_detail": {"game": 1}, "export": {"path": "/nowhere.json"},
        "import": {"path": "/nowhere.json"}, "rules_search": {"query": "fear"},
        "tag_lookup": {"uid": "04A1"}, "tag_forget": {"uid": "04A1"},
        "tag_enrol": {"uid": "04A1", "kind": "fear", "card": "x"},
        "tag_export": {"path": "/nowhere.json"}, "tag_import": {"path": "/nowhere.json"},
    }
    return {"cmd": cls.name, **examples.get(cls.name, {})}
