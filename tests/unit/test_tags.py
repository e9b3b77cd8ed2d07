"""The tag registry's rules: UIDs, meanings checked against the catalogue, the CSV file."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.registry import GAMES
from companion.games.spirit_island.catalogue import catalogue
from companion.i18n import translations
from companion.reader.tags import (
    CARD_KINDS,
    TAG_COMMANDS,
    TAG_KINDS,
    TagFileError,
    TagMeaning,
    card_name,
    check_meaning,
    kinds,
    known_cards,
    normalise_uid,
    progress,
    tags_from_csv,
    tags_to_csv,
)

CARDS = known_cards()


# --- UIDs -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "uid"),
    [
        ("04a22b1c", "04A22B1C"),
        ("04:A2:2B:1C", "04A22B1C"),
        ("04-a2-2b-1c", "04A22B1C"),
        ("04 A2 2B 1C", "04A22B1C"),
        ("  04A22B1C\n", "04A22B1C"),
        ("0102030405", "0102030405"),
        ("04:11:22:33:44:55:66", "04112233445566"),
        ("00112233445566778899", "00112233445566778899"),
    ],
)
def test_a_uid_is_upper_case_hex_without_separators(text: str, uid: str) -> None:
    assert normalise_uid(text) == uid


@pytest.mark.parametrize(
    "text",
    ["", "04A22B", "04A22B1C0", "04A22B1C00112233", "04A22B1G", "0x04A22B1C", "04_A2_2B_1C",
     "04A22B1C" * 3],
)
def test_anything_but_8_10_14_or_20_hex_digits_is_not_a_uid(text: str) -> None:
    with pytest.raises(ValueError, match="is not a tag UID"):
        normalise_uid(text)


# --- meanings ---------------------------------------------------------------------------------


def test_the_known_cards_are_spirit_islands_invader_fear_and_blight_cards_then_the_others(
) -> None:
    data = catalogue()
    assert CARDS["invader"] == [card["id"] for card in data["invader_cards"]]
    assert set(CARDS["fear"]) == {card["id"] for cards in data["fear_cards"].values()
                                  for card in cards}
    assert set(CARDS["blight"]) == {card["id"] for cards in data["blight_cards"].values()
                                    for card in cards}
    assert list(CARDS) == ["invader", "fear", "blight", "threat", "weakness", "companion"]


def test_the_kinds_are_each_games_in_the_registrys_order_then_the_shared_command() -> None:
    assert TAG_KINDS == ("invader", "fear", "blight", "threat", "weakness", "companion",
                         "command")
    assert CARD_KINDS == ("invader", "fear", "blight", "threat", "weakness", "companion")
    assert list(kinds()) == list(TAG_KINDS)
    assert kinds()["threat"].many == "threat cards"
    assert kinds()["command"].label == "Command"


def test_each_games_named_kinds_are_the_kinds_of_its_cards() -> None:
    for game in GAMES.values():
        assert list(game.tag_kinds) == list(game.tag_cards()), game.id


def test_leviathan_wilds_has_17_times_5_threat_cards_and_its_12_weakness_cards() -> None:
    assert len(CARDS["threat"]) == 17 * 5 == len(set(CARDS["threat"]))
    assert CARDS["threat"][:6] == [*(f"LW-threat-1-{n}" for n in range(1, 6)), "LW-threat-2-1"]
    assert CARDS["threat"][-1] == "LW-threat-17-5"
    assert CARDS["weakness"] == [f"LW-weakness-{n}" for n in range(1, 13)]


@pytest.mark.parametrize(
    ("meaning", "lang", "name"),
    [
        (TagMeaning("threat", "LW-threat-3-2"), "en", "3 Storm · threat 2"),
        (TagMeaning("threat", "LW-threat-17-5"), "en", "17 Tyrant · threat 5"),
        (TagMeaning("threat", "LW-threat-3-2"), "de", "3 Storm · Bedrohung 2"),
        (TagMeaning("threat", "LW-threat-1-4"), "fr", "1 Sage · menace 4"),
        (TagMeaning("weakness", "LW-weakness-7"), "en", "Weakness 7"),
        (TagMeaning("weakness", "LW-weakness-12"), "de", "Schwäche 12"),
        (TagMeaning("weakness", "LW-weakness-1"), "fr", "Faiblesse 1"),
    ],
)
def test_a_leviathan_card_is_named_by_its_leviathan_or_its_number_in_each_language(
        meaning: TagMeaning, lang: str, name: str) -> None:
    assert card_name(meaning, translations(lang).gettext) == name


@pytest.mark.parametrize(
    ("kind", "card", "reason"),
    [("threat", "LW-threat-18-1", "not a threat card id; did you mean"),
     ("threat", "LW-weakness-1", "'LW-weakness-1' is not a threat card id"),
     ("weakness", "LW-weakness-13", "not a weakness card id"),
     ("weakness", "I-jungle", "'I-jungle' is not a weakness card id")],
)
def test_a_leviathan_tag_names_one_of_its_kinds_cards(kind: str, card: str, reason: str) -> None:
    assert check_meaning("threat", "LW-threat-3-2", CARDS) == TagMeaning("threat",
                                                                          "LW-threat-3-2")
    with pytest.raises(ValueError, match=reason):
        check_meaning(kind, card, CARDS)


@pytest.mark.parametrize(
    ("kind", "card"),
    [("invader", "I-jungle"), ("invader", "III-sands-wetland"), ("fear", "avoid-the-dahan"),
     ("blight", "downward-spiral"), *(("command", command) for command in TAG_COMMANDS)],
)
def test_a_tag_may_name_any_catalogue_card_of_its_kind_or_a_command(kind: str,
                                                                    card: str) -> None:
    assert check_meaning(kind, card, CARDS) == TagMeaning(kind, card)


@pytest.mark.parametrize(
    ("kind", "card", "reason"),
    [
        ("spirit", "I-jungle", "'spirit' is not a kind of tag; the kinds are invader, fear"),
        ("invader", "I-jungel", "not an invader card id; did you mean 'I-jungle'"),
        ("fear", "I-jungle", "'I-jungle' is not a fear card id"),
        ("blight", "avoid-the-dahan", "not a blight card id"),
        ("command", "skip", "command tags are done, undo, redo"),
        ("invader", "", "'' is not an invader card id"),
    ],
)
def test_a_meaning_outside_the_catalogue_is_refused_with_what_to_do(kind: str, card: str,
                                                                    reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        check_meaning(kind, card, CARDS)


@pytest.mark.parametrize(
    ("meaning", "name"),
    [
        (TagMeaning("invader", "I-jungle"), "Jungle (stage I)"),
        (TagMeaning("invader", "II-coastal"), "Coastal Lands (stage II)"),
        (TagMeaning("invader", "III-jungle-mountain"), "Jungle + Mountain (stage III)"),
        (TagMeaning("invader", "S-wave-of-immigration"), "Wave of Immigration"),
        (TagMeaning("fear", "avoid-the-dahan"), "Avoid the Dahan"),
        (TagMeaning("blight", "downward-spiral"), "Downward Spiral"),
        (TagMeaning("command", "done"), "Finish the step"),
        (TagMeaning("command", "undo"), "Undo"),
        (TagMeaning("fear", "a-card-from-a-later-version"), "a-card-from-a-later-version"),
    ],
)
def test_each_meaning_has_a_name_players_know(meaning: TagMeaning, name: str) -> None:
    assert card_name(meaning) == name


def test_progress_counts_distinct_cards_with_a_tag_of_all_the_catalogue_has() -> None:
    enrolled = [TagMeaning("invader", "I-jungle"), TagMeaning("invader", "I-jungle"),
                TagMeaning("invader", "II-coastal"), TagMeaning("fear", "avoid-the-dahan"),
                TagMeaning("command", "done")]
    assert progress(enrolled, CARDS) == {
        "invader": [2, len(CARDS["invader"])],
        "fear": [1, len(CARDS["fear"])],
        "blight": [0, len(CARDS["blight"])],
        "threat": [0, 85],
        "weakness": [0, 12],
        "companion": [0, 46],
    }


def test_progress_counts_every_games_kinds() -> None:
    enrolled = [TagMeaning("threat", "LW-threat-3-2"), TagMeaning("threat", "LW-threat-3-2"),
                TagMeaning("threat", "LW-threat-17-5"), TagMeaning("weakness", "LW-weakness-1")]
    counts = progress(enrolled, CARDS)
    assert (counts["threat"], counts["weakness"], counts["invader"]) == (
        [2, 85], [1, 12], [0, len(CARDS["invader"])])


# --- the CSV file -----------------------------------------------------------------------------

SAMPLE = {
    "04A22B1C": TagMeaning("invader", "III-jungle-sands"),
    "04112233445566": TagMeaning("invader", "I-jungle"),
    "0A0B0C0D": TagMeaning("invader", "I-jungle"),
    "11223344": TagMeaning("command", "done"),
    "55667788": TagMeaning("blight", "downward-spiral"),
    "99AABBCC": TagMeaning("fear", "avoid-the-dahan"),
}


def test_a_written_file_reads_back_to_the_same_tags() -> None:
    assert tags_from_csv(tags_to_csv(SAMPLE), CARDS) == SAMPLE


def test_a_written_file_lists_kind_then_card_then_uid_with_each_cards_name() -> None:
    assert tags_to_csv(SAMPLE).splitlines() == [
        "uid,kind,card,name",
        "04112233445566,invader,I-jungle,Jungle (stage I)",
        "0A0B0C0D,invader,I-jungle,Jungle (stage I)",
        "04A22B1C,invader,III-jungle-sands,Jungle + Sands (stage III)",
        "99AABBCC,fear,avoid-the-dahan,Avoid the Dahan",
        "55667788,blight,downward-spiral,Downward Spiral",
        "11223344,command,done,Finish the step",
    ]


def test_an_empty_registry_writes_just_the_header() -> None:
    assert tags_to_csv({}) == "uid,kind,card,name\n"
    assert tags_from_csv("uid,kind,card,name\n", CARDS) == {}


def test_the_example_file_in_hardware_imports_and_exports_unchanged() -> None:
    example = (Path(__file__).resolve().parents[2] / "hardware" / "tags-example.csv").read_text()
    assert tags_to_csv(tags_from_csv(example, CARDS)) == example


def test_a_byte_order_mark_before_the_header_is_ignored() -> None:
    text = "\ufeffuid,kind,card\r\n04A22B1C,invader,I-jungle\r\n"
    assert tags_from_csv(text, CARDS) == {"04A22B1C": TagMeaning("invader", "I-jungle")}


def test_a_hand_written_file_may_reorder_columns_add_notes_and_skip_lines() -> None:
    text = ("Card, UID ,Kind,Note\n"
            "I-jungle,04:a2:2b:1c,invader,the spare one\n"
            "\n"
            ",,,\n"
            "undo,11-22-33-44,Command\n")
    assert tags_from_csv(text, CARDS) == {"04A22B1C": TagMeaning("invader", "I-jungle"),
                                          "11223344": TagMeaning("command", "undo")}


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("", 1, "the header lacks uid, kind, card"),
        ("04A22B1C,invader,I-jungle\n", 1, "the header lacks uid, kind, card"),
        ("uid,card,name\n04A22B1C,I-jungle,Jungle\n", 1, "the header lacks kind;"),
        ("uid,kind,card\n04A22B1C,invader,I-jungle\n04A22B,invader,I-sands\n", 3,
         "'04A22B' is not a tag UID"),
        ("uid,kind,card\n04A22B1C,invader\n", 2, "'' is not an invader card id"),
        ("uid,kind,card\n04A22B1C,invader,I-jungle\n\n11223344,spirit,river\n", 4,
         "'spirit' is not a kind of tag"),
        ("uid,kind,card\n04A22B1C,fear,not-a-fear-card\n", 2,
         "'not-a-fear-card' is not a fear card id"),
        ("uid,kind,card\n04A22B1C,invader,I-jungle\n11223344,fear,avoid-the-dahan\n"
         "04:a2:2b:1c,invader,I-sands\n", 4, "the tag 04A22B1C is already listed on line 2"),
        ('uid,kind,card,name\n0A0B0C0D,invader,I-jungle,"a note\nover two lines"\n'
         "04A22B1C,blight,nope\n", 4, "'nope' is not a blight card id"),
        ("uid,kind,card\n04A22B1C,invader," + "x" * 200_000 + "\n", 2, "not a CSV line"),
    ],
    ids=["empty", "no-header", "missing-column", "bad-uid", "missing-card", "unknown-kind",
         "unknown-card", "uid-twice", "line-after-a-multi-line-cell", "unsplittable"],
)
def test_a_bad_file_is_refused_naming_the_first_line_to_fix(text: str, line: int,
                                                            reason: str) -> None:
    with pytest.raises(TagFileError, match=f"^line {line}: .*{reason}") as raised:
        tags_from_csv(text, CARDS)
    assert raised.value.line == line
