"""The SQLite store: durable commands, resume, several games, history, export and import."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from companion.bootstrap import wired_service
from companion.core.errors import Refused
from companion.games.spirit_island.view import state_view
from companion.i18n import translations
from companion.service import GameService
from companion.store import SNAPSHOT_EVERY, GameStore, default_database_path
from companion.store_errors import StoreError


class Clock:
    """A clock the test moves by hand, so played time is exact."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 19, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def wait(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def service_on(path: Path, clock: Clock | None = None) -> GameService:
    store, _ = GameStore.open(path, clock or Clock())
    service = wired_service(store, seed_source=lambda: 77)
    service.resume_latest()
    return service


def play(service: GameService, cmd: str, **fields: Any) -> Any:
    return service.handle(service.parse({"cmd": cmd, **fields}))


def view(service: GameService) -> dict[str, Any]:
    assert service.state is not None
    return state_view(service.state)


def test_every_acknowledged_command_is_in_the_log_on_disk(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    service = service_on(db)
    play(service, "new_game", players=2, seed=3)
    play(service, "next")
    play(service, "fear", amount=5)
    play(service, "undo")
    play(service, "state")
    with sqlite3.connect(db) as raw:
        rows = raw.execute("SELECT seq, command FROM commands ORDER BY seq").fetchall()
    assert [(seq, json.loads(text)["cmd"]) for seq, text in rows] == [
        (1, "new_game"), (2, "next"), (3, "fear"), (4, "undo")]


def test_a_restarted_store_resumes_the_unfinished_game_exactly(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    service = service_on(db)
    play(service, "new_game", players=3, seed=9, deck="physical")
    play(service, "reveal", card="I-sands")
    for _ in range(4):
        play(service, "next")
    play(service, "blight", amount=2)
    play(service, "undo")
    before = view(service)
    service.store.close()
    resumed = service_on(db)
    assert view(resumed) == before
    assert resumed.session.can_redo
    play(resumed, "redo")
    assert resumed.state is not None and resumed.state.blight.on_island == 5


def test_the_database_is_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    service = service_on(tmp_path / "g.sqlite3")
    db = service.store.db
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_long_games_are_snapshotted_so_resume_replays_only_the_tail(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    service = service_on(db)
    play(service, "new_game", players=2, seed=5)
    cycle = ["fear", "blight", "heal", "undo", "redo"]
    for i in range(2 * SNAPSHOT_EVERY + 30):
        play(service, cycle[i % len(cycle)])
    logged = service.store.load(1)
    assert logged.snapshot is not None
    assert len(logged.commands) < SNAPSHOT_EVERY
    before = view(service)
    service.store.close()
    assert view(service_on(db)) == before


def test_a_snapshot_still_lets_undo_reach_the_start_of_the_game(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    service = service_on(db)
    play(service, "new_game", players=2, seed=5)
    start = view(service)
    for i in range(SNAPSHOT_EVERY + 5):
        play(service, "heal" if i % 2 else "blight")
    service.store.close()
    resumed = service_on(db)
    while resumed.session.can_undo:
        play(resumed, "undo")
    assert view(resumed) == {**start, "seed": start["seed"]}


def test_several_games_are_listed_and_the_one_last_played_resumes(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    clock = Clock()
    service = service_on(db, clock)
    play(service, "new_game", players=1, seed=1)
    clock.wait(minutes=1)
    play(service, "new_game", players=4, seed=2)
    clock.wait(minutes=1)
    listed = play(service, "games").extra["games"]
    assert [(g["id"], g["players"], g["status"]) for g in listed] == [(1, 1, "active"),
                                                                      (2, 4, "active")]
    assert service_on(db, clock).game_id == 2
    play(service, "resume", game=1)
    play(service, "next")
    assert service_on(db, clock).game_id == 1


def test_a_restart_after_the_game_ended_shows_the_ended_game(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    service = service_on(db)
    play(service, "new_game", players=1, seed=1)
    play(service, "declare", result="defeat")
    assert view(service_on(db)) == view(service)


def test_an_abandoned_game_is_not_resumed_on_start(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    service = service_on(db)
    play(service, "new_game", players=1, seed=1)
    play(service, "abandon")
    assert service.state is None
    assert service_on(db).state is None
    assert service.store.game(1)["status"] == "abandoned"


def test_deleting_a_game_needs_confirmation(tmp_path: Path) -> None:
    service = service_on(tmp_path / "g.sqlite3")
    play(service, "new_game", players=1, seed=1)
    with pytest.raises(Refused, match="confirm"):
        play(service, "delete", game=1)
    assert service.store.games()
    play(service, "delete", game=1, confirm=True)
    assert service.store.games() == [] and service.state is None
    with pytest.raises(Refused, match="no game 1"):
        play(service, "delete", game=1, confirm=True)


def test_a_finished_game_keeps_its_outcome_rounds_duration_and_score(tmp_path: Path) -> None:
    clock = Clock()
    service = service_on(tmp_path / "g.sqlite3", clock)
    play(service, "new_game", players=2, seed=4, mode="beginner")
    for _ in range(12):
        clock.wait(minutes=2)
        play(service, "next")
    clock.wait(hours=10)  # left on the table overnight: counts as a capped pause
    play(service, "declare", result="victory")
    play(service, "score", dahan=10, blight_on_island=3)
    game = service.store.game(1)
    assert game["status"] == "finished" and game["result"] == "victory"
    assert (game["players"], game["difficulty"], game["rounds"]) == (2, 0, 2)
    assert game["duration_minutes"] == 24 + 30
    assert game["score"] == 10 + 2 * view(service)["invader"]["deck_count"] + 5 - 1
    assert game["finished_at"] is not None


def test_history_and_statistics_count_finished_games(tmp_path: Path) -> None:
    service = service_on(tmp_path / "g.sqlite3")
    for seed, result, dahan in [(1, "victory", 4), (2, "defeat", 0), (3, "victory", 8)]:
        play(service, "new_game", players=1, seed=seed)
        play(service, "declare", result=result)
        play(service, "score", dahan=dahan, blight_on_island=0)
    play(service, "new_game", players=1, seed=4)  # unfinished: not in the history
    history = play(service, "history").extra["history"]
    assert [g["id"] for g in history] == [3, 2, 1]
    stats = play(service, "stats").extra["stats"]
    assert (stats["games_played"], stats["wins"], stats["win_rate"]) == (3, 2, 0.667)
    assert stats["average_score"] == round(((10 + 22 + 4) + (1 + 0) + (10 + 22 + 8)) / 3, 1)
    assert stats["by_adversary"] == [{"adversary": None, "level": None, "games_played": 3,
                                      "wins": 2, "win_rate": 0.667,
                                      "average_score": stats["average_score"]}]


def test_undoing_the_end_of_a_game_makes_it_unfinished_again(tmp_path: Path) -> None:
    service = service_on(tmp_path / "g.sqlite3")
    play(service, "new_game", players=1, seed=1)
    play(service, "declare", result="defeat")
    play(service, "undo")
    game = service.store.game(1)
    assert (game["status"], game["result"], game["finished_at"]) == ("active", None, None)


# --- export and import ------------------------------------------------------------------------


def test_an_exported_game_imports_elsewhere_to_the_same_state(tmp_path: Path) -> None:
    here = service_on(tmp_path / "here.sqlite3")
    play(here, "new_game", players=2, seed=12, deck="physical")
    for _ in range(12):
        state = view(here)
        if state["invader"]["awaiting_reveal"]:
            play(here, "reveal", card=state["invader"]["candidates"][0])
        else:
            play(here, "next")
    play(here, "fear", amount=11)
    exported = play(here, "export", path=str(tmp_path / "game.json")).extra["exported"]
    assert exported["commands"] == 14
    there = service_on(tmp_path / "there.sqlite3")
    imported = play(there, "import", path=str(tmp_path / "game.json")).extra["imported"]
    play(there, "resume", game=imported["game"])
    assert view(there) == view(here)


def test_an_imported_game_keeps_its_dates_and_resumes_from_a_snapshot_as_if_played_here(
        tmp_path: Path) -> None:
    clock = Clock()
    here = service_on(tmp_path / "here.sqlite3", clock)
    play(here, "new_game", players=2, seed=5)
    cycle = ["fear", "blight", "heal", "undo", "redo"]
    for i in range(2 * SNAPSHOT_EVERY + 30):
        clock.wait(seconds=20)
        play(here, cycle[i % len(cycle)])
    clock.wait(minutes=3)
    play(here, "declare", result="victory", reason="fear")
    played = here.store.game(1)
    play(here, "export", path=str(tmp_path / "game.json"))
    clock.wait(days=30)  # imported a month later, elsewhere
    there = service_on(tmp_path / "there.sqlite3", clock)
    imported = play(there, "import", path=str(tmp_path / "game.json")).extra["imported"]
    game = there.store.game(imported["game"])
    for key in ("started_at", "updated_at", "finished_at", "duration_minutes", "status",
                "result", "log_length"):
        assert game[key] == played[key], key
    assert game["finished_at"] == (clock.now - timedelta(days=30)).isoformat()

    def snapshots(service: GameService, game_id: int) -> list[tuple[int, str]]:
        return service.store.db.execute(
            "SELECT seq, session FROM snapshots WHERE game_id = ? ORDER BY seq",
            [game_id]).fetchall()

    assert snapshots(there, imported["game"]) == snapshots(here, 1)[-1:]  # the one resumed from
    assert [seq for seq, _ in snapshots(here, 1)] == [100, 200]
    assert len(there.store.load(imported["game"]).commands) == 32 == 232 - 200
    there.store.close()
    again = service_on(tmp_path / "there.sqlite3", clock)
    play(again, "resume", game=imported["game"])
    assert view(again) == view(here)


@pytest.mark.parametrize(("field", "value", "words"), [
    ("started_at", "last tuesday", "started_at is not a date and time"),
    ("finished_at", "2026-11-21T19:00:00", "finished_at is not a date and time with its time"),
    ("duration_minutes", "long", "duration_minutes is not a number of minutes"),
])
def test_an_import_with_a_date_that_is_not_one_is_refused_in_words(
        tmp_path: Path, field: str, value: str, words: str) -> None:
    here = service_on(tmp_path / "here.sqlite3")
    play(here, "new_game", players=2, seed=12)
    play(here, "export", path=str(tmp_path / "game.json"))
    document = json.loads((tmp_path / "game.json").read_text())
    document["game"][field] = value
    (tmp_path / "game.json").write_text(json.dumps(document))
    there = service_on(tmp_path / "there.sqlite3")
    with pytest.raises(Refused, match=words):
        play(there, "import", path=str(tmp_path / "game.json"))
    assert there.store.games() == []


def test_an_import_that_does_not_replay_to_its_recorded_result_is_refused(
    tmp_path: Path,
) -> None:
    here = service_on(tmp_path / "here.sqlite3")
    play(here, "new_game", players=2, seed=12)
    play(here, "fear", amount=3)
    play(here, "export", path=str(tmp_path / "game.json"))
    document = json.loads((tmp_path / "game.json").read_text())
    document["log"][1]["amount"] = 4
    (tmp_path / "game.json").write_text(json.dumps(document))
    there = service_on(tmp_path / "there.sqlite3")
    with pytest.raises(Refused, match="does not replay to the result"):
        play(there, "import", path=str(tmp_path / "game.json"))
    assert there.store.games() == []


@pytest.mark.parametrize(
    ("content", "reason"),
    [("not json", "not a JSON file"), ('{"format": "other"}', "not an exported companion game"),
     ('{"format": "spirit-island-companion/game", "version": 1, "log": [{"cmd": "next"}], '
      '"final_state": {}}', "does not replay")],
)
def test_a_file_that_is_not_an_export_is_refused(tmp_path: Path, content: str,
                                                 reason: str) -> None:
    (tmp_path / "x.json").write_text(content)
    service = service_on(tmp_path / "g.sqlite3")
    with pytest.raises(Refused, match=reason):
        play(service, "import", path=str(tmp_path / "x.json"))


# --- databases that cannot be used ------------------------------------------------------------


def a_good_database(path: Path) -> None:
    service = service_on(path)
    play(service, "new_game", players=2, seed=3)
    for _ in range(30):
        play(service, "fear")
    service.store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    service.store.close()


def corrupt_middle(path: Path) -> None:
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    for offset in range(page, len(data), page):  # scribble over every page but the first
        data[offset:offset + 200] = b"\x5a" * 200
    path.write_bytes(bytes(data))


def foreign(path: Path) -> None:
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")


@pytest.mark.parametrize(
    ("spoil", "reason"),
    [
        (lambda p: p.write_text("shopping list: milk, eggs\n" * 20), "is not a SQLite database"),
        (foreign, "is not a companion database"),
        (lambda p: (a_good_database(p), corrupt_middle(p)), "is damaged"),
        (lambda p: (a_good_database(p), p.write_bytes(p.read_bytes()[:5000])), "is truncated"),
    ],
    ids=["not-sqlite", "foreign", "damaged", "truncated"],
)
def test_an_unusable_database_is_moved_aside_and_a_fresh_one_started(
    tmp_path: Path, spoil: Any, reason: str,
) -> None:
    db = tmp_path / "games.sqlite3"
    spoil(db)
    original = db.read_bytes()
    store, notices = GameStore.open(db)
    assert len(notices) == 1 and str(db) in notices[0] and reason in notices[0]
    aside = [p for p in tmp_path.iterdir() if ".unreadable-" in p.name and
             not p.name.endswith(("-wal", "-shm"))]
    assert len(aside) == 1 and aside[0].read_bytes() == original
    assert str(aside[0]) in notices[0]
    service = wired_service(store, seed_source=lambda: 1)
    play(service, "new_game", players=1, seed=1)
    assert store.integrity() == "ok"


def test_a_database_the_app_cannot_read_is_reported_by_name(tmp_path: Path) -> None:
    folder = tmp_path / "afile"
    folder.write_text("x")
    with pytest.raises(StoreError, match="afile"):
        GameStore.open(folder / "games.sqlite3")


def test_a_full_disk_refuses_the_action_and_keeps_the_state(tmp_path: Path) -> None:
    service = service_on(tmp_path / "g.sqlite3")
    play(service, "new_game", players=2, seed=3)
    db = service.store.db
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")  # SQLite now answers SQLITE_FULL
    refused = None
    for i in range(5000):
        before = view(service)
        try:
            play(service, "fear" if i % 2 == 0 else "undo")
        except Refused as error:
            refused = error
            break
    assert refused is not None and "the disk is full" in str(refused)
    assert str(refused).startswith("could not save this action to ")
    assert view(service) == before
    # told in the players' language too, the file's name as it is
    german = refused.in_language(translations("de").gettext)
    assert german.startswith("diese Aktion ließ sich nicht in ")
    assert "der Speicher ist voll" in german
    french = refused.in_language(translations("fr").gettext)
    assert french.startswith("impossible d’enregistrer cette action dans ")
    assert "le disque est plein" in french and service.store.location in french
    db.execute("PRAGMA max_page_count = 1073741823")
    play(service, "fear", amount=1)


def test_a_read_only_database_refuses_the_action_and_keeps_the_state(tmp_path: Path) -> None:
    service = service_on(tmp_path / "g.sqlite3")
    play(service, "new_game", players=2, seed=3)
    before = view(service)
    service.store.db.execute("PRAGMA query_only = 1")
    with pytest.raises(Refused, match="read-only") as refused:
        play(service, "blight", amount=2)
    assert view(service) == before and service.session.can_undo is False
    german = refused.value.in_language(translations("de").gettext)
    assert "die Datei mit den Partien ist schreibgeschützt" in german, german
    assert "Es wurde nichts geändert" in german


def test_the_app_keeps_its_games_in_the_user_data_folder(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_database_path() == tmp_path / ".local/share/spirit-island-companion" \
        / "games.sqlite3"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_database_path().parent == tmp_path / "data/spirit-island-companion"
