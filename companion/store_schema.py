"""The games database's schema: its named, ordered migrations and what marks a file as ours.

Every table the store writes is created or changed here, by a migration that is never edited once
released; the schema's version is the number of migrations, so a file from a newer companion is
told from ours by the migrations it holds that this version does not know.
"""

from __future__ import annotations

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

APPLICATION_ID = 0x53494331  # "SIC1": marks a file as a companion database

migrations = Migrations("companion")


@migrations(name="0001_games_commands_snapshots")
def _create_tables(db: Database) -> None:
    db.table("games").create(
        {
            "id": int, "status": str, "started_at": str, "updated_at": str,
            "finished_at": str, "played_seconds": float, "players": int, "mode": str,
            "deck_mode": str, "adversary": str, "adversary_level": int, "scenario": str,
            "difficulty": int, "result": str, "reason": str, "score": int, "rounds": int,
            "log_length": int, "setup": str,
        },
        pk="id",
        not_null={"status", "started_at", "updated_at", "log_length", "setup"},
        defaults={"played_seconds": 0.0, "log_length": 0},
    )
    db.table("games").create_index(["status", "updated_at"])
    db.table("commands").create(
        {"game_id": int, "seq": int, "command": str, "at": str},
        pk=("game_id", "seq"),
        foreign_keys=[("game_id", "games", "id")],
        not_null={"command", "at"},
    )
    db.table("snapshots").create(
        {"game_id": int, "seq": int, "session": str},
        pk=("game_id", "seq"),
        foreign_keys=[("game_id", "games", "id")],
        not_null={"session"},
    )


@migrations(name="0002_current_game")
def _remember_current_game(db: Database) -> None:
    # Which game the table was last playing, written with every action, so that a restart
    # comes back to exactly that game (finished or not) rather than guessing from timestamps.
    db.table("meta").create({"key": str, "value": str}, pk="key")


@migrations(name="0003_tags")
def _create_tag_registry(db: Database) -> None:
    # What each RFID tag under a card means. Not part of any game: the registry belongs to the
    # table's cards and outlives every game played with them.
    db.table("tags").create(
        {"uid": str, "kind": str, "card": str, "enrolled_at": str},
        pk="uid",
        not_null={"kind", "card", "enrolled_at"},
    )


@migrations(name="0004_game_details")
def _add_game_details(db: Database) -> None:
    # What a game's summary gives beyond the shared columns (Glow's final scores, Leviathan's
    # guardians), as JSON: a new game needs no new column.
    db.table("games").add_column("details", str)


@migrations(name="0005_game_uid")
def _add_game_uid(db: Database) -> None:
    # SQLite gives a deleted newest game's id to the next game; a uid is never given again, so
    # whoever follows the file (the headless mirror) can tell a new game from the one it knew.
    db.table("games").add_column("uid", str)
    db.execute("UPDATE games SET uid = lower(hex(randomblob(8))) WHERE uid IS NULL")


# Keep this after the last migration: it counts them.
SCHEMA_VERSION = len(migrations._migrations)
OUR_TABLES = {"games", "commands", "snapshots", "meta", "tags", Migrations.migrations_table}


def known_migrations() -> list[str]:
    """The names of the migrations this version knows, in order."""
    return [migration.name for migration in migrations._migrations]


def expected_columns() -> dict[str, set[str]]:
    """Each table's columns as our migrations create them (built in memory, once a call)."""
    scratch = Database(memory=True, execute_plugins=False)
    migrations.apply(scratch)
    return {table.name: set(table.columns_dict) for table in scratch.tables}

