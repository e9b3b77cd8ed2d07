"""The tag registry in a real database file, through the driver's JSON commands."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlite_utils import Database

from companion.bootstrap import wired_service
from companion.driver import ScriptDriver
from companion.store import GameStore
from companion.store_errors import TagsInUse
from companion.store_schema import APPLICATION_ID, SCHEMA_VERSION, migrations
from tests.table_player import driver_on

ROOT = Path(__file__).resolve().parents[2]


def ask(driver: ScriptDriver, cmd: str, **fields: Any) -> dict[str, Any]:
    return driver.handle({"cmd": cmd, **fields})


def ok(driver: ScriptDriver, cmd: str, **fields: Any) -> dict[str, Any]:
    answer = ask(driver, cmd, **fields)
    assert answer["ok"], answer["error"]
    return answer


def registry(driver: ScriptDriver) -> list[dict[str, str]]:
    tags: list[dict[str, str]] = ok(driver, "tags")["tags"]
    return tags


@pytest.fixture
def driver(tmp_path: Path) -> ScriptDriver:
    return driver_on(tmp_path / "games.sqlite3")


JUNGLE = {"uid": "04A22B1C", "kind": "invader", "card": "I-jungle", "name": "Jungle (stage I)"}


# --- enrol, look up, forget -------------------------------------------------------------------


def test_an_enrolled_tag_is_looked_up_by_any_spelling_of_its_uid(driver: ScriptDriver) -> None:
    answer = ok(driver, "tag_enrol", uid="04:a2:2b:1c", kind="invader", card="I-jungle")
    assert answer["tag"] == JUNGLE and answer["replaced"] is None
    assert ok(driver, "tag_lookup", uid="04 A2 2B 1C")["tag"] == JUNGLE
    assert ok(driver, "tag_lookup", uid="0A0B0C0D")["tag"] is None


def test_a_forgotten_tag_is_no_longer_known(driver: ScriptDriver) -> None:
    ok(driver, "tag_enrol", uid="04A22B1C", kind="invader", card="I-jungle")
    assert ok(driver, "tag_forget", uid="04-a2-2b-1c")["forgotten"] == JUNGLE
    assert ok(driver, "tag_lookup", uid="04A22B1C")["tag"] is None
    refused = ask(driver, "tag_forget", uid="04A22B1C")
    assert not refused["ok"] and "04A22B1C is not enrolled" in refused["error"]


def test_enrolling_a_tag_to_its_own_card_again_changes_nothing(driver: ScriptDriver) -> None:
    ok(driver, "tag_enrol", uid="04A22B1C", kind="invader", card="I-jungle")
    first = driver.service.store.tags()
    answer = ok(driver, "tag_enrol", uid="04A22B1C", kind="invader", card="I-jungle")
    assert answer["tag"] == JUNGLE and answer["replaced"] is None
    assert driver.service.store.tags() == first


def test_a_tag_that_means_another_card_is_only_re_enrolled_with_replace(
    driver: ScriptDriver,
) -> None:
    ok(driver, "tag_enrol", uid="04A22B1C", kind="invader", card="I-jungle")
    refused = ask(driver, "tag_enrol", uid="04A22B1C", kind="fear", card="avoid-the-dahan")
    assert not refused["ok"]
    assert "already means the invader card Jungle (stage I)" in refused["error"]
    assert '"replace": true' in refused["error"]
    assert registry(driver) == [JUNGLE]
    answer = ok(driver, "tag_enrol", uid="04A22B1C", kind="fear", card="avoid-the-dahan",
                replace=True)
    assert answer["replaced"] == JUNGLE
    assert registry(driver) == [{"uid": "04A22B1C", "kind": "fear", "card": "avoid-the-dahan",
                                 "name": "Avoid the Dahan"}]


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"uid": "04A2", "kind": "invader", "card": "I-jungle"}, "'04A2' is not a tag UID"),
        ({"uid": "04A22B1C", "kind": "spirit", "card": "I-jungle"}, "not a kind of tag"),
        ({"uid": "04A22B1C", "kind": "invader", "card": "I-jungel"}, "did you mean 'I-jungle'"),
        ({"uid": "04A22B1C", "kind": "command", "card": "pass"}, "done, undo, redo"),
        ({"uid": "04A22B1C", "kind": "invader", "card": "I-jungle", "replace": "yes"},
         "replace must be true or false"),
        ({"uid": 4, "kind": "invader", "card": "I-jungle"}, "uid must be text"),
        ({"kind": "invader", "card": "I-jungle"}, "needs the field 'uid'"),
    ],
)
def test_a_tag_is_not_enrolled_to_something_that_is_not_a_card(
    driver: ScriptDriver, fields: dict[str, Any], reason: str,
) -> None:
    answer = ask(driver, "tag_enrol", **fields)
    assert not answer["ok"] and reason in answer["error"]
    assert registry(driver) == []


def test_spare_tags_may_share_a_card_which_progress_counts_once(driver: ScriptDriver) -> None:
    for uid in ("04A22B1C", "0A0B0C0D"):
        ok(driver, "tag_enrol", uid=uid, kind="invader", card="I-jungle")
    ok(driver, "tag_enrol", uid="11223344", kind="invader", card="II-coastal")
    ok(driver, "tag_enrol", uid="55667788", kind="command", card="done")
    answer = ok(driver, "tags")
    assert [t["uid"] for t in answer["tags"]] == ["04A22B1C", "0A0B0C0D", "11223344",
                                                  "55667788"]
    assert answer["progress"]["invader"] == [2, 17]
    assert answer["progress"]["fear"][0] == 0 and answer["progress"]["blight"][0] == 0


def test_tags_work_with_no_game_and_never_enter_a_games_log(driver: ScriptDriver) -> None:
    assert ok(driver, "tag_enrol", uid="04A22B1C", kind="command", card="undo")["state"] is None
    ok(driver, "new_game", players=2, seed=3)
    ok(driver, "fear", amount=2)
    before = ok(driver, "state")["state"]
    ok(driver, "tag_enrol", uid="11223344", kind="command", card="redo")
    ok(driver, "tag_forget", uid="04A22B1C")
    answer = ok(driver, "tags")
    assert answer["events"] == [] and answer["state"] == before
    assert [c["cmd"] for c in driver.service.store.full_log(1)] == ["new_game", "fear"]


def test_tags_are_on_disk_once_acknowledged_and_survive_a_reopen(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    driver = driver_on(db)
    ok(driver, "tag_enrol", uid="04A22B1C", kind="invader", card="I-jungle")
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT uid, kind, card FROM tags").fetchall() == [
            ("04A22B1C", "invader", "I-jungle")]
    driver.service.store.close()
    assert registry(driver_on(db)) == [JUNGLE]


def test_a_read_only_database_refuses_to_enrol_and_says_why(driver: ScriptDriver) -> None:
    driver.service.store.db.execute("PRAGMA query_only = 1")
    answer = ask(driver, "tag_enrol", uid="04A22B1C", kind="invader", card="I-jungle")
    assert not answer["ok"] and "could not save the tag" in answer["error"]
    assert "read-only" in answer["error"]


# --- export and import ------------------------------------------------------------------------


def enrol_some(driver: ScriptDriver) -> None:
    ok(driver, "tag_enrol", uid="04A22B1C", kind="invader", card="I-jungle")
    ok(driver, "tag_enrol", uid="0A0B0C0D", kind="invader", card="I-jungle")
    ok(driver, "tag_enrol", uid="04112233445566", kind="fear", card="avoid-the-dahan")
    ok(driver, "tag_enrol", uid="11223344", kind="blight", card="downward-spiral")
    ok(driver, "tag_enrol", uid="55667788", kind="command", card="done")


def test_an_exported_registry_imports_into_a_fresh_database_unchanged(tmp_path: Path) -> None:
    here = driver_on(tmp_path / "here.sqlite3")
    enrol_some(here)
    path = tmp_path / "tags.csv"
    assert ok(here, "tag_export", path=str(path))["exported"] == {"path": str(path),
                                                                   "count": 5}
    there = driver_on(tmp_path / "there.sqlite3")
    imported = ok(there, "tag_import", path=str(path))["imported"]
    assert imported == {"path": str(path), "count": 5, "replaced": 0}
    assert ok(there, "tags") == ok(here, "tags")


def test_an_import_with_a_bad_last_row_leaves_the_registry_as_it_was(tmp_path: Path,
                                                                      driver: ScriptDriver) -> None:
    ok(driver, "tag_enrol", uid="04A22B1C", kind="invader", card="I-jungle")
    before = driver.service.store.tags()
    path = tmp_path / "tags.csv"
    path.write_text("uid,kind,card\n11223344,invader,I-sands\n55667788,fear,avoid-the-dahan\n"
                    "99AABBCC,fear,no-such-card\n")
    answer = ask(driver, "tag_import", path=str(path))
    assert not answer["ok"]
    assert f"{path}, line 4: 'no-such-card' is not a fear card id" in answer["error"]
    assert "Nothing was imported" in answer["error"]
    assert driver.service.store.tags() == before


def test_an_import_that_remaps_tags_names_a_few_and_needs_replace(tmp_path: Path,
                                                                  driver: ScriptDriver) -> None:
    uids = ["0000000" + str(n) for n in range(5)]
    for uid in uids:
        ok(driver, "tag_enrol", uid=uid, kind="invader", card="I-jungle")
    before = driver.service.store.tags()
    path = tmp_path / "tags.csv"
    path.write_text("uid,kind,card\n99AABBCC,command,undo\n"
                    + "".join(f"{uid},invader,I-sands\n" for uid in uids))
    answer = ask(driver, "tag_import", path=str(path))
    assert not answer["ok"]
    assert ("already enrolled: 00000000 (now the invader card Jungle (stage I)), 00000001 "
            "(now the invader card Jungle (stage I)), 00000002 (now the invader card Jungle "
            "(stage I)) and 2 more. Nothing was imported") in answer["error"]
    assert driver.service.store.tags() == before
    imported = ok(driver, "tag_import", path=str(path), replace=True)["imported"]
    assert (imported["count"], imported["replaced"]) == (6, 5)
    assert {t["card"] for t in registry(driver)} == {"I-sands", "undo"}


def test_an_import_the_disk_cannot_hold_lands_not_even_in_part(tmp_path: Path,
                                                              driver: ScriptDriver) -> None:
    enrol_some(driver)
    before = driver.service.store.tags()
    path = tmp_path / "tags.csv"
    path.write_text("uid,kind,card\n" + "".join(f"{n:08X},invader,I-sands\n"
                                                 for n in range(3000)))
    db = driver.service.store.db
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages + 2}")  # room for the first few rows only
    answer = ask(driver, "tag_import", path=str(path))
    assert not answer["ok"] and "the disk is full" in answer["error"]
    assert driver.service.store.tags() == before


def test_an_import_may_list_tags_already_enrolled_to_the_same_card(tmp_path: Path,
                                                                   driver: ScriptDriver) -> None:
    enrol_some(driver)
    before = driver.service.store.tags()
    path = tmp_path / "tags.csv"
    ok(driver, "tag_export", path=str(path))
    assert ok(driver, "tag_import", path=str(path))["imported"]["replaced"] == 0
    assert driver.service.store.tags() == before


def test_the_store_writes_none_of_an_import_that_conflicts(tmp_path: Path) -> None:
    store, _ = GameStore.open(tmp_path / "games.sqlite3")
    store.enrol_tag("04A22B1C", "invader", "I-jungle")
    before = store.tags()
    with pytest.raises(TagsInUse) as raised:
        store.replace_tags({"11223344": {"kind": "command", "card": "done"},
                            "04A22B1C": {"kind": "invader", "card": "I-sands"}},
                           replace_existing=False)
    assert raised.value.uids == ["04A22B1C"]
    assert store.tags() == before


@pytest.mark.parametrize(
    ("content", "reason"),
    [(None, "could not read"), (b"uid,kind,card\n\xff\xfe\n", "is not a UTF-8 text file"),
     (b"", "line 1: the header lacks uid, kind, card")],
    ids=["missing", "not-utf8", "empty"],
)
def test_a_tag_file_that_cannot_be_read_is_refused_by_name(
    tmp_path: Path, driver: ScriptDriver, content: bytes | None, reason: str,
) -> None:
    path = tmp_path / "tags.csv"
    if content is not None:
        path.write_bytes(content)
    answer = ask(driver, "tag_import", path=str(path))
    assert not answer["ok"] and str(path) in answer["error"] and reason in answer["error"]


def test_a_spreadsheets_byte_order_mark_does_not_hide_the_header(tmp_path: Path,
                                                                  driver: ScriptDriver) -> None:
    path = tmp_path / "tags.csv"
    path.write_bytes("uid,kind,card\r\n04A22B1C,invader,I-jungle\r\n".encode("utf-8-sig"))
    assert ok(driver, "tag_import", path=str(path))["imported"]["count"] == 1


def test_an_export_to_a_missing_folder_is_refused_by_name(tmp_path: Path,
                                                          driver: ScriptDriver) -> None:
    path = tmp_path / "nowhere" / "tags.csv"
    answer = ask(driver, "tag_export", path=str(path))
    assert not answer["ok"] and f"could not write {path}" in answer["error"]


# --- Leviathan Wilds' cards -------------------------------------------------------------------

STORM_TWO = {"uid": "04C1C2C3C4C5C6", "kind": "threat", "card": "LW-threat-3-2",
             "name": "3 Storm · threat 2"}
WEAKNESS_SEVEN = {"uid": "9A8B7C6D", "kind": "weakness", "card": "LW-weakness-7",
                  "name": "Weakness 7"}


def test_leviathan_threat_and_weakness_cards_are_enrolled_looked_up_and_counted(
    driver: ScriptDriver,
) -> None:
    assert ok(driver, "tag_enrol", uid="04:c1:c2:c3:c4:c5:c6", kind="threat",
              card="LW-threat-3-2")["tag"] == STORM_TWO
    ok(driver, "tag_enrol", uid="9a8b7c6d", kind="weakness", card="LW-weakness-7")
    ok(driver, "tag_enrol", uid="04A22B1C", kind="invader", card="I-jungle")
    assert ok(driver, "tag_lookup", uid="9A8B7C6D")["tag"] == WEAKNESS_SEVEN
    answer = ok(driver, "tags")
    assert answer["tags"] == [JUNGLE, STORM_TWO, WEAKNESS_SEVEN]  # by kind: the games' order
    assert answer["progress"]["threat"] == [1, 85]
    assert answer["progress"]["weakness"] == [1, 12]
    assert answer["progress"]["invader"] == [1, 17]


@pytest.mark.parametrize(
    ("fields", "reason"),
    [({"kind": "threat", "card": "LW-threat-18-1"}, "not a threat card id"),
     ({"kind": "threat", "card": "LW-threat-3-6"}, "did you mean"),
     ({"kind": "weakness", "card": "LW-weakness-13"}, "not a weakness card id"),
     ({"kind": "weakness", "card": "LW-threat-3-2"}, "not a weakness card id")],
)
def test_a_leviathan_tag_is_not_enrolled_to_a_card_its_kind_does_not_have(
    driver: ScriptDriver, fields: dict[str, str], reason: str,
) -> None:
    answer = ask(driver, "tag_enrol", uid="04A22B1C", **fields)
    assert not answer["ok"] and reason in answer["error"]
    assert registry(driver) == []


def test_a_threat_tag_moved_to_a_weakness_names_both_cards(driver: ScriptDriver) -> None:
    ok(driver, "tag_enrol", uid=STORM_TWO["uid"], kind="threat", card="LW-threat-3-2")
    refused = ask(driver, "tag_enrol", uid=STORM_TWO["uid"], kind="weakness",
                  card="LW-weakness-7")
    assert not refused["ok"]
    assert "already means the threat card 3 Storm · threat 2" in refused["error"]
    assert "the weakness card Weakness 7 instead" in refused["error"]


def test_leviathan_tags_export_and_import_beside_spirit_islands(tmp_path: Path) -> None:
    here = driver_on(tmp_path / "here.sqlite3")
    enrol_some(here)
    ok(here, "tag_enrol", uid=STORM_TWO["uid"], kind="threat", card="LW-threat-3-2")
    ok(here, "tag_enrol", uid=WEAKNESS_SEVEN["uid"], kind="weakness", card="LW-weakness-7")
    path = tmp_path / "tags.csv"
    ok(here, "tag_export", path=str(path))
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[-3:] == ["04C1C2C3C4C5C6,threat,LW-threat-3-2,3 Storm · threat 2",
                          "9A8B7C6D,weakness,LW-weakness-7,Weakness 7",
                          "55667788,command,done,Finish the step"]
    there = driver_on(tmp_path / "there.sqlite3")
    assert ok(there, "tag_import", path=str(path))["imported"]["count"] == 7
    assert ok(there, "tags") == ok(here, "tags")


def test_a_hand_written_file_of_leviathan_tags_imports(tmp_path: Path,
                                                       driver: ScriptDriver) -> None:
    path = tmp_path / "tags.csv"
    path.write_text("uid,kind,card\n"
                    + "".join(f"04{lev:06X}{n:06X},threat,LW-threat-{lev}-{n}\n"
                              for lev in range(1, 18) for n in range(1, 6))
                    + "".join(f"9900{n:04X},Weakness,LW-weakness-{n}\n" for n in range(1, 13)))
    assert ok(driver, "tag_import", path=str(path))["imported"]["count"] == 85 + 12
    progress = ok(driver, "tags")["progress"]
    assert (progress["threat"], progress["weakness"]) == ([85, 85], [12, 12])
    path.write_text("uid,kind,card\n04A22B1C,weakness,LW-weakness-1\n11223344,threat,"
                    "LW-threat-0-1\n")
    answer = ask(driver, "tag_import", path=str(path))
    assert not answer["ok"] and "line 3: 'LW-threat-0-1' is not a threat card id" in \
        answer["error"]


# --- a database from before the registry ------------------------------------------------------


def a_database_before_tags(path: Path) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """A file as the previous version left it: migrations 0001 and 0002, one game played.

    Returns the game's state and the games list, to compare with after the upgrade.
    """
    played = wired_service(GameStore.in_memory(), seed_source=lambda: 5)
    old = ScriptDriver(played)
    for line in ({"cmd": "new_game", "players": 2, "seed": 8}, {"cmd": "next"},
                 {"cmd": "fear", "amount": 3}):
        assert old.handle(line)["ok"]
    db = Database(path)
    migrations.apply(db, stop_before="0003_tags")
    with db.ensure_autocommit_on():
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        db.execute("PRAGMA user_version=2")
    for table in ("games", "commands", "meta"):  # details and uids came later (0004, 0005)
        db.table(table).insert_all({key: value for key, value in row.items()
                                    if key not in ("details", "uid")}
                                   for row in played.store.db.table(table).rows)
    db.close()
    return old.state(), played.store.games()


def test_a_database_from_before_tags_gains_the_registry_and_keeps_its_games(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.sqlite3"
    state, games = a_database_before_tags(db)
    with sqlite3.connect(db) as raw:
        tables = {name for (name,) in raw.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "tags" not in tables and "games" in tables
    driver = driver_on(db)
    assert driver.service.store.games() == games
    assert driver.state() == state
    ok(driver, "tag_enrol", uid="04A22B1C", kind="invader", card="I-jungle")
    ok(driver, "fear")
    driver.service.store.close()
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
        assert raw.execute("SELECT name FROM _sqlite_migrations ORDER BY rowid").fetchall() == [
            ("0001_games_commands_snapshots",), ("0002_current_game",), ("0003_tags",),
            ("0004_game_details",), ("0005_game_uid",)]
    reopened = driver_on(db)
    assert registry(reopened) == [JUNGLE]
    assert [c["cmd"] for c in reopened.service.store.full_log(1)] == ["new_game", "next",
                                                                      "fear", "fear"]


# --- the real driver process ------------------------------------------------------------------


def test_the_script_driver_answers_tag_commands_with_a_line_each(tmp_path: Path) -> None:
    lines = [{"cmd": "tag_enrol", "uid": "04A22B1C", "kind": "invader", "card": "I-jungle"},
             {"cmd": "tag_lookup", "uid": "04:a2:2b:1c"}, {"cmd": "tags"}]
    done = subprocess.run(
        [sys.executable, "-m", "companion", "script", "--db", str(tmp_path / "g.sqlite3")],
        input="".join(json.dumps(line) + "\n" for line in lines).encode(),
        capture_output=True, cwd=ROOT, timeout=60)
    answers = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert done.returncode == 0 and done.stderr == b""
    assert [a["ok"] for a in answers] == [True, True, True]
    assert answers[1] == {"ok": True, "events": [], "tag": JUNGLE, "state": None}
    assert answers[2]["tags"] == [JUNGLE] and answers[2]["progress"]["invader"] == [1, 17]


def test_the_kinds_command_lists_every_kind_with_its_cards_named_in_the_language_asked(
    tmp_path: Path,
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion", "reader", "tags", "kinds", "--language", "de"],
        capture_output=True, cwd=ROOT, timeout=60,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")})
    assert done.returncode == 0 and done.stderr == b""
    kinds = json.loads(done.stdout)["kinds"]
    assert [(k["kind"], k["name"], len(k["cards"])) for k in kinds] == [
        ("invader", "Invasoren-Karten", 17), ("fear", "Furcht-Karten", 50),
        ("blight", "Ödnis-Karten", 23), ("threat", "Bedrohungskarten", 85),
        ("weakness", "Schwächekarten", 12), ("companion", "Gefährtenkarten", 46),
        ("command", "Befehls-Tags", 3)]
    threats = kinds[3]["cards"]
    assert threats[11] == {"id": "LW-threat-3-2", "name": "3 Storm · Bedrohung 2"}
    assert kinds[4]["cards"][0] == {"id": "LW-weakness-1", "name": "Schwäche 1"}
    assert {"id": "glow-A11", "name": "Briki"} in kinds[5]["cards"]
    assert not (tmp_path / "data").exists()  # no games database was opened for it
