"""The backlight: dimmed to a share of its brightest and put back, on a stand-in sysfs folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.backlight import NIGHT_FRACTION, Backlight


def panel(sysfs: Path, name: str = "10-0045", level: int = 200, brightest: int = 255) -> Path:
    folder = sysfs / name
    folder.mkdir(parents=True)
    (folder / "brightness").write_text(f"{level}\n")
    (folder / "max_brightness").write_text(f"{brightest}\n")
    return folder


def level(folder: Path) -> int:
    return int((folder / "brightness").read_text())


def test_dimming_turns_the_light_down_and_restoring_puts_it_back(tmp_path: Path) -> None:
    folder = panel(tmp_path)
    light = Backlight(folder)
    assert light.dim()
    assert level(folder) == round(255 * NIGHT_FRACTION)
    assert light.dim()  # dimming twice keeps the level from before the first
    assert light.restore() and level(folder) == 200
    assert light.restore() and level(folder) == 200  # nothing to put back


def test_a_tiny_range_never_goes_fully_dark(tmp_path: Path) -> None:
    folder = panel(tmp_path, level=1, brightest=1)
    assert Backlight(folder).dim(0.1) and level(folder) == 1


def test_the_named_panel_or_else_the_first_found(tmp_path: Path) -> None:
    first, second = panel(tmp_path, "a-panel"), panel(tmp_path, "b-panel")
    assert Backlight.find({}, sysfs=tmp_path).folder == first  # type: ignore[union-attr]
    named = Backlight.find({"COMPANION_BACKLIGHT": "b-panel"}, sysfs=tmp_path)
    assert named is not None and named.folder == second
    by_path = Backlight.find({"COMPANION_BACKLIGHT": str(second)}, sysfs=tmp_path)
    assert by_path is not None and by_path.folder == second
    assert Backlight.find({"COMPANION_BACKLIGHT": "missing"}, sysfs=tmp_path) is None
    assert Backlight.find({}, sysfs=tmp_path / "no-such-folder") is None


def test_a_light_that_cannot_be_set_is_told_once_and_nothing_stops(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    folder = panel(tmp_path)
    (folder / "brightness").unlink()
    (folder / "brightness").mkdir()  # reads and writes fail, as a read-only sysfs file would
    light = Backlight(folder)
    assert light.dim() is False
    (folder / "max_brightness").write_text("not a number\n")
    assert light.dim() is False
    assert any("cannot be read" in r.getMessage() for r in caplog.records)


def test_sleep_dims_to_a_share_and_wake_puts_the_level_back(tmp_path: Path) -> None:
    folder = panel(tmp_path)
    light = Backlight(folder)
    assert light.fraction() == pytest.approx(200 / 255)
    assert light.sleep(0.15) and level(folder) == round(255 * 0.15)
    assert light.sleep(0) and level(folder) == 0  # dim, then off: the level from before both
    assert light.wake() and level(folder) == 200
    assert light.wake() and level(folder) == 200  # nothing to put back


def test_sleep_switches_bl_power_off_where_the_panel_has_it(tmp_path: Path) -> None:
    folder = panel(tmp_path)
    (folder / "bl_power").write_text("0\n")
    light = Backlight(folder)
    assert light.sleep(0)
    assert level(folder) == 0 and (folder / "bl_power").read_text().strip() == "4"
    assert light.wake()
    assert level(folder) == 200 and (folder / "bl_power").read_text().strip() == "0"


def test_a_dimmed_sleep_never_brightens_a_panel_turned_down_for_the_night(
        tmp_path: Path) -> None:
    folder = panel(tmp_path, level=10)
    light = Backlight(folder)
    assert light.sleep(0.5) and level(folder) == 10
    assert light.wake() and level(folder) == 10


def test_a_light_that_cannot_be_read_neither_sleeps_nor_fails(tmp_path: Path) -> None:
    folder = tmp_path / "gone"
    light = Backlight(folder)
    assert light.fraction() is None
    assert not light.sleep(0)
    assert light.wake()
