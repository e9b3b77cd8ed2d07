"""The tag registry's commands through their handler straight, over a real database file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.core.errors import Refused
from companion.core.phrases import as_written
from companion.store import GameStore
from companion.tag_commands import (
    EnrolTag,
    ExportTags,
    ForgetTag,
    ImportTags,
    ListTags,
    LookUpTag,
    TagCommands,
)

JUNGLE = {"uid": "04A22B1C", "kind": "invader", "card": "I-jungle", "name": "Jungle (stage I)"}
UNDO = {"uid": "55667788", "kind": "command", "card": "undo", "name": "Undo"}


@pytest.fixture
def registry(tmp_path: Path) -> TagCommands:
    store, _ = GameStore.open(tmp_path / "games.sqlite3")
    return TagCommands(store)


def ask(registry: TagCommands, command: Any) -> dict[str, Any]:
    return registry.handle(command, as_written)


def test_an_enrolled_tag_is_listed_counted_and_looked_up_by_any_spelling(
        registry: TagCommands) -> None:
    answer = ask(registry, EnrolTag("04:a2:2b:1c", "invader", "I-jungle"))
    assert answer == {"tag": JUNGLE, "replaced": None}
    assert ask(registry, LookUpTag("04 A2 2B 1C")) == {"tag": JUNGLE}
    listed = ask(registry, ListTags())
    assert listed["tags"] == [JUNGLE] and listed["progress"]["invader"][0] == 1
    assert ask(registry, LookUpTag("0A0B0C0D")) == {"tag": None}


def test_a_tag_meaning_something_else_is_re_enrolled_only_when_asked(
        registry: TagCommands) -> None:
    ask(registry, EnrolTag("04A22B1C", "invader", "I-jungle"))
    with pytest.raises(Refused, match="already means the invader card Jungle \\(stage I\\)"):
        ask(registry, EnrolTag("04A22B1C", "command", "undo"))
    answer = ask(registry, EnrolTag("04A22B1C", "command", "undo", replace=True))
    assert answer["replaced"] == JUNGLE and answer["tag"]["card"] == "undo"


@pytest.mark.parametrize(("uid", "kind", "card", "reason"), [
    ("04A2", "invader", "I-jungle", "'04A2' is not a tag UID"),
    ("04A22B1C", "spirit", "I-jungle", "not a kind of tag"),
    ("04A22B1C", "invader", "I-jungel", "did you mean 'I-jungle'"),
])
def test_a_tag_is_not_enrolled_to_something_that_is_not_a_card(
        registry: TagCommands, uid: str, kind: str, card: str, reason: str) -> None:
    with pytest.raises(Refused, match=reason):
        ask(registry, EnrolTag(uid, kind, card))
    assert ask(registry, ListTags())["tags"] == []


def test_forgetting_a_tag_says_what_it_meant_and_an_unknown_one_is_refused(
        registry: TagCommands) -> None:
    ask(registry, EnrolTag("55667788", "command", "undo"))
    assert ask(registry, ForgetTag("55667788")) == {"forgotten": UNDO}
    with pytest.raises(Refused, match="is not enrolled, so there is nothing to forget"):
        ask(registry, ForgetTag("55667788"))


def test_exported_tags_import_into_another_registry(registry: TagCommands,
                                                    tmp_path: Path) -> None:
    ask(registry, EnrolTag("04A22B1C", "invader", "I-jungle"))
    ask(registry, EnrolTag("55667788", "command", "undo"))
    path = tmp_path / "tags.csv"
    assert ask(registry, ExportTags(str(path))) == {"exported": {"path": str(path), "count": 2}}
    other, _ = GameStore.open(tmp_path / "other.sqlite3")
    imported = ask(TagCommands(other), ImportTags(str(path)))["imported"]
    assert imported == {"path": str(path), "count": 2, "replaced": 0}
    assert ask(TagCommands(other), ListTags())["tags"] == [JUNGLE, UNDO]


def test_an_import_that_would_change_a_tags_meaning_needs_replace(registry: TagCommands,
                                                                  tmp_path: Path) -> None:
    path = tmp_path / "tags.csv"
    path.write_text("uid,kind,card\n04A22B1C,command,undo\n")
    ask(registry, EnrolTag("04A22B1C", "invader", "I-jungle"))
    with pytest.raises(Refused, match="gives a new meaning to tags already enrolled: 04A22B1C "
                                      "\\(now the invader card Jungle \\(stage I\\)\\)"):
        ask(registry, ImportTags(str(path)))
    assert ask(registry, ImportTags(str(path), replace=True))["imported"]["replaced"] == 1
    assert ask(registry, LookUpTag("04A22B1C"))["tag"]["card"] == "undo"


def test_a_tag_file_that_is_not_utf8_or_not_a_tag_file_imports_nothing(
        registry: TagCommands, tmp_path: Path) -> None:
    latin = tmp_path / "latin.csv"
    latin.write_bytes("uid,kind,card\n04A22B1C,invader,caf\xe9\n".encode("latin-1"))
    with pytest.raises(Refused, match="is not a UTF-8 text file"):
        ask(registry, ImportTags(str(latin)))
    headless = tmp_path / "headless.csv"
    headless.write_text("04A22B1C,invader,I-jungle\n")
    with pytest.raises(Refused, match="Nothing was imported"):
        ask(registry, ImportTags(str(headless)))
    assert ask(registry, ListTags())["tags"] == []
