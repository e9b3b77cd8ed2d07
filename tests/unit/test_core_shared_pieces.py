"""The pieces of core every game's model uses alike: its record, its numbers file, its view's
messages, its `Game` built from its listing and its model API, and the commands no rules decide."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest

from companion.core.commands import Command, Redo, ShowState, Undo, outside_the_rules
from companion.core.errors import Refused
from companion.core.game import Game, GameListing, Setting, TagKind, model_fields
from companion.core.numbers_file import load_numbers, unverified
from companion.core.phrases import Phrase, message
from companion.core.records import check_version, json_ready, versioned_record


@dataclass(frozen=True)
class Seat:
    name: str
    dice: tuple[int, ...]


@dataclass(frozen=True)
class Table:
    seats: tuple[Seat, ...]
    scores: dict[str, tuple[int, int]]
    winner: str | None = None


def test_a_record_is_the_state_as_json_reads_it_back_with_its_version() -> None:
    state = Table((Seat("Ann", (1, 6)), Seat("Bo", ())), {"Ann": (3, 4)})
    record = versioned_record(state, 7)
    assert record == {"seats": [{"name": "Ann", "dice": [1, 6]}, {"name": "Bo", "dice": []}],
                      "scores": {"Ann": [3, 4]}, "winner": None, "v": 7}
    assert json.loads(json.dumps(record)) == record


def test_json_ready_turns_tuples_into_lists_at_every_depth_and_leaves_the_rest() -> None:
    assert json_ready({"a": ((1, 2), [3, (4,)]), "b": "text", "c": None}) == {
        "a": [[1, 2], [3, [4]]], "b": "text", "c": None}


def test_a_record_of_another_version_is_refused_naming_the_game() -> None:
    check_version({"v": 2}, 2, "Tally")
    with pytest.raises(ValueError, match="unknown Tally record version 3"):
        check_version({"v": 3}, 2, "Tally")
    with pytest.raises(ValueError, match="unknown Tally record version None"):
        check_version({}, 2, "Tally")


def test_the_numbers_file_lists_each_unverified_table_with_its_note_in_order(
        tmp_path: Path) -> None:
    path = tmp_path / "numbers.toml"
    path.write_text('[setup]\nstart = 3\n\n[track]\nverified = false\nnote = "a blurred photo"\n'
                    'length = 40\n\n[track.bonus]\nverified = false\nspaces = [5, 10]\n\n'
                    '[deck]\nverified = true\nsize = 12\n', encoding="utf-8")
    numbers = load_numbers(path)
    assert numbers["track"]["bonus"]["spaces"] == [5, 10]
    assert unverified(numbers) == [("track", "a blurred photo"), ("track.bonus", "")]


def test_a_whole_file_marked_unverified_is_named_by_the_empty_name() -> None:
    assert unverified({"verified": False, "note": "all of it"}) == [("", "all of it")]


def test_a_message_gives_its_id_the_text_translated_and_the_values_as_written() -> None:
    table = {"greet": "{who} scores {points}"}
    french = {"{who} scores {points}": "{who} marque {points}", "the winner": "le gagnant"}
    shown = message(table, "greet", lambda text: french.get(text, text),
                    who=Phrase("the winner"), points=12)
    assert shown == {"id": "greet", "text": "le gagnant marque 12",
                     "values": {"who": "the winner", "points": 12}}
    assert message(table, "greet", who="Ann", points=3)["text"] == "Ann scores 3"


@dataclass(frozen=True)
class Begin(Command):
    name: ClassVar[str] = "begin"
    seed: int | None = None


@dataclass(frozen=True)
class Score(Command):
    """A game's own command: its rules decide it."""

    name: ClassVar[str] = "score"


@pytest.mark.parametrize("command", [Undo(), Redo()])
def test_undo_and_redo_are_the_sessions_and_refused_by_the_rules(command: Command) -> None:
    with pytest.raises(Refused, match=f"{command.name} is kept by the session"):
        outside_the_rules(command, Begin)


def test_state_changes_nothing_a_start_inside_a_game_is_refused_the_rest_is_the_rules() -> None:
    assert outside_the_rules(ShowState(), Begin) is True
    with pytest.raises(Refused, match="not inside a running game"):
        outside_the_rules(Begin(), Begin)
    assert outside_the_rules(Score(), Begin) is False


def _api(drawn: list[int | None]) -> Any:
    def start(command: Begin, seed: int) -> tuple[str, list[Any]]:
        drawn.append(seed)
        return "started", []

    return SimpleNamespace(
        COMMANDS={"begin": Begin}, NewGame=Begin, parse_command=lambda raw: Begin(),
        command_to_dict=lambda command: {"cmd": "begin"}, start=start,
        decide=lambda state, command: (state, []), view=lambda state, translate: {},
        state_to_record=lambda state: {"v": 1}, state_from_record=lambda record: "started",
        setup_checklist=lambda state, translate: [("deal", translate("Deal the cards"))])


def test_a_game_built_from_its_listing_and_model_api_plays_with_the_recorded_seed() -> None:
    drawn: list[int | None] = []
    listing = GameListing(
        id="tally", name="Tally", definition="", settings=(Setting("tally/x", "switch", "X"),),
        tag_kinds={"chip": TagKind("Chip", "chip", "chips")}, catalogue_domains=("tally",),
        rules_corpus="/rules/of/tally")
    game = Game(**listing.fields(), **model_fields(_api(drawn)), summary=lambda state: {},
                rounds=lambda course: [], catalogue=dict, public_view=lambda view: view)
    assert GameListing.of(game) == GameListing(
        id="tally", name="Tally", definition="", settings=listing.settings,
        tag_kinds=listing.tag_kinds, catalogue_domains=("tally",), rules_corpus="/rules/of/tally")
    assert game.commands == {"begin": Begin} and game.new_game is Begin
    assert game.start(Begin(seed=42)) == ("started", [])
    assert game.start(Begin()) == ("started", [])
    assert drawn == [42, 0]
    assert game.setup_checklist("started", str.upper) == [{"id": "deal",
                                                           "text": "DEAL THE CARDS"}]


def test_a_flag_is_json_s_true_or_false_and_a_list_holds_its_bounds() -> None:
    from companion.core.commands import entries, flag

    assert flag("join", "ready", True) is True
    for wrong in (1, "yes", None):
        with pytest.raises(Refused, match="ready must be true or false"):
            flag("join", "ready", wrong)
    assert entries("deal", "cards", [1, 2], 1, 3) == [1, 2]
    with pytest.raises(Refused, match="cards must be a list, not 'ab'"):
        entries("deal", "cards", "ab", 1, 3)
    with pytest.raises(Refused, match="must hold 1 to 3 entries, not 4"):
        entries("deal", "cards", [1, 2, 3, 4], 1, 3)
