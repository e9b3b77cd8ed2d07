"""Fixtures shared by the unit tests' files."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.backup_table import copy_table, played_games


@pytest.fixture(scope="session")
def played_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The backup tests' table, played once: a finished and an unfinished game of every game
    and a card tag, in a games file nobody has open."""
    return played_games(tmp_path_factory.mktemp("played"))


@pytest.fixture
def table_games(played_table: Path, tmp_path: Path) -> Path:
    """A copy of the played table's games file in a data folder of its own (tmp_path/data),
    with its settings file (companion.ini) beside it."""
    return copy_table(played_table, tmp_path / "data")
