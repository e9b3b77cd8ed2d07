"""companion.ini (and Kivy's own settings file) is written beside itself and renamed over it: a
write cut short by a full disk or a pulled plug leaves the old file whole, never a cut one."""

from __future__ import annotations

from configparser import RawConfigParser
from pathlib import Path
from typing import Any

import pytest
from kivy.config import ConfigParser

from companion.ui import kivy_fixes

pytestmark = pytest.mark.ui


def settings(path: Path) -> ConfigParser:
    kivy_fixes._a_settings_file_is_written_whole_or_not_at_all()
    config = ConfigParser(name="")
    config.read(str(path))
    for section in ("mirror", "look"):
        if not config.has_section(section):
            config.add_section(section)
    return config


def test_a_setting_is_written_whole_and_nothing_is_left_beside_it(tmp_path: Path) -> None:
    path = tmp_path / "companion.ini"
    config = settings(path)
    config.set("mirror", "token", "JCq8wdb-VeX8")
    config.set("mirror", "seats", '{"game": "g1", "secrets": {"0": "a"}}')
    assert config.write()
    again = settings(path)
    assert again.get("mirror", "seats") == '{"game": "g1", "secrets": {"0": "a"}}'
    assert [p.name for p in tmp_path.iterdir()] == ["companion.ini"]


def test_a_write_cut_short_leaves_the_old_file_whole(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "companion.ini"
    config = settings(path)
    config.set("mirror", "token", "JCq8wdb-VeX8")
    config.set("look", "theme", "night")
    assert config.write()
    before = path.read_bytes()

    def cut_short(self: Any, out: Any, *args: Any) -> None:
        out.write("[mirror]\non = 1\n")  # the disk fills up part way
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(RawConfigParser, "write", cut_short)
    config.set("mirror", "seats", "x" * 4000)
    assert config.write() is False
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["companion.ini"]
