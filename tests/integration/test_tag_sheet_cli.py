"""`companion tags sheet`: the tag registry of a real database printed to a PDF, and the paths
and games it refuses."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from companion.cli import main

TAGS_CSV = ("uid,kind,card\n"
            "04A22B1C,invader,I-jungle\n"
            "04:A2:2B:1D,blight,erosion-of-will\n"
            "E63AE5D5,threat,LW-threat-3-2\n"
            "AABBCCDD,command,done\n")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A games database with four tags, one of them another game's."""
    path = tmp_path / "games.db"
    tags = tmp_path / "tags.csv"
    tags.write_text(TAGS_CSV)
    assert main(["--db", str(path), "reader", "tags", "import", str(tags)]) == 0
    return path


def pdf_text(path: Path) -> str:
    reader = PdfReader(io.BytesIO(path.read_bytes()))
    return "\n".join(page.extract_text() for page in reader.pages)


def test_the_sheet_of_a_game_lists_its_tags_in_the_language_asked(
        db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    out = tmp_path / "sheet.pdf"
    assert main(["--db", str(db), "tags", "sheet", "--game", "spirit-island",
                 "--language", "de", str(out)]) == 0
    assert capsys.readouterr().out == f"{out}: 2 of 90 cards have a tag\n"
    text = pdf_text(out)
    for line in ("Karten-Tags: Spirit Island", "Invasoren-Karten", "1 von 17 registriert",
                 "Ödnis-Karten", "1 von 23 registriert", "Erosion des Willens", "04A22B1C",
                 "04A22B1D", "Befehls-Tags", "AABBCCDD", "Schritt beenden"):
        assert line in text, line
    assert "E63AE5D5" not in text  # Leviathan Wilds' card is on that game's sheet
    leviathan = tmp_path / "leviathan.pdf"
    assert main(["--db", str(db), "tags", "sheet", "--game", "leviathan-wilds",
                 str(leviathan)]) == 0
    text = pdf_text(leviathan)
    assert "E63AE5D5" in text and "3 Storm · threat 2" in text and "1 of 85 enrolled" in text
    # The registry's machine-readable commands are as they were.
    assert main(["--db", str(db), "reader", "tags", "list"]) == 0
    assert '"uid": "04A22B1C"' in capsys.readouterr().out


def test_an_unknown_game_is_refused_with_the_known_ones_and_nothing_is_written(
        db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sheet.pdf"
    assert main(["--db", str(db), "tags", "sheet", "--game", "chess", str(out)]) == 2
    error = capsys.readouterr().err
    assert "unknown game 'chess'; known games: spirit-island, leviathan-wilds, glow" in error
    assert not out.exists()


def test_a_path_it_cannot_write_is_refused_clearly_and_the_games_database_is_never_written(
        db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    missing = tmp_path / "no-such-folder" / "sheet.pdf"
    assert main(["--db", str(db), "tags", "sheet", "--game", "glow", str(missing)]) == 1
    assert f"could not write {missing}: No such file or directory" in capsys.readouterr().err
    assert main(["--db", str(db), "tags", "sheet", "--game", "glow", str(tmp_path)]) == 1
    assert f"{tmp_path} is a folder" in capsys.readouterr().err
    before = db.read_bytes()
    assert main(["--db", str(db), "tags", "sheet", "--game", "glow", str(db)]) == 1
    assert "is the games database" in capsys.readouterr().err
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")) == []
